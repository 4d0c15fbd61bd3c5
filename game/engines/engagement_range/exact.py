"""Exact end spots for small Warhammer 40,000 units (seeds/003, "Pile-in Moves": pile in to
maximise the number of models that are engaged).

When the packed spots of :mod:`.spots` leave a model of a small unit unengaged, a
branch-and-bound search tries every combination of end spots for every mover, whatever its
base (mixed base sizes in one unit): spots around every target model at touching, half and
almost full Engagement Range, about every 5 degrees (and every 2 mm along a long base), each
ring starting at the side facing the moving unit, so the spots turn and move with the board;
for round movers also the ends of the arcs of those rings each can reach, and (when a mover
with a spot is still left out) one, then two levels of spots just clear of those (:mod:`.arcs`:
mixed base sizes packed at the edge of their reach sit there, between any grid's points).

The search is a maximum independent set over the spots: two spots conflict when their bases
would come closer than the clearance (or belong to one mover); a mover left standing keeps its
base where it is. Bit masks (Python integers) hold the spots still open. Movers are taken
most-constrained first (fewest open spots, then model order); each mover's spots in the order
of the rule's preferences: engaged with the closest target (then in base contact), a straight
slide clear of the standing bases, then the shortest move (rounded to 0.01 mm), then the ring order. Nothing in the order depends on where
the board lies. Once a path was blocked (``banned`` not empty: a later round of the solver's path planning),
when the best end set found cannot be reached by straight slides made one after another
(:func:`slides_orderable`: a slide crosses a model left standing, or two movers each need the
other to go first), a second, short search (:data:`ORDER_NODES`) looks for as many ends that
can; failing that the first set is kept, for the solver's detours to try. The search stops at
the upper bound (every mover that has a spot) or after
``EXACT_NODES`` nodes (counted, not timed: the same board gives the same ends); :data:`LAST`
says whether it was complete.
"""
from __future__ import annotations

import math
from typing import AbstractSet, Callable, Optional

import numpy as np

from game.engines.engagement_range.arcs import arc_spots
from game.engines.engagement_range.geom import CSpace, Foot

EXACT_NODES = 30000  # search nodes at most (the best found so far is kept)
ORDER_NODES = 3000  # nodes at most of the second search for an end set whose slides can be ordered
# end spots tried at most (each a clearance test against the spots already chosen; a square or
# oval base's test costs about ten times a round one's): bounds the search on crowded boards
EXACT_TRIES = {True: 60000, False: 6000}
ANGLE_STEP_DEG = 5.0
MAX_SPOTS = 220  # per mover, best first (and as many arc-end and tangent spots)
# the search runs on the rings alone, then again with the arc ends and with one and two levels of
# tangent spots while it leaves a mover out (-1: no arc spot; the best over the levels is kept)
ARC_LEVELS = (-1, 0, 1, 2)
DETOUR_CHECKS = 16  # per mover: ends behind a standing base whose way round is checked
DETOUR_CHECKS_WITH_STRAIGHT = 2  # as many when the mover has ends a straight slide reaches


