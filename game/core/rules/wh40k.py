"""Warhammer 40,000 Fight phase: pile in, who fights and in what order, consolidate.

Pure rules core (standard library only). Source: ``shared/seeds/003`` (Fight phase).

* **Engaged** (Engagement Range): a model is engaged while its base is within
  ``engagement_range_in`` (1") of an enemy model's base, edge to edge
  (:func:`game.core.geometry.gap_mm`). A unit is engaged when any of its models is.
  Engaged models fight (role ``attack``); there are no supporting attacks. A model's
  ``targets`` are the enemy models within Engagement Range of it (attacks are declared
  against their units in play; we list the models so the picture shows who can reach whom).
* **Pile-in Moves** (``context.step: pile_in``, the default): eligible units (engaged,
  charged this turn, or selected for an overrun fight) move each model up to 3"; the active
  player's units first, then the opponent's. Targets: every enemy unit the unit is engaged
  with, otherwise every enemy unit within 5". Models in base contact with an enemy stay put;
  a moved model ends closer to the closest target unit and engaged with it if it can; bases
  never overlap; models that started engaged stay engaged with the same enemy unit; unit
  coherency is kept where possible; afterwards the unit must be engaged, otherwise it does
  not pile in at all.
* **Fight** (``step: fight``): the selection order in ``fight_sequence`` (Fights
  First alternation starting with the active player, then remaining combats starting with
  the player who moved the sequence on, back to Fights First whenever one is eligible);
  normal fights for engaged units, overrun fights (pile in again, then fight) for eligible
  units that are unengaged, e.g. because their enemy was destroyed.
* **Consolidation Moves** (``step: consolidate``): ongoing / engaging / objective mode per
  unit in ``consolidation``.

Optional scenario keys this engine reads (kept by the loader, ignored elsewhere):
``context.destroys: {unit: [unit ids]}`` (when ``unit`` fights it destroys those units: the
scenario tells the outcome, we do not roll dice); ``context.destroyed: [unit ids]`` (units
already gone); ``context.fought: [unit ids]`` (units that were eligible to fight this phase,
for consolidation); a unit key ``embarked_in: <transport id>`` (the unit is off the table
while the transport lives; its listed positions are where it stands after an emergency
disembark).

Path finding is a service: ``analyse(..., planner=plan_paths)`` (``game.physics.planner``)
routes moves around bases; without it moves are straight lines that avoid every base. Every
end position is re-checked here whichever device produced it.
"""
from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional

from .. import geometry as g
from ..analysis import Analysis, ModelResult
from ..engagement import Engagement
from ..results import FightSelection
from ..board import Board, Unit
from ..ruleset import Ruleset

INCH_MM = g.INCH_MM
Planner = Callable[..., dict]


# ----- parameters -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Params:
    """Ruleset parameters converted to mm once (inches only in the YAML)."""

    er_mm: float
    tol_mm: float
    pile_in_mm: float
    pile_in_radius_mm: float
    consolidate_mm: float
    consolidate_enemy_mm: float
    consolidate_objective_mm: float
    objective_range_mm: float
    marker_radius_mm: float
    coherency_mm: float
    coherency_big: int
    default_attacks: int
    clearance_mm: float
    fights_first_chooser: str = "active_player"
    rules: Mapping[str, str] = field(default_factory=dict, compare=False)  # parameter -> rule name
    inches: Mapping[str, float] = field(default_factory=dict, compare=False)  # ``*_in`` values as written

    def say_in(self, key: str) -> str:
        """A ``*_in`` parameter as users read it (``3"``)."""
        return f"{self.inches[key]:g}\""

    @staticmethod
    def of(rs: Ruleset) -> "Params":
        """The ruleset's typed values (see ``wh40k_strategy.FightPhaseParams``) in mm."""
        v = rs.values
        return Params(
            er_mm=v.engagement_range_in * INCH_MM, tol_mm=v.contact_tolerance_mm,
            pile_in_mm=v.pile_in_in * INCH_MM, pile_in_radius_mm=v.pile_in_target_radius_in * INCH_MM,
            consolidate_mm=v.consolidate_in * INCH_MM, consolidate_enemy_mm=v.consolidate_enemy_radius_in * INCH_MM,
            consolidate_objective_mm=v.consolidate_objective_radius_in * INCH_MM,
            objective_range_mm=v.objective_range_in * INCH_MM,
            marker_radius_mm=v.objective_marker_diameter_mm / 2,
            coherency_mm=v.coherency_in * INCH_MM, coherency_big=v.coherency_big_unit_models,
            default_attacks=v.default_attacks, clearance_mm=v.planner_clearance_mm,
            fights_first_chooser=v.fights_first_chooser, rules={k: rs.rule(k) for k in rs.params},
            inches={k: float(getattr(v, k)) for k in rs.params if k.endswith("_in")})


# ----- the table during the phase ---------------------------------------------------------------
@dataclass
class Piece:
    """One model on the table: ``shape`` is its base where it stands now (table mm)."""

    id: str
    unit_id: str
    player: int
    shape: g.Shape


MAX_GOALS = 8  # enemy models around which end spots are sought, nearest first


def moved_shape(shape: g.Shape, center: g.Point) -> g.Shape:
    """``shape`` translated so its centre is ``center`` (bases never turn when moved here)."""
    if isinstance(shape, g.Circle):
        return g.Circle(center, shape.radius_mm)
    dx, dy = center[0] - shape.center[0], center[1] - shape.center[1]
    return g.Poly(tuple((x + dx, y + dy) for x, y in shape.points))


def _gap(a: g.Shape, b: g.Shape) -> float:
    if isinstance(a, g.Circle) and isinstance(b, g.Circle):
        return math.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) - a.radius_mm - b.radius_mm
    return g.gap_mm(a, b)


def _inradius(shape: g.Shape) -> float:
    """Radius of a circle about the centre that lies inside the base (mm)."""
    if isinstance(shape, g.Circle):
        return shape.radius_mm
    c = shape.center
    pts = shape.points
    return min(g._seg_point_dist(c, pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts)))


def _extent(shape: g.Shape) -> float:
    if isinstance(shape, g.Circle):
        return shape.radius_mm
    c = shape.center
    return max(g.dist(c, p) for p in shape.points)


