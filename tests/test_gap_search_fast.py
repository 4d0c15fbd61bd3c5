"""The t9a gap search on entangled boards (issue 26, item 6): the shortest extension reaching an
enemy base is found in closed form (:func:`first_reach`) and the 16 halvings of the search are
replayed on it, so the search ends exactly where the geometric bisection did; blocking shapes
come from a grid. Same links, a fraction of the time (numbers: bench/ and the issue note)."""
from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from game.core import geometry as g
from game.engines.rank_and_file import gaps


def _bisect(pred, L):
    lo, hi = 0.0, L
    for _ in range(16):
        mid = (lo + hi) / 2
        if pred(mid):
            hi = mid
        else:
            lo = mid
    return hi


def _extended(pts, d, length):
    moved = [(p[0] + d[0] * length, p[1] + d[1] * length) for p in pts]
    return g.Poly(tuple(g.convex_hull(pts + moved)))


@settings(max_examples=300, deadline=None)
@given(st.floats(0, 359), st.floats(-80, 80), st.floats(-80, 80), st.floats(0, 359), st.floats(0, 359),
       st.sampled_from([0.1, 0.5, 1.0]), st.booleans())
def test_first_reach_replays_the_bisection(face, qx, qy, qface, mface, tol, circle):
    pts = list(g.rect((0.0, 0.0), 20, 20, mface).points)
    d = (math.sin(math.radians(face)), -math.cos(math.radians(face)))
    other = g.Circle((qx, qy), 12.5) if circle else g.rect((qx, qy), 25, 20, qface)
    L = 200.0
    if g.gap_mm(_extended(pts, d, L), other) > tol or g.gap_mm(g.Poly(tuple(pts)), other) <= tol:
        return  # the search runs only on bases the full extension reaches and that do not touch yet
    t = gaps.first_reach(pts, d, other, tol)
    want = _bisect(lambda s: g.gap_mm(_extended(pts, d, s), other) <= tol, L)
    got = _bisect(lambda s: s >= t, L)
    assert abs(got - want) < 1e-9 or abs(t - want) < L / 2 ** 15
