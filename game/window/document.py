"""The document the window edits (pygame-free): the board with its file and history, the
ruleset it is analysed under, and the analysis kept live.

:class:`Document` puts together :class:`~game.window.session.Session` (board, file, one undo
:class:`~game.core.history.History`, dirty state, autosave), the ruleset, the
:class:`~game.core.editor.Editor` (every edit as a pure command under one collision policy),
the :class:`~game.window.live.LiveAnalysis` and the rule-system adapter
:class:`~game.window.rulesystems.RuleSystems`. It owns the "last good board": an analysis that
raises puts the board back as it last analysed cleanly and shows the error in the banner.

Views follow it through :attr:`Document.listeners`, called with one word after each change:
``"edited"`` (the board changed: the table re-syncs its drag bodies, the steps view closes),
``"restored"`` (the last good board is back: tools are reset), ``"ruleset"`` (the ruleset or
compare mode may have changed: the toolbar refreshes), ``"adopted"`` (another board: the
selection and view are reset), ``"caption"`` (title or dirty state may have changed), ``"analysed"`` (the first analysis of a
big board came back from the worker: :mod:`game.window.analysing`).
"""
from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any, Callable, Optional

from game.core.analysis import Analysis
from game.core.board import Board
from game.core.editor import Change, Editor
from game.core.ruleset import Ruleset, RulesetError
from game.window.background import Background
from game.window.live import LiveAnalysis
from game.window.rulesystems import RuleSystems
from game.window.session import Session
from game.window.status import Status


