"""Arc-end and tangent spots for the exact Warhammer 40,000 pile-in search (:mod:`.exact`).

The exact search puts round movers on circles about the round target models (touching, half
and almost full Engagement Range). On one such circle a mover may end only on arcs: inside its
reach (a circle of the move about its start) and clear of every standing base (a circle about
each). When a unit of mixed base sizes packs tightly, a best arrangement can always be slid
along its circles until every mover either sits at an end of its own arc or touches a mover
already placed; a fixed angular grid misses those places (a 5 degree grid is 4 mm apart on a
big circle). So, for round movers and round targets:

* level 0: the ends of each mover's arcs, where its circles cross its reach circle, a
  standing base's clearance circle or the circle about a model of its closest target unit
  within which it ends closer to that unit than it started (each a hair inside);
* level k + 1: for every spot of level k, the places on the circles of every base size in the
  unit where such a base just keeps the clearance from it (two circles crossing), kept only
  when some mover of that size reaches them.

Plain geometry on centres and radii (mm); the result is a few dozen to a few hundred points per
base size, legal or not (the caller filters). Nothing depends on where the board lies.
"""
from __future__ import annotations

import math

import numpy as np

HAIR_MM = 0.02  # arc ends are taken this far inside every constraint
MAX_PER_LEVEL = 400  # new points per base size and level at most (nearest the movers first)


def circle_cuts(c1: np.ndarray, r1: float, C2: np.ndarray, R2: np.ndarray) -> np.ndarray:
    """(k, 2) points where the circle (``c1``, ``r1``) crosses each circle (``C2`` (n, 2),
    ``R2`` (n,)); circles that do not cross give none."""
    d = np.hypot(C2[:, 0] - c1[0], C2[:, 1] - c1[1])
    ok = (d > 1e-9) & (d <= r1 + R2) & (d >= np.abs(r1 - R2))
    if not ok.any():
        return np.zeros((0, 2))
    C2, R2, d = C2[ok], R2[ok], d[ok]
    a = (r1 * r1 - R2 * R2 + d * d) / (2 * d)
    h = np.sqrt(np.maximum(r1 * r1 - a * a, 0.0))
    ux, uy = (C2[:, 0] - c1[0]) / d, (C2[:, 1] - c1[1]) / d
    mx, my = c1[0] + a * ux, c1[1] + a * uy
    return np.concatenate([np.stack([mx - h * uy, my + h * ux], 1), np.stack([mx + h * uy, my - h * ux], 1)])


def arc_spots(movers: list, targets: list[tuple[np.ndarray, float, str]], standing: list[tuple[np.ndarray, float]],
              gaps_mm: tuple, budget_mm: float, clearance_mm: float, floor_mm: float,
              closer_mm: float = 0.0, levels: int = 0) -> dict[float, np.ndarray]:
    """``{mover radius: (k, 2) spots}`` for the round ``movers`` (objects with ``start`` (2,),
    ``foot.rad``, ``closest`` (a unit id) and ``start_gap`` (mm)): arc ends and tangent chains
    (see the module doc) on the circles at gaps ``gaps_mm`` about the round ``targets``
    [(centre, radius, unit id)], with ``standing`` [(centre, radius)] the bases that do not move
    (targets among them), ``budget_mm`` the move, ``clearance_mm`` between movers, ``floor_mm``
    to a standing base, ``closer_mm`` how much closer than its start gap a mover must end and
    ``levels`` how many levels of tangent spots follow the arc ends."""
    if not targets or not movers:
        return {}
    TC = np.array([t[0] for t in targets], float).reshape(-1, 2)
    TR = np.array([t[1] for t in targets], float)
    TU = np.array([t[2] for t in targets], object)
    SC = np.array([c for c, _ in standing], float).reshape(-1, 2)
    SR = np.array([r for _, r in standing], float)
    radii = sorted({float(m.foot.rad) for m in movers})
    starts = {r: np.array([m.start for m in movers if float(m.foot.rad) == r], float) for r in radii}
    gp = np.asarray(gaps_mm, float)

    def circles(r: float, near: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The target circles (centres, radii) of a mover of radius ``r`` that some point of
        ``near`` (k, 2) may reach within its move."""
        D = np.hypot(TC[None, :, 0] - near[:, None, 0], TC[None, :, 1] - near[:, None, 1]).min(0)
        use = D - TR - r - gp.max() <= budget_mm
        C = np.repeat(TC[use], len(gp), 0)
        R = (TR[use][:, None] + r + gp[None]).reshape(-1)
        return C, R

    def reachable(r: float, P: np.ndarray) -> np.ndarray:
        S = starts[r]
        D = np.hypot(P[:, None, 0] - S[None, :, 0], P[:, None, 1] - S[None, :, 1])
        return P[(D <= budget_mm).any(1)]

    out: dict[float, list[np.ndarray]] = {r: [] for r in radii}
    level: dict[float, np.ndarray] = {}
    for r in radii:
        pts = []
        C, R = circles(r, starts[r])
        for m in movers:
            if float(m.foot.rad) != r:
                continue
            s = np.asarray(m.start, float)
            near = np.hypot(SC[:, 0] - s[0], SC[:, 1] - s[1]) <= budget_mm + SR + r + floor_mm + 1.0
            mine = TU == m.closest
            cut_c = np.concatenate([s[None], SC[near], TC[mine]])
            cut_r = np.concatenate([[budget_mm - HAIR_MM], SR[near] + r + floor_mm + HAIR_MM,
                                    TR[mine] + r + m.start_gap - closer_mm - HAIR_MM])
            for c, rho in zip(C, R):
                if abs(math.hypot(c[0] - s[0], c[1] - s[1]) - rho) <= budget_mm:
                    pts.append(circle_cuts(c, float(rho), cut_c, cut_r))
        level[r] = _unique(reachable(r, np.concatenate(pts))) if pts else np.zeros((0, 2))
        out[r].append(level[r])
    for _ in range(levels):
        nxt: dict[float, list[np.ndarray]] = {r: [] for r in radii}
        for ra, Pa in level.items():
            if not len(Pa):
                continue
            for rb in radii:
                C, R = circles(rb, starts[rb])
                for c, rho in zip(C, R):
                    nxt[rb].append(circle_cuts(c, float(rho), Pa, np.full(len(Pa), ra + rb + clearance_mm + HAIR_MM)))
        level = {}
        for r in radii:
            P = reachable(r, np.concatenate(nxt[r])) if nxt[r] else np.zeros((0, 2))
            P = _unique(P)
            if len(P) > MAX_PER_LEVEL:
                S = starts[r]
                D = np.hypot(P[:, None, 0] - S[None, :, 0], P[:, None, 1] - S[None, :, 1]).min(1)
                P = P[np.lexsort((P[:, 1], P[:, 0], np.round(D, 3)))[:MAX_PER_LEVEL]]
            level[r] = P
            out[r].append(P)
    return {r: _unique(np.concatenate(v)) for r, v in out.items()}


def _unique(P: np.ndarray) -> np.ndarray:
    """``P`` without points within 0.01 mm of one before them (rounded), in a fixed order."""
    if not len(P):
        return P.reshape(0, 2)
    _, idx = np.unique(np.round(P, 2), axis=0, return_index=True)
    return P[np.sort(idx)]
