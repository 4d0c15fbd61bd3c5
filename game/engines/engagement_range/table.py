"""Warhammer 40,000 Fight phase: the parameters and the table as it stands during the phase.

:class:`Params` converts the ruleset's inch values to mm once; :class:`Table` holds every model
on the table (destroyed and embarked units are off it) and answers the engagement questions
(edge-to-edge gaps between models and units, vectorised with numpy for round bases).
"""
from __future__ import annotations

import copy
import math
import re
from dataclasses import dataclass, field, replace
from typing import Mapping, Optional

import numpy as np

from game.core import geometry as g
from game.core.bases import RectBase
from game.core.board import Board, Unit
from game.core.context_units import context_of_units
from game.core.ruleset import Ruleset
from game.engines.engagement_range.geom import CSpace, Foot



@dataclass(frozen=True)
class Params:
    """Ruleset parameters converted to mm once (inches only in the YAML); ``rules`` names the
    rule of each parameter and ``inches`` keeps the ``*_in`` values as written, so every number
    and rule name in an explanation comes from the data."""

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
            er_mm=v.engagement_range_in * g.MM_PER_INCH, tol_mm=v.contact_tolerance_mm,
            pile_in_mm=v.pile_in_in * g.MM_PER_INCH, pile_in_radius_mm=v.pile_in_target_radius_in * g.MM_PER_INCH,
            consolidate_mm=v.consolidate_in * g.MM_PER_INCH, consolidate_enemy_mm=v.consolidate_enemy_radius_in * g.MM_PER_INCH,
            consolidate_objective_mm=v.consolidate_objective_radius_in * g.MM_PER_INCH,
            objective_range_mm=v.objective_range_in * g.MM_PER_INCH,
            marker_radius_mm=v.objective_marker_diameter_mm / 2,
            coherency_mm=v.coherency_in * g.MM_PER_INCH, coherency_big=v.coherency_big_unit_models,
            default_attacks=v.default_attacks, clearance_mm=v.planner_clearance_mm,
            fights_first_chooser=v.fights_first_chooser, rules={k: rs.rule(k) for k in rs.params},
            inches={k: float(getattr(v, k)) for k in rs.params if k.endswith("_in")})


def moved_shape(shape: g.Shape, center: g.Point) -> g.Shape:
    """``shape`` translated so its centre is ``center`` (bases never turn when moved here)."""
    return shape.moved((float(center[0]), float(center[1])))


def gap(a: g.Shape, b: g.Shape) -> float:
    """Edge-to-edge gap between two bases (mm)."""
    if isinstance(a, g.Circle) and isinstance(b, g.Circle):
        return math.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) - a.radius_mm - b.radius_mm
    return g.gap_mm(a, b)


def extent(shape: g.Shape) -> float:
    """Radius of the smallest circle about the centre holding the base (mm)."""
    if isinstance(shape, g.Circle):
        return shape.radius_mm
    c = shape.center
    return max(g.dist(c, p) for p in shape.points)


_UNIT_GAPS: dict = {}  # Table.unit_gap by the two units' bases and centres


@dataclass
class Piece:
    """One model on the table: ``shape`` is its base where it stands now (table mm)."""

    id: str
    unit_id: str
    player: int
    shape: g.Shape

    @property
    def foot(self) -> Foot:
        """The base's footprint (computed once per shape)."""
        cached = self.__dict__.get("_foot")
        if cached is None or cached[0] is not self.shape:
            cached = (self.shape, Foot.of(self.shape))
            self.__dict__["_foot"] = cached
        return cached[1]


