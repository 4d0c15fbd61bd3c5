"""The window's tools: what a left click or drag on the table does.

One object per tool (:data:`TOOL_NAMES`): ``down`` / ``motion`` / ``up`` get the table point
(mm) under the mouse, ``update`` runs once a frame, ``busy`` is True while a drag runs and
``overlays`` adds what the tool draws (ghosts, the tape, the running distance). Every change
to the board goes through the table view (``app.apply`` or ``app.commit_drag``) so it is one
undoable edit; the collision policy is the window's :class:`~game.core.editor.Editor`.
"""
from __future__ import annotations

import math
from typing import Any, Optional, Protocol

import pygame

from game.core import geometry as g
from game.core import manoeuvre as mv
from game.core.board import Board, Unit
from game.core.editor import Change, Editor, fmt_distance
from game.core.ruleset import Ruleset
from game.physics.trays import Key, TraySpace, body_keys, pose_of, snap_to_contact, with_position
from game.render.transform import View as Camera
from game.window.live import LiveAnalysis
from game.window.rulesystems import RuleSystems
from game.core.edits import new_unit
from game.core.measure import drag_readout, fmt_length, snap_to_corner
from game.core.templates import Template, template_unit
from game.render.drawn import model_at


class TableView(Protocol):
    """What a tool reads and calls on the table view it works in (the view implements it;
    declared here so tools import no view: imports run one way)."""

    selection: Optional[str]
    group: list[str]
    space: TraySpace
    camera: Camera

    @property
    def board(self) -> Board: ...
    @board.setter
    def board(self, b: Board) -> None: ...
    @property
    def rs(self) -> Ruleset: ...
    @property
    def editor(self) -> Editor: ...
    @property
    def live(self) -> LiveAnalysis: ...
    @property
    def rules(self) -> RuleSystems: ...
    @property
    def mouse_px(self) -> tuple[float, float]: ...
    def say(self, text: str) -> None: ...
    def say_more(self, text: str) -> None: ...
    def select(self, uid: Optional[str], keep_group: bool = False) -> None: ...
    def selected_ids(self) -> list[str]: ...
    def toggle_in_selection(self, uid: str) -> None: ...
    def select_box(self, a_mm: g.Point, b_mm: g.Point) -> None: ...
    def set_tool(self, tool: str, quiet: bool = False) -> None: ...
    def selected_unit(self) -> Optional[Unit]: ...
    def body_at(self, p_mm: g.Point) -> Optional[Key]: ...
    def in_table_area(self, px: tuple[float, float]) -> bool: ...
    def analyse_drag(self, uid: str) -> None: ...
    def apply(self, change: Change) -> bool: ...
    def commit_drag(self, uid: str, before: Board, live_mm: float, reanalyse: bool = True) -> None: ...

CORNER_SNAP_PX = 8  # a tape end this close to a base corner (on screen) snaps to it
SNAP_MM = 0.5     # a dragged tray left this close to base contact (gap or overlap) is set exactly flush
CLICK_PX = 3.0    # a press and release with the pointer moved no further than this (screen px) is a click

HINT = {
    "move": "Move: drag a unit anywhere (it stops or slides against others).",
    "forward": "Forward: drag a unit straight forward or back along its facing.",
    "wheel": "Wheel: drag one end of a unit; it wheels about the other front corner.",
    "charge": "Charge: click your unit (if none is selected), then the enemy (Shift+click: the other contact, "
              "aligned or keeping the angle).",
    "casualty": "Casualty: click a model to remove it, an empty slot to restore it.",
    "tape": "Tape: drag from a model (or any point) to another to measure edge to edge.",
    "place": "Place: click the table to put the new unit there (choose its bases in the unit palette, U).",
}
TOOL_NAMES = tuple(HINT)


