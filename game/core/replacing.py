"""Before a save replaces a file the user did not open: is it a file of the kind being saved?

One check for every "save under another name" of the program (the demo recorder's Save, the
window's Save As): the existing file must load with the loader of the kind about to be
written, else it is refused, never replaced (a scenario is not written over a demo, a demo not
over a scenario, neither over a book file or a file that is not YAML at all).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Optional


def existing_of_kind(path: str | os.PathLike, load: Callable[[Path], Any],
                     errors: type[BaseException] | tuple[type[BaseException], ...], kind: str) -> Optional[Any]:
    """What ``load(path)`` returns when ``path`` exists; None when it does not exist (nothing
    to replace). Raises ValueError ``"<name> is not a <kind> file; choose another name"`` when
    it exists and ``load`` raises one of ``errors`` or OSError (unreadable, a folder)."""
    p = Path(path)
    if not p.exists():
        return None
    caught: tuple[type[BaseException], ...] = (OSError, *(errors if isinstance(errors, tuple) else (errors,)))
    try:
        return load(p)
    except caught:
        raise ValueError(f"{p.name} is not a {kind} file; choose another name") from None