def _spots(solver, movers: list, level: int = 0) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Per mover: (points (k, 2), preference key (k,), closest-target class (k,)), best first:
    the rings, the arc ends and ``level`` levels of tangent spots (:mod:`.arcs`)."""
    p = solver.p
    out = []
    by_foot: dict[Foot, list[int]] = {}
    for i, m in enumerate(movers):
        by_foot.setdefault(m.foot, []).append(i)
    res: list = [None] * len(movers)
    arcs = _arc_points(solver, movers, level)
    detours = solver.__dict__.setdefault("_exact_detours", {})  # (model id, end) -> a way round exists
    for foot, idx in by_foot.items():
        ms = [movers[i] for i in idx]
        cs = solver.cs(foot)
        starts = np.array([m.start for m in ms])
        cols = [j for j in solver._local(cs, starts, solver.budget + p.er_mm + foot.extent()) if cs.units[j] in solver.targets]
        if not cols:
            for i in idx:
                res[i] = (np.zeros((0, 2)), np.zeros(0), np.zeros(0, int))
            continue
        pts = []
        for j in cols:
            for gp in (p.clearance_mm, p.er_mm / 2, p.er_mm - 0.4):
                R = float(cs.R[j] + gp)
                step = max(1.0, min(2.0 * math.pi * R * ANGLE_STEP_DEG / 360.0, 4.0))
                if foot.round and cs.round[j]:
                    pts.append(_tangent_ring(cs, j, R, foot.rad, p.clearance_mm, step))
                else:
                    pts.append(cs.ring(j, gp, step))
        if foot.round:
            pts += _reach_edge(solver, cs, cols, ms)
        n_ring = sum(len(x) for x in pts)
        if foot.round and float(foot.rad) in arcs:
            pts.append(arcs[float(foot.rad)])
        P = np.concatenate(pts)
        ok, eng = solver._legal_many(ms, P)
        for k, i in enumerate(idx):
            m = movers[i]
            sel = np.nonzero(ok[k])[0]
            d = np.round(np.hypot(P[sel, 0] - m.start[0], P[sel, 1] - m.start[1]), 2)
            e = eng[k, sel]
            # a straight slide past the standing bases first (a detour may be too long)
            clear = solver._straight_many(m, P[sel], {}) if len(sel) else np.zeros(0, bool)
            order = np.lexsort((sel, d, ~clear, -e))
            # the best of the rings, and as many of the arc spots (they lie at the ends of reach)
            arc = sel[order] >= n_ring
            order = order[(np.cumsum(~arc) <= MAX_SPOTS) & ~arc | (np.cumsum(arc) <= MAX_SPOTS) & arc]
            # an end behind a standing base needs a way round within the move: the first few
            # are checked (a path past the standing bases), the rest left out
            keep, checked = [], 0
            budget = DETOUR_CHECKS if not clear.any() else DETOUR_CHECKS_WITH_STRAIGHT
            for k2 in order.tolist():
                if clear[k2]:
                    keep.append(k2)
                elif checked < budget:
                    checked += 1
                    key = (m.id, P[sel[k2]].tobytes())
                    if key not in detours:
                        detours[key] = solver._path(m.id, P[sel[k2]], {m.id: m.start}) is not None
                    if detours[key]:
                        keep.append(k2)
            order = np.array(keep, int)
            res[i] = (P[sel[order]], d[order], e[order])
    out = res
    return out


def _arc_points(solver, movers: list, level: int) -> dict[float, np.ndarray]:
    """{mover radius: arc-end and ``level`` levels of tangent spots} (:func:`.arcs.arc_spots`)
    for the round movers, about the round target models near them (kept on the solver)."""
    kept = solver.__dict__.setdefault("_exact_arcs", {})
    key = (tuple(m.id for m in movers), level)
    if key not in kept:
        kept[key] = _arc_points_of(solver, movers, level)
    return kept[key]


def _arc_points_of(solver, movers: list, level: int) -> dict[float, np.ndarray]:
    p = solver.p
    rm = [m for m in movers if m.foot.round]
    if not rm or level < 0:
        return {}
    starts = np.array([m.start for m in rm])
    lo, hi = starts.min(0) - solver.budget - 120.0, starts.max(0) + solver.budget + 120.0
    standing, targets = [], []
    for _id, unit, foot, c in solver.static:
        if not foot.round or not (lo[0] <= c[0] <= hi[0] and lo[1] <= c[1] <= hi[1]):
            continue
        centre = np.asarray(c, float) + np.asarray(foot.core[0], float)
        standing.append((centre, float(foot.rad)))
        if unit in solver.targets:
            targets.append((centre, float(foot.rad), unit))
    gaps = (p.clearance_mm, p.er_mm / 2, p.er_mm - 0.4)
    return arc_spots(rm, targets, standing, gaps, solver.budget, p.clearance_mm, solver.floor,
                     2 * p.tol_mm, level)


def _reach_edge(solver, cs: CSpace, cols: list, ms: list) -> list[np.ndarray]:
    """For a round mover that reaches a round target model only at the very end of its move
    (its gap less the move lies between the rings' ``er - 0.4`` and Engagement Range): the end
    straight towards that model, 0.01 mm inside the move, and the spots either side of it on
    that gap's circle about the model, every degree up to 10 (the reachable band is too thin
    for the rings). Returns a list of (k, 2) arrays (maybe empty)."""
    p = solver.p
    out = []
    hi = p.er_mm - 0.06  # 0.01 mm inside the solver's engaging ends (EPS_ENG, 0.05 mm inside)
    for m in ms:
        for j in cols:
            if not cs.round[j]:
                continue
            c = cs.c0[j]
            v = m.start - c
            dist = float(np.hypot(*v))
            if dist < 1e-9:
                continue
            gp = dist - float(cs.R[j]) - solver.budget + 0.01
            if not (p.er_mm / 2 < gp <= hi):
                continue
            R = float(cs.R[j]) + gp
            a0 = math.atan2(v[1], v[0])
            a = a0 + np.radians(np.array([0.0, 1, -1, 2, -2, 4, -4, 7, -7, 10, -10]))
            out.append(np.stack([c[0] + R * np.cos(a), c[1] + R * np.sin(a)], 1))
    return out


def _tangent_ring(cs: CSpace, j: int, R_mm: float, r_mm: float, clearance_mm: float, step_mm: float) -> np.ndarray:
    """Centres on the circle of radius ``R_mm`` about round obstacle ``j`` for a round mover of
    radius ``r_mm``, at most ``step_mm`` apart and starting on the side facing ``cs.ref``, at an
    angular step that divides the angle between two such movers just ``clearance_mm`` apart:
    a row of movers side by side round the target (the tightest packing of that ring) is a
    subset of the points, wherever it starts."""
    c = cs.centers[j] + cs.cores[j][0]
    s = min(1.0, (r_mm + clearance_mm / 2 + 1e-6) / R_mm)
    tangent = 2.0 * math.asin(s)
    m = max(1, math.ceil(tangent / (step_mm / R_mm)))
    da = tangent / m
    a0 = 0.0
    if cs.ref is not None:
        v = np.asarray(cs.ref, float) - c
        if float(np.hypot(*v)) > 1e-9:
            a0 = math.atan2(v[1], v[0])
    a = a0 + np.arange(int(2.0 * math.pi / da + 1e-9)) * da
    return np.stack([c[0] + R_mm * np.cos(a), c[1] + R_mm * np.sin(a)], 1)


def _conflicts(solver, movers: list, spots: list) -> tuple[list[int], list[int], list[int]]:
    """Bit masks over all spots: ``conf[g]`` the spots that cannot be taken with spot ``g``
    (same mover, or bases closer than the clearance), ``own[i]`` mover ``i``'s spots and
    ``start[i]`` the spots overlapping mover ``i``'s base where it stands."""
    clr = solver.p.clearance_mm
    offs = np.cumsum([0] + [len(s[0]) for s in spots]).tolist()
    G = offs[-1]
    M = np.zeros((G, G), bool)
    S = np.zeros((len(movers), G), bool)
    for a, ma in enumerate(movers):
        Pa = spots[a][0]
        if not len(Pa):
            continue
        sa = slice(offs[a], offs[a + 1])
        M[sa, sa] = True
        for b, mb in enumerate(movers):
            if b != a:
                S[b, sa] = _gap(ma.foot, Pa, mb.foot, mb.start[None])[:, 0] < clr
            Pb = spots[b][0]
            if b <= a or not len(Pb):
                continue
            sb = slice(offs[b], offs[b + 1])
            C = _gap(ma.foot, Pa, mb.foot, Pb) < clr
            M[sa, sb] = C
            M[sb, sa] = C.T
    conf = [_mask(M[g]) for g in range(G)]
    own = [((1 << (offs[i + 1] - offs[i])) - 1) << offs[i] for i in range(len(movers))]
    start = [_mask(S[i]) for i in range(len(movers))]
    return conf, own, start


