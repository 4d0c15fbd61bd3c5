"""The table view: the editable table, where units are dragged, turned, charged and measured.

:class:`TableView` owns the table's interaction state: the tools (:mod:`game.window.tools`)
and the one in use, the selected unit and the model under the mouse, the camera (what part
of the table is on screen, in which zoom), the display options, the pymunk trays the drags
push (:class:`~game.physics.trays.TraySpace`) and the retained drawing of unchanged units. The
board, its history and its analysis are the :class:`~game.window.document.Document`'s; every
change goes through :meth:`TableView.apply` (one undoable edit) or :meth:`commit_drag`.

Events it takes (after the sections of the view had theirs): the mouse on the table (left:
the tool; right or middle drag: pan; wheel: turn the selected unit, Ctrl+wheel or no
selection: zoom) and keys (the key map's action, run by :class:`~game.window.actions.Actions`).
The tools get this view as their host: its public methods below are what a tool may call.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional, cast

import pygame

from game.core import geometry as g
from game.core.analysis import Analysis
from game.core.board import Board, Unit
from game.core.editor import Change, Editor, fmt_distance
from game.core.ruleset import Ruleset
from game.physics.trays import Key, TraySpace
from game.render.drawn import DrawnModel, model_at
from game.render.marks import Marks, draw_marks
from game.render.options import SceneOptions
from game.render.scene import fit_view, scene_layout
from game.render.transform import View as Camera
from game.window.actions import Actions
from game.window.keymap import KeyMap
from game.window.live import LiveAnalysis
from game.window.retained import RetainedScene
from game.window.rulesystems import RuleSystems
from game.window.status import Status, fit_line
from game.window.tools import HINT, ChargeTool, MoveTool, PlaceTool, TapeTool, Tool, make_tools
from game.window.view import Same, View

if TYPE_CHECKING:
    from game.window.document import Document
    from game.window.window import Window

ZOOM_STEP = 1.15
Scene = tuple[Board, Analysis, list[DrawnModel]]


class TableView(View):
    """The editable table of ``doc`` in ``window``; ``keymap`` turns keys into actions run by ``actions``."""

    def __init__(self, window: Window, doc: Document, status: Status, keymap: KeyMap, actions: Actions) -> None:
        super().__init__()
        self.window, self.doc, self.status, self.keymap, self.actions = window, doc, status, keymap, actions
        self.tools: dict[str, Tool] = make_tools()
        self.tool = "move"
        self.selection: Optional[str] = None
        #: more units selected with the selected one (Shift+click, a box drag): moved and turned together
        self.group: list[str] = []
        self.hover: Optional[str] = None
        self._hover_memo: Optional[tuple] = None  # (drawn models, (mouse px, camera, n), hover id)
        self.pan_from: Optional[tuple[float, float]] = None
        self.options = SceneOptions(status=" ", top_inset=0, title=doc.title())
        self.space = TraySpace(doc.board)
        self.retained = RetainedScene()  # unchanged units: a kept layer
        self.camera: Camera = self.fitted()
        #: True when window point px is covered (a window or panel over the table, the help open)
        self.covered: Callable[[tuple[float, float]], bool] = lambda px: False
        #: asked to open the unit palette (the place tool needs a base chosen there first)
        self.want_palette: Callable[[], None] = lambda: None
        doc.dragging = self.busy
        doc.listeners.append(self._follow)

    # -- what tools and sections read ------------------------------------------------------------
    @property
    def board(self) -> Board:
        return self.doc.board

    @board.setter
    def board(self, b: Board) -> None:
        """The board shown from now on, as it stands mid-drag (no undo step: :meth:`commit_drag` makes it)."""
        self.doc.board = b

    @property
    def rs(self) -> Ruleset:
        return self.doc.rs

    @property
    def editor(self) -> Editor:
        return self.doc.editor

    @property
    def live(self) -> LiveAnalysis:
        return self.doc.live

    @property
    def rules(self) -> RuleSystems:
        return self.doc.rules

    @property
    def move_tool(self) -> MoveTool:
        return cast(MoveTool, self.tools["move"])

    @property
    def charge_tool(self) -> ChargeTool:
        return cast(ChargeTool, self.tools["charge"])

    @property
    def tape_tool(self) -> TapeTool:
        return cast(TapeTool, self.tools["tape"])

    @property
    def place_tool(self) -> PlaceTool:
        return cast(PlaceTool, self.tools["place"])

    @property
    def mouse_px(self) -> tuple[float, float]:
        return self.window.mouse_px

    def say(self, text: str) -> None:
        self.status.say(text)

    def say_more(self, text: str) -> None:
        """``text`` added to the status line's message."""
        self.status.add(text)

    def analyse_drag(self, uid: str) -> None:
        self.doc.analyse_drag(uid)

    def shown(self) -> Scene:
        """What the view shows: the board, its analysis and its models as drawn. While a drag is
        analysed off the frame and the worker is behind the hand, the board that analysis is of
        (:attr:`LiveAnalysis.shown_board`): roles always match positions (the hand's pose is a
        ghost, drawn by the move tool)."""
        live = self.doc.live
        return live.shown_board or self.doc.board, live.analysis, live.models

    def layout(self) -> Any:
        return scene_layout(self.window.canvas, self.board, self.options)

    def in_table_area(self, px: tuple[float, float]) -> bool:
        l, t, w, h = self.layout().table
        return l <= px[0] < l + w and t <= px[1] < t + h

    def view_box_mm(self) -> tuple[float, float, float, float]:
        """The part of the table on screen (x0, y0, x1, y1) mm."""
        l, t, w, h = self.layout().table
        (x0, y0), (x1, y1) = self.camera.to_mm((l, t)), self.camera.to_mm((l + w, t + h))
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

    def body_at(self, p_mm: g.Point) -> Optional[Key]:
        """The draggable body under table point ``p_mm`` where it is drawn: the model drawn
        there (:attr:`LiveAnalysis.models`: at its piled-in place when moves are shown; the
        dashed outline where it stood is a ghost, not a handle), else the tray of a ranked unit."""
        dm = model_at(self.live.models, p_mm)
        if dm is not None:
            try:
                u = self.board.unit(dm.unit.id)
            except KeyError:
                u = None
            if u is not None and u.is_ranked:
                return (u.id, None)
            if u is not None:
                ids = [m.id for m in u.models()]
                if dm.id in ids:
                    return (u.id, ids.index(dm.id))
        for u in reversed(self.board.units):
            if u.is_ranked and g.point_in_poly(p_mm, u.tray().points):
                return (u.id, None)
        return None

    def selected_unit(self) -> Optional[Unit]:
        try:
            return self.board.unit(self.selection) if self.selection else None
        except KeyError:
            return None

    def busy(self) -> bool:
        """A tool is at work (a drag) or the first analysis runs in the worker (frames go on)."""
        return self.tools[self.tool].busy() or self.doc.analysing

    # -- the camera --------------------------------------------------------------------------------
    def fitted(self) -> Camera:
        return fit_view(*self.window.size(), self.board, self.options, margin_mm=80)

    def fit(self) -> None:
        self.camera = self.fitted()

    def show_box(self, box_mm: tuple) -> None:
        """Point the camera at table box ``(x0, y0, x1, y1)`` mm (a recorded view), fitted to the table area."""
        self.camera = Camera.fit(box_mm, self.layout().table, margin_px=0)

    def zoom(self, arg: str) -> None:
        self.camera.zoom_about(ZOOM_STEP if arg == "1" else 1 / ZOOM_STEP, self.zoom_anchor())

    def pan(self, arg: str) -> None:
        dx, dy = arg.split(":")
        self.camera.pan(float(dx), float(dy))

    def zoom_anchor(self) -> tuple[float, float]:
        if self.in_table_area(self.mouse_px):
            return self.mouse_px
        l, t, w, h = self.layout().table
        return (l + w / 2, t + h / 2)

    def toggle_legend(self) -> None:
        self.options.legend = not self.options.legend

    # -- selection and tools -------------------------------------------------------------------------
    def select(self, uid: Optional[str], keep_group: bool = False) -> None:
        if uid != self.selection and uid:
            self.doc.session.moved_mm.pop(uid, None)
        self.selection = uid
        if not keep_group:
            self.group = []

    def selected_ids(self) -> list[str]:
        """The selected unit first, then the others selected with it (units still on the board)."""
        have = {u.id for u in self.board.units}
        out = [self.selection] if self.selection in have else []
        return out + [u for u in self.group if u in have and u not in out]

    def toggle_in_selection(self, uid: str) -> None:
        """Shift+click: add unit ``uid`` to the selection, or take it out."""
        ids = self.selected_ids()
        if uid in ids:
            ids.remove(uid)
        else:
            ids.append(uid)
        self.select(ids[0] if ids else None)
        self.group = ids[1:]
        n = len(ids)
        self.say(f"{n} units selected: drag one to move them together, Q/E turns them together; Esc clears."
                 if n > 1 else "One unit selected (Shift+click adds more).")

    def select_box(self, a_mm: g.Point, b_mm: g.Point) -> None:
        """Select every unit whose centre as drawn (the mean of its drawn models' centres: at
        their piled-in places when moves are shown; a unit with none drawn: its centre) lies in
        the box from ``a_mm`` to ``b_mm``."""
        x0, x1 = sorted((a_mm[0], b_mm[0]))
        y0, y1 = sorted((a_mm[1], b_mm[1]))
        drawn: dict[str, list[g.Point]] = {}
        for dm in self.live.models:
            drawn.setdefault(dm.unit.id, []).append(dm.shape.center)
        ids = []
        for u in self.board.units:
            cs = drawn.get(u.id)
            c = (sum(p[0] for p in cs) / len(cs), sum(p[1] for p in cs) / len(cs)) if cs else u.center()
            if x0 <= c[0] <= x1 and y0 <= c[1] <= y1:
                ids.append(u.id)
        self.select(ids[0] if ids else None)
        self.group = ids[1:]
        self.say(f"{len(ids)} units selected: drag one to move them together, Q/E turns them together."
                 if len(ids) > 1 else ("One unit selected." if ids else "No unit in that box."))

    def set_tool(self, tool: str, quiet: bool = False) -> None:
        if tool not in self.tools:
            return
        if tool == "place" and self.place_tool.choice is None:
            self.want_palette()
            self.say("Choose a base size in the unit palette first.")
            return
        self.finish_drag()
        self.tool = tool
        self.charge_tool.charger = None
        if tool != "tape":
            self.tape_tool.tape = None
        if not quiet:
            self.say(HINT[tool])

    def arm_place(self, choice: Any) -> None:
        """Choose the bases of the next new unit: the place tool puts it where the table is clicked."""
        pt = self.place_tool
        pt.choice = choice
        self.set_tool("place")
        c = getattr(choice, "choice", choice)  # a template carries its bases
        what = f"{c.models} {choice.name}" if c is not choice else f"{c.models} models"
        self.say(f"Place: click the table to put {what} on {c.label} bases there (player {pt.player}); Esc cancels.")

    def finish_drag(self) -> None:
        t = self.tools[self.tool]
        if t.busy():
            t.cancel(self)

    def tool_live_mm(self) -> float:
        t = self.tools[self.tool]
        return t.live_mm() if t.busy() else 0.0

    def moved_text(self, uid: str) -> str:
        d = self.doc.session.moved_mm.get(uid, 0.0) + self.tool_live_mm()
        return f" Moved {fmt_distance(d)} since selected." if d > 0 else ""

    # -- edits -------------------------------------------------------------------------------------
    def apply(self, change: Change) -> bool:
        """Show ``change`` as one undoable edit (or its refusal in the status line)."""
        if not change.ok or change.board is None:
            if change.message:
                self.say(change.message)
            return False
        self.doc.session.apply(change.board)
        since = ""
        if change.moved:
            uid, mm = change.moved
            earlier_mm = self.doc.session.moved_mm.get(uid, 0.0)
            self.doc.session.moved_mm[uid] = earlier_mm + mm
            # the message names this edit's distance; the total only when earlier moves add to it
            since = self.moved_text(uid) if earlier_mm > 1e-6 else ""
        if change.selects:
            self.select(change.select)
        self.doc.edited(change.message + since)
        return True

    def commit_drag(self, uid: str, before: Board, live_mm: float, reanalyse: bool = True) -> None:
        """A drag of unit ``uid`` ended: one undoable edit if anything moved."""
        doc = self.doc
        if reanalyse or doc.live.paused:
            doc.recompute()
        else:
            doc.live.update_overlaps(self.board, self.rs)
        try:
            moved = before.unit(uid).pose_key() != self.board.unit(uid).pose_key()
        except KeyError:
            moved = False
        if moved:
            doc.session.apply(self.board, before=before)
            doc.session.moved_mm[uid] = doc.session.moved_mm.get(uid, 0.0) + live_mm
            self.say(f"{self.board.unit(uid).name} placed." + self.moved_text(uid))
            if not doc.live.overlaps_of(self.board, self.rs):  # (the analysis above found them on this board)
                doc.live.update_overlaps(self.board, self.rs)
            doc.notify("caption")
        if doc.live.compare_stale:
            doc.live.update_compare(self.board, force=True)

    def on_selected(self, what: str, command: Callable[[str], Change]) -> bool:
        """Run ``command(unit id)`` on the selected unit (a hint when none is selected)."""
        if self.selected_unit() is None or self.selection is None:
            self.selection = None
            self.say(f"Select a unit first (click it), then {what}.")
            return False
        return self.apply(command(self.selection))

    def unit_command(self, name: str, *args: Any) -> bool:
        """A unit panel edit of the selected unit (an :class:`Editor` command: ``rename``,
        ``set_base``, ``set_profile``...)."""
        return self.on_selected("edit it", lambda uid: getattr(self.editor, name)(self.board, uid, *args))

    def turn_selected(self, deg: float) -> bool:
        """Turn the selected unit (a running move drag is ended, the turn applied, the drag resumed)."""
        mt = self.move_tool
        key = mt.key if mt.busy() else None
        if key is not None:
            mt.cancel(self)
        ids = self.selected_ids()
        if len(ids) > 1:
            ok = self.apply(self.editor.turn_group(self.board, ids, deg))
            self.group = [u for u in ids if u != self.selection]
        else:
            ok = self.on_selected("turn it with the wheel or Q/E", lambda u: self.editor.turn(self.board, u, deg))
        if key is not None:
            mt.start(self, key, self.camera.to_mm(self.mouse_px))
        return ok

    def register(self, actions: Actions) -> None:
        """The actions of the table: tools, manoeuvres, unit edits, the camera."""
        ed = lambda: self.editor  # noqa: E731 - the editor changes with the ruleset
        b = lambda: self.board  # noqa: E731
        actions.add_prefix("tool", self.set_tool)
        actions.add_prefix("turn", lambda a: self.turn_selected(float(a)))
        actions.add_prefix("forward", lambda a: self.on_selected(
            "move it with W/S", lambda u: ed().forward(b(), u, float(a))))
        actions.add_prefix("wheel", lambda a: self.on_selected(
            "wheel it with A/D", lambda u: ed().wheel(b(), u, float(a.split(":")[0]), a.split(":")[1])))
        actions.add_prefix("reform", lambda a: self.on_selected(
            "reform it with [ and ]", lambda u: ed().reform(b(), u, int(a))))
        actions.add_prefix("model", lambda a: self.on_selected(
            "change its models with , and .", lambda u: ed().add_model(b(), u) if a == "1" else ed().remove_model(b(), u)))
        actions.add("duplicate", lambda: self.on_selected("duplicate it with Ctrl+D", lambda u: ed().duplicate(b(), u)))
        actions.add("delete", lambda: self.on_selected("delete it with Delete", lambda u: ed().delete(b(), u)))
        actions.add_prefix("player", lambda a: self.on_selected(
            "give it to a player", lambda u: ed().set_player(b(), u, int(a))))
        actions.add_prefix("pan", self.pan)
        actions.add_prefix("zoom", self.zoom)
        actions.add("fit", self.fit)
        actions.add("legend", self.toggle_legend)

    def escape(self) -> bool:
        """Esc on the table: drop the tape or go back to the move tool, else clear the selection."""
        tape = self.tape_tool
        if tape.tape is not None or self.tool != "move":
            tape.tape = None
            self.set_tool("move")
        elif self.group:
            self.group = []
        else:
            self.select(None)
        return True

    # -- document changes ----------------------------------------------------------------------------
    def drop_missing(self) -> None:
        """A unit that an edit (an undo, a redo, a loaded autosave) took off the board is no
        longer selected, nor a tool's unit (the Charge tool then asks for a unit again)."""
        ids = {u.id for u in self.board.units}
        if self.selection is not None and self.selection not in ids:
            self.select(None)
        for t in self.tools.values():
            if getattr(t, "charger", None) not in (None, *ids):
                setattr(t, "charger", None)

    def _follow(self, what: str) -> None:
        if what == "edited":
            self.space.sync(self.board)
            self.drop_missing()
        elif what == "restored":
            self.tools = make_tools() | {"place": self.tools["place"]}
            self.space.sync(self.board)
        elif what == "adopted":
            self.select(None)
            self.place_tool.choice = None
            self.set_tool("move", quiet=True)
            self.space = TraySpace(self.board)
            self.options.title = self.doc.title()
            self.fit()

    # -- the view ----------------------------------------------------------------------------------
    def dispatch(self, ev: Any) -> bool:
        """As :meth:`View.dispatch`; first, whatever the user does next (a key, a click, the
        pointer leaving the window or the table's area for a panel or the toolbar) ends the last
        charge's readout, whoever takes the event."""
        if ev.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.WINDOWLEAVE) or (
                ev.type == pygame.MOUSEMOTION and not self.in_table_area(ev.pos)):
            self.charge_tool.forget()
        return super().dispatch(ev)

    def on_event(self, ev: Any) -> bool:
        cam = self.camera
        if ev.type == pygame.MOUSEMOTION:
            if self.pan_from is not None:
                cam.pan(ev.pos[0] - self.pan_from[0], ev.pos[1] - self.pan_from[1])
                self.pan_from = ev.pos
            self.tools[self.tool].motion(self, cam.to_mm(ev.pos))
        elif ev.type == pygame.MOUSEBUTTONDOWN:
            if ev.button == 1:
                if self.in_table_area(ev.pos):
                    self.tools[self.tool].down(self, cam.to_mm(ev.pos))
            elif ev.button in (2, 3):
                self.pan_from = ev.pos
        elif ev.type == pygame.MOUSEBUTTONUP:
            if ev.button == 1:
                self.tools[self.tool].up(self, cam.to_mm(ev.pos))
            elif ev.button in (2, 3):
                self.pan_from = None
        elif ev.type == pygame.MOUSEWHEEL:
            self.on_wheel(ev.y, pygame.key.get_mods())
        elif ev.type == pygame.KEYDOWN:
            mod = getattr(ev, "mod", 0)
            action = self.keymap.action(ev.key, bool(mod & (pygame.KMOD_CTRL | pygame.KMOD_META)),
                                        bool(mod & pygame.KMOD_SHIFT))
            if action is not None:
                self.actions.run(action)
        else:
            return False
        return True

    def on_wheel(self, dy: float, mods: int) -> None:
        if dy == 0:
            return
        if mods & pygame.KMOD_CTRL or (self.selection is None and not self.busy()):
            self.camera.zoom_about(ZOOM_STEP ** dy, self.mouse_px)
        else:
            step = 1.0 if mods & pygame.KMOD_SHIFT else 15.0
            self.turn_selected(step * (1 if dy > 0 else -1))

    def on_update(self) -> None:
        """Step the running drag and the hover."""
        self.step_tools()
        self.hover = self.hover_at(self.shown()[2])

    def step_tools(self) -> None:
        """Once a frame: the running drag follows the mouse; a stale compare catches up after it."""
        self.tools[self.tool].update(self)
        if self.live.compare_stale and not self.busy():
            self.live.update_compare(self.board, force=True)

    def hover_at(self, models: list[DrawnModel]) -> Optional[str]:
        """The id of the model of ``models`` under the mouse (None while dragging or panning,
        when something covers the table there, when the tool shows no tooltips, or when the
        pointer is not in the window)."""
        px = self.mouse_px
        if not self.window.pointer_in:
            return None
        if self.busy() or not self.tools[self.tool].hover or self.pan_from is not None or self.covered(px) or not self.in_table_area(px):
            return None
        # looked up again only when the mouse, the drawn models or the camera moved (and then
        # through the models' spatial index, drawn.HitIndex)
        key = (px, self.camera.scale, tuple(self.camera.offset_px), len(models))
        last = self._hover_memo
        if last is not None and last[0] is models and last[1] == key:
            return last[2]
        dm = model_at(models, self.camera.to_mm(px))
        self._hover_memo = (models, key, dm.id if dm else None)
        return self._hover_memo[2]

    def status_parts(self, mode: Optional[str] = None) -> list[tuple[int, str]]:
        """The status line as ``(rank, text)`` parts (rank 0 kept always, higher ranks dropped
        first when the line is too long); ``mode``: a step view's mode, shown instead of the tool."""
        doc, live = self.doc, self.live
        sel = ""
        u = self.selected_unit()
        if u is not None and mode is None:
            shape = f", {u.files} wide x {u.ranks} deep" if u.is_ranked else ""
            moved = doc.session.moved_mm.get(u.id, 0.0) + self.tool_live_mm()
            sel = f"{u.name}: facing {u.facing_deg:.0f} deg{shape}, moved {fmt_distance(moved)} since selected"
        parts: list[tuple[int, str]] = [(0, mode or f"[{self.tool}]")]
        if live.solving:
            parts.append((0, "solving... (shown as last solved; the thin outline is where you hold it)"))
        if live.solve_error:
            parts.append((1, f"analysis off the frame failed: {live.solve_error}"))
        if live.paused:
            parts.append((1, f"analysis paused while dragging ({live.analyse_ms / 1000:.1f} s); updates when "
                             "you release"))
        parts.append((3, sel))
        parts.append((0, self.status.message))
        parts.append((0, doc.session.autosave_error or ""))
        parts.append((2, "unsaved changes" if doc.dirty else ""))
        if live.compare_id and mode is None:
            parts.append((4, f"K: vs {live.compare_id}, {len(live.diffs)} differ ({live.compare_ms:.1f} ms)"))
        parts.append((5, f"rules {self.rs.id} (R, Ctrl+R)"))
        parts.append((6, f"frame {self.window.frame_ms:.1f} ms, analysis {live.analyse_ms:.1f} ms"))
        return [(r, t) for r, t in parts if t]

    def status_text(self, max_w: Optional[float] = None, mode: Optional[str] = None) -> str:
        """The status line; with ``max_w`` (px) the least important parts are left out until it fits."""
        size = max(7, int(round(13 * self.options.font_scale)))
        return fit_line(self.status_parts(mode), lambda t: self.window.canvas.text_size(t, size)[0], max_w)

    def paint(self, scene: Scene, hover: Optional[str], *, step: Optional[tuple[str, str, Marks]] = None) -> None:
        """Draw ``scene`` (board, analysis, drawn models) with the table's camera and options;
        ``step``: (title, status mode, marks) of a phase step shown instead of the board."""
        o, live = self.options, self.live
        board, analysis, models = scene
        o.hover = hover
        o.hover_px = self.mouse_px if hover else None
        o.status = self.status_text(max_w=self.window.size()[0] - 20, mode=step[1] if step else None)
        o.banner = self.status.banner
        if step is None:
            charger = self.charge_tool.charger
            o.selection = tuple(x for x in (self.selection, charger) if x) + tuple(self.group)
            o.overlays = self.tools[self.tool].overlays(self)
            o.differ, o.differ_label = live.differ_options(self.rs.id)
            o.overlaps = sorted({m for a, b, _ in live.overlaps for m in (a, b)})
            o.warning = live.overlap_warning()
            o.title = self.doc.title()
        else:
            o.selection, o.overlays, o.differ, o.differ_label = (), [], {}, ""
            o.overlaps, o.warning, o.title = [], "", step[0]
        canvas = self.window.canvas
        self.retained.holding = self.busy()  # mid-drag: units standing still stay drawn live
        errors = self.retained.draw(canvas, board, analysis, self.camera, o, models if step is None else None)
        if step is not None:
            errors += draw_marks(canvas, board, analysis, self.camera, step[2], options=o)
        if errors and not self.status.banner:
            self.status.warn(f"drawing: {errors[0]}" + (f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""))

    def on_draw(self, screen: Any) -> None:
        self.paint(self.shown(), self.hover)

    def on_error(self, what: str, exc: BaseException) -> str:
        text = self.status.error(what, exc)
        if what != "drawing failed":
            self.doc.restore()
        return text

    def settling(self) -> bool:
        return bool(self.retained.moving)  # units drawn live until they stand still, then folded in

    def fingerprint(self) -> tuple:
        board, analysis, _ = self.shown()  # (by identity: a new board or analysis is a change)
        held = self.selected_unit() if self.busy() else None  # the hand's pose (a ghost while solving)
        return (self.status.message, self.status.banner, self.hover, self.tool, self.selection, tuple(self.group),
                Same(board), Same(analysis), self.camera.scale, tuple(self.camera.offset_px),
                held.pose_key() if held is not None else None)
