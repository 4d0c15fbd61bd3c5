"""End spots for Warhammer 40,000 pile-in moves, packed analytically (numpy only).

The curve where a mover of one base size just touches a standing base is that base's
configuration-space outline grown by the clearance (:func:`.wh40k_geom.offset_curve`); the
points of those curves that lie outside every other grown base form the outline of their
union. Spots are packed greedily along those outlines and along the outer edge of
Engagement Range around the targets, then again around the spots already packed (a second
and third layer), so the spots of one packing never overlap each other or a standing base.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from game.engines.engagement_range.gap_arrays import signed_dist, signed_dist_many
from game.engines.engagement_range.geom import CSpace, Foot, _rect, cspace_core, offset_curve

SPACING_MM = 2.0  # distance between the sampled points of a curve


@dataclass
class Reach:
    """Which sampled points each mover could end on: ``ok`` (movers, points) and the points."""

    P: np.ndarray
    ok: np.ndarray
    arc: np.ndarray


def ring_points(cs: CSpace, cols, grow: float, spacing: float = SPACING_MM) -> tuple[np.ndarray, np.ndarray]:
    """Points about ``spacing`` apart on the outlines of obstacles ``cols`` grown to gap
    ``grow``, and a sort key running along each outline."""
    pts, key = [], []
    for j in cols:
        P = cs.ring(j, grow, spacing)
        pts.append(P)
        key.append(j * 1e6 + np.arange(len(P)))
    if not pts:
        return np.zeros((0, 2)), np.zeros(0)
    return np.concatenate(pts), np.concatenate(key)


class Packer:
    """Greedy packings of mover-sized spots (see the module doc) for one base size.

    ``legal(P) -> (movers, points)`` bool: which movers may end at which of the points (move
    limit, closer, engaged, free of standing bases, on the table).
    """

    def __init__(self, foot: Foot, cs: CSpace, cols, tcols, starts: np.ndarray, budget: float, *,
                 clearance: float, er: float, legal):
        self.foot, self.cs, self.legal = foot, cs, legal
        self.clr = clearance
        self.sep = 2 * foot.rad + clearance if foot.round else 0.0  # centre spacing of round feet (else unused)
        self.self_core = cspace_core(foot, foot)
        self._rect = _rect(self.self_core)
        self.starts, self.budget = starts, budget
        P0, k0 = ring_points(cs, cols, clearance)
        P1, k1 = ring_points(cs, tcols, er - 0.4)
        # for each mover, the engaging spot straight towards each of its closest round targets
        # (the only spot a model at the edge of its reach can use)
        near: list[np.ndarray] = []
        tc = np.asarray(tcols, int)
        GS = cs.gaps(starts, tc) if len(tc) else np.zeros((len(starts), 0))  # row by row as one start at a time
        for s, G in zip(starts, GS):
            for j in tc[np.argsort(G)[:3]]:
                if not cs.round[j]:
                    continue
                c = cs.centers[j] + cs.cores[j][0]
                d = float(np.hypot(*(s - c)))
                if d > 1e-9:
                    near.append(c + (s - c) * (cs.R[j] + er - 0.4) / d)
        P2 = np.array(near).reshape(-1, 2)
        k2 = 3e12 + np.arange(len(P2))
        self.base = self._reach(np.concatenate([P0, P1, P2]), np.concatenate([k0, k1 + 1e12, k2]))

    def _reach(self, P: np.ndarray, key: np.ndarray) -> Reach:
        if not len(P):
            return Reach(P, np.zeros((len(self.starts), 0), bool), key)
        D = P[None, :, 0] - self.starts[:, None, 0]
        np.hypot(D, P[None, :, 1] - self.starts[:, None, 1], out=D)
        near = (D <= self.budget).any(0)
        P, key = P[near], key[near]
        ok = self.legal(P) if len(P) else np.zeros((len(self.starts), 0), bool)
        use = ok.any(0)
        return Reach(P[use], ok[:, use], key[use])

    def packing(self, mode: str, phase: int = 0, layers: int = 3) -> np.ndarray:
        """One packing: ``mode`` ``scarce`` (points only the most cramped movers reach come
        first) or ``curve`` (along each outline, starting ``phase`` points in)."""
        spots = np.zeros((0, 2))
        cand = self.base
        for _ in range(layers):
            if not len(cand.P):
                break
            free = self._free(cand.P, spots)
            R = Reach(cand.P[free], cand.ok[:, free], cand.arc[free])
            new = self._greedy(R, mode, phase, spots)
            if not len(new):
                break
            spots = np.vstack([spots, new])
            more_P, more_k = [], []
            for i, s in enumerate(new):
                if self.foot.round:
                    P = offset_curve(s[None], self.sep, SPACING_MM)
                else:
                    P = offset_curve(self.self_core + s, self.clr, SPACING_MM)
                more_P.append(P)
                more_k.append(2e12 + (len(spots) + i) * 1e6 + np.arange(len(P)))
            extra = self._reach(np.concatenate(more_P), np.concatenate(more_k))
            cand = Reach(np.concatenate([R.P, extra.P]), np.concatenate([R.ok, extra.ok], 1),
                         np.concatenate([R.arc, extra.arc]))
        return spots

    def _free(self, P: np.ndarray, spots: np.ndarray) -> np.ndarray:
        if not len(spots) or not len(P):
            return np.ones(len(P), bool)
        if self.foot.round:
            D = np.hypot(P[:, None, 0] - spots[None, :, 0], P[:, None, 1] - spots[None, :, 1])
            return (D >= self.sep - 1e-9).all(1)
        V = np.stack([self.self_core + s for s in spots])
        return np.asarray((signed_dist_many(P, V) >= self.clr - 1e-9).all(1))

    def _ok_pair(self, a: np.ndarray, b: np.ndarray) -> bool:
        if self.foot.round:
            return math.hypot(a[0] - b[0], a[1] - b[1]) >= self.sep - 1e-9
        if self._rect is not None:
            (cx, cy), (ux, uy), (hx, hy) = self._rect
            qx, qy = a[0] - b[0] - cx, a[1] - b[1] - cy
            dx = abs(qx * ux + qy * uy) - hx
            dy = abs(-qx * uy + qy * ux) - hy
            d = math.hypot(max(dx, 0.0), max(dy, 0.0)) + min(max(dx, dy), 0.0)
            return d >= self.clr - 1e-9
        return bool(signed_dist(a[None], self.self_core + b)[0] >= self.clr - 1e-9)

    def _greedy(self, R: Reach, mode: str, phase: int, spots: np.ndarray) -> np.ndarray:
        if not len(R.P):
            return np.zeros((0, 2))
        if mode == "scarce":
            room = R.ok.sum(1)
            size = np.where(R.ok, room[:, None], 10 ** 9).min(0)
            order = np.lexsort((R.arc, R.ok.sum(0), size))
        else:
            order = np.argsort(R.arc, kind="stable")
            order = np.roll(order, -phase) if phase else order
        cell = (self.sep or 2 * self.foot.extent() + self.clr)
        grid: dict[tuple[int, int], list[int]] = {}
        acc: list[int] = []
        pts = R.P.tolist()
        rnd = bool(self.foot.round)
        sep2 = (self.sep - 1e-9) ** 2 if rnd else 0.0
        for i in order.tolist():
            x, y = pts[i]
            cx, cy = int(math.floor(x / cell)), int(math.floor(y / cell))
            clash = False
            for key in ((cx - 1, cy - 1), (cx, cy - 1), (cx + 1, cy - 1), (cx - 1, cy), (cx, cy), (cx + 1, cy),
                        (cx - 1, cy + 1), (cx, cy + 1), (cx + 1, cy + 1)):
                for j in grid.get(key, ()):
                    qx, qy = pts[j]
                    if rnd:
                        if (x - qx) ** 2 + (y - qy) ** 2 < sep2:
                            clash = True
                            break
                    elif not self._ok_pair(R.P[i], R.P[j]):
                        clash = True
                        break
                if clash:
                    break
            if not clash:
                acc.append(i)
                grid.setdefault((cx, cy), []).append(i)
        return R.P[acc]