class Tool:
    name = ""
    hover = True      # model tooltips while this tool is active

    @property
    def hint(self) -> str:
        return HINT[self.name]

    def down(self, app: TableView, p: g.Point) -> None: ...

    def motion(self, app: TableView, p: g.Point) -> None: ...

    def up(self, app: TableView, p: g.Point) -> None: ...

    def update(self, app: TableView) -> None: ...

    def busy(self) -> bool:
        return False

    def live_mm(self) -> float:
        """The distance the running drag moved its unit so far (mm)."""
        return 0.0

    def cancel(self, app: TableView) -> None:
        """Finish whatever runs (a drag is kept as an edit)."""

    def overlays(self, app: TableView) -> list:
        return []


class _Drag:
    """A drag in progress: the board when it began, the unit then, the distance so far."""

    def __init__(self, board: Board, unit: Unit):
        self.before = board  # (a value: the drag makes new boards, never changes this one)
        self.unit0 = unit
        self.live_mm = 0.0


class MoveTool(Tool):
    """Free drag with pymunk: the unit stops or slides against the others."""

    name = "move"

    def __init__(self) -> None:
        self.drag: Optional[_Drag] = None
        self.key: Optional[Key] = None
        self.last_step: Optional[g.Point] = None
        self.box: Optional[tuple[g.Point, g.Point]] = None
        self.followers: dict[str, Unit] = {}
        self.others: Optional[Board] = None   # the board without the dragged group (what the group may not overlap)
        self.start_pen: dict[str, float] = {}
        self.shift: g.Point = (0.0, 0.0)       # the group's last shift that fitted (mm from the start)
        self.press_px: Optional[g.Point] = None  # where the drag's press was (screen px)
        self.dragged = False                   # the pointer moved more than CLICK_PX since the press

    def busy(self) -> bool:
        return self.drag is not None or self.box is not None

    def down(self, app: TableView, p: g.Point) -> None:
        key = app.body_at(p)
        shift = bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
        if key is not None and shift:
            app.toggle_in_selection(key[0])
            return
        if key is None:
            app.select(None)
            self.box = (p, p)
            app.say("Nothing there. Click a unit to select it, drag to move it; drag a box to select several.")
            return
        ids = app.selected_ids()
        together = key[0] in ids and len(ids) > 1
        app.select(key[0], keep_group=together)
        if together:
            app.group = [u for u in ids if u != key[0]]
        self.start(app, key, p)
        n = len(app.selected_ids())
        app.say(f"Dragging {app.board.unit(key[0]).name}" + (f" and {n - 1} more" if n > 1 else "")
                + ". Q/E turns it (Shift: 1 deg).")

    def start(self, app: TableView, key: Key, p: g.Point) -> None:
        self.key = key
        self.drag = _Drag(app.board, app.board.unit(key[0]))
        self.last_step = None
        # the others selected with it follow its move (whole units only: a skirmish model moves alone)
        self.followers = {u: app.board.unit(u) for u in app.selected_ids() if u != key[0]} if key[1] is None else {}
        self.shift = (0.0, 0.0)
        self.others = None
        self.press_px, self.dragged = app.camera.to_px(p), False
        together: list[Key] = []
        if self.followers:
            inside = set(self.followers) | {key[0]}
            self.others = app.board.without(inside)
            self.start_pen = {u: app.editor.penetration(self.others, f) for u, f in self.followers.items()}
            together = [k for k in body_keys(app.board) if k[0] in self.followers]
        app.space.start_drag(app.board, key, p, together)

    def motion(self, app: TableView, p: g.Point) -> None:
        if self.box is not None:
            self.box = (self.box[0], p)
        if self.drag is not None and self.press_px is not None and \
                g.dist(app.camera.to_px(p), self.press_px) > CLICK_PX:
            self.dragged = True

    def up(self, app: TableView, p: g.Point) -> None:
        if self.box is not None:
            a, self.box = self.box[0], None
            if g.dist(a, p) > 2.0:
                app.select_box(a, p)
            return
        self.cancel(app)

    def update(self, app: TableView) -> None:
        if self.drag is None:
            return
        pos = app.space.drag_to(app.board, app.camera.to_mm(app.mouse_px))
        if self.key is None:
            return
        if pos is None:  # the hand rests: nothing moved, but the worker's answer may have landed
            app.analyse_drag(self.key[0])
            return
        uid, idx = self.key
        prev, _ = pose_of(app.board.unit(uid), idx)
        if g.dist(prev, pos) > 1e-6:
            self.last_step = g.sub(pos, prev)
        app.board = app.board.with_unit(with_position(app.board.unit(uid), idx, pos))
        self.drag.live_mm = mv.move_distance_mm(self.drag.unit0, app.board.unit(uid))
        if self.followers and self.others is not None:
            # the group moves rigidly; a follower that would overlap another unit holds it all
            # back (the same no-overlap rule as a single drag; pymunk checks the leader)
            c0, c1 = self.drag.unit0.center(), app.board.unit(uid).center()
            want = (c1[0] - c0[0], c1[1] - c0[1])
            shift = app.editor.group_shift(self.others, list(self.followers.values()), self.start_pen, self.shift, want)
            if shift != want:
                lead = self.drag.unit0.translated(shift[0], shift[1])
                app.board = app.board.with_unit(lead)
                app.space.hold(pose_of(lead, idx)[0])
                self.drag.live_mm = mv.move_distance_mm(self.drag.unit0, lead)
            self.shift = shift
            for u0 in self.followers.values():
                app.board = app.board.with_unit(u0.translated(shift[0], shift[1]))
        app.analyse_drag(uid)

    def cancel(self, app: TableView) -> None:
        """End the drag; a tray left within :data:`SNAP_MM` of contact is set exactly flush. A
        click (the pointer never moved more than :data:`CLICK_PX`) only selects: every unit of
        the drag is put back as it stood, never snapped, and nothing is edited."""
        self.box = None
        if self.drag is None:
            return
        d, key = self.drag, self.key
        self.drag, self.key = None, None
        assert key is not None  # set with the drag
        app.space.end_drag()
        if not self.dragged:
            for uid in [d.unit0.id, *self.followers]:
                app.board = app.board.with_unit(d.before.unit(uid))
            self.others = None
            app.space.sync(app.board)
            app.commit_drag(d.unit0.id, d.before, 0.0)
            n = len(app.selected_ids())
            app.say(f"{app.board.unit(d.unit0.id).name} selected" + (f" with {n - 1} more" if n > 1 else "")
                    + ": drag it to move it, Q/E turns it.")
            return
        snapped = None
        try:
            uid0, idx0 = key
            whole = g.sub(pose_of(app.board.unit(uid0), idx0)[0], pose_of(d.unit0, idx0)[0])
            # never further than the contact tolerance: snapping must not turn "apart" into "touching"
            reach = min(SNAP_MM, app.rs.p("contact_tolerance_mm"))
            snapped = snap_to_contact(app.board, key, [self.last_step, whole], reach)
        except Exception:  # noqa: BLE001 - snapping is a nicety; the drag stands without it
            snapped = None
        if snapped is not None and self.followers and self.others is not None:
            # a group snaps together, when every follower still fits
            c, c1 = app.board.unit(snapped.id).center(), snapped.center()
            want = (self.shift[0] + c1[0] - c[0], self.shift[1] + c1[1] - c[1])
            if app.editor.group_shift(self.others, list(self.followers.values()), self.start_pen, self.shift,
                                      want) == want:
                for u0 in self.followers.values():
                    app.board = app.board.with_unit(u0.translated(want[0], want[1]))
            else:
                snapped = None
        self.others = None
        if snapped is not None:
            app.board = app.board.with_unit(snapped)
            app.space.sync(app.board)
            d.live_mm = mv.move_distance_mm(d.unit0, snapped)
        app.commit_drag(d.unit0.id, d.before, d.live_mm)

    def live_mm(self) -> float:
        return self.drag.live_mm if self.drag else 0.0

    def overlays(self, app: TableView) -> list:
        if self.box is not None:
            return [("box", self.box[0], self.box[1])]
        return (_held(app) + _readout(app, self.drag)) if self.drag else []