def _mask(row: np.ndarray) -> int:
    """A bool row as an integer bit mask (bit g set where ``row[g]``)."""
    return int.from_bytes(np.packbits(row, bitorder="little").tobytes(), "little")


def _gap(fa: Foot, A: np.ndarray, fb: Foot, B: np.ndarray) -> np.ndarray:
    """(len(A), len(B)) edge-to-edge gaps of base ``fa`` at ``A`` to base ``fb`` at ``B``."""
    if fa.round and fb.round:
        return np.hypot(A[:, None, 0] - B[None, :, 0], A[:, None, 1] - B[None, :, 1]) - fa.rad - fb.rad
    cs = CSpace(fa, [(str(k), "", fb, tuple(b)) for k, b in enumerate(B)])
    return cs.gaps(A)


#: how the last search ended: {"complete": bool, "nodes": int}
LAST: dict = {}


class _Search:
    """The branch and bound of :func:`exact_assignment` over bit masks: ``conf[g]`` the spots
    that cannot be taken with spot ``g``, ``own[i]`` mover ``i``'s spots (from bit ``offs[i]``),
    ``start[i]`` the spots overlapping mover ``i`` where it stands, ``reach`` the movers with a
    spot (the search stops there), ``tries`` the spots tried at most. ``best`` is (count,
    {mover index: spot bit}); ``complete`` False once a limit stopped it."""

    def __init__(self, conf: list[int], own: list[int], start: list[int], offs: list[int], reach: int, tries: int,
                 accept: Optional[Callable[[dict], bool]] = None, max_nodes: int = EXACT_NODES):
        self.conf, self.own, self.start, self.offs, self.reach = conf, own, start, offs, reach
        self.tries = tries
        self.accept = accept  # a leaf is kept only when it accepts it (None: every leaf)
        self.max_nodes = max_nodes
        self.nodes = 0
        self.best: tuple[int, dict] = (0, {})
        self.complete = True

    def stays(self, i: int, openm: int, chosen: dict) -> int:
        """``openm`` once mover ``i`` stays where it stands; -1 when a chosen spot overlaps it."""
        if any((self.start[i] >> g) & 1 for g in chosen.values()):
            return -1
        return openm & ~self.own[i] & ~self.start[i]

    def dfs(self, openm: int, left: list, chosen: dict) -> None:
        """Place the movers ``left`` on the spots ``openm`` still open, ``chosen`` placed."""
        self.nodes += 1
        if self.nodes > self.max_nodes or self.tries < 0:
            self.complete = False
            return
        own = self.own
        alive = []
        for i in left:
            if openm & own[i]:
                alive.append(i)
            else:  # no spot left for it: it stays
                openm = self.stays(i, openm, chosen)
                if openm < 0:
                    return
        alive = [i for i in alive if openm & own[i]]
        if len(chosen) + len(alive) <= self.best[0]:
            return
        if not alive:
            if self.accept is None or self.accept(chosen):
                self.best = (len(chosen), dict(chosen))
            return
        # most constrained first, then model order
        i = min(alive, key=lambda k: (bin(openm & own[k]).count("1"), k))
        rest = [k for k in alive if k != i]
        bits = (openm & own[i]) >> self.offs[i]
        g = self.offs[i]
        while bits:
            if bits & 1:
                self.tries -= 1
                if self.tries < 0:
                    self.complete = False
                    return
                chosen[i] = g
                self.dfs(openm & ~self.conf[g], rest, chosen)
                del chosen[i]
                if self.best[0] == self.reach:
                    return
            bits >>= 1
            g += 1
        after = self.stays(i, openm, chosen)
        if after >= 0:
            self.dfs(after, rest, chosen)


