"""The rank-and-file gap kernels: numpy's (:mod:`gap_arrays_np`) and plain Python's
(:mod:`gap_arrays_py`) give the same floats, bit for bit, on varied boxes and outlines (the
live page runs the second, the desktop the first)."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engines.rank_and_file import gap_arrays_np as K_NP
from game.engines.rank_and_file import gap_arrays_py as K_PY

coord = st.floats(-800, 800, allow_nan=False).map(lambda v: round(v, 3))
size = st.sampled_from([0.0, 20.0, 25.0, 40.0, 12.5, 17.3])


@st.composite
def box(draw):
    x, y, w, h = draw(coord), draw(coord), draw(size), draw(size)
    return (x, y, x + w, y + h)


def as_list(v):
    if isinstance(v, np.ndarray):
        return as_list(v.tolist())
    if isinstance(v, (list, tuple)):
        return [as_list(x) for x in v]
    return "nan" if isinstance(v, float) and v != v else v  # (nan: a margin no answer reads)


@settings(max_examples=150, deadline=None)
@given(st.lists(box(), min_size=1, max_size=12), st.lists(box(), min_size=1, max_size=6), st.integers(1, 3),
       st.sampled_from([0.0, 0.5, 1.0, 25.0]), st.booleans())
def test_box_bounds_floors_and_settling_agree(bases, asks, runs, tol, near):
    if near:  # asks touching or near the bases: bounds of 0 and near the tolerance
        asks = [(b[0] + 20.0 + tol * k / 3, b[1], b[2] + 20.0 + tol * k / 3, b[3]) for k, b in enumerate(bases[:6])]
    cn, cp = K_NP.bbox_cols(bases), K_PY.bbox_cols(bases)
    assert as_list(cn) == as_list(cp) and K_NP.ncols(cn) == K_PY.ncols(cp)
    for a in asks:
        ln, lp = K_NP.lower(cn, a), K_PY.lower(cp, a)
        assert ln.tolist() == lp
        assert K_NP.argmin(ln) == K_PY.argmin(lp)
        assert K_NP.stable_order(ln) == K_PY.stable_order(lp)
        assert K_NP.second_least(ln) == K_PY.second_least(lp)
        assert K_NP.count_below(ln, lp[0] + 1.0) == K_PY.count_below(lp, lp[0] + 1.0)
    idx = [i % len(bases) for i in range(len(asks))]
    assert as_list(K_NP.asking(cn, idx)) == [[[v] for v in c] for c in K_PY.asking(cp, idx)]
    an, ap = K_NP.asking_boxes(asks), K_PY.asking_boxes(asks)
    gn, gp = K_NP.grid(K_NP.join([cn, cn]), an), K_PY.grid(K_PY.join([cp, cp]), ap)
    assert gn.tolist() == gp
    n2 = 2 * len(bases)
    starts = sorted({0, *[(n2 * k) // runs for k in range(1, runs)]})
    (fn, rows_n), (fp, rows_p) = K_NP.floors(gn, starts), K_PY.floors(gp, starts)
    assert rows_n == rows_p
    assert K_NP.grid_row(gn, 0, starts[-1], n2).tolist() == K_PY.grid_row(gp, 0, starts[-1], n2)
    every = list(range(len(asks)))
    member = [(every[j % 2::2] or every, j) for j in range(len(starts))]
    assert as_list(K_NP.settle(fn, member, tol, 1e-6, True)) == as_list(K_PY.settle(fp, member, tol, 1e-6, True))


@settings(max_examples=150, deadline=None)
@given(st.lists(box(), min_size=1, max_size=10), st.sampled_from([0.0, 90.0, 45.0, 13.7, 200.0]),
       st.lists(st.tuples(coord, coord), min_size=1, max_size=5), st.sampled_from([0.0, 0.5]),
       st.floats(0, 300))
def test_enemy_extents_and_search_agree(bases, facing_deg, centres, tol, length):
    polys = [[(b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])] for b in bases]
    d = (math.sin(math.radians(facing_deg)), -math.cos(math.radians(facing_deg)))
    en, ep = K_NP.extents(polys, d), K_PY.extents(polys, d)
    assert as_list(en) == as_list(ep)
    sn, sp = K_NP.sorted_by(en[3], en[4]), K_PY.sorted_by(ep[3], ep[4])
    assert as_list(sn) == as_list(sp)
    assert K_NP.far_from(en[0], en[1], en[2], centres, d, 1e-6, 2048) == K_PY.far_from(ep[0], ep[1], ep[2], centres, d, 1e-6, 2048)
    for cx, cy in centres:
        s0, a1 = cx * -d[1] + cy * d[0], cx * d[0] + cy * d[1]
        args = (0, len(bases), None, None, None, s0 - 30.0 + tol, a1 - 20.0 - tol, a1 + length + tol, a1, tol, 1e-6)
        got_n = K_NP.ahead(sn[0], *args[:2], en[4], en[5], en[6], *args[5:])
        got_p = K_PY.ahead(sp[0], *args[:2], ep[4], ep[5], ep[6], *args[5:])
        assert got_n == got_p


def test_max_abs_and_centre_boxes_agree():
    pts = [(1.5, -7.25), (-300.0, 2.0), (0.0, 0.0)]
    assert K_NP.max_abs(np.array(pts)) == K_PY.max_abs(pts) == 300.0
    assert as_list(K_NP.centre_cols(np.array(pts), (-10.0, -5.0), (10.0, 5.0))) == as_list(
        K_PY.centre_cols(pts, (-10.0, -5.0), (10.0, 5.0)))
