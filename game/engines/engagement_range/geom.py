"""Configuration-space geometry for Warhammer 40,000 moves (numpy + shapely, no pygame/pymunk).

A base is a *footprint*: a convex ``core`` (one point for a round base, the polygon itself
for an oval or rectangular one) grown by a radius ``rad`` (the round base's radius, 0 for a
polygon). For a moving base of footprint ``m`` and a standing base ``q`` the set of centres
where ``m`` touches ``q`` is the boundary of ``(core_q (+) -core_m)`` grown by
``rad_q + rad_m`` (a Minkowski sum), so the edge-to-edge gap of ``m`` centred at ``p`` is
exactly ``signed_dist(p, K) - R`` with ``K = core_q (+) -core_m`` and ``R = rad_q + rad_m``.
End spots at a chosen gap are points of that offset curve, found analytically; paths are
shortest polylines over a visibility graph of the grown obstacles (shapely STRtree queries,
scipy's Dijkstra). The array kernels of the gaps are in :mod:`.gap_arrays`. Lengths in table mm
(x right, y down).
"""
from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Optional, Sequence

import numpy as np
import shapely

from game.core import geometry as g
from game.engines.engagement_range.gap_arrays import Convex, gaps_of, rect_gaps, round_gaps

Point = tuple[float, float]
QUAD = 8  # shapely buffer segments per quarter circle


_FEET: dict = {}


@dataclass(frozen=True, eq=False)
class Foot:
    """Footprint of a base about its centre: ``core`` (k, 2) convex vertices (k == 1 for a
    round base) and ``rad`` (mm). Interned: equal footprints are the same object, so they
    compare and hash by identity (cheap as dictionary and cache keys)."""

    core: tuple[Point, ...]
    rad: float

    @staticmethod
    def of(shape: g.Shape) -> "Foot":
        if isinstance(shape, g.Circle):
            return Foot.make(((0.0, 0.0),), float(shape.radius_mm))
        cx, cy = shape.center
        return Foot.make(tuple((round(x - cx, 6), round(y - cy, 6)) for x, y in shape.points), 0.0)

    @staticmethod
    def make(core: tuple, rad: float) -> "Foot":
        key = (core, round(rad, 9))
        f = _FEET.get(key)
        if f is None:
            if len(_FEET) > 4096:
                _FEET.clear()
            f = _FEET[key] = Foot(core, rad)
        return f

    @cached_property
    def round(self) -> bool:
        return len(self.core) == 1

    @cached_property
    def _extent(self) -> float:
        return self.rad + max(math.hypot(x, y) for x, y in self.core)

    def extent(self) -> float:
        """Radius of the smallest circle about the centre holding the base (mm)."""
        return self._extent


def _hull(pts: np.ndarray) -> np.ndarray:
    """Convex hull (counter-clockwise in x-right/y-up terms), monotone chain."""
    pts = np.unique(np.round(pts, 9), axis=0)
    if len(pts) <= 2:
        return pts
    P = [tuple(p) for p in pts[np.lexsort((pts[:, 1], pts[:, 0]))]]

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    upper: list = []
    for p in P:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(P):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1])


@lru_cache(maxsize=256)
def _cspace_core(obstacle: Foot, mover: Foot) -> np.ndarray:
    out = _cspace_core_raw(obstacle, mover)
    out.setflags(write=False)
    return out


def cspace_core(obstacle: Foot, mover: Foot) -> np.ndarray:
    """Vertices of ``core_obstacle (+) -core_mover`` about the obstacle's centre ((k, 2))."""
    return _cspace_core(obstacle, mover)


def _cspace_core_raw(obstacle: Foot, mover: Foot) -> np.ndarray:
    a = np.asarray(obstacle.core, float)
    b = -np.asarray(mover.core, float)
    if len(a) == 1:
        return b + a[0] if len(b) > 1 else a.copy()
    if len(b) == 1:
        return a + b[0]
    return _hull((a[:, None, :] + b[None, :, :]).reshape(-1, 2))


@lru_cache(maxsize=256)
def _rect_of(obstacle: Foot, mover: Foot):
    return _rect(cspace_core(obstacle, mover))


