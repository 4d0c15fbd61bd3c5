"""The window's analysis of the board, kept up to date while the user edits and drags.

:class:`LiveAnalysis` analyses the board under its ruleset, finds overlapping bases, and in
compare mode analyses it under a second ruleset and keeps the models that fight differently.
While a unit is dragged, an engine declaring ``live_drag`` (fast and incremental, e.g. rank
and file) is re-analysed on every frame. Any other engine is analysed off the frame by a
worker process (:mod:`game.window.background`, the latest board wins) unless its last
analysis took at most ``INLINE_MS``: each frame shows the
newest finished analysis with the board it is of (:attr:`LiveAnalysis.shown_board`: the
dragged unit drawn at the pose that answer is for, so roles always match positions; the hand's
pose is a ghost) and :attr:`LiveAnalysis.solving` set while that is an earlier pose than the
board's (the status line says "solving"). A frame whose board did not change since the last one
(the hand rests) only takes the worker's answer: its pose is not sent again, so the exact
analysis shows within two answers of the hand stopping, and stays. Without a usable worker, an analysis slower than ``budget_ms`` is not
rerun on every frame of a drag (the paused view again). The compare analysis runs at most once
per four times its own cost while dragging. The throttles measure with the injected ``clock``
(seconds; tests pass a fake one), and all of this only decides *when* to analyse: the end of
a drag always analyses the final board in the window's own process, so what stays shown is
exactly a cold analysis.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Callable, Optional

from game.core.analysis import Analysis
from game.core.analyse import analyse
from game.core import work
from game.core.board import Board, unit_of
from game.core.checks import overlapping_bases
from game.core.names import model_name, unit_names
from game.core.compare import Difference, differences, role_words
from game.core.registry import strategy_of
from game.core.ruleset import Ruleset, load_ruleset

from game.window.background import Background, board_key
from game.window.retained import DrawnModels
from game.render.drawn import DrawnModel

#: A board of at least this many models is first analysed off the frame (window start, open):
#: the window draws it at once without roles, shows the worker's stage and Esc cancels.
OFF_FRAME_MODELS = 1000
OVERLAP_TOL_MM = 0.5
ANALYSIS_BUDGET_MS = 40.0
INLINE_MS = 1.0  # an analysis this cheap is rerun on the frame, whatever the engine


def paused_view(analysis: Analysis, board: Board, *uids: str) -> Analysis:
    """``analysis`` (of an earlier pose) as shown while the units ``uids`` are dragged without
    re-analysing: their models stand where the board has them now, with the roles they had;
    their analysed moves and gap links are left out (they belong to the old pose)."""
    now: dict = {}
    for uid in uids:
        try:
            now.update({m.id: m.center for m in board.unit(uid).models()})
        except KeyError:
            pass
    keep = set(uids)

    def mine(mid: str) -> bool:
        return unit_of(mid) in keep

    models = {}
    for mid, r in analysis.models.items():
        if mine(mid):
            if mid not in now:
                continue
            r = dataclasses.replace(r, at=now[mid])
        models[mid] = r
    return analysis.replaced(models=models,
                               moves={k: v for k, v in analysis.moves.items() if not mine(k)},
                               gap_links=[lk for lk in analysis.gap_links if not (mine(lk[0]) or mine(lk[1]))])


def moved_units(before: Optional[Board], board: Board) -> list[str]:
    """Ids of the units of ``board`` that stand elsewhere than on ``before`` (every unit when
    ``before`` is None), in board order."""
    if before is None:
        return [u.id for u in board.units]
    old = {u.id: u.pose_key() for u in before.units}
    return [u.id for u in board.units if old.get(u.id) != u.pose_key()]


class LiveAnalysis:
    """Analysis, drawn models, overlaps and compare differences of the board shown."""

    def __init__(self, *, clock: Callable[[], float] = time.perf_counter,
                 budget_ms: float = ANALYSIS_BUDGET_MS, background: Optional[Background] = None):
        self.background = background              # the worker analysing drags off the frame
        self.solving = False                      # the analysis shown is of an earlier pose
        self._solved: Optional[tuple] = None      # (board key, analysis, board): the newest finished off the frame
        self._drag_key: Optional[tuple] = None    # the board key of the last drag frame
        #: the board :attr:`analysis` is of when that is not the board shown (a drag analysed off the
        #: frame, behind the hand): the view draws this board, so roles match positions; else None
        self.shown_board: Optional[Board] = None
        self.solve_error = ""
        self._board: Optional[Board] = None       # the board of the last analysis run here
        self.clock = clock
        self.budget_ms = float(budget_ms)
        self.analysis: Analysis = Analysis(ruleset="")
        self.models: list[DrawnModel] = []
        self.drawn_models = DrawnModels()          # rebuilds only the units that changed
        self.overlaps: list[tuple[str, str, float]] = []
        self._overlaps_of: Optional[tuple] = None  # (board, its units, tolerance) the overlaps are of
        self.analyse_ms = 0.0                     # the last analysis' cost (here or in the worker)
        self.inline_ms = 0.0                      # the last analysis run here: its cost
        self.paused = False                       # a drag shows the last analysis (too slow to rerun)
        self._paused_from: Optional[Analysis] = None
        self.compare_id: Optional[str] = None
        self.diffs: dict[str, Difference] = {}
        self.compare_ms = 0.0
        self._compare_t = -1e18
        self.compare_stale = False
        self.compare_error = ""
        #: the board key whose first analysis the worker is doing (:meth:`begin`), else None
        self.pending: Optional[tuple] = None

    def begin(self, board: Board, rs: Ruleset) -> bool:
        """The first analysis of ``board`` (just shown: the window's start, a file opened): a
        board of at least :data:`OFF_FRAME_MODELS` models is handed to the worker and shown
        without roles until :meth:`take` has the answer (:attr:`pending` set; :meth:`cancel`
        stops it). Returns False, doing nothing, when it should be analysed here (:meth:`run`):
        a smaller board, or no usable worker."""
        bg = self.background
        if bg is None or sum(len(u.models()) for u in board.units) < OFF_FRAME_MODELS or not bg.usable(rs):
            return False
        self.cancel()
        self.paused, self._paused_from, self.shown_board, self._drag_key = False, None, None, None
        self._solved, self.solving = None, False
        bg.forget()
        bg.submit(board, rs)
        self.pending = board_key(board, rs)
        self.analysis = Analysis(ruleset=rs.id)
        self.models = self.drawn_models(board, self.analysis)
        self._board = None
        self.diffs = {}
        self.update_overlaps(board, rs)
        return True

    def stage(self) -> str:
        """What the pending first analysis is doing (the worker's stage), in words."""
        bg = self.background
        return (bg.stage if bg is not None else "") or work.DEFAULT[0]

    def take(self, board: Board, rs: Ruleset) -> Optional[str]:
        """Once a frame while :attr:`pending`: the worker's answer, without waiting. None while
        it works; "" once the analysis of ``board`` is shown; the reason when it failed (the
        board stays shown without roles)."""
        bg = self.background
        if self.pending is None or bg is None:
            return None
        done = bg.poll()
        if done is None:
            if bg.failed:  # no worker after all: analyse here
                self.pending = None
                self.run(board, rs)
                return ""
            return None
        self.pending = None
        if done.analysis is None:
            return done.error.splitlines()[0] if done.error else "the analysis failed"
        if done.key != board_key(board, rs):  # the board changed meanwhile (an edit analysed it here)
            return ""
        self.analysis = done.analysis
        self.models = self.drawn_models(board, self.analysis)
        self._board = board
        self.analyse_ms = self.inline_ms = done.cpu_ms  # a drag of this board goes off the frame too
        self.update_compare(board, force=True)
        return ""

    def cancel(self) -> bool:
        """Stop the pending first analysis (the worker is stopped; the board stays shown without
        roles). True when one was pending."""
        if self.pending is None:
            return False
        self.pending = None
        if self.background is not None:
            self.background.cancel()
        return True

    def run(self, board: Board, rs: Ruleset, *, dragging: bool = False) -> None:
        """Analyse ``board`` now (raises what the engine raises; the old results stay then); a
        pending first analysis (:meth:`begin`) is of an older board: it is stopped."""
        self.cancel()
        self.paused, self._paused_from = False, None
        self.shown_board = None
        if not dragging:
            self._drag_key = None
        if self._solved is not None or self.solving:
            self._solved, self.solving = None, False
            if self.background is not None:
                self.background.forget()
        t0 = self.clock()
        analysis = analyse(board, rs)
        models = self.drawn_models(board, analysis)
        self.analysis, self.models = analysis, models
        self._board = board  # the board analysed
        self.analyse_ms = self.inline_ms = (self.clock() - t0) * 1000
        self.update_compare(board, dragging=dragging, force=not dragging)
        if not dragging:
            self.update_overlaps(board, rs)
            self.warm(board, rs)

    def warm(self, board: Board, rs: Ruleset) -> None:
        """When a drag of this board would be analysed off the frame, start the worker now on
        this board (its answer is dropped: it only loads the engine and its kept answers)."""
        bg = self.background
        if (bg is not None and self.inline_ms > INLINE_MS and not strategy_of(rs).live_drag
                and bg.usable(rs) and not bg.busy):
            bg.submit(board, rs)
            bg.forget()

    def drag(self, board: Board, rs: Ruleset, uid: str) -> None:
        """Follow a drag of unit ``uid``: re-analyse while that is cheap (always for an engine
        declaring ``live_drag``, e.g. rank and file), else show the last analysis with the
        unit's bases where they are now (:func:`paused_view`). A frame whose board is the last
        frame's (the hand rests) does nothing unless an answer is still due from the worker."""
        if self.pending is not None:  # the worker's first answer comes through the drag's polls
            self.pending = None
        key = board_key(board, rs)
        if key == self._drag_key and not self.solving:
            return  # nothing moved and what is shown is this board's analysis: kept as is
        self._drag_key = key
        if strategy_of(rs).live_drag:
            self.run(board, rs, dragging=True)
            return
        bg = self.background
        if bg is not None and self.inline_ms > INLINE_MS and bg.usable(rs):
            self.drag_off_frame(board, rs, uid, bg)
            return
        if not self.paused and self.analyse_ms <= self.budget_ms:
            self.run(board, rs, dragging=True)
            return
        if not self.paused or self._paused_from is None:
            self.paused, self._paused_from = True, self.analysis
        self.analysis = paused_view(self._paused_from, board, uid)
        self.models = self.drawn_models(board, self.analysis)

    def drag_off_frame(self, board: Board, rs: Ruleset, uid: str, bg: Background) -> None:
        """One frame of a drag analysed by the worker ``bg``: hand it the board (unless it is the
        board last handed over), take the newest finished analysis, and show it with the board
        it is of (:attr:`shown_board`, :attr:`solving` set when that is not ``board``; the
        :func:`paused_view` of it when that board is not known). Never waits for the worker."""
        if self._solved is None:  # until one is finished: the analysis before the drag
            of = self._board
            self._solved = (board_key(of, rs) if of is not None else None, self.analysis, of)
        bg.submit(board, rs)
        done = bg.poll()
        if done is not None:
            if done.analysis is not None:
                self._solved = (done.key, done.analysis, done.board)
                self.analyse_ms, self.solve_error = done.cpu_ms, ""
            else:
                self.solve_error = done.error.splitlines()[0] if done.error else "the analysis failed"
        key, latest, of = self._solved
        if key == board_key(board, rs):
            self.analysis, self.solving, self.shown_board = latest, False, None
        elif of is not None:  # the answer with the board it is of: the dragged unit a little behind the hand
            self.analysis, self.solving, self.shown_board = latest, True, of
        else:
            self.analysis, self.solving, self.shown_board = paused_view(latest, board, uid), True, None
        self.models = self.drawn_models(self.shown_board or board, self.analysis)

    def close(self) -> None:
        """Stop the worker, if one was started (at once when it is still on a first analysis)."""
        self.cancel()
        if self.background is not None:
            self.background.close()

    def update_overlaps(self, board: Board, rs: Ruleset) -> None:
        """The pairs of bases that overlap (:func:`game.core.checks.overlapping_bases` within
        the ruleset's contact tolerance)."""
        tol = rs.p("contact_tolerance_mm")
        self.overlaps = overlapping_bases(board, tol)
        self._overlaps_of = (board, list(board.units), tol)

    def overlaps_of(self, board: Board, rs: Ruleset) -> bool:
        """Are :attr:`overlaps` those of ``board`` as it is (the same board object holding the
        same unit objects, the same tolerance) since :meth:`update_overlaps` last ran?"""
        seen = self._overlaps_of
        return (seen is not None and seen[0] is board and seen[2] == rs.p("contact_tolerance_mm")
                and len(seen[1]) == len(board.units) and all(a is b for a, b in zip(seen[1], board.units)))

    def overlap_warning(self) -> str:
        """The warning line about overlapping bases ("" when none overlap)."""
        n = len(self.overlaps)
        if not n:
            return ""
        names = unit_names(self._overlaps_of[0]) if self._overlaps_of is not None else {}
        shown = ", ".join(f"{model_name(a, names)} and {model_name(b, names)} by {d:.1f} mm"
                          for a, b, d in self.overlaps[:3])
        more = f", +{n - 3} more" if n > 3 else ""
        count = f"{n}+ pairs of bases overlap" if n >= 200 else (
            "1 pair of bases overlaps" if n == 1 else f"{n} pairs of bases overlap")
        return (f"Warning: {count} ({shown}{more}); analysed as placed. Move them apart "
                "(the overlapping bases are cross-hatched).")

    def update_compare(self, board: Board, *, dragging: bool = False, force: bool = False) -> None:
        """In compare mode, analyse ``board`` under :attr:`compare_id` too and keep the models
        whose role or attack count differ. While dragging (and not ``force``) this runs at most
        once per ``max(0.1 s, 4 x its cost)`` on the clock; :attr:`compare_stale` says one was skipped."""
        if self.compare_id is None:
            self.diffs, self.compare_stale = {}, False
            return
        now = self.clock()
        if dragging and not force and now - self._compare_t < max(0.1, 4 * self.compare_ms / 1000):
            self.compare_stale = True
            return
        self.compare_stale = False
        self._compare_t = now
        self.compare_error = ""
        try:
            other = analyse(board, load_ruleset(self.compare_id))
            self.diffs = {d.model: d for d in differences(self.analysis, other)}
        except Exception as exc:  # noqa: BLE001 - compare mode must never stop the window
            self.diffs = {}
            self.compare_error = f"comparing with {self.compare_id} failed: {type(exc).__name__}: {str(exc)[:200]}"
        self.compare_ms = (self.clock() - now) * 1000

    def differ_options(self, rid: str) -> tuple[dict, str]:
        """(``{model id: tooltip line}``, legend label) of compare mode for ``draw_scene``."""
        if not self.compare_id:
            return {}, ""
        other = self.compare_id
        out = {}
        for mid, d in self.diffs.items():
            b, a = role_words(*d.b), role_words(*d.a)
            out[mid] = f"Under {other}: {b} (under {rid}: {a})" + (f"; {other}: {d.why_b}" if d.why_b else "")
        return out, f"Differs under {other}"

    def roles(self, unit_id: str) -> dict[str, str]:
        """{model id: role} of one unit in the current analysis."""
        return {k: v.role for k, v in self.analysis.models.items() if unit_of(k) == unit_id}
