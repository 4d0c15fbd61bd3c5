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

from game.core import geometry as g
from game.core import manoeuvre as mv
from game.core.board import Board, Unit
from game.core.editor import Change, Editor, fmt_distance
from game.core.ruleset import Ruleset
from game.physics.trays import Key, TraySpace, pose_of, snap_to_contact, with_position
from game.render.transform import View as Camera
from game.window.live import LiveAnalysis
from game.window.rulesystems import RuleSystems
from game.core.edits import new_unit
from game.render.drawn import model_at


class TableView(Protocol):
    """What a tool reads and calls on the table view it works in (the view implements it;
    declared here so tools import no view: imports run one way)."""

    selection: Optional[str]
    space: TraySpace
    camera: Camera

    @property
    def board(self) -> Board: ...
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
    def select(self, uid: Optional[str]) -> None: ...
    def set_tool(self, tool: str, quiet: bool = False) -> None: ...
    def selected_unit(self) -> Optional[Unit]: ...
    def body_at(self, p_mm: g.Point) -> Optional[Key]: ...
    def in_table_area(self, px: tuple[float, float]) -> bool: ...
    def analyse_drag(self, uid: str) -> None: ...
    def apply(self, change: Change) -> bool: ...
    def commit_drag(self, uid: str, before: Board, live_mm: float, reanalyse: bool = True) -> None: ...

SNAP_MM = 0.5     # a dragged tray left this close to base contact (gap or overlap) is set exactly flush

HINT = {
    "move": "Move: drag a unit anywhere (it stops or slides against others).",
    "forward": "Forward: drag a unit straight forward or back along its facing.",
    "wheel": "Wheel: drag one end of a unit; it wheels about the other front corner.",
    "charge": "Charge: click your unit (if none is selected), then the enemy to charge.",
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
        self.before = board.copy()
        self.unit0 = unit
        self.live_mm = 0.0


class MoveTool(Tool):
    """Free drag with pymunk: the unit stops or slides against the others."""

    name = "move"

    def __init__(self) -> None:
        self.drag: Optional[_Drag] = None
        self.key: Optional[Key] = None
        self.last_step: Optional[g.Point] = None

    def busy(self) -> bool:
        return self.drag is not None

    def down(self, app: TableView, p: g.Point) -> None:
        key = app.body_at(p)
        if key is None:
            app.select(None)
            app.say("Nothing there. Click a unit to select it; drag to move it.")
            return
        app.select(key[0])
        self.start(app, key, p)
        app.say(f"Dragging {app.board.unit(key[0]).name}. Wheel or Q/E turns it.")

    def start(self, app: TableView, key: Key, p: g.Point) -> None:
        self.key = key
        self.drag = _Drag(app.board, app.board.unit(key[0]))
        self.last_step = None
        app.space.start_drag(app.board, key, p)

    def update(self, app: TableView) -> None:
        if self.drag is None:
            return
        pos = app.space.drag_to(app.board, app.camera.to_mm(app.mouse_px))
        if pos is None or self.key is None:
            return
        uid, idx = self.key
        prev, _ = pose_of(app.board.unit(uid), idx)
        if g.dist(prev, pos) > 1e-6:
            self.last_step = g.sub(pos, prev)
        app.board.replace_unit(with_position(app.board.unit(uid), idx, pos))
        self.drag.live_mm = mv.move_distance_mm(self.drag.unit0, app.board.unit(uid))
        app.analyse_drag(uid)

    def up(self, app: TableView, p: g.Point) -> None:
        self.cancel(app)

    def cancel(self, app: TableView) -> None:
        """End the drag; a tray left within :data:`SNAP_MM` of contact is set exactly flush."""
        if self.drag is None:
            return
        d, key = self.drag, self.key
        self.drag, self.key = None, None
        assert key is not None  # set with the drag
        app.space.end_drag()
        snapped = None
        try:
            uid0, idx0 = key
            whole = g.sub(pose_of(app.board.unit(uid0), idx0)[0], pose_of(d.unit0, idx0)[0])
            # never further than the contact tolerance: snapping must not turn "apart" into "touching"
            reach = min(SNAP_MM, app.rs.p("contact_tolerance_mm"))
            snapped = snap_to_contact(app.board, key, [self.last_step, whole], reach)
        except Exception:  # noqa: BLE001 - snapping is a nicety; the drag stands without it
            snapped = None
        if snapped is not None:
            app.board.replace_unit(snapped)
            app.space.sync(app.board)
            d.live_mm = mv.move_distance_mm(d.unit0, snapped)
        app.commit_drag(d.unit0.id, d.before, d.live_mm)

    def live_mm(self) -> float:
        return self.drag.live_mm if self.drag else 0.0

    def overlays(self, app: TableView) -> list:
        return _distance_label(app, self.live_mm()) if self.drag else []


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
        if self.name == "forward":
            d = g.dot(g.sub(p, self.grab), g.forward(u0.facing_deg))
            d, new = ed.clamp(app.board, lambda x: mv.forward(u0, x), d)
            self.drag.live_mm = abs(d)
        else:
            fl, fr = mv.front_corners(u0)
            pv = fl if self.pivot == "left" else fr
            a0 = math.atan2(self.grab[1] - pv[1], self.grab[0] - pv[0])
            a1 = math.atan2(p[1] - pv[1], p[0] - pv[0])
            deg = (math.degrees(a1 - a0) + 180) % 360 - 180
            deg, new = ed.clamp(app.board, lambda x: mv.wheel(u0, x, self.pivot), deg)
            self.drag.live_mm = mv.wheel_distance_mm(u0, deg)
        if new.pose_key() != app.board.unit(u0.id).pose_key():
            app.board.replace_unit(new)
            app.analyse_drag(u0.id)

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
        return [("ghost_unit", self.drag.unit0)] + _distance_label(app, self.drag.live_mm)


class ForwardTool(_ManualDrag):
    name = "forward"


class WheelTool(_ManualDrag):
    name = "wheel"


class ChargeTool(Tool):
    """Click your unit (or keep the selected one), then the enemy to charge."""

    name = "charge"

    def __init__(self) -> None:
        self.charger: Optional[str] = None

    def down(self, app: TableView, p: g.Point) -> None:
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
        app.apply(app.editor.charge(app.board, self.charger, key[0]))
        self.charger = None


class CasualtyTool(Tool):
    name = "casualty"

    def down(self, app: TableView, p: g.Point) -> None:
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
        if gap <= tol:
            text = '0" (touching)' if a[0] and b[0] else '0"'
            gap = 0.0
        else:
            text = fmt_distance(gap)
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
        if app.apply(app.editor.place(app.board, self.choice, p, self.player, app.rules.new_profile(app.rs))):
            app.set_tool("move", quiet=True)

    def overlays(self, app: TableView) -> list:
        if self.choice is None or not app.in_table_area(app.mouse_px):
            return []
        try:
            return [("ghost_unit", new_unit(app.board, self.choice, app.camera.to_mm(app.mouse_px), self.player))]
        except ValueError:
            return []


def _distance_label(app: TableView, mm: float) -> list:
    u = app.selected_unit()
    if u is None:
        return []
    c = app.camera.to_px(u.center())
    return [("text", (c[0] + 12, c[1] - 30), f"moved {fmt_distance(mm)}")]


def make_tools() -> dict[str, Tool]:
    return {t.name: t for t in (MoveTool(), ForwardTool(), WheelTool(), ChargeTool(), CasualtyTool(), TapeTool(),
                                PlaceTool())}