class Table:
    """Every model on the table and where it stands now (mutable, pure Python).

    Built from a :class:`Board`: destroyed units (``context.destroyed``) are left out, and so
    are units ``embarked_in`` a transport that is still on the table.
    """

    def __init__(self, board: Board):
        self.board = board
        gone = set(board.context.get("destroyed") or [])
        ids = {u.id for u in board.units} - gone
        self.units: dict[str, Unit] = {}
        self.off: dict[str, str] = {}  # unit id -> why it is not on the table
        for u in board.units:
            if u.id in gone:
                self.off[u.id] = "destroyed"
            elif u.extra.get("embarked_in") in ids:
                self.off[u.id] = f"embarked in {u.extra['embarked_in']}"
            else:
                self.units[u.id] = u
        self.pieces: dict[str, Piece] = {}
        self.by_unit: dict[str, list[str]] = {}
        for uid, u in self.units.items():
            ms = u.models()
            self.by_unit[uid] = [m.id for m in ms]
            for m in ms:
                self.pieces[m.id] = Piece(m.id, uid, u.player, m.shape)
        self.terrain = [g.Poly(tuple(tuple(p) for p in t["points"])) for t in board.terrain]

    def copy(self) -> "Table":
        t = copy.copy(self)
        t.units = dict(self.units)
        t.off = dict(self.off)
        t.pieces = {k: Piece(p.id, p.unit_id, p.player, p.shape) for k, p in self.pieces.items()}
        t.by_unit = {k: list(v) for k, v in self.by_unit.items()}
        return t

    def player(self, uid: str) -> int:
        return self.units[uid].player

    def enemy_units(self, uid: str) -> list[str]:
        return [o for o in self.units if self.units[o].player != self.units[uid].player]

    def models_of(self, uid: str) -> list[Piece]:
        return [self.pieces[m] for m in self.by_unit.get(uid, [])]

    def unit_gap(self, a: str, b: str) -> float:
        """Closest edge-to-edge gap between two units' models (mm)."""
        return min((_gap(p.shape, q.shape) for p in self.models_of(a) for q in self.models_of(b)), default=math.inf)

    def model_unit_gap(self, shape: g.Shape, uid: str) -> float:
        """Edge-to-edge gap from ``shape`` to the closest model of unit ``uid`` (mm).

        Bounding circles give a lower bound, so models that cannot be closer than the best
        found so far are skipped without the exact (polygon) distance.
        """
        best = math.inf
        c = shape.center
        ext = _extent(shape)
        for q in self.models_of(uid):
            qc = q.shape.center
            lower = math.hypot(qc[0] - c[0], qc[1] - c[1]) - ext - _extent(q.shape)
            if lower >= best:
                continue
            d = _gap(shape, q.shape)
            if d < best:
                best = d
        return best

    def engaged_with(self, uid: str, er: float) -> list[str]:
        """Enemy units within Engagement Range of ``uid`` (file order)."""
        return [e for e in self.enemy_units(uid) if self.unit_gap(uid, e) <= er]

    def remove_unit(self, uid: str, why: str) -> None:
        """Take a destroyed unit off the table; units embarked in it come on (emergency disembark)."""
        for mid in self.by_unit.pop(uid, []):
            self.pieces.pop(mid, None)
        self.units.pop(uid, None)
        self.off[uid] = why
        for u in self.board.units:
            if u.extra.get("embarked_in") == uid and u.id in self.off and u.id not in self.units:
                self.off.pop(u.id)
                self.units[u.id] = u
                ms = u.models()
                self.by_unit[u.id] = [m.id for m in ms]
                for m in ms:
                    self.pieces[m.id] = Piece(m.id, u.id, u.player, m.shape)

    def to_board(self) -> Board:
        """The table as a :class:`Board` (units off the table are dropped, moved ranked units
        become skirmish units of rectangular bases, since their models no longer stand in ranks)."""
        b = self.board.copy()
        units = []
        for u in b.units:
            if u.id not in self.units:
                continue
            ms = u.models()
            now = [self.pieces[m.id].shape.center for m in ms]
            u.extra.pop("embarked_in", None)
            if u.kind == "ranked":
                if all(g.dist(m.center, c) < 1e-6 for m, c in zip(ms, now)):
                    units.append(u)
                    continue
                u = Unit(id=u.id, player=u.player, kind="skirmish", base=(u.base_w, u.base_d), facing_deg=u.facing_deg,
                         name=u.name, profile=u.profile, keywords=u.keywords, placed=[(c, None) for c in now],
                         extra={k: v for k, v in u.extra.items() if k not in ("files", "last_rank", "empty", "front")})
            else:
                u.placed = [(c, base) for c, (_, base) in zip(now, u.placed)]
            units.append(u)
        b.units = units
        gone = [uid for uid, why in self.off.items() if why.startswith("destroyed")]
        if gone:
            b.context["destroyed"] = sorted(set(b.context.get("destroyed") or []) | set(gone))
        return b