class _ManualDrag(Tool):
    """Forward and wheel drags: the unit follows the mouse along the one allowed motion."""

    def __init__(self) -> None:
        self.drag: Optional[_Drag] = None
        self.grab: g.Point = (0.0, 0.0)
        self.pivot = "left"

    def busy(self) -> bool:
        return self.drag is not None

    def down(self, app: TableView, p: g.Point) -> None:
        key = app.body_at(p)
        if key is None:
            app.select(None)
            app.say("Nothing there. Click a unit to select it; drag to move it.")
            return
        app.select(key[0])
        u = app.board.unit(key[0])
        if self.name == "wheel" and not u.is_ranked:
            app.say("Only rank-and-file units wheel; turn skirmishers with Q/E.")
            return
        self.drag = _Drag(app.board, u)
        self.grab = p
        if self.name == "wheel":
            across, _ = g.to_local(p, u.front, u.facing_deg)
            self.pivot = "left" if across >= 0 else "right"  # the grabbed end swings
        app.say(f"{'Moving' if self.name == 'forward' else 'Wheeling'} {u.name}.")

    def update(self, app: TableView) -> None:
        if self.drag is None:
            return
        u0, p = self.drag.unit0, app.camera.to_mm(app.mouse_px)
        ed = app.editor
        # fitted against the board as the drag began (the unit at its start): measured against
        # its current pose, each frame could sink another micrometre deeper (a creep at rest)
        start = self.drag.before
        if self.name == "forward":
            d = g.dot(g.sub(p, self.grab), g.forward(u0.facing_deg))
            d, new = ed.clamp(start, lambda x: mv.forward(u0, x), d)
            self.drag.live_mm = abs(d)
        else:
            fl, fr = mv.front_corners(u0)
            pv = fl if self.pivot == "left" else fr
            a0 = math.atan2(self.grab[1] - pv[1], self.grab[0] - pv[0])
            a1 = math.atan2(p[1] - pv[1], p[0] - pv[0])
            deg = (math.degrees(a1 - a0) + 180) % 360 - 180
            deg, new = ed.clamp(start, lambda x: mv.wheel(u0, x, self.pivot), deg)
            self.drag.live_mm = mv.wheel_distance_mm(u0, deg)
        if new.pose_key() != app.board.unit(u0.id).pose_key():
            app.board = app.board.with_unit(new)
        app.analyse_drag(u0.id)  # also at rest: the worker's answer for this pose may have landed

    def up(self, app: TableView, p: g.Point) -> None:
        self.cancel(app)

    def cancel(self, app: TableView) -> None:
        if self.drag is None:
            return
        d, self.drag = self.drag, None
        app.commit_drag(d.unit0.id, d.before, d.live_mm)

    def live_mm(self) -> float:
        return self.drag.live_mm if self.drag else 0.0

    def overlays(self, app: TableView) -> list:
        if self.drag is None:
            return []
        return [("ghost_unit", self.drag.unit0)] + _held(app) + _readout(app, self.drag)