class Table:
    """Every model on the table and where it stands now (mutable).

    Built from a :class:`Board`: destroyed units (``context.destroyed``) are left out, and so
    are units ``embarked_in`` a transport that is still on the table.
    """

    def __init__(self, board: Board):
        self.board = board
        self._boxes: dict[str, tuple] = {}  # unit id -> (its shapes, box); see box()
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
        self.base_of: dict[str, object] = {}  # skirmish model id -> its own base (or None)
        self.renamed: dict[str, str] = {}  # model id before a casualty -> id after
        for uid, u in self.units.items():
            self._add(u)
        self.terrain = [g.Poly(tuple(tuple(p) for p in t["points"])) for t in board.terrain]

    def _add(self, u: Unit) -> None:
        ms = u.models()
        self.by_unit[u.id] = [m.id for m in ms]
        for i, m in enumerate(ms):
            self.pieces[m.id] = Piece(m.id, u.id, u.player, m.shape)
            if not u.is_ranked:
                self.base_of[m.id] = u.placed[i][1]

    def copy(self) -> "Table":
        t = copy.copy(self)
        t.units = dict(self.units)
        t.off = dict(self.off)
        t.pieces = {k: Piece(p.id, p.unit_id, p.player, p.shape) for k, p in self.pieces.items()}
        t.by_unit = {k: list(v) for k, v in self.by_unit.items()}
        t.base_of = dict(self.base_of)
        t.renamed = dict(self.renamed)
        t._boxes = dict(self._boxes)
        return t

    def box(self, uid: str) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` mm holding every base of ``uid`` where it stands now (kept while
        its bases are the same shape objects: a move gives a model a new one)."""
        shapes = tuple(pc.shape for pc in self.models_of(uid))
        hit = self._boxes.get(uid)
        if hit is not None and len(hit[0]) == len(shapes) and all(a is b for a, b in zip(hit[0], shapes)):
            return hit[1]
        if not shapes:
            box = (math.inf, math.inf, -math.inf, -math.inf)
        else:
            xs = [(s.center[0] - extent(s), s.center[0] + extent(s)) for s in shapes]
            ys = [(s.center[1] - extent(s), s.center[1] + extent(s)) for s in shapes]
            box = (min(x[0] for x in xs), min(y[0] for y in ys), max(x[1] for x in xs), max(y[1] for y in ys))
        self._boxes[uid] = (shapes, box)
        return box

    def pieces_near(self, pcs: list[Piece], reach_mm: float, keep: set) -> list[Piece]:
        """The pieces a move of ``pcs`` can meet or be measured against: those of the units in
        ``keep`` (the mover's own and its targets), and the others whose bases come within
        ``reach_mm`` of the box of ``pcs`` (a base farther off can block neither a path nor an
        end spot; on a table of 1,000 units every move looked at all). In table order."""
        pieces = list(self.pieces.values())
        if not pcs or len(pieces) < 256:
            return pieces
        pad = reach_mm + 2 * max(extent(q.shape) for q in pieces)
        c = np.array([pc.shape.center for pc in pcs], float)
        x0, y0 = c.min(0) - pad
        x1, y1 = c.max(0) + pad
        return [q for q in pieces if q.unit_id in keep or (x0 <= q.shape.center[0] <= x1 and y0 <= q.shape.center[1] <= y1)]

    def near_units(self, uid: str, units: list[str], within_mm: float) -> list[str]:
        """Those of ``units`` whose box comes within ``within_mm`` of ``uid``'s (a lower bound of
        their edge-to-edge gap, so no unit within that gap is left out), in the order given."""
        a = self.box(uid)
        out = []
        for e in units:
            b = self.box(e)
            if max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3]) <= within_mm:
                out.append(e)
        return out

    def player(self, uid: str) -> int:
        return self.units[uid].player

    def enemy_units(self, uid: str) -> list[str]:
        return [o for o in self.units if self.units[o].player != self.units[uid].player]

    def models_of(self, uid: str) -> list[Piece]:
        return [self.pieces[m] for m in self.by_unit.get(uid, [])]

    def _arrays(self, uid: str) -> tuple[np.ndarray, np.ndarray, bool]:
        ps = self.models_of(uid)
        c = np.array([p.shape.center for p in ps], float).reshape(-1, 2)
        r = np.array([extent(p.shape) for p in ps], float)
        return c, r, all(isinstance(p.shape, g.Circle) for p in ps)

    def gap_matrix(self, a: list[Piece], b: list[Piece]) -> np.ndarray:
        """(len(a), len(b)) edge-to-edge gaps (mm), exact, vectorised per base size."""
        out = np.full((len(a), len(b)), np.inf)
        if not a or not b:
            return out
        groups: dict[Foot, list[int]] = {}
        for i, pc in enumerate(a):
            groups.setdefault(pc.foot, []).append(i)
        bases = [(q.id, q.unit_id, q.foot, q.shape.center) for q in b]
        for foot, rows in groups.items():
            cs = CSpace(foot, bases)
            out[rows] = cs.gaps(np.array([a[i].shape.center for i in rows], float))
        return out

    def unit_gap(self, a: str, b: str) -> float:
        """Closest edge-to-edge gap between two units' models (mm); kept by the two units' bases
        and centres (the fight sequence and the moves ask the same pairs again and again)."""
        pa, pb = self.models_of(a), self.models_of(b)
        if not pa or not pb:
            return math.inf
        key = (tuple((q.foot, q.shape.center) for q in pa), tuple((q.foot, q.shape.center) for q in pb))
        d = _UNIT_GAPS.get(key)
        if d is None:
            if len(_UNIT_GAPS) > 4096:
                _UNIT_GAPS.clear()
            d = _UNIT_GAPS[key] = float(self.gap_matrix(pa, pb).min())
        return d

    def model_unit_gap(self, shape: g.Shape, uid: str) -> float:
        """Edge-to-edge gap from ``shape`` to the closest model of unit ``uid`` (mm)."""
        best = math.inf
        c = shape.center
        ext = extent(shape)
        for q in self.models_of(uid):
            qc = q.shape.center
            if math.hypot(qc[0] - c[0], qc[1] - c[1]) - ext - extent(q.shape) >= best:
                continue
            d = gap(shape, q.shape)
            if d < best:
                best = d
        return best

    def engaged_with(self, uid: str, er: float) -> list[str]:
        """Enemy units within Engagement Range of ``uid`` (file order)."""
        return [e for e in self.near_units(uid, self.enemy_units(uid), er) if self.unit_gap(uid, e) <= er]

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
                self._add(u)

    def remove_models(self, ids: list[str], why: str) -> list[str]:
        """Take destroyed models off the table (a unit losing its last model is destroyed).

        The survivors of a unit that lost models are renumbered ``<unit>.m1`` ... in their
        old order, as the unit is written back to a board (``renamed`` maps old -> new ids).
        """
        gone = []
        hit = []
        for mid in ids:
            pc = self.pieces.pop(mid, None)
            if pc is None:
                continue
            gone.append(mid)
            self.by_unit[pc.unit_id].remove(mid)
            if pc.unit_id not in hit:
                hit.append(pc.unit_id)
        for uid in hit:
            if not self.by_unit[uid]:
                self.remove_unit(uid, why)
                continue
            new_ids = []
            for i, mid in enumerate(self.by_unit[uid], start=1):
                nid = f"{uid}.m{i}"
                pc = self.pieces.pop(mid)
                pc.id = nid
                self.pieces[nid] = pc
                self.base_of[nid] = self.base_of.get(mid)
                self.renamed[mid] = nid
                new_ids.append(nid)
            self.by_unit[uid] = new_ids
        return gone

    def to_board(self) -> Board:
        """The table as a :class:`Board`: units off the table are dropped, and units whose
        models moved or fell become skirmish units with one placed model per survivor
        (ranked units: rectangular bases, since their models no longer stand in ranks). Its
        context names only the units on it (:func:`~game.core.context_units.context_of_units`)."""
        units = []
        for u in self.board.units:
            if u.id not in self.units:
                continue
            ms = u.models()
            now = [self.pieces[m].shape.center for m in self.by_unit[u.id]]
            if "embarked_in" in u.extra:
                u = replace(u, extra={k: v for k, v in u.extra.items() if k != "embarked_in"})
            same = [m.id for m in ms] == self.by_unit[u.id] and all(
                g.dist(m.center, c) < 1e-6 for m, c in zip(ms, now))
            if same:
                units.append(u)
                continue
            if u.is_ranked:
                u = Unit(id=u.id, player=u.player, kind="skirmish", base=RectBase(u.base_w, u.base_d),
                         facing_deg=u.facing_deg, name=u.name, profile=u.profile, keywords=u.keywords, placed=[(c, None) for c in now],
                         extra={k: v for k, v in u.extra.items() if k not in ("files", "last_rank", "empty", "front")})
            else:
                u = replace(u, placed=[(c, self.base_of.get(m)) for c, m in zip(now, self.by_unit[u.id])])
            units.append(u)
        # the units gone (destroyed, still embarked) are not in the file: the context names
        # only units on it, so the board saved as a scenario loads (docs/SCENARIO_FORMAT.md)
        return replace(self.board, units=tuple(units),
                       context=context_of_units(self.board.context, [u.id for u in units]))


def natural(s: str):
    """Sort key: ``m2`` before ``m10``."""
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)]


def other(player: int) -> int:
    return 2 if player == 1 else 1


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def closest_model(table: Table, shape: g.Shape, uid: str) -> Optional[Piece]:
    """The model of ``uid`` closest (edge to edge) to ``shape``."""
    ms = table.models_of(uid)
    return min(ms, key=lambda q: gap(shape, q.shape)) if ms else None