def exact_assignment(self, movers: list, banned: AbstractSet, bound: int = 0) -> dict[str, np.ndarray]:
    """``{model id: end}`` for ``movers`` (any bases) of the solver ``self``
    (:class:`.solver.MoveSolver`: its obstacles, legality and bounds); ``banned`` holds
    (model id, spot) pairs whose path was blocked; ``bound``: the most movers that could end
    engaged (0: unknown). See the module doc. The search runs on the rings first, then again
    with the arc ends and each level of tangent spots of :data:`ARC_LEVELS` while it leaves
    out a mover that has a spot (on the rings alone: while it is short of ``bound``, as the
    arc ends may give a mover its first spot); the best is kept (so it never engages fewer
    than the rings alone)."""
    LAST.clear()
    LAST.update(complete=True, nodes=0)
    # later rounds of path planning (some spots banned) search only the level that served the
    # first; a unit with a base not round gets no tangent levels (its conflicts cost most)
    chosen = self.__dict__.setdefault("_exact_level", {})
    ids = tuple(m.id for m in movers)
    levels: tuple[int, ...] = ARC_LEVELS if all(m.foot.round for m in movers) else ARC_LEVELS[:2]
    if banned and ids in chosen:
        levels = (chosen[ids],)
    best: dict[str, np.ndarray] = {}
    for level in levels:
        if level >= 0 and sum(map(len, _arc_points(self, movers, level).values())) <= \
                sum(map(len, _arc_points(self, movers, level - 1).values())):
            break  # no new spot (no round target, or no room for another base): nothing to gain
        got, reach = _search_level(self, movers, banned, level)
        if len(got) > len(best) or not best:
            best = got
            if not banned:
                chosen[ids] = level
        if len(best) >= (reach if level >= 0 else max(reach, bound)):
            break
    return best


