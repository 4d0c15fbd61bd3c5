"""Warhammer 40,000 pile-in and consolidation moves as an optimisation (seeds/003).

Rule served ("Pile-in Moves", "Consolidation Moves"): each moved model goes up to 3", ends
closer to the closest selected target and engaged with it if possible; models in base
contact with an enemy stay (pile-in, ongoing consolidation); models that started engaged
with an enemy unit stay engaged with it; bases never overlap or cross; unit coherency is
kept where possible; the unit piles in "to maximise the number of models that are engaged".

How (:meth:`MoveSolver.solve`; steps 1 and 2 in :mod:`.ends`):

1. **End spots, analytically.** For each base size in the unit, the standing bases become
   configuration-space obstacles (:mod:`.wh40k_geom`); the curve where a mover just touches
   them is their grown outline. Walking that curve near the targets and packing mover-sized
   spots along it (then again around the spots already packed) gives layers of end spots
   that never overlap each other; three packings start the walk at different phases.
2. **Assignment.** Models are matched to spots by ``linear_sum_assignment (:mod:`.assign`)``:
   an engaged end is worth most, engaged with the closest target next, then the shortest
   move. The best of the packings wins (most engaged, then fewest millimetres).
3. **Order and paths.** Movers are ordered so that no straight move crosses an end taken
   before it or a model still to move (a topological order of those constraints); each path
   is the shortest polyline around every other base (a visibility graph, :class:`PathFinder`).
4. **The rest.** Models with no engaging spot (or whose path was blocked) then move one at a
   time to the best legal end among spots around the targets and a fan of moves towards the
   closest one: engaged, then coherent, then closest, then shortest. Objective moves use the
   same step with "within range of the marker" as the goal.

Deterministic: no randomness, ties broken by model order. Lengths in table mm.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import AbstractSet, Optional

import numpy as np
import shapely

from game.core import geometry as g
from game.engines.engagement_range.geom import CSpace, Foot, PathFinder, offset_curve, polyline_length, seg_clear_of_discs
from game.engines.engagement_range.ends import EPS_ENG, EXACT_MOVERS, engaging_ends
from game.engines.engagement_range.table import Params, Table, gap


SLACK = 0.05  # a drawn path may graze a base by this much (never its end)


@dataclass
class Mover:
    """One model that may move: where it starts and what its end must satisfy."""

    id: str
    foot: Foot
    start: np.ndarray
    closest: str = ""  # closest target unit at the start
    start_gap: float = math.inf  # gap to it (or to the objective marker) at the start
    must_stay: tuple = ()  # enemy units it started engaged with


class MoveSolver:
    """Plans one unit's pile-in or consolidation move on ``table`` (not changed).

    ``targets``: the selected enemy unit ids (empty for an objective move); ``objective``:
    the marker centre for an objective move; ``contact_stays``: models in base contact with
    an enemy may not move. :meth:`solve` returns ``{model id: [start, ..., end]}``.
    """

    def __init__(self, table: Table, uid: str, p: Params, *, max_mm: float, contact_stays: bool,
                 targets: list[str], objective: Optional[g.Point] = None, packings: int = 3):
        self.t, self.uid, self.p = table, uid, p
        self.budget = max_mm - 0.05
        self.targets = list(targets)
        self.objective = None if objective is None else np.array(objective, float)
        self.packings = packings
        self.floor = p.clearance_mm * 0.5
        self.finder = PathFinder(SLACK)
        pcs = table.models_of(uid)
        self.unit_ids = [pc.id for pc in pcs]
        self.pos: dict[str, np.ndarray] = {pc.id: np.array(pc.shape.center, float) for pc in pcs}
        self.foot: dict[str, Foot] = {pc.id: pc.foot for pc in pcs}
        enemy_units = table.enemy_units(uid)
        enemy = [q for e in enemy_units for q in table.models_of(e)]
        self.movers: list[Mover] = []
        GM = table.gap_matrix(pcs, enemy)  # (unit models, enemy models)
        eu = np.array([q.unit_id for q in enemy], object)
        ugap = {e: (GM[:, eu == e].min(1) if (eu == e).any() else np.full(len(pcs), np.inf)) for e in enemy_units}
        self.locked: list[str] = []  # in base contact with an enemy: may not move
        for i, pc in enumerate(pcs):
            if contact_stays and len(enemy) and GM[i].min() <= p.tol_mm:
                self.locked.append(pc.id)
                continue
            m = Mover(pc.id, self.foot[pc.id], self.pos[pc.id].copy())
            m.must_stay = tuple(e for e in enemy_units if ugap[e][i] <= p.er_mm)
            if self.objective is not None:
                # every model heads onto the marker, those already within range too (they
                # must stay within range; Objective Consolidation moves "onto" the objective)
                m.start_gap = gap(pc.shape, g.Circle((float(self.objective[0]), float(self.objective[1])), p.marker_radius_mm))
            else:
                for e in self.targets:
                    d = float(ugap[e][i]) if e in ugap else math.inf
                    if d < m.start_gap:
                        m.closest, m.start_gap = e, d
                if not m.closest:
                    continue
                if any(e in self.targets for e in m.must_stay):
                    continue  # already engaged: moving gains nothing and could free an enemy model
            self.movers.append(m)
        mover_ids = {m.id for m in self.movers}
        reach = max_mm + p.er_mm + p.clearance_mm + 10.0  # a move, Engagement Range and the clearance
        self.static = [(q.id, q.unit_id, q.foot, q.shape.center) for q in table.pieces_near(pcs, reach, {uid, *targets})
                       if q.id not in mover_ids]
        self._cs: dict[Foot, CSpace] = {}
        self._packs: dict = {}
        self._wanted: dict = {}  # (foot, units) -> obstacle columns of those units (see _static)
        self._last_detour = False
        self.w, self.h = table.board.table
        self.terrain = [shapely.Polygon(t.points) for t in table.terrain]

    # ----- obstacles -------------------------------------------------------------------------------------
    def cs(self, foot: Foot) -> CSpace:
        """The standing (non-moving) bases as obstacles for a mover of ``foot``."""
        if foot not in self._cs:
            cs = self._cs[foot] = CSpace(foot, self.static)
            # spots around each base start on its side facing the unit: they turn with the board
            cs.ref = np.mean([self.pos[i] for i in self.unit_ids], axis=0)
        return self._cs[foot]

    def _cols(self, cs: CSpace, units) -> dict[str, np.ndarray]:
        return {u: np.array([j for j, x in enumerate(cs.units) if x == u], int) for u in units}

    def _local(self, cs: CSpace, P: np.ndarray, pad: float = 0.0) -> np.ndarray:
        """Columns of the obstacles that can touch a mover centred anywhere near ``P``."""
        if not len(cs) or not len(P):
            return np.zeros(0, int)
        lo, hi = P.min(0) - pad, P.max(0) + pad
        ext = cs.ext
        near = ((cs.centers + ext[:, None] >= lo) & (cs.centers - ext[:, None] <= hi)).all(1)
        return np.nonzero(near)[0]

    def _static(self, foot: Foot, P: np.ndarray, units) -> tuple[np.ndarray, dict]:
        """(free of standing bases and on the table, {unit: gap of each point to that unit})."""
        cs = self.cs(foot)
        local = self._local(cs, P, 2.0)
        wkey = (foot, frozenset(units))
        wanted = self._wanted.get(wkey)
        if wanted is None:
            wanted = self._wanted[wkey] = np.array([j for j in range(len(cs)) if cs.units[j] in units], int)
        cols = np.union1d(local, wanted).astype(int)
        G = cs.gaps(P, cols)
        free = self._inside(foot, P)
        if len(local):
            free &= G[:, np.isin(cols, local)].min(1) >= self.floor
        un = cs.units_arr[cols]
        ug = {}
        for u in units:
            sel = un == u
            ug[u] = G[:, sel].min(1) if sel.any() else np.full(len(P), np.inf)
        if self.terrain:
            pts = shapely.points(P)
            for tr in self.terrain:
                free &= shapely.distance(tr, pts) >= foot.extent()
        return free, ug

    def _legal_many(self, movers: list[Mover], P: np.ndarray, engaging: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """(movers, points): may end there (legal and engaged when ``engaging``), and how it
        stands to its closest target there (0 not engaged, 1 engaged, 2 in base contact)."""
        p = self.p
        units = set(self.targets) | {e for m in movers for e in m.must_stay}
        free, ug = self._static(movers[0].foot, P, units)
        anyg = np.min(np.stack([ug[u] for u in self.targets]), axis=0) if self.targets else np.full(len(P), np.inf)
        ok = np.zeros((len(movers), len(P)), bool)
        eng = np.zeros(ok.shape, int)
        for i, m in enumerate(movers):
            d = np.hypot(P[:, 0] - m.start[0], P[:, 1] - m.start[1])
            r = free & (d <= self.budget) & (d >= 2 * p.tol_mm) & (ug[m.closest] < m.start_gap - 2 * p.tol_mm)
            for e in m.must_stay:
                r &= ug[e] <= p.er_mm
            if engaging:
                r &= anyg <= p.er_mm - EPS_ENG
            ok[i] = r
            eng[i] = (ug[m.closest] <= p.er_mm - EPS_ENG).astype(int) + (ug[m.closest] <= p.tol_mm * 0.8)
        return ok, eng

    def _legal(self, m: Mover, P: np.ndarray, others: dict[str, np.ndarray]) -> tuple[np.ndarray, dict]:
        """Which ends ``P`` (n, 2) are legal for ``m`` given the other movers at ``others``,
        and the gaps that rank them: ``{"goal": gap to the goal, "eng": engaged with the closest
        target, "any": engaged with any target}``."""
        p = self.p
        units = set(self.targets) | set(m.must_stay)
        ok, ug = self._static(m.foot, P, units)
        d = np.hypot(P[:, 0] - m.start[0], P[:, 1] - m.start[1])
        ok &= (d <= self.budget) & (d >= 2 * p.tol_mm)
        dyn = [(o, self.foot[o], c) for o, c in others.items() if o != m.id
               and np.hypot(*(c - m.start)) <= self.budget + m.foot.extent() + self.foot[o].extent() + 1]
        if dyn:
            ok &= self._pair_gaps(m.foot, P, dyn).min(1) >= self.floor
        for e in m.must_stay:
            ok &= ug[e] <= p.er_mm
        if self.objective is not None:
            d = np.hypot(*(P - self.objective).T) - m.foot.extent() - p.marker_radius_mm
            if m.foot.round:
                d = np.hypot(*(P - self.objective).T) - m.foot.rad - p.marker_radius_mm
            inr = d <= p.objective_range_mm - EPS_ENG
            ok &= d < m.start_gap - 2 * p.tol_mm
            if m.start_gap <= p.objective_range_mm:
                ok &= inr
            return ok, {"goal": d, "eng": inr, "any": inr}
        ok &= ug[m.closest] < m.start_gap - 2 * p.tol_mm
        anyg = np.min(np.stack([ug[u] for u in self.targets]), axis=0)
        return ok, {"goal": ug[m.closest], "eng": ug[m.closest] <= p.er_mm - EPS_ENG, "any": anyg <= p.er_mm - EPS_ENG}

    def _inside(self, foot: Foot, P: np.ndarray) -> np.ndarray:
        core = np.asarray(foot.core)
        lo = core.min(0) - foot.rad
        hi = core.max(0) + foot.rad
        return (P[:, 0] + lo[0] >= 0) & (P[:, 1] + lo[1] >= 0) & (P[:, 0] + hi[0] <= self.w) & (P[:, 1] + hi[1] <= self.h)

    def _pair_gaps(self, foot: Foot, P: np.ndarray, others: list) -> np.ndarray:
        """(n, k) gaps of ``foot`` at ``P`` to other movers ``[(id, foot, centre)]``."""
        if foot.round and all(f.round for _, f, _ in others):
            C = np.array([c for _, _, c in others], float).reshape(-1, 2)
            R = np.array([f.rad for _, f, _ in others]) + foot.rad
            return np.hypot(P[:, None, 0] - C[None, :, 0], P[:, None, 1] - C[None, :, 1]) - R[None]
        cs = CSpace(foot, [(o, self.uid, f, tuple(c)) for o, f, c in others])
        return cs.gaps(P)

    # ----- 3. order and paths ----------------------------------------------------------------------------
    def _order(self, ends: dict[str, np.ndarray]) -> list[str]:
        """Movers in an order where no straight move crosses an end already taken or a model
        still to move (a topological order; cycles broken by the shortest move)."""
        ids = [m.id for m in self.movers if m.id in ends]
        start = {m.id: m.start for m in self.movers}
        before: dict[str, set] = {i: set() for i in ids}  # i -> movers that must go first
        if len(ids) > 1:
            A = np.array([start[i] for i in ids])
            B = np.array([ends[i] for i in ids])
            ext = np.array([self.foot[i].extent() for i in ids])
            need = ext[:, None] + ext[None, :] - SLACK
            de = _seg_dist_many(B, A, B)  # (segment i, point j)
            ds = _seg_dist_many(A, A, B)
            apart = np.hypot(A[:, None, 0] - A[None, :, 0], A[:, None, 1] - A[None, :, 1]) >= need - 0.5 + SLACK
            np.fill_diagonal(de, np.inf)
            np.fill_diagonal(ds, np.inf)
            for i, j in zip(*np.nonzero(de < need)):
                before[ids[j]].add(ids[i])  # i passes over j's end: i goes first
            for i, j in zip(*np.nonzero((ds < need) & apart)):
                before[ids[i]].add(ids[j])  # i passes over j's start: j goes first
        order, left = [], list(ids)
        while left:
            free = [i for i in left if not (before[i] & set(left))]
            if not free:
                free = [min(left, key=lambda i: (len(before[i] & set(left)), round(float(np.hypot(*(ends[i] - start[i]))), 2),
                                                 ids.index(i)))]
            nxt = min(free, key=lambda i: (round(float(np.hypot(*(ends[i] - start[i]))), 2), ids.index(i)))
            order.append(nxt)
            left.remove(nxt)
        return order

    def _straight_ok(self, foot: Foot, a: np.ndarray, end: np.ndarray, cs: CSpace, local: np.ndarray, dyn: list) -> bool:
        """True when sliding straight from ``a`` to ``end`` crosses no base (bases the mover
        already overlaps at ``a`` excepted): exact for round bases, sampled every 1 mm else."""
        if foot.round and cs.round[local].all() and all(f.round for _, f, _ in dyn):
            C = np.concatenate([cs.c0[local], np.array([c for _, _, c in dyn]).reshape(-1, 2)])
            R = np.concatenate([cs.R[local], np.array([foot.rad + f.rad for _, f, _ in dyn])])
            keep = np.hypot(*(C - a).T) - R >= -SLACK  # bases it already overlaps do not block it
            return bool(seg_clear_of_discs(a, end, C[keep], R[keep] - SLACK).all())
        n = max(2, int(np.hypot(*(end - a)) / 1.0) + 1)
        S = a + np.linspace(0.0, 1.0, n)[:, None] * (end - a)
        if len(local):
            G = cs.gaps(S, local)
            keep = G[0] >= -SLACK
            if (G[:, keep] < -SLACK).any():
                return False
        if dyn:
            D = self._pair_gaps(foot, S, dyn)
            keep = D[0] >= -SLACK
            if (D[:, keep] < -SLACK).any():
                return False
        return True

    def _path(self, mid: str, end: np.ndarray, now: dict[str, np.ndarray], visibility: bool = True) -> Optional[list]:
        """Shortest path of ``mid`` from where it stands to ``end`` around every other base
        (standing ones and the unit's models at ``now``), at most the move; None if none.
        Without ``visibility`` only a straight slide is tried."""
        a = now[mid]
        foot = self.foot[mid]
        self._last_detour = False
        if float(np.hypot(*(end - a))) > self.budget:
            return None
        cs = self.cs(foot)
        reach = self.budget / 2 + foot.extent()
        mid_pt = (a + end) / 2
        others = [o for o in now if o != mid]
        oc = np.array([now[o] for o in others]).reshape(-1, 2)
        oe = np.array([self.foot[o].extent() for o in others])
        dsel = np.hypot(*(oc - mid_pt).T) <= reach + oe + 1 if len(others) else np.zeros(0, bool)
        dyn = [(others[i], self.foot[others[i]], oc[i]) for i in np.nonzero(dsel)[0]]
        local = self._local(cs, np.array([a, end]), foot.extent() + 1.0)
        if self._straight_ok(foot, a, end, cs, local, dyn):
            return [(float(a[0]), float(a[1])), (float(end[0]), float(end[1]))]
        if not visibility or float(np.hypot(*(end - a))) > self.budget - 0.5:
            return None  # blocked, and no way round is shorter than the straight line plus a hair
        wide = self._local(cs, np.array([a, end]), self.budget / 2 + foot.extent() + 60)
        geoms_block, geoms_corner = [], []
        if len(wide):
            start_g = cs.gaps(a[None], wide)[0]
            keep = start_g >= -SLACK
            geoms_block += list(cs.geoms(-SLACK)[wide][keep])
            geoms_corner += list(cs.geoms(0.35, 0)[wide][keep])
        if dyn:
            dcs = CSpace(foot, [(o, self.uid, f, tuple(c)) for o, f, c in dyn])
            start_g = dcs.gaps(a[None])[0]
            keep = start_g >= -SLACK
            geoms_block += list(dcs.geoms(-SLACK)[keep])
            geoms_corner += list(dcs.geoms(0.35, 0)[keep])
        self._last_detour = True
        path = self.finder.path(tuple(a), tuple(end), geoms_block, geoms_corner, self.budget)
        if path is None:
            return None
        if len(path) > 2 and not self._inside(foot, np.array(path[1:-1])).all():
            return None
        return path

    # ----- 4. the rest, one at a time --------------------------------------------------------------------
    def _candidates(self, m: Mover) -> np.ndarray:
        """Ends worth trying for ``m``: around the closest target models (at touching, half and
        nearly full Engagement Range) or the objective, plus a fan of moves towards the goal."""
        p = self.p
        pts = []
        a = m.start
        if self.objective is not None:
            aim = self.objective
            R = p.marker_radius_mm + m.foot.extent()
            for d in (p.objective_range_mm - 1.0, p.objective_range_mm * 0.5, 0.0):
                pts.append(offset_curve(aim[None], R + d, 6.0))
            pts.append(aim[None])
        else:
            cs = self.cs(m.foot)
            cols = [j for j in range(len(cs)) if cs.units[j] in self.targets]
            if not cols:
                return np.zeros((0, 2))
            G = cs.gaps(a[None], np.array(cols))[0]
            near = [cols[j] for j in np.lexsort((cols, np.round(G, 3)))[:8] if G[j] <= self.budget + p.er_mm]
            for j in near:
                for d in (p.clearance_mm, p.er_mm * 0.5, p.er_mm - 1.0):
                    pts.append(cs.ring(j, d, 3.0))
            jc = cols[int(np.lexsort((cols, np.round(G, 3)))[0])]
            aim = cs.centers[jc]
        d0 = float(np.linalg.norm(aim - a))
        if d0 > 1e-9:
            a0 = math.atan2(aim[1] - a[1], aim[0] - a[0])
            angs = np.radians([0, 15, -15, 30, -30, 45, -45, 60, -60, 90, -90])
            for frac in (1.0, 0.8, 0.6, 0.4, 0.25, 0.12, 0.05):
                L = min(self.budget - 1e-6, d0) * frac  # strictly inside the reach: no rounding at its edge
                pts.append(np.stack([a[0] + np.cos(a0 + angs) * L, a[1] + np.sin(a0 + angs) * L], 1))
        P = np.concatenate(pts) if pts else np.zeros((0, 2))
        return P[np.hypot(P[:, 0] - a[0], P[:, 1] - a[1]) <= self.budget]

    def _coherent(self, mid: str, P: np.ndarray, now: dict[str, np.ndarray]) -> np.ndarray:
        n = len(self.unit_ids)
        if n <= 1:
            return np.ones(len(P), bool)
        need = 2 if n >= self.p.coherency_big else 1
        others = [(o, self.foot[o], c) for o, c in now.items() if o != mid]
        D = self._pair_gaps(self.foot[mid], P, others)
        return (D <= self.p.coherency_mm).sum(1) >= need

    def _one(self, m: Mover, now: dict[str, np.ndarray]) -> Optional[list]:
        """Best legal move of ``m`` alone, given the unit's models at ``now``; None to stay."""
        P = self._candidates(m)
        if not len(P):
            return None
        ok, info = self._legal(m, P, {o: c for o, c in now.items() if o != m.id})
        if not ok.any():
            return None
        P = P[ok]
        info = {k: v[ok] for k, v in info.items()}
        coh = self._coherent(m.id, P, now)
        dist = np.round(np.hypot(P[:, 0] - m.start[0], P[:, 1] - m.start[1]), 2)  # rounded: ties go to the
        goal = np.round(np.maximum(info["goal"], 0) * 2) / 2  # candidate order, which turns with the board
        order = np.lexsort((dist, goal, ~coh, ~info["any"], ~info["eng"]))
        order = order[:80]
        straight = self._straight_many(m, P[order], now)
        detours = 0
        for k, i in enumerate(order):
            if straight[k]:
                return [(float(m.start[0]), float(m.start[1])), (float(P[i, 0]), float(P[i, 1]))]
            if detours < 2 and info["any"][i]:  # detours only where they buy an engagement
                detours += 1
                path = self._path(m.id, P[i], now)
                if path is not None:
                    return path
        return None

    def _straight_many(self, m: Mover, E: np.ndarray, now: dict[str, np.ndarray]) -> np.ndarray:
        """For each end in ``E``: can ``m`` slide straight there past every other base (bases it
        overlaps at the start excepted)? Exact for round bases, sampled every 2 mm otherwise."""
        a = m.start
        foot = m.foot
        cs = self.cs(foot)
        box = np.vstack([E, a[None]])
        local = self._local(cs, box, foot.extent() + 1.0)
        others = [(o, self.foot[o], c) for o, c in now.items() if o != m.id]
        if others:
            oc = np.array([c for _, _, c in others])
            lo, hi = box.min(0) - 2 * foot.extent() - 60, box.max(0) + 2 * foot.extent() + 60
            others = [others[i] for i in np.nonzero(((oc >= lo) & (oc <= hi)).all(1))[0]]
        if foot.round and cs.round[local].all() and all(f.round for _, f, _ in others):
            C = np.concatenate([cs.c0[local], np.array([c for _, _, c in others]).reshape(-1, 2)])
            R = np.concatenate([cs.R[local], np.array([foot.rad + f.rad for _, f, _ in others])])
            keep = np.hypot(*(C - a).T) - R >= -SLACK
            C, R = C[keep], R[keep]
            if not len(C):
                return np.ones(len(E), bool)
            D = _seg_dist_many(C, np.repeat(a[None], len(E), 0), E)  # (ends, obstacles)
            return (D >= R[None] - SLACK).all(1)
        n = 24
        t = np.linspace(0.0, 1.0, n)
        S = (a[None, None, :] + t[None, :, None] * (E - a)[:, None, :]).reshape(-1, 2)
        ok = np.ones(len(E) * n, bool)
        if len(local):
            G = cs.gaps(S, local)
            G0 = cs.gaps(a[None], local)[0]
            ok &= (G[:, G0 >= -SLACK] >= -SLACK).all(1)
        if others:
            D = self._pair_gaps(foot, S, others)
            D0 = self._pair_gaps(foot, a[None], others)[0]
            ok &= (D[:, D0 >= -SLACK] >= -SLACK).all(1)
        return np.asarray(ok.reshape(len(E), n).all(1))

    # ----- the whole move --------------------------------------------------------------------------------
    def solve(self) -> dict[str, list]:
        """``{model id: [start, ..., end]}`` for every model that moves (see the module doc)."""
        if not self.movers:
            return {}
        now = {mid: self.pos[mid].copy() for mid in self.unit_ids}
        paths: dict[str, list] = {}
        if self.objective is None:
            banned: set = set()
            kept: Optional[tuple] = None  # the round whose paths reached the most engaging ends
            for _round in range(8 if len(self.movers) <= EXACT_MOVERS else 2):
                ends = engaging_ends(self, banned)
                now = {mid: self.pos[mid].copy() for mid in self.unit_ids}
                paths, failed = {}, []
                for mid in self._order(ends):
                    path = self._path(mid, ends[mid], now)
                    if path is None:
                        failed.append(mid)
                        continue
                    paths[mid] = path
                    now[mid] = np.array(path[-1])
                for mid in list(failed):  # once the others have moved, a way may be open
                    path = self._path(mid, ends[mid], now)
                    if path is not None:
                        failed.remove(mid)
                        paths[mid] = path
                        now[mid] = np.array(path[-1])
                for mid in list(failed):  # or it goes first, before anyone else has moved
                    first = {o: self.pos[o].copy() for o in self.unit_ids}
                    path = self._path(mid, ends[mid], first)
                    if path is not None and not self._blocks_others(mid, path, paths, now):
                        failed.remove(mid)
                        paths[mid] = path
                        now[mid] = np.array(path[-1])
                if kept is None or len(paths) > len(kept[0]):
                    kept = (paths, now)
                if not failed:
                    break
                banned |= {(mid, tuple(np.round(ends[mid], 3))) for mid in failed}
            paths, now = kept if kept is not None else (paths, now)
            paths, now = self._shorten(paths, now)
        rest = sorted((m for m in self.movers if m.id not in paths), key=self._slack)
        for m in rest:
            path = self._one(m, now)
            if path is not None:
                paths[m.id] = path
                now[m.id] = np.array(path[-1])
        return {mid: [(float(x), float(y)) for x, y in path] for mid, path in paths.items()}

    def _shorten(self, paths: dict[str, list], now: dict[str, np.ndarray]) -> tuple[dict, dict]:
        """Packed spots can lie further than needed: a mover whose move is clearly longer than
        its straight need takes the shortest end that keeps it as engaged (closest target
        first). It then moves before the others, so its straight path must clear their starts
        and ends, and its end must not lie on their paths."""
        by_id = {m.id: m for m in self.movers}
        for mid in list(paths):
            m = by_id[mid]
            L = polyline_length(paths[mid])
            if L <= max(0.0, m.start_gap - self.p.er_mm) + 8.0:
                continue
            _, info0 = self._legal(m, now[mid][None], {})
            P = self._candidates(m)
            if not len(P):
                continue
            ok, info = self._legal(m, P, {o: c for o, c in now.items() if o != mid and "@" not in o})
            ok &= (info["eng"] >= info0["eng"][0]) & (info["any"] >= info0["any"][0])
            touch = self.p.tol_mm * 0.8
            if info0["goal"][0] <= touch:  # in base contact it stays in base contact
                ok &= info["goal"] <= touch
            d = np.hypot(*(P - m.start).T)
            ok &= d < L - 4.0
            for i in np.lexsort((np.arange(len(d)), np.where(ok, np.round(d, 2), np.inf)))[:6]:
                if not ok[i]:
                    break
                trial = dict(now)
                trial[mid] = m.start.copy()
                for o in paths:  # it moves first now: the others still stand at their starts
                    if o != mid:
                        self.foot[o + "@start"] = self.foot[o]
                        trial[o + "@start"] = np.array(paths[o][0])
                path = self._path(mid, P[i], trial, visibility=False)
                if path is not None and not self._blocks_others(mid, path, paths, now):
                    paths[mid] = path
                    now[mid] = P[i].copy()
                    break
        return paths, now

    def _blocks_others(self, mid: str, path: list, paths: dict, now: dict) -> bool:
        """True when the straight moves of the other movers would cross ``mid``'s new end."""
        end = np.array(path[-1])
        f = self.foot[mid]
        for o, pth in paths.items():
            if o == mid:
                continue
            need = f.extent() + self.foot[o].extent() - SLACK
            for a, b in zip(pth, pth[1:]):
                if _seg_dist(end, np.array(a), np.array(b)) < need and \
                        (not (f.round and self.foot[o].round) or
                         _seg_dist(end, np.array(a), np.array(b)) < f.rad + self.foot[o].rad - SLACK):
                    return True
        return False

    def _slack(self, m: Mover) -> tuple:
        d = m.start_gap - (self.p.objective_range_mm if self.objective is not None else self.p.er_mm)
        s = self.budget - d
        return (0 if s >= 0 else 1, round(abs(s), 2), self.unit_ids.index(m.id))


def _seg_dist_many(P: np.ndarray, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """(segments, points) distances from points ``P`` (m, 2) to segments ``A``-``B`` (n, 2)."""
    AB = B - A
    L2 = np.maximum((AB ** 2).sum(1), 1e-18)
    W = P[None, :, :] - A[:, None, :]
    t = np.clip((W * AB[:, None, :]).sum(2) / L2[:, None], 0.0, 1.0)
    D = W - t[..., None] * AB[:, None, :]
    return np.hypot(D[..., 0], D[..., 1])


def _seg_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    L2 = float(ab @ ab)
    t = 0.0 if L2 == 0 else min(1.0, max(0.0, float((p - a) @ ab) / L2))
    return float(np.linalg.norm(p - (a + t * ab)))


__all__ = ["MoveSolver", "polyline_length"]  # one unit's move, kept: memo.solve_move