class Document:
    """``board``: the scenario (a value: every edit and drag frame puts a new board here);
    ``ruleset``: override of the board's ruleset (it becomes the board's); ``path``: its file;
    ``clock``: seconds for the autosave; ``live_clock``: seconds for the analysis throttles; ``recent_file`` / ``out_dir``: where
    recent files and autosaves of new boards are kept; ``background``: the worker analysing
    drags off the frame (default a :class:`~game.window.background.Background` process,
    started on the first drag that needs it)."""

    def __init__(self, board: Board, status: Status, *, ruleset: Optional[Ruleset] = None,
                 path: Optional[str] = None, clock: Callable[[], float] = time.monotonic,
                 live_clock: Callable[[], float] = time.perf_counter,
                 recent_file: Optional[Path] = None, out_dir: Optional[Path] = None,
                 background: Optional[Background] = None) -> None:
        self.status = status
        self.rules = RuleSystems()
        self.rs: Ruleset = ruleset or self.rules.load(board.ruleset)
        board = dataclasses.replace(board, ruleset=self.rs.id)  # an override is the board's ruleset from now on (saved with it)
        kw: dict[str, Any] = {"out_dir": out_dir} if out_dir is not None else {}
        self.session = Session(board, path, clock=clock, recent_file=recent_file, **kw)
        self.live = LiveAnalysis(clock=live_clock,
                                 background=background if background is not None else Background())
        self.editor = Editor(self.rs.p("contact_tolerance_mm"))
        self.last_good: Board = board
        self.listeners: list[Callable[[str], None]] = []
        #: True while a drag runs (the table view says): the analysis is throttled then
        self.dragging: Callable[[], bool] = lambda: False

    # -- what it holds ---------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.session.board

    @board.setter
    def board(self, b: Board) -> None:
        self.session.board = b

    @property
    def analysis(self) -> Analysis:
        return self.live.analysis

    @property
    def dirty(self) -> bool:
        return self.session.dirty

    def title(self) -> str:
        return self.session.title()

    def roles(self, unit_id: str) -> dict[str, str]:
        """{model id: role} of one unit in the current analysis."""
        return self.live.roles(unit_id)

    def notify(self, what: str) -> None:
        for f in list(self.listeners):
            f(what)

    # -- analysis --------------------------------------------------------------------------------
    def recompute(self) -> bool:
        """Re-analyse the board; on failure restore the last good board and show a banner."""
        try:
            self.live.run(self.board, self.rs, dragging=self.dragging())
        except Exception as exc:  # noqa: BLE001
            self.status.error("analysis failed", exc)
            self.restore()
            return False
        if self.live.compare_error:
            self.status.warn(self.live.compare_error)
        self.last_good = self.board
        return True

    # -- the first analysis, off the frame -------------------------------------------------------
    def analyse_first(self) -> None:
        """The first analysis of a board just shown (the window's start, a file opened): a big
        board goes to the worker (:meth:`LiveAnalysis.begin`: drawn at once without roles, the
        window answers, :meth:`poll_first` takes the answer, :meth:`cancel_first` stops it);
        any other is analysed now (:meth:`recompute`)."""
        try:
            started = self.live.begin(self.board, self.rs)
        except Exception as exc:  # noqa: BLE001 - no worker: analyse here
            self.status.warn(f"The analysis worker could not start ({exc}); analysing here.")
            started = False
        if not started:
            self.recompute()

    @property
    def analysing(self) -> bool:
        """True while the first analysis of a big board runs in the worker."""
        return self.live.pending is not None

    def poll_first(self) -> bool:
        """Once a frame while :attr:`analysing`: take the worker's answer if it is there
        (True then; a failure is shown in the banner, the board stays without roles)."""
        why = self.live.take(self.board, self.rs)
        if why is None:
            return False
        if why:
            self.status.warn(f"The analysis failed: {why}. The board is shown without roles; an edit analyses "
                             "it again.")
        else:
            self.last_good = self.board
            self.status.say(f"Analysed {self.title()} under {self.rs.id}.")
        return True

    def cancel_first(self) -> bool:
        """Stop the first analysis under way (Esc); True when one was."""
        if not self.live.cancel():
            return False
        self.status.say("Analysis cancelled: the board is shown without roles. Any edit (or Ctrl+Z after "
                        "one) analyses it again.")
        return True

    def analyse_drag(self, uid: str) -> None:
        """Follow a drag of unit ``uid`` (see :meth:`LiveAnalysis.drag`)."""
        try:
            self.live.drag(self.board, self.rs, uid)
        except Exception as exc:  # noqa: BLE001
            self.status.error("analysis failed", exc)
            self.restore()

    def restore(self) -> None:
        """Go back to the last board that analysed cleanly."""
        self.board = self.last_good
        try:
            self.notify("restored")
            self.sync_ruleset()
            self.live.run(self.board, self.rs)
        except Exception as exc:  # noqa: BLE001
            self.status.error("could not restore the last good board", exc)

    def sync_ruleset(self) -> None:
        """Follow the board's ruleset (undo / redo may bring back another one)."""
        if self.board.ruleset != self.rs.id:
            try:
                self.rs = self.rules.load(self.board.ruleset)
            except RulesetError as exc:
                self.status.warn(f"{exc}. Kept the ruleset {self.rs.id}.")
                self.board = dataclasses.replace(self.board, ruleset=self.rs.id)
            self.editor = Editor(self.rs.p("contact_tolerance_mm"))
        if self.live.compare_id == self.rs.id:
            self.live.compare_id = self.rules.compare_partner(self.board, self.rs.id)
        self.notify("ruleset")

    # -- edits -----------------------------------------------------------------------------------
    def edited(self, message: str) -> None:
        """The board changed (an edit, undo, redo, a loaded autosave): follow it and say ``message``."""
        self.notify("edited")
        self.sync_ruleset()
        self.recompute()
        self.status.say(message)
        self.notify("caption")
        self.session.tick()
        if self.session.autosave_error:
            self.status.add(f" ({self.session.autosave_error})")

    def commit(self, change: Change) -> bool:
        """Make ``change`` one undoable edit (or show its refusal); True when applied."""
        if not change.ok or change.board is None:
            if change.message:
                self.status.say(change.message)
            return False
        self.session.apply(change.board)
        self.edited(change.message)
        return True

    def undo(self) -> None:
        if not self.session.undo():
            self.status.say("Nothing to undo.")
            return
        n = self.session.history.undo_depth
        self.edited(f"Undone ({n} more to undo)." + ("" if self.dirty else " Back to the saved board."))

    def redo(self) -> None:
        if not self.session.redo():
            self.status.say("Nothing to redo.")
            return
        self.edited("Redone.")

    def adopt(self, board: Board, rs: Ruleset, path: Optional[str]) -> None:
        """Edit ``board`` (loaded from ``path``, or new) from now on, with a fresh history."""
        self.session.adopt(board, path)
        self.rs = rs
        self.sync_ruleset()
        self.status.dismiss()
        self.notify("adopted")
        self.analyse_first()
        self.notify("caption")