# ----- moves ---------------------------------------------------------------------------------------
@dataclass
class MoveReport:
    """Result of moving one unit: ``paths`` {model id: polyline (mm)}, ``notes`` in our words."""

    paths: dict[str, list[g.Point]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    mode: str = ""
    targets: list[str] = field(default_factory=list)


def path_length(points) -> float:
    """Length of a polyline in mm."""
    return sum(g.dist(a, b) for a, b in zip(points, points[1:]))


class _Mover:
    """Chooses where one unit's models end a pile-in or consolidation and how they get there."""

    def __init__(self, table: Table, uid: str, p: Params, *, max_mm: float, contact_stays: bool,
                 target_units: list[str], objective: Optional[g.Point], planner: Optional[Planner]):
        self.t, self.uid, self.p = table, uid, p
        self.max_mm = max_mm
        self.reach_mm = max_mm - 0.3  # straight-line budget, keeps paths safely inside the limit
        self.contact_stays = contact_stays
        self.targets = target_units
        self.objective = g.Circle(objective, p.marker_radius_mm) if objective is not None else None
        self.planner = planner
        self.policy = "contact"  # or "short": among engaging ends prefer the shortest move
        self.spots: dict[str, list[g.Point]] = {}  # engaging ends still open to models yet to move
        self.size = len(table.by_unit[uid])
        self.w, self.h = table.board.table

    # -- what counts as a better end --------------------------------------------------------------
    def _closest_target(self, shape: g.Shape) -> tuple[str, float]:
        best, bg = "", math.inf
        for e in self.targets:
            d = self.t.model_unit_gap(shape, e)
            if d < bg:
                best, bg = e, d
        return best, bg

    def _coherent(self, mid: str, shape: g.Shape) -> bool:
        if self.size <= 1:
            return True
        need = 2 if self.size >= self.p.coherency_big else 1
        n = sum(1 for q in self.t.models_of(self.uid) if q.id != mid and _gap(shape, q.shape) <= self.p.coherency_mm)
        return n >= need

    def _free(self, mid: str, shape: g.Shape, near: list[Piece]) -> bool:
        x0, y0, x1, y1 = shape.bbox()
        if x0 < 0 or y0 < 0 or x1 > self.w or y1 > self.h:
            return False
        floor = self.p.clearance_mm * 0.5
        cx, cy = shape.center
        ext = _extent(shape) + floor
        for q in near:
            if q.id == mid:
                continue
            qc = q.shape.center
            lim = ext + (q.shape.radius_mm if isinstance(q.shape, g.Circle) else _extent(q.shape))
            dx, dy = qc[0] - cx, qc[1] - cy
            if dx > lim or -dx > lim or dy > lim or -dy > lim or dx * dx + dy * dy > lim * lim:
                continue  # cheap reject: bounding circles apart
            if _gap(shape, q.shape) < floor:
                return False
        return all(g.gap_mm(shape, tr) >= 0 for tr in self.t.terrain)

    def _key(self, mid: str, shape: g.Shape, move: float, ctx: dict) -> Optional[tuple]:
        """Rank of an end position (bigger is better), or None if the end breaks a rule."""
        er, p = self.p.er_mm, self.p
        if not self._free(mid, shape, ctx["near"]):
            return None
        for e in ctx["must_stay"]:
            if self.t.model_unit_gap(shape, e) > er:
                return None
        coh = self._coherent(mid, shape)
        if self.objective is not None:
            d = _gap(shape, self.objective)
            if d >= ctx["start_gap"] - 2 * p.tol_mm and d > p.objective_range_mm:
                return None
            return (d <= p.objective_range_mm, coh, -round(max(d, 0.0) if d > p.objective_range_mm else 0.0), -move)
        d = self.t.model_unit_gap(shape, ctx["closest"])
        if d >= ctx["start_gap"] - 2 * p.tol_mm:
            return None
        eng = d <= er
        eng_any = eng or any(self.t.model_unit_gap(shape, e) <= er for e in self.targets)
        if eng_any and self.policy == "short":
            return (eng, eng_any, coh, -round(move), -round(max(d, 0.0)))
        return (eng, eng_any, coh, -round(max(d, 0.0)), -move)

    # -- candidate end positions ---------------------------------------------------------------------
    def _spot(self, shape: g.Shape, other: g.Shape, u: g.Point, gap: float) -> g.Point:
        """Centre of ``shape`` placed in direction ``u`` from ``other`` at edge gap ``gap``."""
        oc = other.center
        if isinstance(shape, g.Circle) and isinstance(other, g.Circle):
            d = shape.radius_mm + other.radius_mm + gap
            return (oc[0] + u[0] * d, oc[1] + u[1] * d)
        # the answer lies between the inscribed and the bounding circles of the two bases
        lo = max(0.0, _inradius(shape) + _inradius(other) + gap - 0.01)
        hi = _extent(shape) + _extent(other) + gap + 0.01
        for _ in range(max(1, int(math.log2(max(hi - lo, 1e-3) / 0.05)) + 1)):  # to 0.05 mm
            mid = (lo + hi) / 2
            if _gap(moved_shape(shape, (oc[0] + u[0] * mid, oc[1] + u[1] * mid)), other) < gap:
                lo = mid
            else:
                hi = mid
        return (oc[0] + u[0] * hi, oc[1] + u[1] * hi)

    def _candidates(self, pc: Piece, ctx: dict) -> list[g.Point]:
        c = pc.shape.center
        out: list[g.Point] = []
        clr = self.p.clearance_mm
        if self.objective is not None:
            goals = [self.objective]
            rings = [self.p.objective_range_mm - 2.0, self.p.objective_range_mm * 0.5, -self.p.marker_radius_mm]
        else:
            reach = self.reach_mm + self.p.er_mm + 2 * _extent(pc.shape) + 1
            goals = [q.shape for e in self.targets for q in self.t.models_of(e)
                     if g.dist(q.shape.center, c) - _extent(q.shape) <= reach]
            # the nearest few enemy models are where an end spot can be; further ones only
            # multiply candidates (a rank-and-file block has dozens within reach)
            goals.sort(key=lambda o: g.dist(o.center, c))
            goals = goals[:MAX_GOALS]
            rings = [clr, self.p.er_mm * 0.5, self.p.er_mm - 1.5]
        round_ = isinstance(pc.shape, g.Circle)
        n_ang = 36 if round_ else 8
        for o in goals:
            oc = o.center
            d0 = g.dist(c, oc)
            base_u = ((c[0] - oc[0]) / d0, (c[1] - oc[1]) / d0) if d0 > 1e-9 else (0.0, -1.0)
            base_a = math.atan2(base_u[1], base_u[0])
            for k in range(n_ang):
                a = base_a + 2 * math.pi * k / n_ang
                u = (math.cos(a), math.sin(a))
                for ring in rings:
                    if ring < 0:  # the objective's own centre (a model may stand on a marker)
                        if k == 0 and g.dist(oc, c) <= self.reach_mm:
                            out.append(oc)
                        continue
                    s = self._spot(pc.shape, o, u, ring)
                    if g.dist(s, c) <= self.reach_mm:
                        out.append(s)
        # straight in, and fanned out, at the full move (closing in when out of reach)
        aim = self.objective.center if self.objective is not None else ctx["aim"]
        if aim is not None:
            d0 = g.dist(c, aim)
            if d0 > 1e-9:
                a0 = math.atan2(aim[1] - c[1], aim[0] - c[0])
                for da in (0, 15, -15, 30, -30, 45, -45, 60, -60):
                    a = a0 + math.radians(da)
                    for frac in (1.0, 0.75, 0.5, 0.25):
                        L = min(self.reach_mm, d0) * frac
                        out.append((c[0] + math.cos(a) * L, c[1] + math.sin(a) * L))
        return out

    # -- straight moves ----------------------------------------------------------------------------
    def _straight_clear(self, pc: Piece, end: g.Point, near: list[Piece]) -> bool:
        """True when the base can slide straight to ``end`` without crossing another base.

        Without a planner, friendly bases do not block the line (models may move through
        friendly models, never through enemy ones); with one, every base does, so drawn paths
        go around all of them.
        """
        a = pc.shape.center
        L = g.dist(a, end)
        if L < 1e-9:
            return True
        for q in near:
            if q.id == pc.id or (self.planner is None and q.player == pc.player):
                continue
            if isinstance(pc.shape, g.Circle) and isinstance(q.shape, g.Circle):
                need = pc.shape.radius_mm + q.shape.radius_mm
                start_d = g.dist(a, q.shape.center)
                if g._seg_point_dist(q.shape.center, a, end) < min(need, start_d) - 0.01:
                    return False
                continue
            start_gap = _gap(pc.shape, q.shape)
            n = max(2, int(L / 2.0) + 1)
            for i in range(1, n + 1):
                t = i / n
                s = moved_shape(pc.shape, (a[0] + (end[0] - a[0]) * t, a[1] + (end[1] - a[1]) * t))
                if _gap(s, q.shape) < min(0.0, start_gap) - 0.01:
                    return False
        for tr in self.t.terrain:
            n = max(2, int(L / 2.0) + 1)
            for i in range(1, n + 1):
                t = i / n
                if g.gap_mm(moved_shape(pc.shape, (a[0] + (end[0] - a[0]) * t, a[1] + (end[1] - a[1]) * t)), tr) < 0:
                    return False
        return True

    def _shortened(self, pc: Piece, ctx: dict) -> Optional[g.Point]:
        """Pure fallback: straight at the aim point, stopped before the first base in the way."""
        aim = self.objective.center if self.objective is not None else ctx["aim"]
        if aim is None:
            return None
        a = pc.shape.center
        d0 = g.dist(a, aim)
        if d0 < 1e-9:
            return None
        L = min(self.reach_mm, d0)
        u = ((aim[0] - a[0]) / d0, (aim[1] - a[1]) / d0)
        best = None
        steps = int(L / 0.5)
        for i in range(1, steps + 1):
            s = (a[0] + u[0] * i * 0.5, a[1] + u[1] * i * 0.5)
            if not self._straight_clear(pc, s, ctx["near"]):
                break
            if self._key(pc.id, moved_shape(pc.shape, s), i * 0.5, ctx) is not None:
                best = s
        return best

    # -- one model ------------------------------------------------------------------------------------
    def _context(self, pc: Piece) -> dict:
        reach = self.max_mm + 2 * _extent(pc.shape) + 40.0
        c = pc.shape.center
        near = [q for q in self.t.pieces.values()
                if q.id != pc.id and g.dist(q.shape.center, c) - _extent(q.shape) <= reach]
        er = self.p.er_mm
        must_stay = []
        if self.objective is None or self.contact_stays:
            must_stay = [e for e in self.t.enemy_units(self.uid) if self.t.model_unit_gap(pc.shape, e) <= er]
        ctx: dict[str, Any] = {"near": near, "must_stay": must_stay, "aim": None}
        if self.objective is not None:
            ctx["start_gap"] = _gap(pc.shape, self.objective)
            ctx["closest"] = ""
        else:
            ctx["closest"], ctx["start_gap"] = self._closest_target(pc.shape)
            if ctx["closest"]:
                q = min(self.t.models_of(ctx["closest"]), key=lambda q: _gap(pc.shape, q.shape))
                ctx["aim"] = q.shape.center
        return ctx

    def _scored(self, pc: Piece, ctx: dict) -> list[tuple[tuple, g.Point]]:
        """Legal candidate ends of ``pc``, best first."""
        c = pc.shape.center
        scored = []
        for s in self._candidates(pc, ctx):
            mv = g.dist(c, s)
            if mv < self.p.tol_mm * 2:
                continue
            k = self._key(pc.id, moved_shape(pc.shape, s), mv, ctx)
            if k is not None:
                scored.append((k, s))
        scored.sort(key=lambda ks: ks[0], reverse=True)
        return scored

    def _kills(self, pc: Piece, end: g.Point) -> bool:
        """True when ending at ``end`` takes the last engaging spot of a model still to move."""
        sh = moved_shape(pc.shape, end)
        floor = self.p.clearance_mm * 0.5
        for mid, spots in self.spots.items():
            if mid == pc.id or not spots:
                continue
            other = self.t.pieces[mid].shape
            if all(_gap(sh, moved_shape(other, sp)) < floor for sp in spots):
                return True
        return False

    def move_model(self, pc: Piece) -> Optional[list[g.Point]]:
        """Best legal path for model ``pc`` (start first), or None to leave it where it is.

        Candidates are tried best first; within the best tier (same engagement), ends that
        would take the last engaging spot of a model still to move are tried last. A straight
        slide is used when nothing is in the way, else the planner (if any) routes around.
        """
        ctx = self._context(pc)
        if self.objective is None and not ctx["closest"]:
            return None
        c = pc.shape.center
        scored = self._scored(pc, ctx)
        if scored and self.spots:
            tier = scored[0][0][:2]
            head = [ks for ks in scored if ks[0][:2] == tier]
            rest = scored[len(head):]
            ok, bad = [], []
            for ks in head[:60]:
                (bad if self._kills(pc, ks[1]) else ok).append(ks)
            scored = ok + bad + head[60:] + rest
        planned_tries = 0
        fallback: Optional[tuple[tuple, list[g.Point]]] = None
        for k, s in scored:
            if self._straight_clear(pc, s, ctx["near"]):
                path = [c, s]
                if fallback is None or k[:2] >= fallback[0][:2]:
                    return path
                return fallback[1]
            if self.planner is not None and planned_tries < 4:
                planned_tries += 1
                path = self._plan(pc, s, ctx)
                if path is None:
                    continue
                end = path[-1]
                ek = self._key(pc.id, moved_shape(pc.shape, end), g.dist(c, end), ctx)
                if ek is None:
                    continue
                if ek[:2] >= k[:2]:
                    return path
                if fallback is None or ek > fallback[0]:
                    fallback = (ek, path)
        if fallback is not None:
            return fallback[1]
        s = self._shortened(pc, ctx)
        return [c, s] if s is not None else None

    def _plan(self, pc: Piece, goal: g.Point, ctx: dict) -> Optional[list[g.Point]]:
        obstacles = [q.shape for q in ctx["near"]] + list(self.t.terrain)
        try:
            res = self.planner([(pc.id, pc.shape, goal)], obstacles, max_len_mm=self.reach_mm,
                               clearance_mm=self.p.clearance_mm)
        except Exception:  # a failing device must not break the rules; the core falls back
            return None
        path = [tuple(map(float, pt)) for pt in (res.get(pc.id) or [])]
        if len(path) < 2 or g.dist(path[0], pc.shape.center) > 1e-6:
            return None
        if path_length(path) > self.max_mm or g.dist(path[0], path[-1]) < self.p.tol_mm * 2:
            return None
        return path

    # -- the unit -------------------------------------------------------------------------------------
    def _order(self) -> list[tuple[str, bool]]:
        """Models that may move, least spare distance first, as (id, could reach its aim)."""
        er = self.p.er_mm
        order = []
        for pc in self.t.models_of(self.uid):
            if self.contact_stays and any(_gap(pc.shape, q.shape) <= self.p.tol_mm
                                          for e in self.t.enemy_units(self.uid) for q in self.t.models_of(e)):
                continue
            if self.objective is not None:
                need = _gap(pc.shape, self.objective) - self.p.objective_range_mm
                if need <= 0:
                    continue  # already within range of the objective: no need to move
            else:
                need = self._closest_target(pc.shape)[1] - er
            slack = self.reach_mm - need
            order.append((0 if slack >= 0 else 1, slack if slack >= 0 else -slack, pc.id))
        order.sort()
        return [(mid, rank == 0) for rank, _, mid in order]

    def _reached(self, mid: str) -> bool:
        sh = self.t.pieces[mid].shape
        if self.objective is not None:
            return _gap(sh, self.objective) <= self.p.objective_range_mm
        return any(self.t.model_unit_gap(sh, e) <= self.p.er_mm for e in self.targets)

    def _attempt(self, order: list[str], reachable: set) -> dict[str, list[g.Point]]:
        paths: dict[str, list[g.Point]] = {}
        self.spots = {}
        for mid in order:
            if mid in reachable:
                pc = self.t.pieces[mid]
                sc = self._scored(pc, self._context(pc))
                self.spots[mid] = [sp for k, sp in sc if k[0 if self.objective is not None else 1]][:80]
        for mid in order:
            pc = self.t.pieces[mid]
            self.spots.pop(mid, None)
            path = self.move_model(pc)
            if path is None:
                continue
            pc.shape = moved_shape(pc.shape, path[-1])
            paths[mid] = [tuple(pt) for pt in path]
            floor = self.p.clearance_mm * 0.5
            for oid, spots in self.spots.items():
                other = self.t.pieces[oid].shape
                self.spots[oid] = [sp for sp in spots if _gap(pc.shape, moved_shape(other, sp)) >= floor]
        self.spots = {}
        return paths

    def run(self) -> dict[str, list[g.Point]]:
        """Move the unit's models one at a time and apply the best of a few tries.

        A try is an order (least spare distance first; then models that could have reached
        but did not, first) and a preference among engaging ends (base contact, or the
        shortest move that engages, which leaves room for the models behind). Tries are
        compared by models engaged (or within objective range), then base contacts, then
        less distance moved.
        """
        order = self._order()
        if not order:
            return {}
        start = {mid: self.t.pieces[mid].shape for mid, _ in order}
        ids = [mid for mid, _ in order]
        reachable = {mid for mid, ok in order if ok}
        best: Optional[tuple[tuple, dict]] = None
        tries = [("contact", ids), ("short", ids)]
        done: set = set()
        i = 0
        # every try re-plans the whole unit: big units (a rank-and-file block analysed as
        # 40k models) get fewer tries so the analysis stays interactive
        max_tries = 8 if len(ids) <= 24 else 3
        while i < len(tries) and i < max_tries:
            policy, seq = tries[i]
            i += 1
            if (policy, tuple(seq)) in done:
                continue
            done.add((policy, tuple(seq)))
            self.policy = policy
            paths = self._attempt(seq, reachable)
            missed = [m for m in seq if m in reachable and not self._reached(m)]
            all_ids = self.t.by_unit[self.uid]
            score = (sum(1 for m in all_ids if self._reached(m)),
                     sum(1 for m in all_ids if any(_gap(self.t.pieces[m].shape, q.shape) <= self.p.tol_mm
                                                   for e in self.targets for q in self.t.models_of(e))),
                     -round(sum(path_length(pth) for pth in paths.values()), 1))
            if best is None or score > best[0]:
                best = (score, paths)
            for mid, sh in start.items():
                self.t.pieces[mid].shape = sh
            if not missed:
                break
            tries.append((policy, missed + [m for m in seq if m not in missed]))
            if i == 2:  # models in the way of the others' straight paths go first
                tries += [("contact", ids[::-1]), ("short", ids[::-1])]
        paths = best[1] if best else {}
        for mid, path in paths.items():
            self.t.pieces[mid].shape = moved_shape(self.t.pieces[mid].shape, path[-1])
        return paths


def _undo(table: Table, paths: dict[str, list[g.Point]]) -> None:
    for mid, path in paths.items():
        pc = table.pieces[mid]
        pc.shape = moved_shape(pc.shape, path[0])


def pile_in_unit(table: Table, uid: str, p: Params, planner: Optional[Planner] = None) -> MoveReport:
    """Warhammer 40,000 "Pile-in Moves" for one unit, applied to ``table`` in place.

    Targets: every enemy unit ``uid`` is engaged with, else every enemy unit within 5".
    Returns the paths (each at most 3") and notes; the unit does not move at all if it could
    not end engaged ("After moving: your unit must be engaged").
    """
    rep = MoveReport(mode="pile_in")
    engaged = table.engaged_with(uid, p.er_mm)
    targets = engaged or [e for e in table.enemy_units(uid) if table.unit_gap(uid, e) <= p.pile_in_radius_mm]
    rep.targets = targets
    if not targets:
        rep.notes.append(f"{uid}: no enemy unit within {p.say_in('pile_in_target_radius_in')}, so it has no pile-in "
                         f"target ({p.rules['pile_in_target_radius_in']}).")
        return rep
    mv = _Mover(table, uid, p, max_mm=p.pile_in_mm, contact_stays=True, target_units=targets, objective=None,
                planner=planner)
    rep.paths = mv.run()
    if not table.engaged_with(uid, p.er_mm):
        _undo(table, rep.paths)
        rep.paths = {}
        rep.notes.append(f"{uid}: could not end engaged, so it does not pile in ({p.rules['pile_in_in']}: the unit must "
                         "end engaged).")
    return rep


def consolidate_unit(table: Table, uid: str, p: Params, objectives: list[g.Point],
                     planner: Optional[Planner] = None) -> MoveReport:
    """Warhammer 40,000 "Consolidation Moves" for one unit, applied to ``table`` in place.

    Mode: ``ongoing`` (engaged: towards every engaged enemy unit, base-contact models stay,
    engaged models stay engaged), else ``engaging`` (enemy units within 3": the unit must end
    engaged with every selected unit, so the selection shrinks to those it can reach), else
    ``objective`` (an objective marker within 3": the closest one; the unit must end within
    range of it), else ``none``. Paths are at most 3".
    """
    rep = MoveReport()
    engaged = table.engaged_with(uid, p.er_mm)
    if engaged:
        rep.mode, rep.targets = "ongoing", engaged
        mv = _Mover(table, uid, p, max_mm=p.consolidate_mm, contact_stays=True, target_units=engaged,
                    objective=None, planner=planner)
        rep.paths = mv.run()
        return rep
    near = [e for e in table.enemy_units(uid) if table.unit_gap(uid, e) <= p.consolidate_enemy_mm]
    if near:
        rep.mode = "engaging"
        sel = list(near)
        while sel:
            mv = _Mover(table, uid, p, max_mm=p.consolidate_mm, contact_stays=False, target_units=sel,
                        objective=None, planner=planner)
            paths = mv.run()
            reached = [e for e in sel if table.unit_gap(uid, e) <= p.er_mm]
            if reached == sel:
                rep.paths, rep.targets = paths, sel
                return rep
            _undo(table, paths)
            sel = reached
        rep.notes.append(f"{uid}: cannot end engaged with the enemy within {p.say_in('consolidate_enemy_radius_in')}, so "
                         f"it stays ({p.rules['consolidate_enemy_radius_in']}).")
        return rep
    marker = lambda o: g.Circle(tuple(o), p.marker_radius_mm)  # noqa: E731
    objs = [tuple(o) for o in objectives
            if min((_gap(q.shape, marker(o)) for q in table.models_of(uid)), default=math.inf) <= p.consolidate_objective_mm]
    if objs:
        rep.mode = "objective"
        obj = min(objs, key=lambda o: min(_gap(q.shape, marker(o)) for q in table.models_of(uid)))
        rep.targets = [f"objective at ({obj[0]:.0f}, {obj[1]:.0f})"]
        mv = _Mover(table, uid, p, max_mm=p.consolidate_mm, contact_stays=False, target_units=[], objective=obj,
                    planner=planner)
        rep.paths = mv.run()
        if min(_gap(q.shape, marker(obj)) for q in table.models_of(uid)) > p.objective_range_mm:
            _undo(table, rep.paths)
            rep.paths = {}
            rep.notes.append(f"{uid}: cannot end within range of the objective, so it stays "
                             f"({p.rules['consolidate_objective_radius_in']}).")
        return rep
    rep.mode = "none"
    return rep


# ----- the fight sequence ------------------------------------------------------------------------------
def _other(player: int) -> int:
    return 2 if player == 1 else 1


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@dataclass
class Selection:
    """One unit selected to fight: the sequence entry plus the table right after its fight."""

    entry: dict
    attackers: list[str]
    targets: dict[str, list[str]]
    moves: dict[str, list[g.Point]]
    table: Table  # after the fight (destroyed units removed, passengers disembarked)
    destroyed: list[str]
    at_fight: Optional[Table] = None  # as the unit fights (after any overrun pile-in)


def fight_sequence(table: Table, p: Params, ctx: dict, planner: Optional[Planner] = None) -> list[Selection]:
    """Warhammer 40,000 "Fight" step: who is selected to fight, in what order, with which fight.

    Starting with the active player, players alternate selecting eligible Fights First units
    (charged this turn or in ``fights_first``); a player with none passes to the other; when
    no Fights First unit is eligible the sequence moves to Remaining Combats, started by the
    player who moved it on, and returns to Fights First whenever one becomes eligible.
    Eligible: not yet selected, and engaged, engaged at the start of the step, or charged.
    An engaged unit makes a normal fight; an unengaged one an overrun fight (pile in, then
    fight). ``ctx["destroys"]`` says which units a unit destroys when it fights (no dice).
    ``table`` is copied, never changed.
    """
    t = table.copy()
    active = int(ctx.get("active_player", 1) or 1)
    charged = set(ctx.get("charged") or [])
    ff = charged | set(ctx.get("fights_first") or [])
    destroys = ctx.get("destroys") or {}
    at_start = {u for u in t.units if t.engaged_with(u, p.er_mm)}
    selected: set[str] = set()
    out: list[Selection] = []
    step, chooser = "fights_first", active if p.fights_first_chooser == "active_player" else _other(active)

    def eligible() -> list[str]:
        return [u for u in t.units if u not in selected and (u in at_start or u in charged or t.engaged_with(u, p.er_mm))]

    for _ in range(4 * len(t.units) + 8):
        el = eligible()
        if not el:
            break
        if step == "fights_first":
            pool = [u for u in el if u in ff]
            if not pool:
                step = "remaining"
                continue
        else:
            pool = el
        mine = [u for u in pool if t.player(u) == chooser]
        if not mine:
            chooser = _other(chooser)
            continue
        uid = mine[0]
        selected.add(uid)
        moves: dict[str, list[g.Point]] = {}
        if t.engaged_with(uid, p.er_mm):
            kind = "normal"
        else:
            kind = "overrun"
            moves = pile_in_unit(t, uid, p, planner).paths
        attackers, targets = _attackers(t, uid, p)
        entry = {"order": len(out) + 1, "unit": uid, "player": t.player(uid), "fight": kind,
                 "fights_first": uid in ff, "step": step, "engaged": bool(attackers)}
        gone = [d for d in destroys.get(uid, []) if d in t.units]
        if gone:
            entry["destroys"] = gone
        at_fight = t.copy()
        for d in gone:
            t.remove_unit(d, f"destroyed by {uid}")
        out.append(Selection(entry, attackers, targets, moves, t.copy(), gone, at_fight))
        chooser = _other(chooser)
        if step == "remaining" and any(u in ff for u in eligible()):
            step = "fights_first"
    return out


def _attackers(t: Table, uid: str, p: Params) -> tuple[list[str], dict[str, list[str]]]:
    """Models of ``uid`` within Engagement Range of an enemy, and the enemy models each reaches."""
    targets: dict[str, list[str]] = {}
    enemies = [q for e in t.enemy_units(uid) for q in t.models_of(e)]
    for pc in t.models_of(uid):
        tg = [q.id for q in enemies if _gap(pc.shape, q.shape) <= p.er_mm]
        if tg:
            targets[pc.id] = sorted(tg, key=_natural)
    return sorted(targets, key=_natural), targets


def _natural(s: str):
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)]


