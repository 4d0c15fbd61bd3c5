"""The interactive window: a hands-on table.

:class:`App` owns the board (the truth), its analysis, a :class:`~game.physics.trays.TraySpace`
used as the drag input device, the view, an undo history and a pygame_gui toolbar. One frame =
handle the queued pygame events, step the drag (writing the pose back to the board and
re-analysing), then ``draw_scene`` on the window surface and the toolbar on top. A frame that
raises shows a red banner with the error and goes on from the last good board.

Tools (toolbar or keys, see :data:`SHORTCUTS`): move (free drag with pymunk), forward (drag
straight along the facing), wheel (drag about a front corner), charge (click an enemy), casualty
(click a model to remove it, an empty slot to restore it) and tape (drag to measure
edge-to-edge). Every edit can be undone; Ctrl+S saves atomically; unsaved changes go to an
autosave file next to the scenario when the window closes.

Editing (:mod:`game.view.panels`, pure maths in :mod:`game.core.edits`): a new-unit palette of
common base sizes placed at the cursor, a unit properties panel (name, player, base, files,
model count), duplicate and delete; a scenario file dropped on the window opens in it.
Rulesets: R cycles the ruleset (also a drop-down), K compares the board under a second
ruleset and marks the models that fight differently (recomputed live while dragging).
Warhammer 40,000 boards step through the Fight phase (N / P, Esc or Home back).
Overlapping bases (:func:`game.core.checks.overlapping_bases`, rechecked whenever the board
changes and at the end of a drag) are named in an amber warning line and cross-hatched.

Mouse positions come from the events themselves (not ``pygame.mouse.get_pos()``), so tests
drive the app headless with ``pygame.event.post``.
"""
from __future__ import annotations

import math
import os
import time
import traceback
from pathlib import Path
from typing import Any, Callable, Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.core import geometry as g  # noqa: E402
from game.core import edits as ed  # noqa: E402
from game.core import manoeuvre as mv  # noqa: E402
from game.core.analysis import Analysis, analyse  # noqa: E402
from game.core.board import Board, Unit, parse_slot  # noqa: E402
from game.core.checks import overlapping_bases  # noqa: E402
from game.core.compare import Difference, differences  # noqa: E402
from game.core.compare import partner as compare_partner, usable as usable_rulesets  # noqa: E402
from game.core.registry import strategy_of  # noqa: E402
from game.core.ruleset import Ruleset, RulesetError, available, load_ruleset  # noqa: E402
from game.core.scenario import ScenarioError, load_scenario, save_scenario  # noqa: E402
from game.physics.trays import (Key, TraySpace, penetration_mm, pose_of, shapes_of, snap_to_contact,  # noqa: E402
                                with_position)
from game.services import default_services  # noqa: E402

from .canvas import PygameCanvas  # noqa: E402
from .scene import DrawnModel, SceneOptions, draw_scene, drawn_models, fit_view, model_at, scene_layout  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ROTATE_STEP_DEG = 15.0
FINE_DEG = 1.0
STEP_MM = g.INCH_MM
FINE_MM = 1.0
PAN_STEP_PX = 60
ZOOM_STEP = 1.15
TOOLBAR_PX = 40
OVERLAP_TOL_MM = 0.5
FLUSH_MM = 0.01   # how far a move or wheel may sink into another unit when it stops at contact
SNAP_MM = 0.5     # a dragged tray left this close to base contact (gap or overlap) is set exactly flush
AUTOSAVE_EVERY_S = 10.0
ANALYSIS_BUDGET_MS = 40.0  # an analysis slower than this is not rerun on every frame of a drag
TOOLS = ("move", "forward", "wheel", "charge", "casualty", "tape", "place")
TOOL_HINT = {
    "move": "Move: drag a unit anywhere (it stops or slides against others).",
    "forward": "Forward: drag a unit straight forward or back along its facing.",
    "wheel": "Wheel: drag one end of a unit; it wheels about the other front corner.",
    "charge": "Charge: click your unit (if none is selected), then the enemy to charge.",
    "casualty": "Casualty: click a model to remove it, an empty slot to restore it.",
    "tape": "Tape: drag from a model (or any point) to another to measure edge to edge.",
    "place": "Place: click the table to put the new unit there (choose its bases in the unit palette, U).",
}
TITLE_PX = 34        # the title bar of the window (scene.layout at font scale 1); the toolbar sits under it
ROW1_Y = TITLE_PX + 5
ROW2_Y = ROW1_Y + 36
GUI_ROWS_PX = 2 * 36 + 4

#: every shortcut of the window: (keys, what it does). F1 shows this table.
SHORTCUTS: list[tuple[str, str]] = [
    ("Left drag", "use the current tool (move a unit by default)"),
    ("Right / middle drag, arrow keys", "pan"),
    ("Ctrl+wheel, + / -", "zoom about the cursor"),
    ("Wheel (unit selected), Q / E", "turn the selected unit 15 deg about its centre (Shift: 1 deg)"),
    ("W / S", "move the selected unit 1\" straight forward / back (Shift: 1 mm)"),
    ("A / D", "wheel 15 deg to the left / right about a front corner (Shift: 1 deg)"),
    ("T / Shift+T", "turn 90 deg right / left about the centre"),
    ("B", "about face (turn 180 deg)"),
    ("[ / ]", "reform: one file fewer / more"),
    ("1 ... 6", "tools: move, forward, wheel, charge, casualty, tape"),
    ("V, G, H, C, X, M", "the same tools by letter (moVe, Go forward, wHeel, Charge, casualty X, Measure)"),
    ("Esc", "close this help, the unit panel or the palette; leave a text field; back to the move tool, clear the tape, dismiss an error, leave the Fight phase steps"),
    ("Ctrl+Z", "undo"),
    ("Ctrl+Shift+Z, Ctrl+Y", "redo"),
    ("Ctrl+S", "save (atomic); a built-in scenario is saved under out/"),
    ("F9", "load the autosave of unsaved changes"),
    ("F", "fit the units in the view"),
    ("U", "new-unit palette: pick a base size, then click the table to place the unit"),
    ("F2 / Enter", "open / close the unit panel of the selected unit (name, player, base size, files, models); "
                   "Enter opens it with the cursor in the name field"),
    (", / .", "one model fewer / more (skirmishers: remove the last / add one beside the last)"),
    ("Ctrl+D", "duplicate the selected unit (placed beside it)"),
    ("Delete", "delete the selected unit"),
    ("Ctrl+1 / Ctrl+2", "give the selected unit to player 1 / 2"),
    ("R / Shift+R", "next / previous ruleset (the board stays; undo switches back)"),
    ("K / Shift+K", "compare mode on / off; next ruleset to compare with"),
    ("N, PageDown / P, PageUp", "Warhammer 40,000: next / previous step of the Fight phase"),
    ("Home", "leave the Fight phase steps: back to the editable board (Esc too)"),
    ("Drop a file", "open a scenario dropped on the window (a bad one is reported and the board kept)"),
    ("L", "show / hide the legend"),
    ("F1", "this help"),
    ("Ctrl+Q, close the window", "quit (unsaved changes go to the autosave file)"),
]


def init_pygame() -> None:
    """Initialise only the display and fonts (no audio: no ALSA noise on machines without sound)."""
    if not pygame.display.get_init():
        pygame.display.init()
    if not pygame.font.get_init():
        pygame.font.init()


def paused_view(analysis: Analysis, board: Board, uid: str) -> Analysis:
    """``analysis`` (of an earlier pose) as shown while unit ``uid`` is dragged without
    re-analysing: its models stand where the board has them now, with the roles they had;
    the unit's analysed moves and gap links are left out (they belong to the old pose)."""
    import dataclasses

    try:
        now = {m.id: m.center for m in board.unit(uid).models()}
    except KeyError:
        now = {}
    models = {}
    for mid, r in analysis.models.items():
        if mid.split(".", 1)[0] == uid:
            if mid not in now:
                continue
            r = dataclasses.replace(r, at=now[mid])
        models[mid] = r
    mine = (lambda mid: mid.split(".", 1)[0] == uid)
    return dataclasses.replace(analysis, models=models,
                               moves={k: v for k, v in analysis.moves.items() if not mine(k)},
                               gap_links=[lk for lk in analysis.gap_links if not (mine(lk[0]) or mine(lk[1]))])


def fmt_distance(mm: float) -> str:
    """``'2.5" (63.5 mm)'``: inches first (the table's unit), millimetres after."""
    return f'{mm / g.INCH_MM:.1f}" ({mm:.1f} mm)'


