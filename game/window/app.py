"""The interactive window: a hands-on table, and an authoring tool for positions.

:class:`App` is the controller that wires the window's parts together, the way arcade splits
a game into a window, views and state:

* :class:`~game.window.session.Session`: the board, its file, the one undo
  :class:`~game.core.history.History`, dirty state, open / save / save as / autosave;
* :class:`~game.core.editor.Editor`: every edit as a pure command under one collision policy;
* :class:`~game.window.live.LiveAnalysis`: the analysis, overlaps and compare mode, throttled
  during drags by an injected clock;
* :mod:`game.window.tools`: what a click or drag on the table does (move, forward, wheel,
  charge, casualty, tape, place);
* :mod:`game.window.keymap`: the one key map (dispatch, F1 help, toolbar tips);
* :class:`~game.window.steps_view.StepsView`: the read-only walk through a phase's steps;
* :mod:`game.window.rulesystems`: every rule-system-specific decision, behind one adapter;
* :mod:`game.window.app_gui` / :mod:`game.window.app_files`: the toolbar, panels, dialogs, and
  the file and export commands (mixed into :class:`App`);
* :func:`game.window.loop.run_loop`: the window loop shared with the demo player.

Mouse positions come from the events themselves, so tests drive the app headless with
``pygame.event.post`` (see ``tests/apputil.py``). A frame that raises shows a red banner and
goes on from the last board that analysed cleanly.
"""
from __future__ import annotations

import os
import time
import traceback
from pathlib import Path
from typing import Any, Callable, Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.core import geometry as g  # noqa: E402
from game.core.board import Board  # noqa: E402
from game.core.editor import Change, Editor, fmt_distance  # noqa: E402,F401
from game.core.ruleset import Ruleset, RulesetError  # noqa: E402,F401
from game.physics.trays import Key, TraySpace  # noqa: E402
from game.services import default_services  # noqa: E402

from game.window.app_files import FilesMixin  # noqa: E402
from game.window.app_gui import GuiMixin  # noqa: E402
from game.window.app_rules import RulesMixin  # noqa: E402
from game.render.canvas import PygameCanvas  # noqa: E402
from game.window.keymap import STEP_SAFE, KeyMap  # noqa: E402
from game.window.live import LiveAnalysis  # noqa: E402
from game.window.loop import run_loop  # noqa: E402
from game.window.rulesystems import RuleSystems  # noqa: E402
from game.window.retained import RetainedScene  # noqa: E402
from game.render.scene import SceneOptions, draw_scene, fit_view, model_at, scene_layout  # noqa: E402
from game.window.session import Session  # noqa: E402
from game.window.steps_view import StepsView  # noqa: E402
from game.window.tools import HINT, TOOL_NAMES, make_tools  # noqa: E402

ZOOM_STEP = 1.15
TITLE_PX = 34        # the title bar of the window (scene.layout at font scale 1); the toolbar sits under it
ACTIVE_S = 1.5       # after the last event the window keeps drawing this long (tooltips), then idles
TOOL_HINT = HINT
TOOLS = TOOL_NAMES


def init_pygame() -> None:
    """Initialise only the display and fonts (no audio: no ALSA noise on machines without sound)."""
    if not pygame.display.get_init():
        pygame.display.init()
    if not pygame.font.get_init():
        pygame.font.init()