def _strike_order(seq: list[Selection], t: Table) -> list[dict]:
    out = []
    for s in seq:
        e = s.entry
        tag = "Fights First" if e["fights_first"] else "Remaining Combats"
        kind = ", overrun fight" if e["fight"] == "overrun" else ""
        models = s.attackers or list(t.by_unit.get(e["unit"], [])) or list(s.table.by_unit.get(e["unit"], []))
        out.append({"step": e["order"], "label": f"{_ordinal(e['order'])}: {e['unit']} ({tag}{kind})",
                    "models": models})
    return out


# ----- analysis ----------------------------------------------------------------------------------------
def _player_order(t: Table, active: int) -> list[str]:
    return [u for u in t.units if t.player(u) == active] + [u for u in t.units if t.player(u) != active]


def pile_in_step(table: Table, p: Params, ctx: dict, planner: Optional[Planner] = None,
                 players: Optional[list[int]] = None, overrun: tuple = ()) -> dict[str, MoveReport]:
    """Pile-in step: eligible units of the active player, then of the opponent, pile in
    (Warhammer 40,000 "Pile In"). Eligibility is judged when the unit's turn to move comes.
    Applies the moves to ``table``; returns {unit id: MoveReport} for units that were eligible."""
    active = int(ctx.get("active_player", 1) or 1)
    charged = set(ctx.get("charged") or []) | set(overrun)
    players = players or [active, _other(active)]
    out = {}
    for pl in players:
        for uid in [u for u in table.units if table.player(u) == pl]:
            if uid in charged or table.engaged_with(uid, p.er_mm):
                out[uid] = pile_in_unit(table, uid, p, planner)
    return out


