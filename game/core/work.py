"""What the program is busy with, for messages when a budget runs out.

:func:`doing` marks a stretch of work (``with doing("the gap search", "the table is too
entangled for the gap search"):``); :func:`current` gives the innermost one, so a time or
memory budget that runs out names what ran out (a caption, a table, a search) instead of
always blaming the table; :func:`failed` does so for a ``MemoryError`` after the stack has
unwound. :func:`listen` lets a caller hear each stretch as it starts (the window's analysis
worker reports its stage to the window this way). Pure, no clock; one stack per thread.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Callable, Iterator, Optional

_local = threading.local()
#: What runs when nothing more precise was marked.
DEFAULT = ("analysing the table", "the table is too large or too entangled")


#: called with ``what`` when a stretch of work starts (see :func:`listen`), or None
_listener: Optional[Callable[[str], None]] = None


def listen(listener: Optional[Callable[[str], None]]) -> None:
    """Call ``listener(what)`` each time a stretch of work marked by :func:`doing` starts (None:
    no one listens). A listener that raises is ignored: progress never stops the work."""
    global _listener
    _listener = listener


def _stack() -> list:
    st = getattr(_local, "stack", None)
    if st is None:
        st = _local.stack = []
    return st


@contextmanager
def doing(what: str, blame: str) -> Iterator[None]:
    """Mark the enclosed work as ``what`` ("laying out a caption"); ``blame`` says what is too
    big when it cannot finish ("the caption is too long")."""
    st = _stack()
    st.append((what, blame))
    if _listener is not None:
        try:
            _listener(what)
        except Exception:  # noqa: BLE001 - a progress report never stops the work
            pass
    try:
        yield
    except MemoryError:
        # the handler that reports it runs after the stack has unwound: keep the innermost
        if getattr(_local, "failed", None) is None:
            _local.failed = (what, blame)
        raise
    finally:
        st.pop()


def current() -> tuple[str, str]:
    """``(what, blame)`` of the innermost work marked, else :data:`DEFAULT`."""
    st = _stack()
    return st[-1] if st else DEFAULT


def failed() -> tuple[str, str]:
    """``(what, blame)`` of the innermost work a ``MemoryError`` came out of (once: it is
    forgotten when read), else :func:`current`."""
    got = getattr(_local, "failed", None)
    _local.failed = None
    return got if got is not None else current()


def forget_failure() -> None:
    """Forget a ``MemoryError`` seen earlier (one that was handled), before new work starts."""
    _local.failed = None
