"""What a document's file looked like on disk, to notice changes made outside the window.

:func:`snapshot` records a file's modification time (ns), size, inode and SHA-256 of its
bytes; :func:`compare` tells whether the file now on disk is still that one: ``None`` (the same
content, even if an editor rewrote it), ``"changed"``, or ``"missing"`` (moved or deleted, or its
folder gone). While polling, the hash is only computed again when the time, size or inode moved,
so a look every few seconds costs one ``stat``; before a save writes (``full=True``) it is always
computed again, so an outside edit that kept the size and the time (``cp -p``, ``rsync -t``, a
coarse file-system clock) is noticed, never written over.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Optional


@dataclass(frozen=True)
class DiskState:
    """``mtime_ns``, ``size`` (bytes), ``inode`` and ``sha256`` (hex) of a file."""
    mtime_ns: int
    size: int
    inode: int
    sha256: str


def _hash(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def snapshot(path: Optional[Path]) -> Optional[DiskState]:
    """The state of ``path`` now (None when it cannot be read)."""
    if path is None:
        return None
    try:
        st = os.stat(path)
        return DiskState(st.st_mtime_ns, st.st_size, st.st_ino, _hash(Path(path)))
    except OSError:
        return None


def compare(path: Optional[Path], known: Optional[DiskState],
            full: bool = False) -> tuple[Optional[str], Optional[DiskState]]:
    """``(what, now)``: ``what`` is None when ``path`` still holds the ``known`` content,
    ``"changed"`` or ``"missing"``; ``now`` the state found (to remember once the user has
    chosen). A file that had no known state (never saved) is never reported. ``full``: hash
    the bytes even when time, size and inode are as known (before a save)."""
    if path is None or known is None:
        return None, known
    try:
        st = os.stat(path)
    except OSError:
        return "missing", None
    if not full and (st.st_mtime_ns, st.st_size, st.st_ino) == (known.mtime_ns, known.size, known.inode):
        return None, known
    now = snapshot(Path(path))
    if now is None:
        return "missing", None
    return (None if now.sha256 == known.sha256 else "changed"), now


class Watch:
    """One file watched for changes made outside the window, polled on a clock: what the
    scenario editor and the demo recorder both use for the file they have open.

    :meth:`remember` records the file as just opened or saved; :meth:`check` compares the file
    on disk with it now (``full``: hash even when time, size and inode are as known);
    :meth:`poll` does that at most every ``every_s`` seconds of the caller's clock (one
    ``stat`` when nothing moved) and only while no change is pending in :attr:`outside`
    (``"changed"`` / ``"missing"`` / None; the caller clears it once the user has answered)."""

    def __init__(self, every_s: float = 2.0, now: float = 0.0) -> None:
        self.every_s = float(every_s)
        self.last = now
        self.path: Optional[Path] = None
        self.known: Optional[DiskState] = None
        self.outside: Optional[str] = None

    def remember(self, path: Optional[Path]) -> None:
        """``path`` (None: no file) is as the window knows it now; no change is pending."""
        self.path = Path(path) if path is not None else None
        self.known = snapshot(self.path)
        self.outside = None

    def check(self, full: bool = False) -> Optional[str]:
        """``"changed"`` / ``"missing"`` when the file is no longer what was remembered (also
        kept in :attr:`outside`), else None."""
        if self.path is None:
            return None
        what, _ = compare(self.path, self.known, full=full)
        self.outside = what
        return what

    def poll(self, now: float) -> Optional[str]:
        """Every ``every_s`` (``now`` in seconds of the caller's clock): :meth:`check`; returns
        :attr:`outside`."""
        if self.path is not None and self.outside is None and now - self.last >= self.every_s:
            self.last = now
            self.check()
        return self.outside