class App(GuiMixin, FilesMixin, RulesMixin):
    """The window on one board.

    ``board``: the scenario (the app edits it); ``ruleset``: override of the board's ruleset;
    ``path``: the scenario file (title, saving, autosave); ``size``: window size (px);
    ``surface``: draw there instead of opening a window; ``gui``: build the pygame_gui
    toolbar; ``clock``: seconds (autosave, drag throttles, idling; tests inject one);
    ``services``: the analysis services (default :func:`game.services.default_services`);
    ``recent_file`` / ``out_dir``: where recent files and autosaves of new boards are kept.
    """

    def __init__(self, board: Board, *, ruleset: Optional[Ruleset] = None, path: Optional[str] = None,
                 size: tuple[int, int] = (1280, 820), surface: Optional[pygame.Surface] = None, gui: bool = True,
                 clock: Optional[Callable[[], float]] = None, services: Optional[dict] = None,
                 recent_file: Optional[Path] = None, out_dir: Optional[Path] = None):
        init_pygame()
        self.clock = clock or time.monotonic
        self.rules = RuleSystems()
        self.rs = ruleset or self.rules.load(board.ruleset)
        board.ruleset = self.rs.id  # an override is the board's ruleset from now on (saved with it)
        kw = {"out_dir": out_dir} if out_dir is not None else {}
        self.session = Session(board, path, clock=self.clock, recent_file=recent_file, **kw)
        self.services = default_services() if services is None else services
        self.live = LiveAnalysis(self.services, clock=clock or time.perf_counter)
        self.editor = Editor(self.rs.p("contact_tolerance_mm"))
        self.keymap = KeyMap()
        self.tools = make_tools()
        self.tool = "move"
        self.steps = StepsView()
        self.windowed = surface is None
        if surface is None:
            surface = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.screen = surface
        self.canvas, self.retained = PygameCanvas(self.screen), RetainedScene()  # unchanged units: a kept layer
        self.options = SceneOptions(status=" ", top_inset=0, title=self.session.title())
        self.space = TraySpace(board)
        self.last_good: Board = board.copy()
        self.selection: Optional[str] = None
        self.hover: Optional[str] = None
        self.mouse_px: tuple[float, float] = (0.0, 0.0)
        self.pan_from: Optional[tuple[float, float]] = None
        self.message = "Drag a unit with the left mouse button; wheel or Q/E turns it; F1 lists every shortcut."
        self.banner = ""
        self.running = True
        self.frame_ms = 0.0
        self.frames = 0
        self.needs_draw = True
        self.last_active = self.clock()
        self.last_export: Optional[str] = None
        self.init_gui(gui)
        self.view = fit_view(*self.screen.get_size(), board, self.options, margin_mm=80)
        self.update_caption()
        if self.session.autosave_path.exists():
            self.message = (f"Unsaved changes from an earlier session are in {self.session.autosave_path.name}: "
                            "press F9 to load them.")
        self.recompute()

    # -- the document ------------------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.session.board

    @board.setter
    def board(self, b: Board) -> None:
        self.session.board = b

    @property
    def analysis(self):
        return self.live.analysis

    @property
    def models(self):
        return self.live.models

    @property
    def dirty(self) -> bool:
        return self.session.dirty

    def window_title(self) -> str:
        return self.session.title()

    def update_caption(self) -> None:
        if self.windowed and pygame.display.get_surface() is self.screen:
            star = "*" if self.session.dirty else ""
            pygame.display.set_caption(f"{star}Melee Lens - {self.session.title()}")

    # -- analysis ------------------------------------------------------------------------------
    def busy(self) -> bool:
        return self.tools[self.tool].busy()

    def recompute(self) -> bool:
        """Re-analyse the board; on failure restore the last good board and show a banner."""
        try:
            self.live.run(self.board, self.rs, dragging=self.busy())
        except Exception as exc:  # noqa: BLE001
            self.show_error("analysis failed", exc)
            self.restore()
            return False
        if self.live.compare_error:
            self.banner = self.live.compare_error
        self.last_good = self.board.copy()
        return True

    def analyse_drag(self, uid: str) -> None:
        """Follow a drag of unit ``uid`` (see :meth:`LiveAnalysis.drag`)."""
        try:
            self.live.drag(self.board, self.rs, uid)
        except Exception as exc:  # noqa: BLE001
            self.show_error("analysis failed", exc)
            self.restore()

    def restore(self) -> None:
        """Go back to the last board that analysed cleanly."""
        self.board = self.last_good.copy()
        self.tools = make_tools() | {"place": self.tools["place"]}
        try:
            self.sync_ruleset()
            self.space.sync(self.board)
            self.live.run(self.board, self.rs)
        except Exception as exc:  # noqa: BLE001
            self.show_error("could not restore the last good board", exc)

    def show_error(self, what: str, exc: BaseException) -> None:
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" ({Path(tb[-1].filename).name}:{tb[-1].lineno})" if tb else ""
        self.banner = f"{what}: {type(exc).__name__}: {str(exc)[:300]}{where}. Kept the last good board; Esc dismisses."

    def roles(self, unit_id: str) -> dict[str, str]:
        """{model id: role} of one unit in the current analysis."""
        return self.live.roles(unit_id)

    def sync_ruleset(self) -> None:
        """Follow the board's ruleset (undo / redo may bring back another one)."""
        if self.board.ruleset != self.rs.id:
            try:
                self.rs = self.rules.load(self.board.ruleset)
            except RulesetError as exc:
                self.banner = f"{exc}. Kept the ruleset {self.rs.id}."
                self.board.ruleset = self.rs.id
            self.editor = Editor(self.rs.p("contact_tolerance_mm"))
        if self.live.compare_id == self.rs.id:
            self.live.compare_id = self.rules.compare_partner(self.board, self.rs.id)
        self.refresh_toolbar()

    # -- edits ---------------------------------------------------------------------------------
    def apply(self, change: Change) -> bool:
        """Show ``change`` as one undoable edit (or its refusal in the status line)."""
        if not change.ok:
            if change.message:
                self.message = change.message
            return False
        self.session.apply(change.board)
        uid = None
        if change.moved:
            uid, mm = change.moved
            self.session.moved_mm[uid] = self.session.moved_mm.get(uid, 0.0) + mm
        if change.selects:
            self.select(change.select)
        self.after_edit(change.message + (self.moved_text(uid) if uid else ""))
        return True

    def commit_drag(self, uid: str, before: Board, live_mm: float, reanalyse: bool = True) -> None:
        """A drag of unit ``uid`` ended: one undoable edit if anything moved."""
        if reanalyse or self.live.paused:
            self.recompute()
        else:
            self.live.update_overlaps(self.board, self.rs)
        try:
            moved = before.unit(uid).pose_key() != self.board.unit(uid).pose_key()
        except KeyError:
            moved = False
        if moved:
            self.session.apply(self.board, before=before)
            self.session.moved_mm[uid] = self.session.moved_mm.get(uid, 0.0) + live_mm
            self.message = f"{self.board.unit(uid).name} placed." + self.moved_text(uid)
            self.live.update_overlaps(self.board, self.rs)
            self.update_caption()
        if self.live.compare_stale:
            self.live.update_compare(self.board, force=True)

    def after_edit(self, message: str) -> None:
        self.steps.leave(self, quiet=True)
        self.sync_ruleset()
        self.space.sync(self.board)
        self.recompute()
        self.message = message
        self.update_caption()
        self.session.tick()
        if self.session.autosave_error:
            self.message += f" ({self.session.autosave_error})"

    def moved_text(self, uid: str) -> str:
        d = self.session.moved_mm.get(uid, 0.0) + self.tool_live_mm()
        return f" Moved {fmt_distance(d)} since selected." if d > 0 else ""

    def tool_live_mm(self) -> float:
        t = self.tools[self.tool]
        return t.live_mm() if hasattr(t, "live_mm") and t.busy() else 0.0

    def undo(self) -> None:
        if not self.session.undo():
            self.message = "Nothing to undo."
            return
        n = self.session.history.undo_depth
        self.after_edit(f"Undone ({n} more to undo)." + ("" if self.dirty else " Back to the saved board."))

    def redo(self) -> None:
        if not self.session.redo():
            self.message = "Nothing to redo."
            return
        self.after_edit("Redone.")

    def select(self, uid: Optional[str]) -> None:
        if uid != self.selection and uid:
            self.session.moved_mm.pop(uid, None)
        self.selection = uid

    def selected_or_none(self):
        try:
            return self.board.unit(self.selection) if self.selection else None
        except KeyError:
            return None

    def on_selected(self, what: str, command: Callable[[str], Change]) -> bool:
        """Run ``command(unit id)`` on the selected unit (a hint when none is selected)."""
        if self.selected_or_none() is None:
            self.selection = None
            self.message = f"Select a unit first (click it), then {what}."
            return False
        return self.apply(command(self.selection))

    def finish_drag(self) -> None:
        t = self.tools[self.tool]
        if t.busy():
            t.cancel(self)

    def turn_selected(self, deg: float) -> bool:
        """Turn the selected unit (a running move drag is ended, the turn applied, the drag resumed)."""
        mt = self.tools["move"]
        key = mt.key if mt.busy() else None
        if key is not None:
            mt.cancel(self)
        ok = self.on_selected("turn it with the wheel or Q/E", lambda u: self.editor.turn(self.board, u, deg))
        if key is not None:
            mt.start(self, key, self.view.to_mm(self.mouse_px))
        return ok

    def set_tool(self, tool: str, quiet: bool = False) -> None:
        if tool not in self.tools:
            return
        if tool == "place" and self.tools["place"].choice is None:
            if self.palette_panel is None:
                self.toggle_palette()
            self.message = "Choose a base size in the unit palette first."
            return
        self.finish_drag()
        self.tool = tool
        self.tools["charge"].charger = None
        if tool != "tape":
            self.tools["tape"].tape = None
        if not quiet:
            self.message = HINT[tool]

    # -- actions (keys, buttons) -------------------------------------------------------------------
    def do_action(self, action: str) -> None:
        """Run a key-map action (``"turn:90"``, ``"undo"``, ``"tool:tape"``...)."""
        name, _, arg = action.partition(":")
        ed, b = self.editor, self.board
        simple = {
            "undo": self.undo, "redo": self.redo, "save": self.save, "save_as": self.save_as_dialog,
            "open": self.open_dialog_files, "@recent": self.recent_files, "new": self.request_new,
            "export": self.export_dialog, "title": self.title_dialog, "quit": self.quit, "help": self.toggle_help,
            "palette": self.toggle_palette, "panel": self.toggle_unit_panel,
            "panel_name": lambda: self.toggle_unit_panel(focus_name=True), "autosave_load": self.load_autosave,
            "board": lambda: self.steps.leave(self), "escape": self.escape,
            "compare": self.toggle_compare, "compare_next": self.cycle_compare, "fit": self.fit,
            "legend": self.toggle_legend, "rules_menu": self.rules_menu,
        }
        if action in simple:
            simple[action]()
        elif name == "tool":
            self.set_tool(arg)
        elif name == "turn":
            self.turn_selected(float(arg))
        elif name == "forward":
            self.on_selected("move it with W/S", lambda u: ed.forward(b, u, float(arg)))
        elif name == "wheel":
            deg, pivot = arg.split(":")
            self.on_selected("wheel it with A/D", lambda u: ed.wheel(b, u, float(deg), pivot))
        elif name == "reform":
            self.on_selected("reform it with [ and ]", lambda u: ed.reform(b, u, int(arg)))
        elif name == "model":
            self.on_selected("change its models with , and .",
                             lambda u: ed.add_model(b, u) if arg == "1" else ed.remove_model(b, u))
        elif name == "duplicate":
            self.on_selected("duplicate it with Ctrl+D", lambda u: ed.duplicate(b, u))
        elif name == "delete":
            self.on_selected("delete it with Delete", lambda u: ed.delete(b, u))
        elif name == "player":
            self.on_selected("give it to a player", lambda u: ed.set_player(b, u, int(arg)))
        elif name == "step":
            self.steps.step(self, int(arg))
        elif name == "ruleset":
            self.steps.leave(self, quiet=True)
            self.cycle_ruleset(int(arg))
        elif name == "pan":
            dx, dy = arg.split(":")
            self.view.pan(float(dx), float(dy))
        elif name == "zoom":
            self.view.zoom_about(ZOOM_STEP if arg == "1" else 1 / ZOOM_STEP, self.zoom_anchor())

    def escape(self) -> None:
        if self.close_top_window():
            return
        if self.banner:
            self.banner = ""
        elif self.steps.active:
            self.steps.leave(self)
        elif self.tools["tape"].tape is not None or self.tool != "move":
            self.tools["tape"].tape = None
            self.set_tool("move")
        else:
            self.select(None)

    def fit(self) -> None:
        self.view = fit_view(*self.screen.get_size(), self.board, self.options, margin_mm=80)

    def toggle_legend(self) -> None:
        self.options.legend = not self.options.legend

    def zoom_anchor(self) -> tuple[float, float]:
        if self.in_table_area(self.mouse_px):
            return self.mouse_px
        l, t, w, h = scene_layout(self.canvas, self.board, self.options).table
        return (l + w / 2, t + h / 2)

    def on_key(self, key: int, mod: int) -> None:
        shift = bool(mod & pygame.KMOD_SHIFT)
        ctrl = bool(mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
        action = self.keymap.action(key, ctrl, shift)
        if action is None:
            return
        if self.steps.active and not action.startswith(STEP_SAFE):
            if ctrl:
                self.steps.leave(self, quiet=True)
            else:
                self.message = (f"This is a {self.rules.steps_name(self.rs)} step: N / P step, Home or Esc goes back "
                                "to the board to edit it.")
                return
        self.do_action(action)

    # -- geometry helpers -------------------------------------------------------------------------
    def in_table_area(self, px: tuple[float, float]) -> bool:
        l, t, w, h = scene_layout(self.canvas, self.board, self.options).table
        return l <= px[0] < l + w and t <= px[1] < t + h

    def body_at(self, p_mm: g.Point) -> Optional[Key]:
        """The draggable body under table point ``p_mm`` (tray or skirmish model)."""
        for u in reversed(self.board.units):
            if u.is_ranked:
                if g.point_in_poly(p_mm, u.tray().points):
                    return (u.id, None)
            else:
                for i, m in enumerate(u.models()):
                    s = m.shape
                    inside = (g.dist(p_mm, s.center) <= s.radius_mm) if isinstance(s, g.Circle) else \
                        g.point_in_poly(p_mm, s.points)
                    if inside:
                        return (u.id, i)
        return None

    # -- events ----------------------------------------------------------------------------------
    def handle(self, ev: pygame.event.Event) -> None:
        """Apply one pygame event."""
        if ev.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.mouse_px = ev.pos
        if self.gui is not None and self.handle_gui_event(ev):
            return
        if ev.type == pygame.DROPFILE:
            self.request_open(ev.file)
        elif ev.type == pygame.QUIT:
            self.quit()
        elif ev.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self.on_resize()
        elif ev.type == pygame.MOUSEMOTION:
            if self.pan_from is not None:
                self.view.pan(ev.pos[0] - self.pan_from[0], ev.pos[1] - self.pan_from[1])
                self.pan_from = ev.pos
            self.tools[self.tool].motion(self, self.view.to_mm(ev.pos))
        elif ev.type == pygame.MOUSEBUTTONDOWN:
            if ev.button == 1:
                self.on_left_down(ev.pos)
            elif ev.button in (2, 3):
                self.pan_from = ev.pos
        elif ev.type == pygame.MOUSEBUTTONUP:
            if ev.button == 1:
                self.tools[self.tool].up(self, self.view.to_mm(ev.pos))
            elif ev.button in (2, 3):
                self.pan_from = None
        elif ev.type == pygame.MOUSEWHEEL:
            self.on_wheel(ev.y, pygame.key.get_mods())
        elif ev.type == pygame.KEYDOWN:
            self.on_key(ev.key, getattr(ev, "mod", 0))

    def on_left_down(self, pos: tuple[float, float]) -> None:
        if not self.in_table_area(pos):
            return
        if self.steps.active:
            if not self.steps.click(self, self.view.to_mm(pos)):
                self.message = "This is a phase step, not the board: Home or Esc goes back to edit it."
            return
        self.tools[self.tool].down(self, self.view.to_mm(pos))

    def on_wheel(self, dy: float, mods: int) -> None:
        if dy == 0:
            return
        if mods & pygame.KMOD_CTRL or (self.selection is None and not self.busy()):
            self.view.zoom_about(ZOOM_STEP ** dy, self.mouse_px)
        else:
            step = 1.0 if mods & pygame.KMOD_SHIFT else 15.0
            self.turn_selected(step * (1 if dy > 0 else -1))

    # -- frame ------------------------------------------------------------------------------------
    def update(self) -> None:
        """Step the running drag and the hover."""
        self.tools[self.tool].update(self)
        if self.live.compare_stale and not self.busy():
            self.live.update_compare(self.board, force=True)
        self.forget_closed_windows()
        if self.unit_panel is not None:
            self.unit_panel.show(self.selected_or_none())
        covered = self.help_open() or self.over_gui(self.mouse_px)
        if (not self.busy() and self.pan_from is None and not covered and self.in_table_area(self.mouse_px)
                and self.tools[self.tool].hover):
            dm = model_at(self.shown()[2], self.view.to_mm(self.mouse_px))
            self.hover = dm.id if dm else None
        else:
            self.hover = None

    def shown(self) -> tuple:
        """What the window shows: the board, or the current phase step."""
        if self.steps.active:
            return self.steps.shown()
        return self.board, self.live.analysis, self.live.models

    def status_parts(self) -> list[tuple[int, str]]:
        """The status line as ``(rank, text)`` parts; rank 0 is kept always, higher ranks are
        dropped first when the line is too long (see :meth:`status_text`)."""
        sel = ""
        u = self.selected_or_none()
        if u is not None:
            f = u.facing_deg
            shape = f", {u.files} wide x {u.ranks} deep" if u.is_ranked else ""
            moved = self.session.moved_mm.get(u.id, 0.0) + self.tool_live_mm()
            sel = f"{u.name}: facing {f:.0f} deg{shape}, moved {fmt_distance(moved)}"
        mode = f"[{self.tool}]"
        if self.steps.active:
            mode, sel = self.steps.mode(self.rules.steps_name(self.rs)), ""
        parts: list[tuple[int, str]] = [(0, mode)]
        if self.live.paused:
            parts.append((1, f"analysis paused while dragging ({self.live.analyse_ms / 1000:.1f} s); updates when "
                             "you release"))
        if sel:
            parts.append((3, sel))
        parts.append((0, self.message))
        if self.session.autosave_error:
            parts.append((0, self.session.autosave_error))
        if self.dirty:
            parts.append((2, "unsaved changes"))
        if self.live.compare_id and not self.steps.active:
            parts.append((4, f"K: vs {self.live.compare_id}, {len(self.live.diffs)} differ "
                             f"({self.live.compare_ms:.1f} ms)"))
        parts.append((5, f"rules {self.rs.id} (R)"))
        parts.append((6, f"frame {self.frame_ms:.1f} ms, analysis {self.live.analyse_ms:.1f} ms"))
        return [(r, t) for r, t in parts if t]

    def status_text(self, max_w: Optional[float] = None) -> str:
        """The status line; with ``max_w`` (px) the least important parts are left out until it fits."""
        parts = self.status_parts()

        def join(ps: list[tuple[int, str]]) -> str:
            return ps[0][1] + " " + "  |  ".join(t for _, t in ps[1:]) if len(ps) > 1 else ps[0][1]

        if max_w is not None:
            size = max(7, int(round(13 * self.options.font_scale)))
            while self.canvas.text_size(join(parts), size)[0] > max_w and max(r for r, _ in parts) > 0:
                worst = max(r for r, _ in parts)
                parts.pop(max(i for i, (r, _) in enumerate(parts) if r == worst))
        return join(parts)

    def draw(self) -> None:
        o = self.options
        board, analysis, models = self.shown()
        stepping = self.steps.active
        charger = self.tools["charge"].charger
        o.selection = tuple(x for x in (self.selection, charger) if x) if not stepping else ()
        o.hover = self.hover
        o.hover_px = self.mouse_px if self.hover else None
        o.status = self.status_text(max_w=self.screen.get_width() - 20)
        o.banner = self.banner
        o.overlays = [] if stepping else self.tools[self.tool].overlays(self)
        o.differ, o.differ_label = ({}, "") if stepping else self.live.differ_options(self.rs.id)
        if not stepping:
            o.overlaps = sorted({m for a, b, _ in self.live.overlaps for m in (a, b)})
            o.warning = self.live.overlap_warning()
            o.title = self.session.title()
        else:
            o.overlaps, o.warning = [], ""
            o.title = self.steps.title(self.board.title, self.rules.steps_name(self.rs))
        errors = self.retained.draw(self.canvas, board, analysis, self.view, o, models if not stepping else None)
        if stepping:
            from game.render.marks import Marks, draw_marks

            errors += draw_marks(self.canvas, board, analysis, self.view, Marks(caption=self.steps.caption(), **self.steps.marks()),
                                 options=o)
        if errors and not self.banner:
            self.banner = f"drawing: {errors[0]}" + (f" (+{len(errors) - 1} more)" if len(errors) > 1 else "")
        self.draw_gui()

    def invalidate(self) -> None:
        """Draw on the next frame even if nothing happened."""
        self.needs_draw = True

    def idle(self) -> bool:
        """Nothing moves and nothing happened for :data:`ACTIVE_S`: the loop may sleep."""
        return not self.needs_draw and not self.busy() and self.clock() - self.last_active > ACTIVE_S

    def frame(self, dt: float = 1 / 60) -> bool:
        """One frame: events, update, draw (only when something changed or lately active).
        Never raises (errors go to the banner). Returns True when it drew."""
        t0 = time.perf_counter()
        before = (self.message, self.banner, self.hover, self.tool, self.selection)
        try:
            events = pygame.event.get()
            for ev in events:
                self.handle(ev)
            if self.gui is not None:
                self.gui.update(dt)
            self.update()
        except Exception as exc:  # noqa: BLE001
            events = [None]
            self.show_error("update failed", exc)
            self.restore()
        now = self.clock()
        if events or self.busy() or before != (self.message, self.banner, self.hover, self.tool, self.selection):
            self.last_active = now
            self.needs_draw = True
        if not (self.needs_draw or now - self.last_active <= ACTIVE_S):
            return False
        try:
            self.draw()
        except Exception as exc:  # noqa: BLE001
            self.show_error("drawing failed", exc)
            try:
                self.screen.fill((60, 0, 0))
                self.canvas.text((10, 10), self.banner[:200], 14, (255, 255, 255))
            except Exception:  # noqa: BLE001
                pass
        self.needs_draw = False
        ms = (time.perf_counter() - t0) * 1000
        self.frame_ms = 0.9 * self.frame_ms + 0.1 * ms if self.frames else ms
        self.frames += 1
        return True

    def run(self, frames: Optional[int] = None, fps: int = 60) -> int:
        """Run until the window closes (or for ``frames`` frames). Returns an exit status."""
        status = run_loop(self, frames, fps)
        if self.running and frames is not None and self.dirty:
            self.stop("the frame count was reached")
        return status
