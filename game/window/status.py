"""The status line and the banner: what the window tells the user (pygame-free).

:class:`Status` owns the one-line message (the last thing that happened, a hint) and the
banner (an error shown over the table until Esc dismisses it). Every part of the window
reports through it (``status.say(text)``, ``status.error(what, exc)``) instead of writing to
a shared attribute. :func:`fit_line` builds the status line from ranked parts, dropping the
least important ones until it fits a width.
"""
from __future__ import annotations

import traceback
from pathlib import Path
from typing import Callable, Optional

START = "Drag a unit with the left mouse button; wheel or Q/E turns it; F1 lists every shortcut."


class Status:
    """``message``: the status line's message; ``banner``: an error banner ("" when none);
    ``failed``: why the window must not exit 0 (an analysis that ran out of memory), else ""."""

    def __init__(self, message: str = START) -> None:
        self.message = message
        self.banner = ""
        self.failed = ""

    def say(self, text: str) -> None:
        """Show ``text`` as the message."""
        self.message = text

    def add(self, text: str) -> None:
        """Append ``text`` to the message."""
        self.message += text

    def warn(self, text: str) -> None:
        """Show ``text`` in the banner."""
        self.banner = text

    def dismiss(self) -> bool:
        """Clear the banner (Esc); True when there was one."""
        had = bool(self.banner)
        self.banner = ""
        return had

    def error(self, what: str, exc: BaseException) -> str:
        """Show ``exc`` in the banner: ``what: Type: text (file:line). Kept the last good board``."""
        if isinstance(exc, MemoryError):  # the window goes on, but its exit status will say so
            self.failed = f"{what}: out of memory"
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" ({Path(tb[-1].filename).name}:{tb[-1].lineno})" if tb else ""
        self.banner = (f"{what}: {type(exc).__name__}: {str(exc)[:300]}{where}. Kept the last good board; "
                       "Esc dismisses.")
        return self.banner


def join_parts(parts: list[tuple[int, str]]) -> str:
    """``[(rank, text)]`` as one line: the first part, then the rest joined by ``|``."""
    return parts[0][1] + " " + "  |  ".join(t for _, t in parts[1:]) if len(parts) > 1 else parts[0][1]


def fit_line(parts: list[tuple[int, str]], width: Optional[Callable[[str], float]] = None,
             max_w: Optional[float] = None) -> str:
    """The status line from ``(rank, text)`` parts; rank 0 is kept always, higher ranks are
    dropped first while ``width(line)`` (px) exceeds ``max_w``."""
    parts = [(r, t) for r, t in parts if t]
    if max_w is not None and width is not None:
        while width(join_parts(parts)) > max_w and max(r for r, _ in parts) > 0:
            worst = max(r for r, _ in parts)
            parts.pop(max(i for i, (r, _) in enumerate(parts) if r == worst))
    return join_parts(parts)