class ForwardTool(_ManualDrag):
    name = "forward"


class WheelTool(_ManualDrag):
    name = "wheel"


class ChargeTool(Tool):
    """Click your unit (or keep the selected one), then the enemy to charge."""

    name = "charge"

    def __init__(self) -> None:
        self.charger: Optional[str] = None
        self.done: Optional[tuple[Unit, Unit]] = None  # the last charge: the charger before and after

    def down(self, app: TableView, p: g.Point) -> None:
        self.done = None
        key = app.body_at(p)
        if key is None:
            app.say(self.hint)
            return
        if self.charger is None and app.selection is not None and app.selection != key[0]:
            self.charger = app.selection
        if self.charger is None or self.charger == key[0]:
            self.charger = key[0]
            app.select(key[0])
            app.say(f"{app.board.unit(key[0]).name} will charge: now click the enemy unit.")
            return
        align = app.rs.measure.charge == "align"
        if pygame.key.get_mods() & pygame.KMOD_SHIFT:
            align = not align  # Shift+click: the other way (aligned flush, or keeping the angle)
        before = app.board.unit(self.charger)
        if app.apply(app.editor.charge(app.board, self.charger, key[0], align=align)):
            # the readout a drag shows (moved, gap, the ruleset's reach), kept on the table after the click
            self.done = (before, app.board.unit(before.id))
            app.say_more(_past_reach(app, *self.done))
        self.charger = None

    def forget(self) -> None:
        """The user did something else: the last charge's readout goes."""
        self.done = None

    def overlays(self, app: TableView) -> list:
        """The last charge's readout while the charger stands where the charge put it, until
        the user's next key, click or the pointer leaving the window (:meth:`forget`)."""
        if self.done is None:
            return []
        start, now = self.done
        try:
            if app.board.unit(now.id).pose_key() != now.pose_key():
                self.done = None
                return []
        except KeyError:
            self.done = None
            return []
        try:
            r = drag_readout(start, now, app.board, app.rs.measure, app.rs.values)
        except (KeyError, ValueError):
            return []
        return [("drag_readout", start, now, r)]