def _rect(V: np.ndarray):
    """(centre, unit axis, half sizes) when ``V`` is a rectangle, else None."""
    if len(V) != 4:
        return None
    e = np.roll(V, -1, axis=0) - V
    L = np.hypot(e[:, 0], e[:, 1])
    if L.min() < 1e-9:
        return None
    cosines = [abs(float(e[i] @ e[(i + 1) % 4])) / (L[i] * L[(i + 1) % 4]) for i in range(4)]
    if max(cosines) > 1e-7:
        return None
    u = e[0] / L[0]
    return (tuple(V.mean(0)), (float(u[0]), float(u[1])), (float(L[0] / 2), float(L[1] / 2)))


_KINDS: dict = {}  # _obstacle_kinds' answers by (mover, obstacle footprints)


def _obstacle_kinds(mover: Foot, feet: tuple) -> tuple:
    """What a :class:`CSpace` knows of its obstacles before they are placed, kept by the mover's
    and the obstacles' footprints (interned, so the key is cheap): ``R`` (M,), round (M,) bool,
    the cores (list of (k, 2)), each core's first point (M, 2), rectangle (M,) bool, each
    rectangle's centre offset (M, 2), unit axis (M, 2) and half sizes (M, 2), and the reach
    ``ext`` (M,) of each obstacle (mm). The arrays are read-only."""
    key = (mover, feet)
    hit = _KINDS.get(key)
    if hit is not None:
        return hit
    R = np.array([f.rad + mover.rad for f in feet], float)
    pairs = [(f, mover) for f in feet]
    cores = [cspace_core(*pr) for pr in pairs]
    rnd = np.array([len(c) == 1 for c in cores], bool)
    core0 = np.array([c[0] for c in cores], float).reshape(-1, 2)
    rect = [_rect_of(*pr) for pr in pairs]
    is_rect = np.array([r is not None for r in rect], bool)
    rect_off = np.array([r[0] if r else (0.0, 0.0) for r in rect], float).reshape(-1, 2)
    rect_u = np.array([r[1] if r else (1.0, 0.0) for r in rect], float).reshape(-1, 2)
    rect_h = np.array([r[2] if r else (0.0, 0.0) for r in rect], float).reshape(-1, 2)
    ext = np.array([float(np.abs(c).max()) * 1.4143 for c in cores]).reshape(-1) + R + 1.0
    for a in (R, rnd, core0, is_rect, rect_off, rect_u, rect_h, ext):
        a.setflags(write=False)
    if len(_KINDS) > 512:
        _KINDS.clear()
    hit = _KINDS[key] = (R, rnd, cores, core0, is_rect, rect_off, rect_u, rect_h, ext)
    return hit