def _search_level(self, movers: list, banned: AbstractSet, level: int) -> tuple[dict[str, np.ndarray], int]:
    """(``{model id: end}``, movers with a spot) of the search on the spots of ``level``."""
    # the spots and their conflicts depend only on the movers: kept on the solver across the
    # rounds of path planning; a banned (blocked) spot is just never open
    cache = self.__dict__.setdefault("_exact_kept", {})
    ck = (tuple(m.id for m in movers), level)
    if ck not in cache:
        spots = _spots(self, movers, level)
        G = sum(len(s[0]) for s in spots)
        cache[ck] = (spots, G, _conflicts(self, movers, spots) if G else None)
    spots, G, kept = cache[ck]
    if not G:
        return {}, 0
    conf, own, start = kept
    offs = np.cumsum([0] + [len(s[0]) for s in spots]).tolist()
    reach = sum(1 for s in spots if len(s[0]))
    starts = np.array([m.start for m in movers]).reshape(-1, 2)
    ext = np.array([m.foot.extent() for m in movers])

    def accept(chosen: dict) -> bool:
        ends = starts.copy()
        for i, g in chosen.items():
            ends[i] = spots[i][0][g - offs[i]]
        return slides_orderable(starts, ends, ext, list(chosen))

    tries = EXACT_TRIES[all(m.foot.round for m in movers)] * 4
    search = _Search(conf, own, start, offs, reach, tries)
    openm = (1 << G) - 1
    for i, s in enumerate(spots):
        if not len(s[0]):
            openm &= ~start[i]  # no spot at all: it stands where it is
        elif banned:
            for k, x in enumerate(s[0]):
                if (movers[i].id, tuple(np.round(x, 3))) in banned:
                    openm &= ~(1 << (offs[i] + k))
    alive = [i for i, s in enumerate(spots) if len(s[0])]
    search.dfs(openm, alive, {})
    LAST.update(complete=search.complete, nodes=LAST["nodes"] + search.nodes)
    best = search.best
    if banned and best[0] and not accept(best[1]):
        # the slides cannot be made one after another: look (briefly) for as many ends that can
        again = _Search(conf, own, start, offs, reach, tries // 4, accept, max_nodes=ORDER_NODES)
        again.best = (best[0] - 1, {})
        again.dfs(openm, alive, {})
        LAST.update(nodes=LAST["nodes"] + again.nodes)
        if again.best[0] >= best[0]:
            best = again.best
    return {movers[i].id: spots[i][0][g - offs[i]].copy() for i, g in best[1].items()}, reach


SLIDE_SLACK_MM = 0.05  # a slide may graze another base by this much (as the solver's paths)


def slides_orderable(starts: np.ndarray, ends: np.ndarray, ext: np.ndarray, moved: list[int]) -> bool:
    """Can the movers ``moved`` slide straight from ``starts`` to ``ends`` (both (n, 2) mm, one
    row per mover; ``ext`` (n,) their bases' extents in mm) one after another? No slide may cross
    a mover left standing (not in ``moved``), and the order must exist: a mover whose slide
    crosses another's end goes before it, one whose slide crosses another's start after it
    (starts already overlapping excepted). Round-base exact, conservative for other bases."""
    if not moved:
        return True
    mv = np.array(moved, int)
    A, B = starts[mv], ends[mv]
    need_all = ext[mv][:, None] + ext[None, :] - SLIDE_SLACK_MM  # (moved, all movers)
    D_start = _seg_dist(starts, A, B)  # (moved, all movers): slide i to start j
    apart = np.hypot(*(A[:, None, :] - starts[None, :, :]).transpose(2, 0, 1)) >= need_all - 0.5 + SLIDE_SLACK_MM
    stand = np.ones(len(starts), bool)
    stand[mv] = False
    if ((D_start < need_all) & apart & stand[None, :]).any():
        return False
    need = need_all[:, mv]
    de = _seg_dist(B, A, B)
    ds = D_start[:, mv]
    ap = apart[:, mv]
    np.fill_diagonal(de, np.inf)
    np.fill_diagonal(ds, np.inf)
    k = len(mv)
    before: list[set[int]] = [set() for _ in range(k)]
    for i, j in zip(*np.nonzero(de < need)):
        before[j].add(i)  # i crosses j's end: i first
    for i, j in zip(*np.nonzero((ds < need) & ap)):
        before[i].add(j)  # i crosses j's start: j first
    left = set(range(k))
    while left:
        free = {i for i in left if not (before[i] & left)}
        if not free:
            return False
        left -= free
    return True


def _seg_dist(P: np.ndarray, A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """(segments, points) distances in mm from points ``P`` (m, 2) to segments ``A``-``B`` (n, 2)."""
    AB = B - A
    L2 = np.maximum((AB ** 2).sum(1), 1e-18)
    W = P[None, :, :] - A[:, None, :]
    t = np.clip((W * AB[:, None, :]).sum(2) / L2[:, None], 0.0, 1.0)
    Dv = W - t[..., None] * AB[:, None, :]
    return np.hypot(Dv[..., 0], Dv[..., 1])


def sep_fn(foot: Foot, clearance: float):
    """``sep(a, b)``: two movers of ``foot`` at ``a`` and ``b`` keep the clearance."""
    if foot.round:
        lim = 2 * foot.rad + clearance
        return lambda a, b: (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 >= lim * lim
    cs = CSpace(foot, [("x", "", foot, (0.0, 0.0))])
    return lambda a, b: cs.gaps((a - b)[None])[0, 0] >= clearance