class CasualtyTool(Tool):
    name = "casualty"

    def down(self, app: TableView, p: g.Point) -> None:
        """The model drawn under ``p`` (a piled-in model at its piled-in place) is the one
        removed: the editor is handed where that model stands on the board."""
        dm = model_at(app.live.models, p)
        if dm is not None:
            at = next((m.center for u in app.board.units if u.id == dm.unit.id for m in u.models() if m.id == dm.id),
                      None)
            if at is not None and g.dist(at, dm.shape.center) > 1e-6:
                p = at
        app.apply(app.editor.casualty(app.board, p))


class TapeTool(Tool):
    """Drag from a model (or any point) to another: the edge-to-edge distance."""

    name = "tape"
    hover = False

    def __init__(self) -> None:
        self.tape: Optional[dict] = None

    def busy(self) -> bool:
        return bool(self.tape and self.tape.get("live"))

    def down(self, app: TableView, p: g.Point) -> None:
        a = self.end(app, p)
        self.tape = dict(self.measure(app, a, a), live=True)

    def motion(self, app: TableView, p: g.Point) -> None:
        t = self.tape
        if t is not None and t.get("live"):
            self.tape = dict(self.measure(app, t["a"], self.end(app, p)), live=True)

    def up(self, app: TableView, p: g.Point) -> None:
        t = self.tape
        if t is not None and t.get("live"):
            t = self.tape = dict(self.measure(app, t["a"], self.end(app, p)), live=False)
            app.say(f"Tape: {t['text']} edge to edge.")

    @staticmethod
    def end(app: TableView, p: g.Point) -> tuple[str, g.Shape]:
        """A tape end: a base corner within :data:`CORNER_SNAP_PX` of ``p`` (snapped to it),
        else the model under ``p`` (the tape runs from its base edge), else the point."""
        corner = snap_to_corner(app.board, p, CORNER_SNAP_PX / max(app.camera.scale, 1e-9))
        if corner is not None:
            return "corner", g.Circle(corner, 0.0)
        dm = model_at(app.live.models, p)
        if dm is not None:
            return dm.id, dm.shape
        return "", g.Circle(p, 0.0)

    @staticmethod
    def measure(app: TableView, a: tuple[str, g.Shape], b: tuple[str, g.Shape]) -> dict:
        """Edge-to-edge distance between two tape ends (models or points)."""
        gap = g.gap_mm(a[1], b[1])
        tol = app.rs.p("contact_tolerance_mm")
        pa, pb = g.closest_points(a[1], b[1])
        unit = app.rs.measure.unit
        if gap <= tol:
            zero = '0"' if unit == "in" else fmt_length(0.0, unit)
            text = f"{zero} (touching)" if a[0] and b[0] else zero
            gap = 0.0
        else:
            text = fmt_length(gap, unit) + ("" if unit == "mm" else f" ({gap:.1f} mm)")
        return {"a": a, "b": b, "gap_mm": gap, "p0": pa, "p1": pb, "text": text}

    def overlays(self, app: TableView) -> list:
        t = self.tape
        return [("tape", t["p0"], t["p1"], t["text"])] if t else []