class CSpace:
    """The standing bases as seen by a mover of footprint ``mover`` (one obstacle per base).

    ``centers`` (M, 2), ``R`` (M,), ``ids`` and ``units`` per obstacle. :meth:`gaps` gives
    the exact edge-to-edge gaps of the mover centred at each point to every obstacle.
    """

    def __init__(self, mover: Foot, bases: Sequence[tuple[str, str, Foot, Point]]):
        self.mover = mover
        self.ids = [b[0] for b in bases]
        self.units = [b[1] for b in bases]
        self.centers = np.array([b[3] for b in bases], float).reshape(-1, 2)
        st = _obstacle_kinds(mover, tuple(b[2] for b in bases))
        self.R, self.round, self.cores, core0, self.rect, rect_off, self.rect_u, self.rect_h, self.ext = st
        # each obstacle's first core point on the table (a round obstacle's centre), computed once
        self.c0 = self.centers + core0
        self.units_arr = np.array(self.units, object)
        self._geoms: dict[tuple[float, int], np.ndarray] = {}
        # rectangles (the usual rank-and-file base) get a closed-form signed distance
        self.rect_c = rect_off + self.centers
        # (7, M): centre x, y, axis x, y, half sizes, R of each rectangle, one row per axis
        self._rect_axes = np.stack([self.rect_c[:, 0], self.rect_c[:, 1], self.rect_u[:, 0], self.rect_u[:, 1],
                                    self.rect_h[:, 0], self.rect_h[:, 1], self.R]).reshape(7, -1)
        self._rings: dict[tuple, np.ndarray] = {}
        self.ref: Optional[np.ndarray] = None  # rings start facing this point (see ring)
        self._conv: Optional[tuple] = None  # see _polygons
        self._plans: dict[bytes, list] = {}  # see _plan
        self._only = "round" if self.round.all() else "rect" if (self.rect & ~self.round).all() else ""

    def ring(self, j: int, grow: float, spacing: float) -> np.ndarray:
        """Points about ``spacing`` mm apart where the mover's gap to obstacle ``j`` is ``grow``.
        With a reference point ``ref`` set, each ring starts on the side of the obstacle facing
        it (clockwise on the page from there), so the points turn and move with the board."""
        key = (j, round(grow, 4), spacing)
        if key not in self._rings:
            V = self.cores[j] + self.centers[j]
            toward = None
            if self.ref is not None:
                c = V.mean(0)
                v = np.asarray(self.ref, float) - c
                n = float(np.hypot(*v))
                toward = v / n if n > 1e-9 else None
            self._rings[key] = offset_curve(V, self.R[j] + grow, spacing, toward)
        return self._rings[key]

    def __len__(self) -> int:
        return len(self.ids)

    def gaps(self, P: np.ndarray, cols: Optional[np.ndarray] = None) -> np.ndarray:
        """(N, M) edge-to-edge gaps (mm) of the mover centred at each of ``P`` (N, 2) to every
        obstacle, or to the obstacles ``cols`` (indices) in that order."""
        P = np.asarray(P, float).reshape(-1, 2)
        if self._only == "round":  # every obstacle round (or every one a rectangle): no sorting out
            c0, R = (self.c0, self.R) if cols is None else (self.c0[cols], self.R[cols])
            return round_gaps(P, c0, R)
        if self._only == "rect":
            return rect_gaps(P, self._rect_axes if cols is None else self._rect_axes[:, cols])
        idx = np.arange(len(self.ids)) if cols is None else np.asarray(cols, int)
        plan = self._plans.get(idx.tobytes())
        if plan is None:
            plan = self._plan(idx)
        if len(plan) == 1 and plan[0][1] is None:  # one kind of obstacle: no sorting into place
            return gaps_of(P, plan[0])
        out = np.empty((len(P), len(idx)))
        for part in plan:
            out[:, part[1]] = gaps_of(P, part)
        return out

    def _plan(self, idx: np.ndarray) -> list:
        """How :meth:`gaps` computes the columns ``idx``: one part per kind of obstacle (round,
        rectangle, polygons of one vertex count), each ``(kind, columns of the answer or None for
        all, data)``, the data taken out once (kept for the next call with the same columns)."""
        plan: list = []
        rnd = self.round[idx]
        rc = ~rnd & self.rect[idx]
        if rnd.any():
            plan.append(("round", rnd, (self.c0[idx[rnd]], self.R[idx[rnd]])))
        if rc.any():
            plan.append(("rect", rc, self._rect_axes[:, idx[rc]]))
        poly = np.nonzero(~rnd & ~self.rect[idx])[0]
        if len(poly):
            conv, row, nv = self._polygons()
            js = idx[poly]
            kk = nv[js]
            for k in np.unique(kk):
                sel = kk == k
                ks, jk = poly[sel], js[sel]
                plan.append(("poly", ks, (conv[int(k)].take(row[jk]), self.R[jk])))
        if len(plan) == 1:
            plan[0] = (plan[0][0], None, plan[0][2])
        if len(self._plans) >= 64:
            self._plans.clear()
        self._plans[idx.tobytes()] = plan
        return plan

    def _polygons(self) -> tuple[dict[int, Convex], np.ndarray, np.ndarray]:
        """The obstacles neither round nor rectangular as :class:`Convex` sets by vertex count
        (made once per CSpace), each obstacle's row in its set, and its vertex count."""
        if self._conv is None:
            M = len(self.ids)
            nv = np.array([len(c) for c in self.cores], int).reshape(-1)
            row = np.full(M, -1, int)
            groups: dict[int, list[int]] = {}
            for j in np.nonzero(~self.round & ~self.rect)[0]:
                g_ = groups.setdefault(int(nv[j]), [])
                row[j] = len(g_)
                g_.append(int(j))
            conv = {k: Convex(np.stack([self.cores[j] + self.centers[j] for j in js])) for k, js in groups.items()}
            self._conv = (conv, row, nv)
        return self._conv

    def geoms(self, grow: float, quad: int = QUAD) -> np.ndarray:
        """shapely polygons of every obstacle grown to gap ``grow`` (mm; cached per value)."""
        key = (round(grow, 4), quad)
        if key not in self._geoms:
            M = len(self.ids)
            base = np.empty(M, dtype=object)
            if self.round.any():
                base[self.round] = shapely.points(self.c0[self.round])
            groups: dict[int, list[int]] = {}
            for j in np.nonzero(~self.round)[0].tolist():
                groups.setdefault(len(self.cores[j]), []).append(j)
            for js in groups.values():
                base[js] = shapely.polygons(np.stack([self.cores[j] + self.centers[j] for j in js]))
            r = self.R + grow
            if quad == 0:  # corners only: as few vertices as keep every chord outside the slack
                q = np.where(r * (1 - math.cos(math.pi / 4)) < grow + 0.05, 1, QUAD)
            else:
                q = np.full(M, quad)
            out = base.copy()
            for qv in np.unique(q[r > 0]).tolist():
                sel = (r > 0) & (q == qv)
                out[sel] = shapely.buffer(base[sel], r[sel], quad_segs=int(qv))
            self._geoms[key] = out
        return self._geoms[key]