def consolidation_step(table: Table, p: Params, ctx: dict, planner: Optional[Planner] = None,
                       players: Optional[list[int]] = None, eligible: Optional[set] = None) -> dict[str, MoveReport]:
    """Consolidate step: units that were eligible to fight this phase (engaged, charged, or
    listed in ``context.fought``) consolidate, active player first (Warhammer 40,000
    "Consolidate"). Applies the moves to ``table``; returns {unit id: MoveReport}."""
    active = int(ctx.get("active_player", 1) or 1)
    players = players or [active, _other(active)]
    objectives = [tuple(o) for o in ctx.get("objectives") or []]
    if eligible is None:
        eligible = set(ctx.get("charged") or []) | set(ctx.get("fought") or []) | \
            {u for u in table.units if table.engaged_with(u, p.er_mm)}
    out = {}
    for pl in players:
        for uid in [u for u in table.units if table.player(u) == pl and u in eligible]:
            out[uid] = consolidate_unit(table, uid, p, objectives, planner)
    return out


def _results(board: Board, t: Table, p: Params, res: Analysis, reports: dict[str, MoveReport],
             only_unit: Optional[str] = None) -> None:
    """Fill ``res.models`` and engagements from the table as it stands."""
    inch = lambda mm: f"{mm / INCH_MM:.1f}\""  # noqa: E731
    er = f"{p.rules['engagement_range_in']} ({p.say_in('engagement_range_in')})"
    mode_rule = {"pile_in": p.rules["pile_in_in"], "ongoing": p.rules["consolidate_in"],
                 "engaging": p.rules["consolidate_enemy_radius_in"], "objective": p.rules["consolidate_objective_radius_in"]}
    for u in board.units:
        if u.id not in t.units:
            why = t.off.get(u.id, "not on the table")
            for m in u.models():
                res.models[m.id] = ModelResult(at=m.center, why=f"Not on the table ({why}): it neither fights nor blocks.")
            continue
        enemies = [q for e in t.enemy_units(u.id) for q in t.models_of(e)]
        attacks = int(u.profile.get("attacks", p.default_attacks))
        rep = reports.get(u.id)
        for pc in t.models_of(u.id):
            r = ModelResult(at=pc.shape.center)
            gaps = [(_gap(pc.shape, q.shape), q.id) for q in enemies]
            tg = sorted([q for d, q in gaps if d <= p.er_mm], key=_natural)
            moved = ""
            if rep and pc.id in rep.paths:
                L = path_length(rep.paths[pc.id])
                rule = mode_rule.get(rep.mode, p.rules["consolidate_in"])
                moved = f" Moved {inch(L)} ({rule})."
            if tg and (only_unit is None or only_unit == u.id):
                units = ", ".join(sorted({q.split('.')[0] for q in tg}))
                r.role, r.attacks, r.targets = "attack", attacks, tg
                r.why = (f"Fights: within {er} of {units}, so it is engaged and makes {attacks} "
                         f"attack(s) from its profile ({p.rules['default_attacks']}).{moved}")
            elif tg:
                r.why = f"Engaged, but another unit is fighting at this step.{moved}"
            else:
                d = min((x for x, _ in gaps), default=math.inf)
                far = f"{inch(d)} from the closest enemy" if d < math.inf else "no enemy on the table"
                r.why = (f"Does not fight: {far}, outside {er}; this system has no supporting "
                         f"attacks.{moved}")
            res.models[pc.id] = r
    seen = set()
    for uid in t.units:
        for e in t.engaged_with(uid, p.er_mm):
            if (uid, e) not in seen:
                seen.add((uid, e))
                res.engagements.append(Engagement(uid, e, "front"))


