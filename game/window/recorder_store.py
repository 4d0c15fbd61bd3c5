"""Autosave and recovery of the demo recorder's work (F6), as the scenario side keeps a board's.

A demo being recorded with unsaved steps is written, after every change (Add step, Update,
Up / Down, Delete, a title typed), to this window session's own recovery file in the user's
data folder (:mod:`game.window.recovery`: the same folder, header and naming as a board's;
``demo-<stem>.<session>.<n>.autosave.yaml``; the header says ``steps:`` instead of ``units:``
and is ``for:`` the demo file, or ``(new demo)``). Its body is the demo text a Save would
write (for an opened demo, the file's own text with the changes in: :mod:`game.core.demo_keep`),
so a restored demo still keeps the file's comments and ``load:`` paths on its next save.
The file is removed once the demo is saved or its changes discarded. Other sessions' recovery
files are offered when the same demo is opened again, or, for a demo that had no file, when the
window starts (:meth:`RecorderStore.recoveries`).

Pygame-free: the folder, the session id and the wall clock are the document session's.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from game.core import atomic
from game.window import recovery
from game.window.recovery import Recovery

if TYPE_CHECKING:  # pragma: no cover
    from game.window.recorder import Recording


class RecorderStore:
    """The recovery file of one window session's demo recorder, in ``out_dir``; ``session_id``
    names the session (shared with its board's), ``wall()`` gives seconds since the epoch."""

    def __init__(self, out_dir: Path, session_id: str, wall: Callable[[], float]) -> None:
        self.out_dir, self.session_id, self.wall = Path(out_dir), session_id, wall
        self.doc_no = 0
        self.error = ""
        self.written: Optional[Path] = None
        self.restored_from: Optional[Path] = None

    @staticmethod
    def key(rec: Optional[Recording]) -> str:
        """What ``rec``'s recovery files are kept for: its demo file, or ``(new demo)`` (also
        for None: no recording started yet)."""
        return recovery.for_key(Path(rec.path)) if rec is not None and rec.path else recovery.NEW_DEMO

    def path(self, rec: Optional[Recording]) -> Path:
        """This session's recovery file for ``rec`` (None: a new demo's)."""
        stem = Path(rec.path).stem if rec is not None and rec.path else "untitled"
        return self.out_dir / recovery.file_name(f"demo-{stem}", self.session_id, self.doc_no)

    def next_document(self) -> None:
        """Another demo is opened: its recovery file is a new one (the old one is kept)."""
        self.doc_no += 1
        self.written = None
        self.restored_from = None

    def autosave(self, rec: Recording, changes: int = 1) -> Optional[Path]:
        """Write ``rec``'s unsaved steps to :meth:`path` (atomically); returns it, or None when
        nothing is unsaved (then this session's file is removed) or when it failed (the reason
        is in :attr:`error`)."""
        if not rec.dirty or not rec.steps:
            self.drop()
            return None
        p = self.path(rec)
        try:
            body = rec.text_for(rec.path) if rec.path else rec.recorder.to_text(str(p))
            head = recovery.header(self.key(rec), self.session_id, self.wall(), rec.recorder.title, 0, changes,
                                   steps=len(rec.steps))
            atomic.write_atomic(p, head + body)
        except (OSError, ValueError) as exc:  # a DemoError is a ValueError
            self.error = f"Autosave of the demo to {p} failed: {getattr(exc, 'strerror', None) or exc}"
            return None
        self.error = ""
        if self.written is not None and self.written != p:
            _unlink(self.written)
        self.written = p
        return p

    def drop(self) -> None:
        """The demo was saved or its changes discarded: this session's recovery file goes, and
        the one restored from (its work is saved or thrown away now)."""
        for p in {self.written, self.restored_from}:
            if p is not None:
                _unlink(p)
        self.written = self.restored_from = None

    def recoveries(self, rec: Optional[Recording]) -> list[Recovery]:
        """Recovery files kept for ``rec``'s demo (or for new demos) by other sessions, newest first."""
        own = {self.written, self.path(rec)}
        return [r for r in recovery.find(self.out_dir, self.key(rec)) if r.path not in own]

    def restore(self, rec: Recording, r: Recovery) -> str:
        """Take the work kept in ``r`` into ``rec`` as unsaved steps (raises DemoError / OSError);
        once saved or discarded, ``r``'s file is removed."""
        text = Path(r.path).read_text(encoding="utf-8")
        source = rec.path or str(r.path)
        rec.restore_text(text, source)
        self.restored_from = Path(r.path)
        return f"Restored the demo {r.describe()}: {len(rec.steps)} steps (Save writes them)."

    def discard(self, r: Recovery) -> bool:
        """The user threw the work of ``r`` away: its file is removed (True when it was)."""
        return _unlink(Path(r.path))

    def keep_for_later(self, r: Recovery) -> None:
        recovery.mark_refused(r, self.wall())


def _unlink(p: Path) -> bool:
    try:
        p.unlink()
    except OSError:
        return False
    return True