_CURVES: dict = {}  # polygon offset curves about their first vertex (see offset_curve)


def offset_curve(V: np.ndarray, R: float, spacing: float, toward: Optional[np.ndarray] = None) -> np.ndarray:
    """Points about every ``spacing`` mm along the curve at distance ``R`` outside the convex
    polygon or point ``V`` (the centres where a mover's gap to that base is a fixed value).
    ``toward`` (a unit vector): the curve starts at its point furthest that way."""
    if len(V) == 1:
        n = max(8, int(math.ceil(2 * math.pi * R / spacing)))
        a0 = 0.0 if toward is None else math.atan2(toward[1], toward[0])
        a = a0 + np.arange(n) * (2 * math.pi / n)
        return np.stack([V[0, 0] + R * np.cos(a), V[0, 1] + R * np.sin(a)], 1)
    # computed about the first vertex and kept: the same base shape at another place (a drag)
    # reuses it, and a cold start computes it the same way, so results never depend on the cache
    V0 = V[0].copy()
    Vr = np.ascontiguousarray(V - V0)
    key = (Vr.tobytes(), round(float(R), 9), float(spacing))
    rel = _CURVES.get(key)
    if rel is None:
        if len(_CURVES) > 2048:
            _CURVES.clear()
        rel = _CURVES[key] = _poly_offset_curve(Vr, R, spacing)
        rel.setflags(write=False)
    out = rel + V0
    if toward is not None and len(out):
        out = np.roll(out, -int(np.argmax(np.round(out @ np.asarray(toward, float), 6))), axis=0)
    return out


def _poly_offset_curve(V: np.ndarray, R: float, spacing: float) -> np.ndarray:
    A, B = V, np.roll(V, -1, axis=0)
    area = np.sum(A[:, 0] * B[:, 1] - B[:, 0] * A[:, 1])
    E = B - A
    L = np.hypot(E[:, 0], E[:, 1])
    nrm = np.stack([E[:, 1], -E[:, 0]], 1) / np.maximum(L, 1e-12)[:, None]
    if area < 0:
        nrm = -nrm
    pts = []
    k = len(V)
    for i in range(k):
        n0, n1 = nrm[i - 1], nrm[i]
        a0, a1 = math.atan2(n0[1], n0[0]), math.atan2(n1[1], n1[0])
        da = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi
        m = int(abs(da) * R / spacing)
        for s in range(m + 1):
            a = a0 + da * s / max(m, 1)
            pts.append((A[i, 0] + R * math.cos(a), A[i, 1] + R * math.sin(a)))
        m = max(1, int(L[i] / spacing))
        for s in range(1, m):
            t = s / m
            pts.append((A[i, 0] + E[i, 0] * t + R * n1[0], A[i, 1] + E[i, 1] * t + R * n1[1]))
    return np.array(pts, float)