class PlaceTool(Tool):
    """Click the table to put the new unit chosen in the palette there."""

    name = "place"
    hover = False

    def __init__(self) -> None:
        self.choice = None
        self.player = 1

    def down(self, app: TableView, p: g.Point) -> None:
        if self.choice is None:
            app.say("Choose a base size in the unit palette (U) first.")
            return
        if isinstance(self.choice, Template):
            change = app.editor.add_unit(app.board, template_unit(app.board, self.choice, p, self.player))
        else:
            change = app.editor.place(app.board, self.choice, p, self.player, app.rules.new_profile(app.rs))
        if app.apply(change):
            app.set_tool("move", quiet=True)

    def overlays(self, app: TableView) -> list:
        if self.choice is None or not app.in_table_area(app.mouse_px):
            return []
        choice = self.choice.choice if isinstance(self.choice, Template) else self.choice
        try:
            return [("ghost_unit", new_unit(app.board, choice, app.camera.to_mm(app.mouse_px), self.player))]
        except ValueError:
            return []


def _held(app: TableView) -> list:
    """While the view shows an answer for an earlier pose (:attr:`LiveAnalysis.shown_board`),
    the bases of the board that stand elsewhere there, as a ghost: where the hand holds them."""
    shown = app.live.shown_board
    if shown is None:
        return []
    was = {m.id: m.center for u in shown.units for m in u.models()}
    out = [m.shape for u in app.board.units for m in u.models()
           if m.id in was and g.dist(was[m.id], m.center) > 1e-6]
    return [("ghost_shapes", out)] if out else []


def _past_reach(app: TableView, start: Unit, now: Unit) -> str:
    """`` It went 0.7" further than its Movement of 4".`` for each reach of the ruleset the
    move from ``start`` to ``now`` went past ("" when within every one): a fact for the
    status line, not a ruling (a charge's range is the rules' business, not the window's)."""
    try:
        r = drag_readout(start, now, app.board, app.rs.measure, app.rs.values)
    except (KeyError, ValueError):
        return ""
    return "".join(f" It went {fmt_length(r.moved_mm - mm, r.unit)} further than its {label} of "
                   f"{fmt_length(mm, r.unit)}." for label, _rule, mm in r.reach if r.moved_mm > mm + 1e-6)


def _readout(app: TableView, drag: _Drag) -> list:
    """The drag's readout (moved, gap to the nearest enemy, the ruleset's reach; in the
    ruleset's unit), drawn by the scene's ``drag_readout`` overlay."""
    try:
        now = app.board.unit(drag.unit0.id)
        r = drag_readout(drag.unit0, now, app.board, app.rs.measure, app.rs.values)
    except (KeyError, ValueError):
        return _distance_label(app, drag.live_mm)
    return [("drag_readout", drag.unit0, now, r)]


def _distance_label(app: TableView, mm: float) -> list:
    u = app.selected_unit()
    if u is None:
        return []
    c = app.camera.to_px(u.center())
    return [("text", (c[0] + 12, c[1] - 30), f"moved {fmt_distance(mm)} this move")]


def make_tools() -> dict[str, Tool]:
    return {t.name: t for t in (MoveTool(), ForwardTool(), WheelTool(), ChargeTool(), CasualtyTool(), TapeTool(),
                                PlaceTool())}
