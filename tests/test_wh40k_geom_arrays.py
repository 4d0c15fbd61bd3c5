"""The 40k configuration-space geometry on per-axis arrays (game/engines/engagement_range/geom.py)
gives bit for bit what the plain (N, M, k, 2) formulas give: signed distances to convex polygons
(:class:`Convex`), the gaps of a mover to round, rectangular and other bases (all one kind or
mixed, all columns or some), the obstacles grown for the path search, and the path finder's
corners read in one call. A speed-up that changed a single bit could move a pile-in end."""
from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import geometry as g
from game.engines.engagement_range.gap_arrays import Convex, signed_dist_many
from game.engines.engagement_range.geom import QUAD, CSpace, Foot, PathFinder


def _ref_signed_dist_many(P: np.ndarray, V: np.ndarray) -> np.ndarray:
    """The (N, M, k, 2) formula the per-axis one replaces."""
    A = V
    B = np.roll(V, -1, axis=1)
    E = B - A
    L2 = np.maximum((E ** 2).sum(2), 1e-18)
    W = P[:, None, None, :] - A[None]
    t = np.clip((W * E[None]).sum(3) / L2[None], 0.0, 1.0)
    D = W - t[..., None] * E[None]
    dmin = np.sqrt((D ** 2).sum(3)).min(2)
    area = (A[..., 0] * B[..., 1] - B[..., 0] * A[..., 1]).sum(1)
    nrm = np.stack([E[..., 1], -E[..., 0]], 2) / np.sqrt(L2)[..., None]
    nrm = np.where((area < 0)[:, None, None], -nrm, nrm)
    side = (W * nrm[None]).sum(3)
    inside = (side <= 0).all(2)
    return np.where(inside, side.max(2), dmin)


def _ref_gaps(cs: CSpace, P: np.ndarray, cols) -> np.ndarray:
    """Gaps one obstacle at a time with the (N, M, 2) and (N, M, k, 2) formulas."""
    out = np.empty((len(P), len(cols)))
    for n, j in enumerate(cols):
        if cs.round[j]:
            c = cs.c0[j]
            out[:, n] = np.hypot(P[:, 0] - c[0], P[:, 1] - c[1]) - cs.R[j]
        elif cs.rect[j]:
            Q = P[:, None, :] - cs.rect_c[[j]][None]
            u = cs.rect_u[[j]]
            x = Q[..., 0] * u[None, :, 0] + Q[..., 1] * u[None, :, 1]
            y = -Q[..., 0] * u[None, :, 1] + Q[..., 1] * u[None, :, 0]
            dx = np.abs(x) - cs.rect_h[[j]][None, :, 0]
            dy = np.abs(y) - cs.rect_h[[j]][None, :, 1]
            sd = np.hypot(np.maximum(dx, 0), np.maximum(dy, 0)) + np.minimum(np.maximum(dx, dy), 0)
            out[:, n] = (sd - cs.R[j])[:, 0]
        else:
            V = (cs.cores[j] + cs.centers[j])[None]
            out[:, n] = _ref_signed_dist_many(P, V)[:, 0] - cs.R[j]
    return out


def _shape(kind: int, c, turn: float) -> g.Shape:
    if kind == 0:
        return g.Circle(c, 12.5 + 3.5 * (turn % 3))
    if kind == 1:
        return g.rect(c, 20.0, 40.0, turn)
    return g.oval(c, 90.0, 52.0, turn)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10 ** 6), only=st.sampled_from([None, 0, 1, 2]), mover=st.integers(0, 2))
def test_gaps_match_the_plain_formulas_bit_for_bit(seed, only, mover):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 14))
    shapes = [_shape(int(rng.integers(0, 3)) if only is None else only, tuple(rng.uniform(0, 400, 2)),
                     float(rng.uniform(0, 360))) for _ in range(n)]
    cs = CSpace(Foot.of(_shape(mover, (0.0, 0.0), 30.0)), [(f"m{i}", "u", Foot.of(s), s.center)
                                                           for i, s in enumerate(shapes)])
    P = rng.uniform(-30, 430, (int(rng.integers(1, 40)), 2))
    cols = np.sort(rng.choice(n, int(rng.integers(1, n + 1)), replace=False))
    assert np.array_equal(cs.gaps(P), _ref_gaps(cs, P, range(n)))
    assert np.array_equal(cs.gaps(P, cols), _ref_gaps(cs, P, cols))
    # and, apart, they are the edge-to-edge gaps of the bases (footprints are kept to 1e-6 mm)
    for i in range(min(3, len(P))):
        moved = _shape(mover, tuple(P[i]), 30.0)
        for j in range(n):
            want = g.gap_mm(moved, shapes[j])
            if want > 1e-3:
                assert abs(cs.gaps(P[i:i + 1])[0, j] - want) < 1e-5


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10 ** 6))
def test_convex_signed_distance_is_the_plain_formula(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.choice([3, 4, 5, 8, 32]))
    a = np.sort(rng.uniform(0, 2 * math.pi, k))
    if seed % 2:
        a = a[::-1]  # either winding
    V = np.stack([np.stack([rng.uniform(5, 40) * np.cos(a), rng.uniform(5, 40) * np.sin(a)], 1) + rng.uniform(-300, 300, 2)
                  for _ in range(int(rng.integers(1, 5)))])
    P = np.vstack([rng.uniform(-350, 350, (int(rng.integers(1, 50)), 2)), V[0], V[0].mean(0)[None]])
    assert np.array_equal(Convex(V).signed_dist(P), _ref_signed_dist_many(P, V))
    assert np.array_equal(signed_dist_many(P, V), _ref_signed_dist_many(P, V))
    rows = np.array([len(V) - 1, 0])
    assert np.array_equal(Convex(V).take(rows).signed_dist(P), _ref_signed_dist_many(P, V[rows]))


def test_grown_obstacles_are_the_ones_grown_one_by_one():
    shapes = [_shape(i % 3, (60.0 * i, 40.0 + 7 * i), 17.0 * i) for i in range(9)]
    for mover in range(3):
        cs = CSpace(Foot.of(_shape(mover, (0.0, 0.0), 10.0)), [(f"m{i}", "u", Foot.of(s), s.center)
                                                               for i, s in enumerate(shapes)])
        for grow in (-0.05, 0.35, 3.0):
            for quad in (QUAD, 0):
                got = cs.geoms(grow, quad)
                for j in range(len(shapes)):
                    V = cs.cores[j] + cs.centers[j]
                    r = cs.R[j] + grow
                    base = shapely.Point(V[0]) if len(V) == 1 else shapely.Polygon(V)
                    q = quad or (1 if r * (1 - math.cos(math.pi / 4)) < grow + 0.05 else QUAD)
                    want = base.buffer(r, quad_segs=q) if r > 0 else base
                    assert got[j].wkb == want.wkb


def test_path_corners_skip_points_and_close_rings():
    """Corners come from every polygon's outline (its closing point once) and none from a
    point; the path bends round the blocker at one of them."""
    block = shapely.Point(50.0, 0.0).buffer(10.0, quad_segs=2)
    corner = shapely.Point(50.0, 0.0).buffer(10.4, quad_segs=2)
    path = PathFinder().path((0.0, 0.0), (100.0, 0.0), [block], [shapely.Point(500.0, 500.0), corner], 140.0)
    assert path is not None and len(path) == 3
    assert path[1] in {tuple(c) for c in shapely.get_coordinates(corner.exterior)[:-1].tolist()}
    assert PathFinder().path((0.0, 0.0), (100.0, 0.0), [block], [shapely.Point(500.0, 500.0)], 140.0) is None
