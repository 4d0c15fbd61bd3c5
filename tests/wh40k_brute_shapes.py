"""An independent brute force for wh40k Pile-in Moves with bases of any shape (round and oval
in one unit), for the bench and the slow tests: the method of tests/wh40k_brute.py (every end
around every enemy model at touching, half and almost full Engagement Range, every 5 degrees,
reached by a straight slide of at most the pile-in distance, ending closer; all combinations
searched with an order in which the models can move one after another), with the geometry done
by shapely on polygons (a round base is a 256-gon, within 0.01 mm of its circle). Shares no
code with the engine.
"""
from __future__ import annotations

import math

import shapely
from shapely import affinity

ANGLES = 72


def _geom(shape):
    if hasattr(shape, "radius_mm"):
        return shapely.Point(shape.center).buffer(shape.radius_mm, quad_segs=64)
    return shapely.Polygon(shape.points)


def _at(geom, c0, c):
    return affinity.translate(geom, c[0] - c0[0], c[1] - c0[1])


def _sweep(geom, c0, c):
    """The ground a convex base covers sliding straight from ``c0`` to ``c``, 0.05 mm thinner."""
    return shapely.convex_hull(shapely.union(geom, _at(geom, c0, c))).buffer(-0.05)


def brute_force_search_shapes(board, *, er: float, move: float, tol: float, clearance: float,
                              max_nodes: int = 0) -> tuple[int, bool]:
    """(the most models of ``mob`` found to end engaged with ``foe``, whether the search was
    complete); ``max_nodes`` (0: no limit) stops it after so many nodes."""
    mob = [(m.id, m.shape.center, _geom(m.shape)) for m in board.unit("mob").models()]
    foe = [(m.shape.center, _geom(m.shape)) for m in board.unit("foe").models()]
    radius: dict = {}
    for m in list(board.unit("mob").models()) + list(board.unit("foe").models()):
        radius[m.shape.center] = getattr(m.shape, "radius_mm", -1.0)

    def gap_to_foe(geom) -> float:
        return min(shapely.distance(geom, q) for _, q in foe)

    fixed, movable, standing = 0, [], []
    for mid, c, geo in mob:
        g0 = gap_to_foe(geo)
        if g0 <= er:
            fixed += 1
            standing.append(geo)
        else:
            movable.append((mid, c, geo, g0))
    blockers = [q for _, q in foe] + standing
    opts = []
    for mid, c, geo, g0 in movable:
        ends = []
        for qc, q in foe:
            for gp in (clearance + 0.05, er / 2, er - 0.3):
                for k in range(ANGLES):
                    a = 2 * math.pi * k / ANGLES
                    u = (math.cos(a), math.sin(a))
                    lo, hi = 0.0, 400.0
                    if radius[c] > 0 and radius[qc] > 0:  # two round bases: exactly
                        lo = hi = radius[c] + radius[qc] + gp
                    for _ in range(30 if lo < hi else 0):  # the distance out along u where the gap is gp
                        t = (lo + hi) / 2
                        if shapely.distance(_at(geo, c, (qc[0] + u[0] * t, qc[1] + u[1] * t)), q) < gp:
                            lo = t
                        else:
                            hi = t
                    e = (qc[0] + u[0] * hi, qc[1] + u[1] * hi)
                    d = math.dist(e, c)
                    if d > move - 0.1 or d < 2 * tol:
                        continue
                    ge = _at(geo, c, e)
                    if any(shapely.distance(ge, s) < clearance for s in blockers):
                        continue
                    if gap_to_foe(ge) > min(er - 0.06, g0 - 2 * tol - 0.01):
                        continue
                    sw = _sweep(geo, c, e)
                    if any(sw.intersects(s) for s in blockers):
                        continue
                    ends.append((e, ge, sw))
        opts.append((mid, c, geo, ends))
    opts.sort(key=lambda o: len(o[3]))
    best, nodes = [0], [0]
    n = len(opts)
    reach = sum(1 for o in opts if o[3])

    def leaf(chosen) -> bool:
        stay = [geo for mid, _, geo, _ in opts if mid not in chosen]
        for _, ge, sw in chosen.values():
            if any(shapely.distance(ge, s) < clearance or sw.intersects(s) for s in stay):
                return False
        ids = list(chosen)
        start = {mid: geo for mid, _, geo, _ in opts}
        before: dict = {i: set() for i in ids}
        for i in ids:
            for j in ids:
                if i != j and chosen[i][2].intersects(chosen[j][1]):
                    before[j].add(i)  # i slides over j's end: i goes first
                if i != j and chosen[i][2].intersects(start[j]):
                    before[i].add(j)  # i slides over j's start: j goes first
        left = set(ids)
        while left:
            free = [i for i in left if not (before[i] & left)]
            if not free:
                return False
            left -= set(free)
        return True

    def dfs(k, chosen):
        nodes[0] += 1
        if max_nodes and nodes[0] > max_nodes:
            return
        if len(chosen) + sum(1 for o in opts[k:] if o[3]) <= best[0]:
            return
        if k == n:
            if leaf(chosen):
                best[0] = len(chosen)
            return
        mid, _, _, ends = opts[k]
        for e, ge, sw in ends:
            if all(shapely.distance(ge, c[1]) >= clearance for c in chosen.values()):
                chosen[mid] = (e, ge, sw)
                dfs(k + 1, chosen)
                del chosen[mid]
                if best[0] == reach:
                    return
        dfs(k + 1, chosen)

    dfs(0, {})
    return fixed + best[0], not max_nodes or nodes[0] <= max_nodes


__all__ = ["brute_force_search_shapes"]