# ----- paths -----------------------------------------------------------------------------------------
class PathFinder:
    """Shortest collision-free polylines for one mover footprint among standing obstacles.

    Obstacles are the CSpace obstacles plus any extra discs/polygons given per query (the
    ends of models already moved, the starts of models still to move). A segment is clear
    when it stays outside every obstacle grown to ``-slack`` (the mover may graze a base
    by less than ``slack`` mm in the drawn path, never at its end); polyline corners lie on
    obstacles grown by ``corner`` mm.
    """

    def __init__(self, slack: float = 0.05, corner: float = 0.35):
        self.slack = slack
        self.corner = corner

    def path(self, start: Point, goal: Point, blockers: list, corners: list, max_len: float) -> Optional[list[Point]]:
        """Shortest path ``start`` -> ``goal`` no longer than ``max_len`` (mm), or None.

        ``blockers``: shapely geometries the path may not cross (already shrunk by the slack);
        ``corners``: shapely geometries whose exterior vertices are candidate corners.
        """
        s, t = np.asarray(start, float), np.asarray(goal, float)
        direct = float(np.hypot(*(t - s)))
        if direct > max_len + 1e-9:
            return None
        tree = shapely.STRtree(blockers) if blockers else None
        if tree is None or not len(tree.query(shapely.LineString([start, goal]), predicate="intersects")):
            return [(float(start[0]), float(start[1])), (float(goal[0]), float(goal[1]))]
        # every corner's outline at once (points have none), each ring's closing point dropped
        geoms = np.empty(len(corners), dtype=object)
        geoms[:] = corners
        coords, ring_of = shapely.get_coordinates(shapely.get_exterior_ring(geoms), return_index=True)
        c = coords[np.r_[ring_of[1:] == ring_of[:-1], False]] if len(coords) else coords
        c = c[np.hypot(*(c - s).T) + np.hypot(*(c - t).T) <= max_len]
        if not len(c):
            return None
        N = np.vstack([s, t, c])
        # drop corners inside some blocker (they can never be visited)
        pts = shapely.points(N[2:])
        inside = np.zeros(len(N), bool)
        if len(pts):
            hit = tree.query(pts, predicate="intersects")
            inside[2 + np.unique(hit[0])] = True
        keep = np.nonzero(~inside)[0]
        N = N[keep]
        n = len(N)
        ii, jj = np.triu_indices(n, 1)
        dd = np.hypot(*(N[ii] - N[jj]).T)
        ds, dt = np.hypot(*(N - s).T), np.hypot(*(N - t).T)
        ok = (np.minimum(ds[ii] + dd + dt[jj], ds[jj] + dd + dt[ii]) <= max_len + 1e-9) & (dd > 1e-9)
        ii, jj, dd = ii[ok], jj[ok], dd[ok]
        if not len(ii):
            return None
        segs = shapely.linestrings(np.stack([N[ii], N[jj]], 1))
        hit = tree.query(segs, predicate="intersects")
        blocked = np.zeros(len(ii), bool)
        blocked[np.unique(hit[0])] = True
        ii, jj, dd = ii[~blocked], jj[~blocked], dd[~blocked]
        if len(ii) <= 4000:  # a small graph: plain Dijkstra beats building a sparse matrix
            dist, pred = _dijkstra_small(n, ii.tolist(), jj.tolist(), dd.tolist())
        else:
            from scipy.sparse import csr_matrix  # imported only for a big graph: scipy.sparse
            from scipy.sparse.csgraph import dijkstra  # costs ~0.2 s of CPU to import

            G = csr_matrix((np.r_[dd, dd], (np.r_[ii, jj], np.r_[jj, ii])), shape=(n, n))
            dist, pred = dijkstra(G, directed=False, indices=0, return_predecessors=True)
        if not np.isfinite(dist[1]) or dist[1] > max_len + 1e-9:
            return None
        out, k = [], 1
        while k >= 0:
            out.append((float(N[k, 0]), float(N[k, 1])))
            k = pred[k]
        return out[::-1]


def _dijkstra_small(n: int, ii: list, jj: list, dd: list) -> tuple[list, list]:
    """Shortest distances from node 0 and predecessors (-9999 for none), undirected edges."""
    adj: list[list] = [[] for _ in range(n)]
    for a, b, d in zip(ii, jj, dd):
        adj[a].append((b, d))
        adj[b].append((a, d))
    dist = [math.inf] * n
    pred = [-9999] * n
    dist[0] = 0.0
    heap = [(0.0, 0)]
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        if u == 1:
            break
        for v, w in adj[u]:
            nd = d + w
            if nd < dist[v]:
                dist[v] = nd
                pred[v] = u
                heapq.heappush(heap, (nd, v))
    return dist, pred


def seg_clear_of_discs(a: np.ndarray, b: np.ndarray, centers: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """For discs (M,), True where the segment ``a``-``b`` stays at least the radius away."""
    if not len(centers):
        return np.zeros(0, bool)
    ab = b - a
    L2 = float(ab @ ab)
    w = centers - a
    t = np.clip((w @ ab) / L2, 0, 1) if L2 > 0 else np.zeros(len(centers))
    d = np.hypot(*(w - t[:, None] * ab).T)
    return d >= radii


def polyline_length(points) -> float:
    """Length of a polyline (mm)."""
    return sum(math.dist(p, q) for p, q in zip(points, points[1:]))