class App:
    """The window on one board.

    ``board``: the scenario (the app edits it); ``ruleset``: override of the board's ruleset;
    ``path``: the scenario file (title, saving, autosave); ``size``: window size (px);
    ``gui``: build the pygame_gui toolbar.
    """

    def __init__(self, board: Board, *, ruleset: Optional[Ruleset] = None, path: Optional[str] = None,
                 size: tuple[int, int] = (1280, 820), surface: Optional[pygame.Surface] = None, gui: bool = True):
        init_pygame()
        self.path = Path(path) if path else None
        self.save_path = self._save_path(self.path)
        self.board = board
        self.rs = ruleset or load_ruleset(board.ruleset)
        board.ruleset = self.rs.id  # an override is the board's ruleset from now on (saved with it)
        self.services = default_services()
        if surface is None:
            pygame.display.set_caption(f"Melee Lens - {self.window_title()}")
            surface = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.screen = surface
        self.canvas = PygameCanvas(self.screen)
        # the title bar is always there (the toolbar rows are placed under it), even when the
        # scenario has no title: the file name stands in for it
        self.options = SceneOptions(status=" ", top_inset=GUI_ROWS_PX if gui else 0, title=self.window_title())
        self.view = fit_view(*self.screen.get_size(), board, self.options, margin_mm=80)
        self.space = TraySpace(board)
        self.analysis: Analysis = Analysis(ruleset=self.rs.id)
        self.models: list[DrawnModel] = []
        self.overlaps: list[tuple[str, str, float]] = []   # overlapping bases (see update_overlaps)
        self.last_good: Board = board.copy()
        self.selection: Optional[str] = None
        self.hover: Optional[str] = None
        self.mouse_px: tuple[float, float] = (0.0, 0.0)
        self.tool = "move"
        self.drag_key: Optional[Key] = None          # pymunk drag
        self.drag_before: Optional[Board] = None      # board when a drag began (for undo)
        self.drag_unit0: Optional[Unit] = None        # the dragged unit when the drag began
        self.grab_mm: g.Point = (0.0, 0.0)
        self.manual: Optional[str] = None             # "forward" | "wheel" while such a drag runs
        self.wheel_pivot = "left"
        self.live_mm = 0.0                            # distance of the running drag
        self.drag_dir: Optional[g.Point] = None       # the last step of the running pymunk drag
        self.moved_mm: dict[str, float] = {}          # distance moved per unit since it was selected
        self.tape: Optional[dict] = None
        self.charger: Optional[str] = None
        self.pan_from: Optional[tuple[float, float]] = None
        self.undo_stack: list[Board] = []
        self.redo_stack: list[Board] = []
        # the distances moved (moved_mm) that go with each undo / redo board
        self.undo_moved: list[dict[str, float]] = []
        self.redo_moved: list[dict[str, float]] = []
        self.dirty = False
        self.last_autosave = time.monotonic()
        self.message = "Drag a unit with the left mouse button; wheel or Q/E turns it; F1 lists every shortcut."
        self.banner = ""
        self.running = True
        self.frame_ms = 0.0
        self.analyse_ms = 0.0
        self.analysis_paused = False                  # a drag is showing the last analysis (too slow to rerun)
        self.paused_analysis: Optional[Analysis] = None   # that analysis, as it was when the drag began
        self.frames = 0
        self.gui = None
        self.buttons: dict[Any, str] = {}
        self.help_window = None
        # compare mode: the other ruleset, its differences {model id: Difference} and its cost
        self.compare_id: Optional[str] = None
        self.diffs: dict[str, Difference] = {}
        self.compare_ms = 0.0
        self.compare_t = 0.0          # perf_counter of the last compare analysis
        self.compare_stale = False    # a drag skipped a compare analysis (see update_compare)
        # Warhammer 40,000 Fight phase steps: [(caption, board, analysis)], the shown one, models
        self.steps: Optional[list] = None
        self.step_i = 0
        self.step_models: list[DrawnModel] = []
        self.steps_key: Optional[tuple] = None
        self.steps_cache: Optional[list] = None
        # new-unit palette: the chosen base (place tool) and the new unit's player
        self.place_choice: Optional[ed.BaseChoice] = None
        self.place_player = 1
        self.palette_panel = None
        self.unit_panel = None
        self.dropdowns: dict[str, Any] = {}
        if gui:
            self._build_gui()
        if self.autosave_path and self.autosave_path.exists():
            self.message = (f"Unsaved changes from an earlier session are in {self.autosave_path.name}: "
                            "press F9 to load them.")
        self.recompute()

    # -- files -----------------------------------------------------------------------------
    def window_title(self) -> str:
        """The title shown in the title bar: the scenario's ``title``, else its file name (a
        title is optional in a scenario), else a neutral placeholder."""
        if self.board.title:
            return self.board.title
        return self.path.name if self.path else "Untitled scenario"

    @staticmethod
    def _save_path(path: Optional[Path]) -> Optional[Path]:
        """Where Ctrl+S writes: the file itself, except a built-in scenario (under assets/),
        which is saved as out/<name>.yaml so the shipped file stays as it is."""
        if path is None:
            return ROOT / "out" / "scenario.yaml"
        try:
            path.resolve().relative_to((ROOT / "assets").resolve())
        except ValueError:
            return path
        return ROOT / "out" / path.name

    @property
    def autosave_path(self) -> Optional[Path]:
        """``<name>.autosave.yaml`` next to the file Ctrl+S writes."""
        if self.save_path is None:
            return None
        return self.save_path.with_name(self.save_path.stem + ".autosave.yaml")

    def save(self) -> bool:
        """Save the board atomically to :attr:`save_path`; the autosave is removed after."""
        try:
            self.save_path.parent.mkdir(parents=True, exist_ok=True)
            save_scenario(self.board, self.save_path)
        except OSError as exc:
            self.message = f"Could not save {self.save_path}: {exc.strerror or exc}"
            return False
        self.dirty = False
        if self.autosave_path and self.autosave_path.exists():
            try:
                self.autosave_path.unlink()
            except OSError:
                pass
        self.message = f"Saved {self.save_path}."
        return True

    def autosave(self) -> Optional[Path]:
        """Write unsaved changes to :attr:`autosave_path` (atomically). Returns the path."""
        p = self.autosave_path
        if p is None or not self.dirty:
            return None
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            save_scenario(self.board, p)
        except OSError as exc:
            self.message = f"Autosave to {p} failed: {exc.strerror or exc}"
            return None
        self.last_autosave = time.monotonic()
        return p

    def load_autosave(self) -> None:
        p = self.autosave_path
        if p is None or not p.exists():
            self.message = "There is no autosave to load."
            return
        try:
            board = load_scenario(p)
        except ScenarioError as exc:
            self.message = f"The autosave cannot be read: {exc}"
            return
        self.push_undo()
        self.board = board
        self.after_edit(f"Loaded the autosave {p.name} (Ctrl+Z goes back).")

    def quit(self) -> None:
        """Stop the loop; unsaved changes are written to the autosave file first."""
        if self.dirty:
            p = self.autosave()
            if p is not None:
                print(f"Unsaved changes were kept in {p}; open the file and press F9 to get them back.")
        self.running = False

    # -- state -----------------------------------------------------------------------------
    def recompute(self) -> bool:
        """Re-analyse the board; on failure restore the last good board and show a banner."""
        t0 = time.perf_counter()
        if self.analysis_paused and self.paused_analysis is not None:
            self.analysis = self.paused_analysis  # a failure below restores from the real one
        self.analysis_paused = False
        self.paused_analysis = None
        try:
            self.analysis = analyse(self.board, self.rs, **self.services)
            self.models = drawn_models(self.board, self.analysis)
        except Exception as exc:  # noqa: BLE001
            self.show_error("analysis failed", exc)
            self.restore()
            return False
        self.analyse_ms = (time.perf_counter() - t0) * 1000
        self.update_compare()
        if self.drag_key is None and self.manual is None:
            self.update_overlaps()  # while dragging: once, when the drag ends
        self.last_good = self.board.copy()
        return True

    def recompute_live(self, uid: str) -> None:
        """Re-analyse during a drag of unit ``uid``. An analysis that took longer than
        :data:`ANALYSIS_BUDGET_MS` last time (a wh40k pile-in plan takes seconds) is not rerun
        on every frame: the drag keeps the last analysis, with the dragged unit's bases drawn
        where they are now and the roles as last analysed, and :meth:`end_drag` analyses once.
        Cheap analyses stay live."""
        if not self.analysis_paused and self.analyse_ms <= ANALYSIS_BUDGET_MS:
            self.recompute()
            return
        if not self.analysis_paused:
            self.analysis_paused = True
            self.paused_analysis = self.analysis
        try:
            self.analysis = paused_view(self.paused_analysis, self.board, uid)
            self.models = drawn_models(self.board, self.analysis)
        except Exception as exc:  # noqa: BLE001 - fall back to a real analysis
            self.show_error("showing the drag failed", exc)
            self.recompute()

    def update_overlaps(self) -> None:
        """Find the bases of the board that overlap (:func:`game.core.checks.overlapping_bases`
        within the ruleset's contact tolerance). Run when the board changes (loading, edits,
        undo, the end of a drag), not on every frame of a drag."""
        try:
            tol = float(self.rs.p("contact_tolerance_mm"))
            self.overlaps = overlapping_bases(self.board, tol)
        except Exception as exc:  # noqa: BLE001 - a check must never stop the window
            self.overlaps = []
            self.show_error("the overlap check failed", exc)

    def overlap_warning(self) -> str:
        """The warning line about overlapping bases ("" when none overlap)."""
        n = len(self.overlaps)
        if not n:
            return ""
        shown = ", ".join(f"{a} and {b} by {d:.1f} mm" for a, b, d in self.overlaps[:3])
        more = f", +{n - 3} more" if n > 3 else ""
        count = f"{n}+ pairs of bases overlap" if n >= 200 else (
            "1 pair of bases overlaps" if n == 1 else f"{n} pairs of bases overlap")
        return (f"Warning: {count} ({shown}{more}); analysed as placed. Move them apart "
                "(the overlapping bases are cross-hatched).")

    def update_compare(self, force: bool = False) -> None:
        """In compare mode, analyse the board under the other ruleset too and keep the models
        whose role or attack count differ (:func:`game.core.compare.differences`).

        While a unit is being dragged this runs at most once per ``4 x`` its own cost (at
        least every 0.1 s), so a slow second ruleset does not drag every frame down; the drag's
        end (or ``force``) brings it up to date."""
        if self.compare_id is None:
            self.diffs = {}
            self.compare_stale = False
            return
        dragging = self.drag_key is not None or self.manual is not None
        now = time.perf_counter()
        if dragging and not force and now - self.compare_t < max(0.1, 4 * self.compare_ms / 1000):
            self.compare_stale = True
            return
        self.compare_stale = False
        self.compare_t = now
        t0 = time.perf_counter()
        try:
            other = analyse(self.board, load_ruleset(self.compare_id), **self.services)
            self.diffs = {d.model: d for d in differences(self.analysis, other)}
        except Exception as exc:  # noqa: BLE001
            self.show_error(f"comparing with {self.compare_id} failed", exc)
            self.diffs = {}
        self.compare_ms = (time.perf_counter() - t0) * 1000

    def restore(self) -> None:
        """Go back to the last board that analysed cleanly."""
        self.board = self.last_good.copy()
        self.drag_key = None
        self.manual = None
        self.analysis_paused = False
        self.paused_analysis = None
        try:
            self._sync_ruleset()
            self.space.sync(self.board)
            self.analysis = analyse(self.board, self.rs, **self.services)
            self.models = drawn_models(self.board, self.analysis)
            self.overlaps = overlapping_bases(self.board, float(self.rs.p("contact_tolerance_mm")))
        except Exception as exc:  # noqa: BLE001
            self.show_error("could not restore the last good board", exc)

    def show_error(self, what: str, exc: BaseException) -> None:
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" ({Path(tb[-1].filename).name}:{tb[-1].lineno})" if tb else ""
        self.banner = f"{what}: {type(exc).__name__}: {exc}{where}. Kept the last good board; press Esc to dismiss."

    def roles(self, unit_id: str) -> dict[str, str]:
        """{model id: role} of one unit in the current analysis."""
        return {k: v.role for k, v in self.analysis.models.items() if k.split(".", 1)[0] == unit_id}

    # -- undo / edits ----------------------------------------------------------------------
    def push_undo(self, snapshot: Optional[Board] = None) -> None:
        self.undo_stack.append(snapshot if snapshot is not None else self.board.copy())
        self.undo_moved.append(dict(self.moved_mm))
        del self.undo_stack[:-200]
        del self.undo_moved[:-200]
        self.redo_stack.clear()
        self.redo_moved.clear()

    @staticmethod
    def _pop_moved(stack: list[dict[str, float]], boards: list[Board]) -> dict[str, float]:
        """The distances moved that go with the board about to be popped from ``boards``
        (nothing known, e.g. a board pushed by a script: no distance)."""
        if len(stack) > len(boards):
            del stack[:len(stack) - len(boards)]
        return stack.pop() if stack and len(stack) == len(boards) else {}

    def _sync_ruleset(self) -> None:
        """Follow the board's ruleset (undo / redo may bring back another one)."""
        if self.board.ruleset != self.rs.id:
            try:
                self.rs = load_ruleset(self.board.ruleset)
            except RulesetError as exc:
                self.banner = f"{exc}. Kept the ruleset {self.rs.id}."
                self.board.ruleset = self.rs.id
        if self.compare_id == self.rs.id:
            self.compare_id = self._other_ruleset(self.rs.id)
        self.refresh_dropdowns()

    def after_edit(self, message: str) -> None:
        self.dirty = True
        self.leave_steps(quiet=True)
        self._sync_ruleset()
        self.space.sync(self.board)
        self.recompute()
        self.message = message
        if time.monotonic() - self.last_autosave > AUTOSAVE_EVERY_S:
            self.autosave()

    def undo(self) -> None:
        if not self.undo_stack:
            self.message = "Nothing to undo."
            return
        self.redo_moved.append(dict(self.moved_mm))
        self.moved_mm = self._pop_moved(self.undo_moved, self.undo_stack)
        self.redo_stack.append(self.board.copy())
        self.board = self.undo_stack.pop()
        self.after_edit(f"Undone ({len(self.undo_stack)} more to undo).")

    def redo(self) -> None:
        if not self.redo_stack:
            self.message = "Nothing to redo."
            return
        self.undo_moved.append(dict(self.moved_mm))
        self.moved_mm = self._pop_moved(self.redo_moved, self.redo_stack)
        self.undo_stack.append(self.board.copy())
        self.board = self.redo_stack.pop()
        self.after_edit("Redone.")

    def blocker(self, unit: Unit, ignore: tuple = ()) -> Optional[Unit]:
        """The first other unit ``unit`` (in its new pose) overlaps by more than the tolerance."""
        mine = shapes_of(unit)
        for other in self.board.units:
            if other.id == unit.id or other.id in ignore:
                continue
            for a in mine:
                for b in shapes_of(other):
                    if g.bbox_gap(a.bbox(), b.bbox()) <= 0 and g.gap_mm(a, b) < -OVERLAP_TOL_MM:
                        return other
        return None

    def _pen(self, unit: Unit) -> float:
        keys = [(unit.id, None)] if unit.kind == "ranked" else [(unit.id, i) for i in range(len(unit.placed))]
        return max((penetration_mm(self.board, k, unit) for k in keys), default=0.0)

    def fits(self, unit: Unit, tol_mm: float = OVERLAP_TOL_MM) -> bool:
        """True when ``unit`` in its new pose overlaps others by at most ``tol_mm`` (or by no
        more than it already did)."""
        try:
            before = self._pen(self.board.unit(unit.id))
        except (KeyError, IndexError):
            before = 0.0
        return self._pen(unit) <= max(tol_mm, before + 1e-6)

    def try_replace(self, new: Unit, label: str, moved_mm: float = 0.0) -> bool:
        """Put ``new`` on the board as one undoable edit, unless it would overlap another unit."""
        if not self.fits(new):
            b = self.blocker(new)
            self.message = f"{new.name} cannot do that: {b.name if b else 'another unit'} is in the way."
            return False
        self.push_undo()
        self.board.replace_unit(new)
        if moved_mm:
            self.moved_mm[new.id] = self.moved_mm.get(new.id, 0.0) + moved_mm
        self.after_edit(label + self._moved_text(new.id))
        return True

    def _moved_text(self, uid: str) -> str:
        d = self.moved_mm.get(uid, 0.0) + (self.live_mm if self.manual or self.drag_key else 0.0)
        return f" Moved {fmt_distance(d)} since selected." if d > 0 else ""

    def clamp(self, make: Callable[[float], Unit], amount: float) -> tuple[float, Unit]:
        """The largest fraction of ``amount`` for which ``make(x)`` fits flush (bisection), and
        that unit: moves stop at base contact instead of sinking into the other unit."""
        full = make(amount)
        if self.fits(full, FLUSH_MM):
            return amount, full
        lo, hi = 0.0, 1.0
        for _ in range(24):
            mid = (lo + hi) / 2
            if self.fits(make(amount * mid), FLUSH_MM):
                lo = mid
            else:
                hi = mid
        return amount * lo, make(amount * lo)

    def selected_unit(self, what: str) -> Optional[Unit]:
        if self.selection is None:
            self.message = f"Select a unit first (click it), then {what}."
            return None
        try:
            return self.board.unit(self.selection)
        except KeyError:
            self.selection = None
            return None

    def select(self, uid: Optional[str]) -> None:
        if uid != self.selection:
            self.moved_mm.pop(uid, None) if uid else None
        self.selection = uid

    # -- manoeuvres (keys and buttons) -----------------------------------------------------
    def rotate_selected(self, deg: float) -> bool:
        """Turn the selected unit ``deg`` clockwise about its centre."""
        u = self.selected_unit("turn it with the wheel or Q/E")
        if u is None:
            return False
        dragging = self.drag_key
        if dragging is not None:
            self.end_drag()
        ok = self.try_replace(mv.turn(u, deg), f"{u.name} turned to face {(u.facing_deg + deg) % 360:.0f} deg.")
        if dragging is not None:
            self.start_drag(dragging, self.view.to_mm(self.mouse_px))
        return ok

    def step_forward(self, distance_mm: float) -> bool:
        """Move the selected unit straight forward (back if negative), up to contact."""
        u = self.selected_unit("move it with W/S")
        if u is None:
            return False
        d, new = self.clamp(lambda x: mv.forward(u, x), distance_mm)
        if abs(d) < 0.05:
            self.message = f"{u.name} cannot move {'forward' if distance_mm > 0 else 'back'}: something is in the way."
            return False
        word = "forward" if distance_mm > 0 else "back"
        note = "" if abs(d - distance_mm) < 1e-6 else " (stopped at contact)"
        return self.try_replace(new, f"{u.name} moved {fmt_distance(abs(d))} {word}{note}.", abs(d))

    def wheel_selected(self, deg: float, pivot: str) -> bool:
        """Wheel the selected unit ``deg`` (clockwise +) about its front-``pivot`` corner."""
        u = self.selected_unit("wheel it with A/D")
        if u is None:
            return False
        if u.kind != "ranked":
            self.message = "Only rank-and-file units wheel; turn skirmishers with Q/E."
            return False
        a, new = self.clamp(lambda x: mv.wheel(u, x, pivot), deg)
        if abs(a) < 0.01:
            self.message = f"{u.name} cannot wheel that way: something is in the way."
            return False
        d = mv.wheel_distance_mm(u, a)
        return self.try_replace(new, f"{u.name} wheeled {abs(a):.0f} deg about its front-{pivot} corner "
                                     f"({fmt_distance(d)}).", d)

    def reform_selected(self, delta_files: int) -> bool:
        """Reform the selected unit ``delta_files`` files wider (narrower if negative)."""
        u = self.selected_unit("reform it with [ and ]")
        if u is None:
            return False
        if u.kind != "ranked":
            self.message = "Only rank-and-file units reform."
            return False
        try:
            new = mv.reform(u, u.files + delta_files)
        except ValueError as exc:
            self.message = f"Cannot reform {u.name}: {exc}."
            return False
        return self.try_replace(new, f"{u.name} reformed {new.files} wide, {new.ranks} deep.")

    def charge(self, charger_id: str, target_id: str) -> bool:
        """Charge ``charger_id`` into contact with ``target_id`` (see :func:`manoeuvre.charge`)."""
        c, t = self.board.unit(charger_id), self.board.unit(target_id)
        if c.player == t.player:
            self.message = f"{t.name} is a friend; charge an enemy unit."
            return False
        try:
            new = mv.charge(c, t)
        except ValueError as exc:
            self.message = f"Cannot charge: {exc}."
            return False
        b = self.blocker(new)
        if b is not None:
            self.message = f"Charge refused: {c.name} would overlap {b.name} on the {mv.facing_toward(t, c.center())} of {t.name}."
            return False
        d = mv.move_distance_mm(c, new)
        ok = self.try_replace(new, f"{c.name} charged the {mv.facing_toward(t, c.center())} of {t.name} "
                                   f"({fmt_distance(d)}).", d)
        self.charger = None
        return ok

    def toggle_casualty(self, p_mm: g.Point) -> bool:
        """Remove the model under ``p_mm`` as a casualty, or restore the empty slot there."""
        for u in reversed(self.board.units):
            if u.kind == "ranked":
                if not g.point_in_poly(p_mm, u.tray().points):
                    continue
                a, b = g.to_local(p_mm, u.front, u.facing_deg)
                f = int((a + u.width_mm / 2) // u.base_w) + 1
                r = int(b // u.base_d) + 1
                if not (1 <= f <= u.files and 1 <= r <= u.ranks):
                    return False
                slot = f"r{r}f{f}"
                new = u.translated(0, 0)
                if slot in new.empty:
                    new.empty = [s for s in new.empty if s != slot]
                    return self.try_replace(new, f"{u.name}: {slot} restored ({len(new.occupied_slots())} models).")
                if (r, f) not in set(u.occupied_slots()):
                    self.message = f"{u.name}: slot {slot} holds no model (it is past the last model of the unit)."
                    return False
                if len(u.occupied_slots()) <= 1:
                    self.message = f"{u.name} has one model left; it stays."
                    return False
                new.empty = sorted(new.empty + [slot], key=lambda s: parse_slot(s))
                return self.try_replace(new, f"{u.name}: {slot} removed as a casualty "
                                             f"({len(new.occupied_slots())} models left; click again to restore).")
            for i, m in enumerate(u.models()):
                s = m.shape
                inside = g.dist(p_mm, s.center) <= s.radius_mm if isinstance(s, g.Circle) else g.point_in_poly(p_mm, s.points)
                if inside:
                    if len(u.placed) <= 1:
                        self.message = f"{u.name} has one model left; it stays."
                        return False
                    new = u.translated(0, 0)
                    new.placed = [pl for j, pl in enumerate(new.placed) if j != i]
                    return self.try_replace(new, f"{u.name}: {m.slot} removed as a casualty (Ctrl+Z brings it back).")
        self.message = "Click a model to remove it, or an empty slot of a tray to restore it."
        return False

    # -- editing (unit palette, unit panel, keys) -------------------------------------------
    def selected_or_none(self) -> Optional[Unit]:
        """The selected unit, or None (no message)."""
        if self.selection is None:
            return None
        try:
            return self.board.unit(self.selection)
        except KeyError:
            return None

    def _unit_edit(self, what: str, make: Callable[[Unit], Unit], label: Callable[[Unit, Unit], str]) -> bool:
        """Apply ``make`` to the selected unit as one undoable edit (refused, with the reason in
        the status line, when ``make`` raises ValueError or the result overlaps another unit)."""
        u = self.selected_unit(what)
        if u is None:
            return False
        try:
            new = make(u)
        except ValueError as exc:
            self.message = f"{u.name}: {exc}."
            return False
        return self.try_replace(new, label(u, new))

    @staticmethod
    def _n_models(u: Unit) -> int:
        return len(u.occupied_slots()) if u.kind == "ranked" else len(u.placed)

    def add_model_selected(self) -> bool:
        """One model more in the selected unit (skirmish: beside the last model, where it fits)."""
        return self._unit_edit("add a model with .", lambda u: ed.add_model(u, free=self.fits),
                               lambda u, n: f"{n.name}: one model more ({self._n_models(n)} models).")

    def remove_model_selected(self) -> bool:
        """One model fewer in the selected unit (the last one)."""
        return self._unit_edit("remove a model with ,", ed.remove_model,
                               lambda u, n: f"{n.name}: one model fewer ({self._n_models(n)} models).")

    def rename_selected(self, name: str) -> bool:
        """Give the selected unit the display name ``name``."""
        return self._unit_edit("rename it", lambda u: ed.renamed(u, name), lambda u, n: f"Renamed {u.name} to {n.name}.")

    def set_player_selected(self, player: int) -> bool:
        """Give the selected unit to ``player`` (1 or 2)."""
        u = self.selected_or_none()
        if u is not None and u.player == player:
            self.message = f"{u.name} already belongs to player {player}."
            return False
        return self._unit_edit("give it to a player", lambda u: ed.with_player(u, player),
                               lambda u, n: f"{n.name} now belongs to player {player}.")

    def set_base_selected(self, text: str) -> bool:
        """Put the selected unit on bases ``text`` (``"25x50"`` width x depth, ``"32"`` diameter)."""
        def make(u: Unit) -> Unit:
            return ed.set_base(u, ed.parse_base(text))
        return self._unit_edit("change its bases", make,
                               lambda u, n: f"{n.name} now stands on {ed.format_base(n.base)} mm bases.")

    def set_files_selected(self, text: Any) -> bool:
        """Make the selected rank-and-file unit ``text`` files wide (front edge kept in place)."""
        def make(u: Unit) -> Unit:
            try:
                files = int(str(text).strip())
            except ValueError:
                raise ValueError(f"files must be a whole number (got {text!r})") from None
            return ed.set_files(u, files)
        return self._unit_edit("set its files", make, lambda u, n: f"{n.name} is now {n.files} wide, {n.ranks} deep.")

    def duplicate_selected(self) -> bool:
        """Copy the selected unit beside it (the first free place right, left, behind, in front)."""
        u = self.selected_unit("duplicate it with Ctrl+D")
        if u is None:
            return False
        for c in ed.duplicate(self.board, u):
            if self.blocker(c) is None and self._on_table(c):
                self.push_undo()
                self.board.units.append(c)
                self.select(c.id)
                self.after_edit(f"Duplicated {u.name} as {c.name} ({c.id}).")
                return True
        self.message = f"There is no free room beside {u.name} for a copy."
        return False

    def delete_selected(self) -> bool:
        """Remove the selected unit from the board (Ctrl+Z brings it back)."""
        u = self.selected_unit("delete it with Delete")
        if u is None:
            return False
        self.push_undo()
        self.board = ed.without_unit(self.board, u.id)
        self.select(None)
        self.after_edit(f"Deleted {u.name} (Ctrl+Z brings it back).")
        return True

    def _on_table(self, u: Unit) -> bool:
        c = u.center()
        return -self.board.table[0] <= c[0] <= 2 * self.board.table[0] and -self.board.table[1] <= c[1] <= 2 * self.board.table[1]

    def arm_place(self, choice: ed.BaseChoice) -> None:
        """Choose the bases of the next new unit: the place tool puts it where the table is clicked."""
        self.place_choice = choice
        self.set_tool("place")
        self.message = (f"Place: click the table to put {choice.models} models on {choice.label} bases there "
                        f"(player {self.place_player}); Esc cancels.")

    def place_at(self, p_mm: g.Point) -> bool:
        """Put a new unit of the chosen bases centred on ``p_mm`` (refused where it overlaps a unit)."""
        if self.place_choice is None:
            self.message = "Choose a base size in the unit palette (U) first."
            return False
        u = ed.new_unit(self.board, self.place_choice, p_mm, self.place_player)
        b = self.blocker(u)
        if b is not None:
            self.message = f"No room there: the new unit would overlap {b.name}."
            return False
        self.push_undo()
        self.board.units.append(u)
        self.select(u.id)
        self.set_tool("move")
        self.after_edit(f"Placed {u.name} ({u.id}) for player {u.player}; F2 edits it.")
        return True

    def open_file(self, path: str) -> bool:
        """Open a scenario (a file dropped on the window). A bad file is reported in the banner
        (its file:line: field: message, as on the command line) and the current board stays.
        Unsaved changes of the current board go to its autosave file first."""
        try:
            board = load_scenario(path)
            rs = load_ruleset(board.ruleset)
        except (ScenarioError, RulesetError) as exc:
            self.banner = f"Could not open the dropped file: {exc}. Kept the current board; Esc dismisses this."
            return False
        except OSError as exc:
            self.banner = f"Could not open {path}: {exc.strerror or exc}. Kept the current board; Esc dismisses this."
            return False
        if self.dirty:
            self.autosave()
        self.leave_steps(quiet=True)
        self.path = Path(path)
        self.save_path = self._save_path(self.path)
        self.board, self.rs = board, rs
        self.undo_stack.clear()
        self.redo_stack.clear()
        self.undo_moved.clear()
        self.redo_moved.clear()
        self.moved_mm.clear()
        self.dirty = False
        self.banner = ""
        self.select(None)
        self.place_choice = None
        self.set_tool("move")
        if self.compare_id == rs.id:
            self.compare_id = self._other_ruleset(rs.id)
        self.space = TraySpace(board)
        self.options.title = self.window_title()
        self.view = fit_view(*self.screen.get_size(), board, self.options, margin_mm=80)
        self.refresh_dropdowns()
        if pygame.display.get_surface() is self.screen:
            pygame.display.set_caption(f"Melee Lens - {self.window_title()}")
        self.recompute()
        self.message = f"Opened {self.path.name} ({len(board.units)} units, ruleset {rs.id})."
        return True

    # -- rulesets and compare mode --------------------------------------------------------
    def usable_rulesets(self) -> list[str]:
        """Ruleset ids the window offers for this board. Warhammer 40,000 has no rank-and-file
        units, and its pile-in engine, asked to move every base of a tray one by one, takes
        minutes on such a board; so wh40k is offered only for boards without ranked units."""
        return usable_rulesets(self.board, available(), keep=self.rs.id)

    def _other_ruleset(self, rid: str) -> Optional[str]:
        """The natural ruleset to compare ``rid`` with (:func:`game.core.compare.partner`:
        the one it inherits from or that inherits from it, else the same engine, else the next)."""
        return compare_partner(rid, self.usable_rulesets())

    def set_ruleset(self, rid: str) -> bool:
        """Analyse the board under ruleset ``rid`` (an undoable edit of the board's ruleset).
        The message counts the models that fight differently than before."""
        if rid == self.rs.id:
            return False
        try:
            rs = load_ruleset(rid)
        except RulesetError as exc:
            self.banner = str(exc)
            return False
        if rid not in self.usable_rulesets():
            self.message = (f"{rs.name} has no rank-and-file units: switch to it on a board of models placed one "
                            "by one (its pile-in would take minutes to move every base of these trays).")
            return False
        before, old = self.analysis, self.rs.id
        self.push_undo()
        self.board.ruleset = rs.id
        self.after_edit("")
        n = len(differences(before, self.analysis))
        self.message = (f"Ruleset {rs.name} ({rs.id}): {n} model{'s' if n != 1 else ''} fight differently than under "
                        f"{old}. R cycles, Ctrl+Z goes back.")
        return True

    def cycle_ruleset(self, step: int = 1) -> bool:
        """Switch to the next (``step`` 1) or previous (-1) ruleset this board can use."""
        ids = self.usable_rulesets()
        i = ids.index(self.rs.id) if self.rs.id in ids else -1
        return self.set_ruleset(ids[(i + step) % len(ids)])

    def set_compare(self, rid: Optional[str]) -> None:
        """Compare mode against ruleset ``rid`` (None: off)."""
        if rid == self.rs.id or (rid is not None and rid not in self.usable_rulesets()):
            rid = self._other_ruleset(self.rs.id)
        self.compare_id = rid
        self.recompute()
        self.refresh_dropdowns()
        if rid is None:
            self.message = "Compare mode off."
        else:
            self.message = (f"Compare mode: {len(self.diffs)} model(s) fight differently under {rid} (hatched, "
                            f"ringed in yellow; hover one to read how). Shift+K picks another ruleset, K turns it off.")

    def toggle_compare(self) -> None:
        self.set_compare(None if self.compare_id else self._other_ruleset(self.rs.id))

    def cycle_compare(self) -> None:
        others = [x for x in self.usable_rulesets() if x != self.rs.id]
        if not others:
            return
        i = others.index(self.compare_id) if self.compare_id in others else -1
        self.set_compare(others[(i + 1) % len(others)])

    def differ_options(self) -> tuple[dict, str]:
        """(``{model id: tooltip line}``, legend label) of the compare mode for ``draw_scene``."""
        if not self.compare_id or self.steps is not None:
            return {}, ""
        other = self.compare_id
        word = {"attack": "fights", "support": "support", "none": "does not fight"}
        out = {}
        for mid, d in self.diffs.items():
            b = word.get(d.b[0], d.b[0]) + (f" x{d.b[1]}" if d.b[0] != "none" else "")
            a = word.get(d.a[0], d.a[0]) + (f" x{d.a[1]}" if d.a[0] != "none" else "")
            out[mid] = f"Under {other}: {b} (under {self.rs.id}: {a})"
        return out, f"Differs under {other}"

    # -- Warhammer 40,000 Fight phase steps -------------------------------------------------
    def enter_steps(self, index: int = 0) -> bool:
        """Show step ``index`` of the phase steps of the ruleset's strategy (``phase_steps``:
        the Warhammer 40,000 Fight phase), computed once per board. Only for strategies with steps."""
        strat = strategy_of(self.rs)
        if not getattr(strat, "has_phase_steps", False):
            self.message = (f"Stepping through a phase needs a rule system with phase steps (Warhammer 40,000's Fight "
                            f"phase); this board is analysed under {self.rs.id} (R switches the ruleset).")
            return False
        if self.drag_key is not None or self.manual is not None:
            self.end_drag()
        from game.core.scenario import dump_scenario

        key = (dump_scenario(self.board), self.rs.id)
        if self.steps_key != key:
            try:
                self.steps_cache = strat.phase_steps(self.board, self.rs, self.services)
            except Exception as exc:  # noqa: BLE001
                self.show_error("the Fight phase steps failed", exc)
                return False
            self.steps_key = key
        self.steps = self.steps_cache
        self.step_i = max(0, min(index, len(self.steps) - 1))
        self._show_step()
        return True

    def step(self, delta: int) -> None:
        """Next (``+1``) or previous (``-1``) Fight phase step; from the board, N or P shows step 1."""
        if self.steps is None:
            self.enter_steps(0)
            return
        i = self.step_i + delta
        if i < 0:
            self.leave_steps()
            return
        if i >= len(self.steps):
            self.message = f"That was the last step ({len(self.steps)} of {len(self.steps)}). P goes back, Home leaves."
            return
        self.step_i = i
        self._show_step()

    def _show_step(self) -> None:
        caption, board, analysis = self.steps[self.step_i]
        self.step_models = drawn_models(board, analysis)
        self.hover = None
        self.message = f"Step {self.step_i + 1} of {len(self.steps)}: N next, P back, Home or Esc: back to the board."

    def leave_steps(self, quiet: bool = False) -> None:
        """Back to the editable board."""
        if self.steps is None:
            return
        self.steps = None
        self.step_models = []
        if not quiet:
            self.message = "Back to the editable board."

    def shown(self) -> tuple[Board, Analysis, list[DrawnModel]]:
        """What the window shows: the board, or the current Fight phase step."""
        if self.steps is not None:
            _, b, a = self.steps[self.step_i]
            return b, a, self.step_models
        return self.board, self.analysis, self.models

    # -- tape ------------------------------------------------------------------------------
    def tape_end(self, p_mm: g.Point) -> tuple[str, g.Shape]:
        dm = model_at(self.models, p_mm)
        if dm is not None:
            return dm.id, dm.shape
        return "", g.Circle(p_mm, 0.0)

    def measure(self, a: tuple[str, g.Shape], b: tuple[str, g.Shape]) -> dict:
        """Edge-to-edge distance between two tape ends (models or points)."""
        gap = g.gap_mm(a[1], b[1])
        tol = float(self.rs.p("contact_tolerance_mm"))
        pa, pb = g.closest_points(a[1], b[1])
        if gap <= tol:
            text = '0" (touching)' if a[0] and b[0] else '0"'
            gap = 0.0
        else:
            text = fmt_distance(gap)
        return {"a": a, "b": b, "gap_mm": gap, "p0": pa, "p1": pb, "text": text}

    # -- gui -------------------------------------------------------------------------------
    def _build_gui(self) -> None:
        import pygame_gui

        self.pg_gui = pygame_gui
        self.gui = pygame_gui.UIManager(self.screen.get_size())
        self.gui.preload_fonts([{"name": "noto_sans", "point_size": 14, "style": "bold", "antialiased": "1"}])
        specs = [("Move", "tool:move", "1 / V: drag units freely"), ("Forward", "tool:forward", "2 / G: drag along the facing"),
                 ("Wheel", "tool:wheel", "3 / H: drag to wheel about a front corner"),
                 ("Charge", "tool:charge", "4 / C: charge the selected unit into an enemy"),
                 ("Casualty", "tool:casualty", "5 / X: remove or restore models"),
                 ("Tape", "tool:tape", "6 / M: measure edge to edge"), None,
                 ("Turn L", "turn:-90", "Shift+T"), ("Turn R", "turn:90", "T"), ("About", "turn:180", "B"),
                 ("Files -", "files:-1", "["), ("Files +", "files:1", "]"), None,
                 ("Undo", "undo", "Ctrl+Z"), ("Redo", "redo", "Ctrl+Shift+Z"), ("Save", "save", "Ctrl+S"),
                 ("Help", "help", "F1")]
        row2 = [("Units", "palette", "U: new-unit palette (base sizes)"), ("Unit", "panel", "F2: properties of the selected unit"),
                ("Copy", "duplicate", "Ctrl+D: duplicate the selected unit"), ("Delete", "delete", "Delete"),
                ("Model -", "model:-1", ", (comma)"), ("Model +", "model:1", ". (full stop)"), None,
                "rules", "compare", None,
                ("Step <", "step:-1", "P / PageUp: previous Fight phase step (wh40k)"),
                ("Step >", "step:1", "N / PageDown: next Fight phase step (wh40k)"),
                ("Board", "board", "Home / Esc: back to the editable board")]
        for y, row in ((ROW1_Y, specs), (ROW2_Y, row2)):
            x = 8
            for spec in row:
                if spec is None:
                    x += 12
                    continue
                if isinstance(spec, str):
                    self.dropdown_x = getattr(self, "dropdown_x", {})
                    self.dropdown_x[spec] = (x, y)
                    x += 176
                    continue
                text, action, tip = spec
                b = pygame_gui.elements.UIButton(pygame.Rect(x, y, 76, 30), text, manager=self.gui, tool_tip_text=tip)
                self.buttons[b] = action
                x += 80
        self.refresh_dropdowns()

    def _rules_label(self) -> str:
        return f"Rules: {self.rs.id}"

    def _compare_label(self) -> str:
        return f"Compare: {self.compare_id}" if self.compare_id else "Compare: off"

    def refresh_dropdowns(self) -> None:
        """(Re)build the ruleset and compare drop-downs when what they show is out of date
        (a pygame_gui drop-down cannot change its selection in place)."""
        if self.gui is None or not hasattr(self, "dropdown_x"):
            return
        ids = self.usable_rulesets()
        want = {"rules": (self._rules_label(), [f"Rules: {r}" for r in ids]),
                "compare": (self._compare_label(), ["Compare: off"] + [f"Compare: {r}" for r in ids if r != self.rs.id])}
        for name, (cur, opts) in want.items():
            dd = self.dropdowns.get(name)
            if dd is not None and dd.alive() and dd.selected_option[0] == cur and \
                    [o if isinstance(o, str) else o[0] for o in dd.options_list] == opts:
                continue
            if dd is not None:
                dd.kill()
            x, y = self.dropdown_x[name]
            self.dropdowns[name] = self.pg_gui.elements.UIDropDownMenu(opts, cur, pygame.Rect(x, y, 170, 30), self.gui)

    def button_rect(self, action: str) -> Optional[pygame.Rect]:
        """Screen rectangle of the toolbar button doing ``action`` (for tests and scripts)."""
        for b, a in self.buttons.items():
            if a == action:
                return b.rect
        return None

    def do_action(self, action: str) -> None:
        if action.startswith("tool:"):
            self.set_tool(action.split(":", 1)[1])
        elif action.startswith("turn:"):
            self.rotate_selected(float(action.split(":", 1)[1]))
        elif action.startswith("files:"):
            self.reform_selected(int(action.split(":", 1)[1]))
        elif action == "undo":
            self.undo()
        elif action == "redo":
            self.redo()
        elif action == "save":
            self.save()
        elif action == "help":
            self.toggle_help()
        elif action == "palette":
            self.toggle_palette()
        elif action == "panel":
            self.toggle_unit_panel()
        elif action == "duplicate":
            self.duplicate_selected()
        elif action == "delete":
            self.delete_selected()
        elif action.startswith("model:"):
            self.add_model_selected() if action.endswith(":1") else self.remove_model_selected()
        elif action.startswith("step:"):
            self.step(int(action.split(":", 1)[1]))
        elif action == "board":
            self.leave_steps()

    def toggle_palette(self) -> None:
        """Open / close the new-unit palette."""
        if self.palette_panel is not None and self.palette_panel.alive():
            self.palette_panel.kill()
            self.palette_panel = None
            return
        if self.gui is None:
            self.message = "Palette: " + ", ".join(c.label for c in ed.BASE_PALETTE)
            return
        from .panels import PalettePanel

        self.palette_panel = PalettePanel(self, pygame.Rect(8, GUI_ROWS_PX + 40, 300, 280))

    def toggle_unit_panel(self, focus_name: bool = False) -> None:
        """Open / close the properties panel of the selected unit (``focus_name``: open and
        put the cursor in the name field)."""
        if self.unit_panel is not None and self.unit_panel.alive() and not focus_name:
            self.unit_panel.kill()
            self.unit_panel = None
            return
        if self.gui is None:
            return
        from .panels import UnitPanel

        if self.unit_panel is None or not self.unit_panel.alive():
            self.unit_panel = UnitPanel(self, self.unit_panel_rect())
        self.unit_panel.show(self.selected_or_none())
        if focus_name and self.unit_panel.entry("name") is not None:
            self.gui.set_focus_set(self.unit_panel.entry("name"))

    def unit_panel_rect(self, size: tuple[int, int] = (290, 300)) -> pygame.Rect:
        """Where the unit panel opens: the top right corner of the table, left of the legend
        (at the window's right edge when the table is too narrow for it beside the palette)."""
        w, h = self.screen.get_size()
        left, top, tw, th = scene_layout(self.canvas, self.board, self.options).table
        shadow = 16  # a pygame_gui window draws its shadow around the rectangle it is given
        x = left + tw - size[0] - shadow - 6
        if x < 8 + 300 + shadow:  # would cover the new-unit palette: over the legend then
            x = w - size[0] - 10
        return pygame.Rect(x, top + 6, *size)

    def help_text(self) -> str:
        """The F1 help as pygame_gui HTML: every shortcut and every tool."""
        rows = "".join(f"<b>{k}</b>: {v}<br>" for k, v in SHORTCUTS)
        tools = "".join(f"{TOOL_HINT[t]}<br>" for t in TOOLS)
        return f"{rows}<br><b>Tools</b><br>{tools}"

    def help_open(self) -> bool:
        """True while the F1 help window is shown."""
        return self.help_window is not None and self.help_window.alive()

    def over_gui(self, px: tuple[float, float]) -> bool:
        """True when a pygame_gui element (a panel, the help, an open drop-down list, a toolbar
        button) is under window point ``px``."""
        if self.gui is None:
            return False
        root = self.gui.get_root_container()
        return any(el is not root and getattr(el, "visible", 1) and el.rect.collidepoint(px)
                   for el in self.gui.get_sprite_group().sprites())

    def toggle_help(self) -> None:
        """Open the F1 help window, or close it when it is open (Esc closes it too)."""
        if self.help_window is not None and self.help_window.alive():
            self.help_window.kill()
            self.help_window = None
            return
        if self.gui is None:
            self.message = " | ".join(f"{k}: {v}" for k, v in SHORTCUTS)
            return
        w, h = self.screen.get_size()
        top = TITLE_PX + GUI_ROWS_PX + 6  # under the toolbar, which stays usable
        rect = pygame.Rect(max(0, w // 2 - 380), top, min(760, w), max(200, min(h - top - 36, 640)))
        self.help_window = self.pg_gui.elements.UIWindow(rect, self.gui,
                                                         window_display_title="Melee Lens: shortcuts (F1 or Esc closes)")
        cont = self.help_window.get_container().get_rect()
        self.pg_gui.elements.UITextBox(self.help_text(), pygame.Rect(0, 0, cont.w, cont.h), manager=self.gui,
                                       container=self.help_window)

    def set_tool(self, tool: str) -> None:
        if tool not in TOOLS:
            return
        if tool == "place" and self.place_choice is None:
            self.toggle_palette() if self.palette_panel is None else None
            self.message = "Choose a base size in the unit palette first."
            return
        self.tool = tool
        self.charger = None
        if tool != "tape":
            self.tape = None
        self.message = TOOL_HINT[tool]

    # -- geometry helpers ------------------------------------------------------------------
    def in_table_area(self, px: tuple[float, float]) -> bool:
        l, t, w, h = scene_layout(self.canvas, self.board, self.options).table
        return l <= px[0] < l + w and t <= px[1] < t + h

    def body_at(self, p_mm: g.Point) -> Optional[Key]:
        """The draggable body under table point ``p_mm`` (tray or skirmish model)."""
        for u in reversed(self.board.units):
            if u.kind == "ranked":
                if g.point_in_poly(p_mm, u.tray().points):
                    return (u.id, None)
            else:
                for i, m in enumerate(u.models()):
                    s = m.shape
                    inside = (g.dist(p_mm, s.center) <= s.radius_mm) if isinstance(s, g.Circle) else g.point_in_poly(p_mm, s.points)
                    if inside:
                        return (u.id, i)
        return None

    # -- drags -----------------------------------------------------------------------------
    def start_drag(self, key: Key, p_mm: g.Point) -> None:
        self.drag_key = key
        self.drag_before = self.board.copy()
        self.drag_unit0 = self.board.unit(key[0])
        self.live_mm = 0.0
        self.drag_dir = None
        self.space.start_drag(self.board, key, p_mm)

    def end_drag(self) -> None:
        """Finish a pymunk or manual drag; it becomes one undoable edit if anything moved.

        A pymunk drag that leaves the body within :data:`SNAP_MM` of base contact (the contact
        solver stops it a few hundredths of a millimetre short or deep) is set exactly flush,
        moved along its last step or its whole displacement
        (:func:`game.physics.trays.snap_to_contact`)."""
        snapped = None
        if self.drag_key is not None:
            self.space.end_drag()
            try:
                uid0, idx0 = self.drag_key
                whole = g.sub(pose_of(self.board.unit(uid0), idx0)[0], pose_of(self.drag_unit0, idx0)[0])
                # never further than the contact tolerance: snapping must not turn "apart" into "touching"
                reach = min(SNAP_MM, float(self.rs.p("contact_tolerance_mm")))
                snapped = snap_to_contact(self.board, self.drag_key, [self.drag_dir, whole], reach)
            except Exception:  # noqa: BLE001 - snapping is a nicety; the drag stands without it
                snapped = None
            if snapped is not None and self.drag_unit0 is not None:
                self.board.replace_unit(snapped)
                self.space.sync(self.board)
                self.live_mm = mv.move_distance_mm(self.drag_unit0, snapped)
        uid = self.drag_unit0.id if self.drag_unit0 is not None else None
        before_board, live = self.drag_before, self.live_mm
        # the drag is over before the distance is committed: _moved_text adds the live
        # distance only while a drag runs, so it must not see this one twice
        self.drag_key = None
        self.manual = None
        self.drag_before = None
        self.drag_unit0 = None
        self.live_mm = 0.0
        self.drag_dir = None
        if snapped is not None or self.analysis_paused:
            self.recompute()  # a paused analysis (see recompute_live) catches up once, here
        if uid is not None and before_board is not None:
            before, after = before_board.unit(uid), self.board.unit(uid)
            if before.pose_key() != after.pose_key():
                self.push_undo(before_board)
                self.dirty = True
                self.moved_mm[uid] = self.moved_mm.get(uid, 0.0) + live
                self.message = f"{after.name} placed." + self._moved_text(uid)
                self.update_overlaps()

    def update_manual_drag(self) -> None:
        """Forward / wheel drags: the unit follows the mouse along the one allowed motion."""
        u0 = self.drag_unit0
        p = self.view.to_mm(self.mouse_px)
        if self.manual == "forward":
            d = g.dot(g.sub(p, self.grab_mm), g.forward(u0.facing_deg))
            d, new = self.clamp(lambda x: mv.forward(u0, x), d)
            self.live_mm = abs(d)
        else:
            fl, fr = mv.front_corners(u0)
            pivot = fl if self.wheel_pivot == "left" else fr
            a0 = math.atan2(self.grab_mm[1] - pivot[1], self.grab_mm[0] - pivot[0])
            a1 = math.atan2(p[1] - pivot[1], p[0] - pivot[0])
            deg = (math.degrees(a1 - a0) + 180) % 360 - 180
            deg, new = self.clamp(lambda x: mv.wheel(u0, x, self.wheel_pivot), deg)
            self.live_mm = mv.wheel_distance_mm(u0, deg)
        if new.pose_key() != self.board.unit(u0.id).pose_key():
            self.board.replace_unit(new)
            self.recompute_live(u0.id)

    # -- events ----------------------------------------------------------------------------
    def handle(self, ev: pygame.event.Event) -> None:
        """Apply one pygame event."""
        if ev.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.mouse_px = ev.pos
        if self.gui is not None:
            ui_types = (self.pg_gui.UI_BUTTON_PRESSED, self.pg_gui.UI_DROP_DOWN_MENU_CHANGED,
                        self.pg_gui.UI_TEXT_ENTRY_FINISHED)
            if ev.type in ui_types:
                # pygame_gui needs its own button presses too: the x of a window closes it there
                self.gui.process_events(ev)
                self.handle_ui(ev)
                self.forget_closed_windows()
                return
            if ev.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT) and self.typing():
                # a text field has the keyboard: keys are text, not board shortcuts (Esc leaves it)
                if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                    self.gui.set_focus_set(None)
                    return
                self.gui.process_events(ev)
                return
            if ev.type == pygame.MOUSEWHEEL and self.over_gui(self.mouse_px):
                self.gui.process_events(ev)  # scrolls the help, a list ...: never the board behind
                return
            if self.gui.process_events(ev) and ev.type != pygame.MOUSEMOTION:
                return
        if ev.type == pygame.DROPFILE:
            self.open_file(ev.file)
        elif ev.type == pygame.QUIT:
            self.quit()
        elif ev.type == pygame.VIDEORESIZE:
            self.screen = pygame.display.get_surface() or self.screen
            self.canvas = PygameCanvas(self.screen)
            if self.gui is not None:
                self.gui.set_window_resolution(self.screen.get_size())
        elif ev.type == pygame.MOUSEMOTION:
            self.on_motion(ev.pos)
        elif ev.type == pygame.MOUSEBUTTONDOWN:
            if ev.button == 1:
                self.on_left_down(ev.pos)
            elif ev.button in (2, 3):
                self.pan_from = ev.pos
        elif ev.type == pygame.MOUSEBUTTONUP:
            if ev.button == 1:
                self.on_left_up(ev.pos)
            elif ev.button in (2, 3):
                self.pan_from = None
        elif ev.type == pygame.MOUSEWHEEL:
            self.on_wheel(ev.y, pygame.key.get_mods())
        elif ev.type == pygame.KEYDOWN:
            self.on_key(ev.key, getattr(ev, "mod", 0))

    def forget_closed_windows(self) -> None:
        """Drop the help, palette and unit panel once their window is gone (closed with its x
        button, Esc, its key or its toolbar button), so the app never holds a dead window."""
        if self.help_window is not None and not self.help_window.alive():
            self.help_window = None
        if self.palette_panel is not None and not self.palette_panel.alive():
            self.palette_panel = None
        if self.unit_panel is not None and not self.unit_panel.alive():
            self.unit_panel = None

    def close_panel(self) -> bool:
        """Close the unit panel, else the palette (Esc). Returns True when one was open."""
        for name in ("unit_panel", "palette_panel"):
            panel = getattr(self, name)
            if panel is not None and panel.alive():
                panel.kill()
                setattr(self, name, None)
                return True
        return False

    def typing(self) -> bool:
        """True while a pygame_gui text field (the unit panel's name, base or files) has the
        keyboard focus: key presses then go to the field only."""
        if self.gui is None:
            return False
        entry_types = (self.pg_gui.elements.UITextEntryLine, self.pg_gui.elements.UITextEntryBox)
        return any(isinstance(el, entry_types) and el.is_focused and el.alive()
                   for el in (self.gui.get_focus_set() or ()))

    def handle_ui(self, ev: pygame.event.Event) -> None:
        """A pygame_gui event: toolbar button, drop-down or panel."""
        for panel in (self.palette_panel, self.unit_panel):
            if panel is not None and panel.alive() and panel.handle(ev):
                return
        el = getattr(ev, "ui_element", None)
        if ev.type == self.pg_gui.UI_BUTTON_PRESSED:
            action = self.buttons.get(el)
            if action:
                self.do_action(action)
        elif ev.type == self.pg_gui.UI_DROP_DOWN_MENU_CHANGED:
            if el is self.dropdowns.get("rules"):
                self.set_ruleset(ev.text.split(": ", 1)[1])
            elif el is self.dropdowns.get("compare"):
                rid = ev.text.split(": ", 1)[1]
                self.set_compare(None if rid == "off" else rid)

    def on_motion(self, pos: tuple[float, float]) -> None:
        if self.pan_from is not None:
            self.view.pan(pos[0] - self.pan_from[0], pos[1] - self.pan_from[1])
            self.pan_from = pos
        if self.tape is not None and self.tape.get("live"):
            self.tape = dict(self.measure(self.tape["a"], self.tape_end(self.view.to_mm(pos))), live=True)

    def on_left_down(self, pos: tuple[float, float]) -> None:
        if not self.in_table_area(pos):
            return
        p = self.view.to_mm(pos)
        if self.steps is not None:
            self.message = "This is a Fight phase step, not the board: Home or Esc goes back to edit it."
            return
        if self.tool == "place":
            self.place_at(p)
            return
        if self.tool == "tape":
            a = self.tape_end(p)
            self.tape = dict(self.measure(a, a), live=True)
            return
        if self.tool == "casualty":
            self.toggle_casualty(p)
            return
        key = self.body_at(p)
        if self.tool == "charge":
            if key is None:
                self.message = TOOL_HINT["charge"]
                return
            if self.charger is None and self.selection is not None and self.selection != key[0]:
                self.charger = self.selection
            if self.charger is None or self.charger == key[0]:
                self.charger = key[0]
                self.select(key[0])
                self.message = f"{self.board.unit(key[0]).name} will charge: now click the enemy unit."
                return
            self.charge(self.charger, key[0])
            return
        if key is None:
            self.select(None)
            self.message = "Nothing there. Click a unit to select it; drag to move it."
            return
        self.select(key[0])
        u = self.board.unit(key[0])
        if self.tool in ("forward", "wheel"):
            if self.tool == "wheel" and u.kind != "ranked":
                self.message = "Only rank-and-file units wheel; turn skirmishers with Q/E."
                return
            self.manual = self.tool
            self.grab_mm = p
            self.drag_before = self.board.copy()
            self.drag_unit0 = u
            self.live_mm = 0.0
            if self.tool == "wheel":
                across, _ = g.to_local(p, u.front, u.facing_deg)
                self.wheel_pivot = "left" if across >= 0 else "right"  # the grabbed end swings
            self.message = f"{'Moving' if self.tool == 'forward' else 'Wheeling'} {u.name}."
            return
        self.start_drag(key, p)
        self.message = f"Dragging {u.name}. Wheel or Q/E turns it."

    def on_left_up(self, pos: tuple[float, float]) -> None:
        if self.tape is not None and self.tape.get("live"):
            self.tape = dict(self.measure(self.tape["a"], self.tape_end(self.view.to_mm(pos))), live=False)
            self.message = f"Tape: {self.tape['text']} edge to edge."
            return
        if self.drag_key is not None or self.manual is not None:
            self.end_drag()

    def on_wheel(self, dy: float, mods: int) -> None:
        if dy == 0:
            return
        if mods & pygame.KMOD_CTRL or (self.selection is None and self.drag_key is None):
            self.view.zoom_about(ZOOM_STEP ** dy, self.mouse_px)
        else:
            step = FINE_DEG if mods & pygame.KMOD_SHIFT else ROTATE_STEP_DEG
            self.rotate_selected(step * (1 if dy > 0 else -1))

    def on_key(self, key: int, mod: int) -> None:
        shift = bool(mod & pygame.KMOD_SHIFT)
        ctrl = bool(mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        tools_by_key = {pygame.K_1: "move", pygame.K_v: "move", pygame.K_2: "forward", pygame.K_g: "forward",
                        pygame.K_3: "wheel", pygame.K_h: "wheel", pygame.K_4: "charge", pygame.K_c: "charge",
                        pygame.K_5: "casualty", pygame.K_x: "casualty", pygame.K_6: "tape", pygame.K_m: "tape"}
        view_keys = {pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_PLUS, pygame.K_EQUALS,
                     pygame.K_KP_PLUS, pygame.K_MINUS, pygame.K_KP_MINUS, pygame.K_f, pygame.K_l, pygame.K_F1,
                     pygame.K_ESCAPE, pygame.K_HOME, pygame.K_n, pygame.K_p, pygame.K_PAGEUP, pygame.K_PAGEDOWN}
        if self.steps is not None and not ctrl and key not in view_keys and key not in (pygame.K_r, pygame.K_k):
            self.message = ("This is a Fight phase step: N / P step, Home or Esc goes back to the board to edit it.")
            return
        if self.steps is not None and ctrl and key not in (pygame.K_q, pygame.K_s):
            self.leave_steps()
        if ctrl:
            if key == pygame.K_d:
                self.duplicate_selected()
            elif key in (pygame.K_1, pygame.K_2, pygame.K_KP1, pygame.K_KP2):
                self.set_player_selected(1 if key in (pygame.K_1, pygame.K_KP1) else 2)
            elif key == pygame.K_z:
                self.redo() if shift else self.undo()
            elif key == pygame.K_y:
                self.redo()
            elif key == pygame.K_s:
                self.save()
            elif key == pygame.K_q:
                self.quit()
            return
        if key == pygame.K_ESCAPE:
            if self.help_open():
                self.toggle_help()
            elif self.close_panel():
                pass
            elif self.banner:
                self.banner = ""
            elif self.steps is not None:
                self.leave_steps()
            elif self.tape is not None or self.tool != "move":
                self.tape = None
                self.set_tool("move")
            else:
                self.select(None)
        elif key == pygame.K_F1:
            self.toggle_help()
        elif key == pygame.K_HOME:
            self.leave_steps()
        elif key in (pygame.K_n, pygame.K_PAGEDOWN):
            self.step(1)
        elif key in (pygame.K_p, pygame.K_PAGEUP):
            self.step(-1)
        elif key == pygame.K_r:
            self.leave_steps(quiet=True)
            self.cycle_ruleset(-1 if shift else 1)
        elif key == pygame.K_k:
            self.cycle_compare() if shift else self.toggle_compare()
        elif key == pygame.K_u:
            self.toggle_palette()
        elif key == pygame.K_F2:
            if self.unit_panel is not None and self.unit_panel.alive():
                self.toggle_unit_panel()
            else:
                self.toggle_unit_panel(focus_name=True)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.toggle_unit_panel(focus_name=True)
        elif key == pygame.K_COMMA:
            self.remove_model_selected()
        elif key == pygame.K_PERIOD:
            self.add_model_selected()
        elif key == pygame.K_DELETE:
            self.delete_selected()
        elif key == pygame.K_F9:
            self.load_autosave()
        elif key in tools_by_key:
            self.set_tool(tools_by_key[key])
        elif key in (pygame.K_q, pygame.K_e):
            step = FINE_DEG if shift else ROTATE_STEP_DEG
            self.rotate_selected(step if key == pygame.K_e else -step)
        elif key in (pygame.K_w, pygame.K_s):
            d = FINE_MM if shift else STEP_MM
            self.step_forward(d if key == pygame.K_w else -d)
        elif key in (pygame.K_a, pygame.K_d):
            a = FINE_DEG if shift else ROTATE_STEP_DEG
            self.wheel_selected(-a if key == pygame.K_a else a, "left" if key == pygame.K_a else "right")
        elif key == pygame.K_t:
            self.rotate_selected(-90.0 if shift else 90.0)
        elif key == pygame.K_b:
            self.rotate_selected(180.0)
        elif key == pygame.K_LEFTBRACKET:
            self.reform_selected(-1)
        elif key == pygame.K_RIGHTBRACKET:
            self.reform_selected(1)
        elif key == pygame.K_LEFT:
            self.view.pan(PAN_STEP_PX, 0)
        elif key == pygame.K_RIGHT:
            self.view.pan(-PAN_STEP_PX, 0)
        elif key == pygame.K_UP:
            self.view.pan(0, PAN_STEP_PX)
        elif key == pygame.K_DOWN:
            self.view.pan(0, -PAN_STEP_PX)
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.view.zoom_about(ZOOM_STEP, self._zoom_anchor())
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.view.zoom_about(1 / ZOOM_STEP, self._zoom_anchor())
        elif key == pygame.K_f:
            self.view = fit_view(*self.screen.get_size(), self.board, self.options, margin_mm=80)
        elif key == pygame.K_l:
            self.options.legend = not self.options.legend

    def _zoom_anchor(self) -> tuple[float, float]:
        if self.in_table_area(self.mouse_px):
            return self.mouse_px
        l, t, w, h = scene_layout(self.canvas, self.board, self.options).table
        return (l + w / 2, t + h / 2)

    # -- frame -----------------------------------------------------------------------------
    def update(self) -> None:
        """Step the running drag (writing the pose to the board and re-analysing) and hover."""
        if self.drag_key is not None:
            pos = self.space.drag_to(self.board, self.view.to_mm(self.mouse_px))
            if pos is not None:
                uid, idx = self.drag_key
                prev, _ = pose_of(self.board.unit(uid), idx)
                if g.dist(prev, pos) > 1e-6:
                    self.drag_dir = g.sub(pos, prev)
                self.board.replace_unit(with_position(self.board.unit(uid), idx, pos))
                self.live_mm = mv.move_distance_mm(self.drag_unit0, self.board.unit(uid)) if self.drag_unit0 else 0.0
                self.recompute_live(uid)
        elif self.manual is not None:
            self.update_manual_drag()
        if self.compare_stale and self.drag_key is None and self.manual is None:
            self.update_compare(force=True)
        self.forget_closed_windows()
        if self.unit_panel is not None:
            self.unit_panel.show(self.selected_or_none())
        busy = self.drag_key is not None or self.manual is not None or self.pan_from is not None
        # no model tooltip over a panel or drop-down, nor while the help is open
        covered = self.help_open() or self.over_gui(self.mouse_px)
        if not busy and not covered and self.in_table_area(self.mouse_px) and self.tool not in ("tape", "place"):
            dm = model_at(self.shown()[2], self.view.to_mm(self.mouse_px))
            self.hover = dm.id if dm else None
        else:
            self.hover = None

    def status_parts(self) -> list[tuple[int, str]]:
        """The status line as ``(rank, text)`` parts in display order; rank 0 is kept
        always (tool or step, the message), higher ranks are dropped first when the line is
        too long for the window (see :meth:`status_text`)."""
        sel = ""
        if self.selection:
            try:
                u = self.board.unit(self.selection)
                c, f = pose_of(u)
                shape = f", {u.files} wide x {u.ranks} deep" if u.kind == "ranked" else ""
                moved = self.moved_mm.get(u.id, 0.0) + (self.live_mm if self.drag_key or self.manual else 0.0)
                sel = f"{u.name}: facing {f:.0f} deg{shape}, moved {fmt_distance(moved)}"
            except KeyError:
                self.selection = None
        mode = f"[{self.tool}]"
        if self.steps is not None:
            mode = f"[Fight phase step {self.step_i + 1}/{len(self.steps)}]"
            sel = ""
        parts: list[tuple[int, str]] = [(0, mode)]
        if self.analysis_paused:
            parts.append((1, f"analysis paused while dragging ({self.analyse_ms / 1000:.1f} s); updates when you "
                             "release"))
        if sel:
            parts.append((3, sel))
        parts.append((0, self.message))
        if self.dirty:
            parts.append((2, "unsaved changes"))
        if self.compare_id and self.steps is None:
            parts.append((4, f"K: vs {self.compare_id}, {len(self.diffs)} differ ({self.compare_ms:.1f} ms)"))
        parts.append((5, f"rules {self.rs.id} (R)"))
        parts.append((6, f"frame {self.frame_ms:.1f} ms, analysis {self.analyse_ms:.1f} ms"))
        return [(r, t) for r, t in parts if t]

    def status_text(self, max_w: Optional[float] = None) -> str:
        """The status line. With ``max_w`` (px at the status font), the least important parts
        (timings, ruleset, compare, selection) are left out until it fits; what is still too
        long is cut with an ellipsis where it is drawn."""
        parts = self.status_parts()

        def join(ps: list[tuple[int, str]]) -> str:
            return ps[0][1] + " " + "  |  ".join(t for _, t in ps[1:]) if len(ps) > 1 else ps[0][1]

        if max_w is not None:
            size = max(7, int(round(13 * self.options.font_scale)))
            while self.canvas.text_size(join(parts), size)[0] > max_w and max(r for r, _ in parts) > 0:
                worst = max(r for r, _ in parts)
                k = max(i for i, (r, _) in enumerate(parts) if r == worst)
                parts.pop(k)
        return join(parts)

    def overlays(self) -> list:
        out: list = []
        if self.tape is not None:
            out.append(("tape", self.tape["p0"], self.tape["p1"], self.tape["text"]))
        if self.manual is not None and self.drag_unit0 is not None:
            out.append(("ghost_unit", self.drag_unit0))
        if self.tool == "place" and self.place_choice is not None and self.in_table_area(self.mouse_px):
            try:
                out.append(("ghost_unit", ed.new_unit(self.board, self.place_choice, self.view.to_mm(self.mouse_px),
                                                      self.place_player)))
            except ValueError:
                pass
        if (self.drag_key is not None or self.manual is not None) and self.selection:
            try:
                u = self.board.unit(self.selection)
                c = self.view.to_px(u.center())
                out.append(("text", (c[0] + 12, c[1] - 30), f"moved {fmt_distance(self.live_mm)}"))
            except KeyError:
                pass
        return out

    def draw(self) -> None:
        o = self.options
        board, analysis, _ = self.shown()
        o.selection = tuple(x for x in (self.selection, self.charger) if x) if self.steps is None else ()
        o.hover = self.hover
        o.hover_px = self.mouse_px if self.hover else None
        o.status = self.status_text(max_w=self.screen.get_width() - 20)
        o.banner = self.banner
        o.overlays = self.overlays() if self.steps is None else []
        o.differ, o.differ_label = self.differ_options()
        if self.steps is None:
            o.overlaps = sorted({m for a, b, _ in self.overlaps for m in (a, b)})
            o.warning = self.overlap_warning()
        else:
            o.overlaps, o.warning = [], ""
        o.title = self.window_title()
        if self.steps is not None:
            o.title = f"Step {self.step_i + 1} of {len(self.steps)}: {self.board.title or 'Fight phase'}"
        errors = draw_scene(self.canvas, board, analysis, self.view, options=o,
                            models=self.models if self.steps is None and analysis is self.analysis else None)
        if self.steps is not None:
            from .marks import Marks, draw_marks

            errors += draw_marks(self.canvas, board, analysis, self.view,
                                 Marks(caption=f"{self.step_i + 1}/{len(self.steps)}  {self.steps[self.step_i][0]}"),
                                 options=o)
        if errors and not self.banner:
            self.banner = f"drawing: {errors[0]}" + (f" (+{len(errors) - 1} more)" if len(errors) > 1 else "")
        if self.gui is not None:
            lay = scene_layout(self.canvas, self.board, o)
            top = (lay.title[3] if lay.title else 0)
            self.screen.fill((52, 56, 60), pygame.Rect(0, top, self.screen.get_width(), o.top_inset))
            for b, action in self.buttons.items():
                if action == f"tool:{self.tool}":
                    pygame.draw.rect(self.screen, (255, 200, 0), b.rect.inflate(4, 4), 2, border_radius=3)
            self.gui.draw_ui(self.screen)

    def frame(self, dt: float = 1 / 60) -> None:
        """One frame: events, update, draw. Never raises (errors go to the banner)."""
        t0 = time.perf_counter()
        try:
            for ev in pygame.event.get():
                self.handle(ev)
            if self.gui is not None:
                self.gui.update(dt)
            self.update()
        except Exception as exc:  # noqa: BLE001
            self.show_error("update failed", exc)
            self.restore()
        try:
            self.draw()
        except Exception as exc:  # noqa: BLE001
            self.show_error("drawing failed", exc)
            try:
                self.screen.fill((60, 0, 0))
                self.canvas.text((10, 10), self.banner[:200], 14, (255, 255, 255))
            except Exception:  # noqa: BLE001
                pass
        ms = (time.perf_counter() - t0) * 1000
        self.frame_ms = 0.9 * self.frame_ms + 0.1 * ms if self.frames else ms
        self.frames += 1

    def run(self, frames: Optional[int] = None, fps: int = 60) -> int:
        """Run until the window closes (or for ``frames`` frames). Returns an exit status (0)."""
        clock = pygame.time.Clock()
        n = 0
        try:
            while self.running and (frames is None or n < frames):
                self.frame()
                if pygame.display.get_surface() is not None:
                    pygame.display.flip()
                n += 1
                if fps:
                    clock.tick(fps)
        except KeyboardInterrupt:
            pass
        finally:
            if self.dirty and self.running:
                self.quit()
        return 0