def _apply_moves(res: Analysis, reports: dict[str, MoveReport]) -> None:
    for rep in reports.values():
        for mid, path in rep.paths.items():
            res.moves[mid] = [tuple(pt) for pt in path]
        res.notes.extend(rep.notes)


def analyse(board: Board, rs: Ruleset, *, planner: Optional[Planner] = None, **_services: Any) -> Analysis:
    """Analyse a Warhammer 40,000 Fight phase board at ``context.step`` (default ``pile_in``).

    ``pile_in``: both players pile in (active player first); ``moves`` holds each moved
    model's path, ``at`` its new centre, roles are computed after the moves and
    ``fight_sequence``/``strike_order`` predict the Fight step from there. ``fight``: roles
    and the fight sequence for the board as it stands. ``consolidate``: consolidation moves,
    the mode per unit in ``consolidation``. ``planner`` is an optional path finder
    (see :func:`game.physics.planner.plan_paths`). Never raises on a valid board.
    """
    p = Params.of(rs)
    ctx = dict(board.context)
    step = ctx.get("step", "pile_in")
    res = Analysis(ruleset=rs.id)
    t = Table(board)
    reports: dict[str, MoveReport] = {}
    if step == "pile_in":
        reports = pile_in_step(t, p, ctx, planner)
    elif step == "consolidate":
        reports = consolidation_step(t, p, ctx, planner)
        res.consolidation = {u: r.mode for u, r in reports.items()}
    _apply_moves(res, reports)
    _results(board, t, p, res, reports)
    if step in ("pile_in", "fight"):
        seq = fight_sequence(t, p, ctx, planner)
        res.fight_sequence = [FightSelection.of(s.entry) for s in seq]
        res.strike_order = _strike_order(seq, t)
    else:
        res.fight_sequence = []
    if step in ("pile_in", "consolidate"):
        res.move_reach_mm = round(p.pile_in_mm if step == "pile_in" else p.consolidate_mm, 3)
    targets = {u: r.targets for u, r in reports.items()}
    if step == "pile_in":
        res.pile_in_targets = targets
    else:
        res.move_targets = targets
    return res


