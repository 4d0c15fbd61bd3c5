"""One undo history of snapshots for the window.

A :class:`Snapshot` is everything an undo brings back: the board and the distance each unit
has moved since it was selected (``moved_mm``, shown in the status line). Every state the
history can return to carries an ``id``; :attr:`History.current_id` names the state shown
now, so a session can tell whether the board is the one it last saved (undoing back to the
saved state is clean again) without comparing boards.

Pure: no pygame, no clock.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from game.core.board import Board


@dataclass(frozen=True)
class Snapshot:
    """A board and the distances moved (``{unit id: mm}``) that went with it; ``id`` names
    the state (see :attr:`History.current_id`)."""

    board: Board
    moved_mm: dict = field(default_factory=dict)
    id: int = 0


class History:
    """Linear undo / redo of snapshots, at most ``limit`` deep.

    Use: before an edit changes the board, :meth:`record` the board as it was; :meth:`undo`
    and :meth:`redo` take the state shown now and return the one to show instead (or None).
    """

    def __init__(self, limit: int = 200):
        self.limit = int(limit)
        self.past: list[Snapshot] = []
        self.future: list[Snapshot] = []
        self._next = 1
        self.current_id = 0

    def _new_id(self) -> int:
        self._next += 1
        return self._next

    def record(self, before: Board, moved_mm: Optional[dict] = None) -> None:
        """Remember ``before`` (the board before an edit, not copied: pass a copy you will not
        change) as the state to undo to; the redo future is dropped; the state shown now gets
        a new id."""
        self.past.append(Snapshot(before, dict(moved_mm or {}), self.current_id))
        del self.past[:-self.limit]
        self.future.clear()
        self.current_id = self._new_id()

    def undo(self, now: Board, moved_mm: dict) -> Optional[Snapshot]:
        """The state before the last edit (None when there is none); ``now`` goes to the redo list."""
        if not self.past:
            return None
        self.future.append(Snapshot(now, dict(moved_mm), self.current_id))
        s = self.past.pop()
        self.current_id = s.id
        return s

    def redo(self, now: Board, moved_mm: dict) -> Optional[Snapshot]:
        """The state the last undo left (None when there is none); ``now`` goes back to the undo list."""
        if not self.future:
            return None
        self.past.append(Snapshot(now, dict(moved_mm), self.current_id))
        s = self.future.pop()
        self.current_id = s.id
        return s

    def clear(self) -> None:
        """Forget every state (a new board was opened); the state shown now gets a new id."""
        self.past.clear()
        self.future.clear()
        self.current_id = self._new_id()

    @property
    def undo_depth(self) -> int:
        return len(self.past)

    @property
    def redo_depth(self) -> int:
        return len(self.future)
