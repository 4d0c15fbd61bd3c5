"""Is a pile-in or consolidation move proven to engage as many models as possible?

seeds/003, "Pile-in Moves": units pile in "to maximise the number of models that are engaged".
An upper bound on that number (:func:`engaged_bound`), from two facts:

* reach: a model can end engaged with an enemy model only if its gap to it, less its whole
  move, is within Engagement Range (a move is never shorter than the straight line, and bases
  standing in the way only make it longer), and only if some place for it within the move and
  within Engagement Range of that enemy model overlaps no base that stands still meanwhile
  (other units' models, and the unit's own models held in base contact): :func:`room_to_end`;
  a model in base contact, which may not move, counts where it stands;
* room: the bases that end engaged with one round enemy model stand, without overlapping it or
  each other, with their centres in the ring from touching it to Engagement Range away; only so
  many fit there (:func:`ring_capacity`).

Every model that ends engaged can be put against one enemy model it reaches, no enemy model
taking more than fit around it, so the most engaged models are at most the largest such
assignment (a maximum flow; :func:`engaged_bound`). When the move engages that many models it
is ``optimal`` (proven); otherwise it is the ``best found`` by the search (:mod:`.solver`,
:mod:`.exact`).
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np

from game.core import geometry as g
from game.engines.engagement_range.table import Params, Table


def start_gaps(table: Table, uid: str, targets: list[str]) -> dict[str, float]:
    """{model id of ``uid``: gap (mm) to the closest model of the ``targets``} as they stand."""
    mine = table.models_of(uid)
    foes = [q for e in targets for q in table.models_of(e)]
    if not mine or not foes:
        return {pc.id: float("inf") for pc in mine}
    G = table.gap_matrix(mine, foes)
    return {pc.id: float(G[i].min()) for i, pc in enumerate(mine)}


def ring_capacity(enemy_r_mm: float, radii_mm: list[float], er_mm: float, tol_mm: float = 0.0) -> int:
    """How many round bases of the radii ``radii_mm`` can at most stand engaged with one round
    enemy base of radius ``enemy_r_mm`` at once. Their centres lie in the ring from
    ``a = enemy_r + r_min - tol`` to ``b = enemy_r + r_max + er`` from its centre, at least
    ``s = 2 r_min - tol`` apart (``tol_mm``: the overlap the contact tolerance lets pass).

    Two bounds, the smaller kept: by angle (two such centres are at least the angle ``t`` apart
    seen from the enemy's centre, where ``cos t`` is the largest of
    ``(d1^2 + d2^2 - s^2) / (2 d1 d2)`` for ``d1, d2`` in ``[a, b]``, which is reached at the
    ring's edges; so at most ``2 pi / t`` fit), and by area (discs of radius ``s / 2`` round
    the centres are disjoint and lie in the ring from ``a - s/2`` to ``b + s/2``)."""
    if not radii_mm:
        return 0
    r0, r1 = min(radii_mm), max(radii_mm)
    a, b, s = enemy_r_mm + r0 - tol_mm, enemy_r_mm + r1 + er_mm + 1e-6, 2 * r0 - tol_mm
    if s <= 0 or a <= 0:
        return len(radii_mm)
    h = s / 2
    best = math.floor((((b + h) ** 2 - max(0.0, a - h) ** 2) / (h * h)) + 1e-9)
    f = max((d1 * d1 + d2 * d2 - s * s) / (2 * d1 * d2) for d1 in (a, b) for d2 in (a, b))
    if f < 1.0:
        t = math.acos(max(-1.0, f))
        best = min(best, math.floor(2 * math.pi / t + 1e-9))
    return max(0, best)


PRUNE_MM = 1e-3  # room_to_end's slack when it sets aside a circle (far above the rounding of its points)


def room_to_end(start, r_mm: float, move_mm: float, enemy, reach_mm: float, standing, tol_mm: float) -> bool:
    """Is there a centre ``c`` for a round base of radius ``r_mm`` within ``move_mm`` of
    ``start``, within ``reach_mm`` of the centre of the round enemy base ``enemy`` (centre,
    radius) and at least ``R + r - tol`` from every standing base ``(centre, R)`` of
    ``standing`` (the enemy among them)? Exact: if such centres exist, the leftmost of them lies
    where a circle of the problem is leftmost or rightmost or where two of them cross, so those
    points are tried (each within a hair of every condition)."""
    sx, sy = float(start[0]), float(start[1])
    (ex, ey), _er = enemy
    circles = [(sx, sy, move_mm), (float(ex), float(ey), reach_mm)]
    near = [(float(c[0]), float(c[1]), R + r_mm - tol_mm) for c, R in standing
            if math.hypot(c[0] - sx, c[1] - sy) < move_mm + R + r_mm]
    circles += near
    eps = 1e-6

    def ok(x: float, y: float) -> bool:
        if math.hypot(x - sx, y - sy) > move_mm + eps or math.hypot(x - ex, y - ey) > reach_mm + eps:
            return False
        return all(math.hypot(x - cx, y - cy) >= rho - eps for cx, cy, rho in near)

    # the nearest place to the enemy first (most models end there: no search needed)
    d = math.hypot(ex - sx, ey - sy)
    if d <= reach_mm:
        if ok(sx, sy):
            return True
    elif d - reach_mm <= move_mm + eps:
        t = (d - reach_mm + 1e-7) / d
        if ok(sx + (ex - sx) * t, sy + (ey - sy) * t):
            return True
    # every candidate lies on a circle (to far less than PRUNE_MM): a circle whose every point is
    # beyond the move from the start or the reach from the enemy gives none that passes ok
    circles = [(cx, cy, rho) for cx, cy, rho in circles
               if abs(math.hypot(cx - sx, cy - sy) - rho) <= move_mm + eps + PRUNE_MM
               and abs(math.hypot(cx - ex, cy - ey) - rho) <= reach_mm + eps + PRUNE_MM]
    pts = []
    for cx, cy, rho in circles:
        pts += [(cx - rho, cy), (cx + rho, cy)]
    for i, (x1, y1, r1) in enumerate(circles):
        for x2, y2, r2 in circles[i + 1:]:
            dx, dy = x2 - x1, y2 - y1
            dd = math.hypot(dx, dy)
            if dd < 1e-12 or dd > r1 + r2 or dd < abs(r1 - r2):
                continue
            a = (r1 * r1 - r2 * r2 + dd * dd) / (2 * dd)
            h = math.sqrt(max(0.0, r1 * r1 - a * a))
            mx, my = x1 + a * dx / dd, y1 + a * dy / dd
            pts += [(mx - h * dy / dd, my + h * dx / dd), (mx + h * dy / dd, my - h * dx / dd)]
    return any(ok(x, y) for x, y in pts)


def _max_flow(edges: list[list[int]], capacity: list[int]) -> int:
    """The largest assignment of rows to columns (row ``i`` to one of ``edges[i]``, column ``j``
    taking at most ``capacity[j]`` rows): augmenting paths, in row order."""
    taken: list[list[int]] = [[] for _ in capacity]

    def place(i: int, seen: set) -> bool:
        for j in edges[i]:
            if j in seen:
                continue
            seen.add(j)
            if len(taken[j]) < capacity[j]:
                taken[j].append(i)
                return True
            for k, other in enumerate(taken[j]):
                if place(other, seen):
                    taken[j][k] = i
                    return True
        return False

    return sum(1 for i in range(len(edges)) if place(i, set()))


def engaged_bound(table: Table, uid: str, targets: list[str], move_mm: float, p: Params,
                  contact_stays: bool = True) -> int:
    """The most models of ``uid`` that can end within Engagement Range of the ``targets`` after
    a move of at most ``move_mm`` from where they stand on ``table`` (see the module doc);
    ``contact_stays``: models in base contact with an enemy may not move (Pile-in, Ongoing
    Consolidation)."""
    mine = table.models_of(uid)
    foes = [q for e in targets for q in table.models_of(e)]
    if not mine or not foes:
        return 0
    G = table.gap_matrix(mine, foes)
    others = [q for q in table.pieces.values() if q.unit_id != uid]
    enemy = [q for q in others if q.player != mine[0].player]
    held = np.zeros(len(mine), bool)
    if contact_stays and enemy:
        held = table.gap_matrix(mine, enemy).min(1) <= p.tol_mm
    standing = [(q.shape.center, q.shape.radius_mm) for q in others if isinstance(q.shape, g.Circle)]
    standing += [(pc.shape.center, pc.shape.radius_mm) for i, pc in enumerate(mine)
                 if held[i] and isinstance(pc.shape, g.Circle)]
    reach = np.zeros(G.shape, bool)
    SC = np.array([c for c, _ in standing], float).reshape(-1, 2)
    SR = np.array([R for _, R in standing], float)
    for i, pc in enumerate(mine):
        others_i: Optional[list] = None
        for j, q in enumerate(foes):
            if held[i]:
                reach[i, j] = G[i, j] <= p.er_mm
            elif G[i, j] - move_mm <= p.er_mm:
                if G[i, j] <= p.er_mm or not (isinstance(pc.shape, g.Circle) and isinstance(q.shape, g.Circle)):
                    reach[i, j] = True  # engaged already (it may stay), or not round: no room test
                else:
                    r = pc.shape.radius_mm
                    if others_i is None:  # room_to_end looks only at bases within its move and two bases
                        c = pc.shape.center
                        close = np.hypot(SC[:, 0] - c[0], SC[:, 1] - c[1]) < move_mm + SR + r + 1.0
                        others_i = [standing[k] for k in np.nonzero(close)[0].tolist() if standing[k][0] != c]
                    reach[i, j] = room_to_end(pc.shape.center, r, move_mm, (q.shape.center, q.shape.radius_mm),
                                              q.shape.radius_mm + r + p.er_mm, others_i, p.tol_mm)
    edges = [[j for j in range(len(foes)) if reach[i, j]] for i in range(len(mine))]
    cap = []
    for j, q in enumerate(foes):
        near = [pc.shape for i, pc in enumerate(mine) if reach[i, j]]
        round_ = [sh for sh in near if isinstance(sh, g.Circle)]
        if isinstance(q.shape, g.Circle) and len(round_) == len(near):
            radii = [sh.radius_mm for sh in round_]
            cap.append(min(len(near), ring_capacity(q.shape.radius_mm, radii, p.er_mm, p.tol_mm)))
        else:
            cap.append(len(near))  # not round: no room bound
    return _max_flow(edges, cap)


def move_status(table: Table, uid: str, targets: list[str], bound: int, p: Params) -> dict:
    """``{"status": "optimal" | "best found", "engaged": n, "bound": k}`` for ``uid`` on
    ``table`` after its move (``bound``: :func:`engaged_bound` before it). ``engaged`` counts
    the unit's models within Engagement Range of a target now; "optimal" only when it meets
    the bound (a proof), never otherwise."""
    now = start_gaps(table, uid, targets)
    engaged = sum(1 for v in now.values() if v <= p.er_mm)
    return {"status": "optimal" if engaged >= bound else "best found", "engaged": engaged, "bound": bound}


__all__ = ["engaged_bound", "move_status", "ring_capacity", "room_to_end", "start_gaps"]