# ----- step-through ------------------------------------------------------------------------------------
def fight_phase_steps(board: Board, rs: Ruleset, planner: Optional[Planner] = None) -> list[tuple[str, Board, Analysis]]:
    """The Fight phase as a click-through: ``[(caption, board, analysis), ...]``.

    Steps: start of the phase; pile-in by the active player; pile-in by the opponent; one
    step per unit selected to fight (with any overrun pile-in shown as moves and destroyed
    units removed); consolidation by the active player, then by the opponent. Each board is
    the table after that step (``context.step`` set accordingly); captions are our own words
    citing the rule by name. Pure; ``planner`` as in :func:`analyse`.
    """
    p = Params.of(rs)
    ctx = dict(board.context)
    active = int(ctx.get("active_player", 1) or 1)
    opp = _other(active)
    out: list[tuple[str, Board, Analysis]] = []
    t = Table(board)

    def snap(caption: str, step: str, reports: dict, *, seq: Optional[list] = None, only: Optional[str] = None,
             moves: Optional[dict] = None, tab: Optional[Table] = None) -> None:
        tab = tab or t
        b = tab.to_board()
        b.context["step"] = step
        a = Analysis(ruleset=rs.id)
        _apply_moves(a, reports)
        for mid, path in (moves or {}).items():
            a.moves[mid] = list(path)
        _results(board, tab, p, a, reports, only_unit=only)
        if seq is not None:
            a.fight_sequence = [FightSelection.of(s.entry) for s in seq]
            a.strike_order = _strike_order(seq, tab)
        if reports or moves:
            a.move_reach_mm = round(p.pile_in_mm, 3)
        if step == "consolidate":
            a.consolidation = {u: r.mode for u, r in reports.items()}
        out.append((caption, b, a))

    ff = sorted(set(ctx.get("charged") or []) | set(ctx.get("fights_first") or []))
    snap("Start of the Fight phase: " + (f"{', '.join(ff)} charged or have Fights First, so they fight first "
         f"({p.rules['fights_first_chooser']})." if ff else "no unit has Fights First this phase."), "pile_in", {})
    for who, pl in (("active player", active), ("opponent", opp)):
        reps = pile_in_step(t, p, ctx, planner, players=[pl])
        moved = [u for u, r in reps.items() if r.paths]
        snap(f"Pile In, player {pl} ({who}): " + (f"{', '.join(moved)} move up to {p.say_in('pile_in_in')} closer to their "
             f"targets; models in base contact stay put ({p.rules['pile_in_in']})." if moved else
             f"no model needs to or can move ({p.rules['pile_in_in']})."),
             "pile_in", reps)
    seq = fight_sequence(t, p, ctx, planner)
    fought = set()
    last = t
    for s in seq:
        e = s.entry
        fought.add(e["unit"])
        how = ("makes a normal fight" if e["fight"] == "normal" else
               "is unengaged but was engaged, so it makes an overrun fight: it piles in again, then fights")
        tag = "Fights First" if e["fights_first"] else "Resolve Remaining Combats"
        cap = f"{_ordinal(e['order'])} selection ({tag}): player {e['player']}'s {e['unit']} {how}"
        if not s.attackers:
            cap += ", but no model ends in Engagement Range"
        if s.destroyed:
            cap += f"; it destroys {', '.join(s.destroyed)}"
            revealed = [u for u in s.table.units if u not in last.units]
            if revealed:
                cap += f" and {', '.join(revealed)} make an emergency disembark"
        snap(cap + ".", "fight", {}, seq=seq[:e["order"]], only=e["unit"], moves=s.moves, tab=s.at_fight or s.table)
        last = s.table
    t = last
    eligible = fought | set(ctx.get("charged") or []) | {u for u in t.units if t.engaged_with(u, p.er_mm)}
    for who, pl in (("active player", active), ("opponent", opp)):
        reps = consolidation_step(t, p, ctx, planner, players=[pl], eligible=eligible)
        parts = [f"{u} ({r.mode}{'' if r.paths or r.mode == 'none' else ', no move needed or possible'})"
                 for u, r in reps.items()]
        snap(f"Consolidate, player {pl} ({who}): " + (", ".join(parts) if parts else "no eligible unit")
             + f" ({p.rules['consolidate_in']}).", "consolidate", reps)
    return out
