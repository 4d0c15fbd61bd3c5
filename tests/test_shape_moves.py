"""A base outline moves one way (``Shape.moved`` / ``Shape.translated``): the same size and
turn, its centre where it was sent. The 40k table, the drawn models and the ghosts all use it."""
from __future__ import annotations

import math

from hypothesis import given, strategies as st

from game.core import geometry as g

coord = st.floats(-5000, 5000, allow_nan=False)
shapes = st.one_of(
    st.builds(lambda x, y, r: g.Circle((x, y), r), coord, coord, st.floats(1, 100)),
    st.builds(lambda x, y, w, d, f: g.rect((x, y), w, d, f), coord, coord, st.floats(1, 200), st.floats(1, 200),
              st.floats(0, 360)),
    st.builds(lambda x, y, w, d, f: g.oval((x, y), w, d, f, sides=12), coord, coord, st.floats(10, 170),
              st.floats(10, 170), st.floats(0, 360)))


def _close(a, b, tol=1e-6):
    return math.isclose(a[0], b[0], abs_tol=tol) and math.isclose(a[1], b[1], abs_tol=tol)


@given(shapes, coord, coord)
def test_moved_puts_the_centre_there_and_keeps_size_and_turn(s, x, y):
    m = s.moved((x, y))
    assert type(m) is type(s) and _close(m.center, (x, y))
    if isinstance(s, g.Poly):
        dx, dy = x - s.center[0], y - s.center[1]
        assert all(_close(p, (q[0] + dx, q[1] + dy)) for p, q in zip(m.points, s.points))
    else:
        assert m.radius_mm == s.radius_mm
    assert abs(g.gap_mm(m, s.moved((x + 1000.0, y))) - g.gap_mm(s, s.moved((s.center[0] + 1000.0, s.center[1])))) < 1e-6


@given(shapes, coord, coord)
def test_translated_moves_by_the_offset(s, dx, dy):
    t = s.translated(dx, dy)
    assert _close(t.center, (s.center[0] + dx, s.center[1] + dy))
    w0, w1 = s.bbox(), t.bbox()
    assert math.isclose(w0[2] - w0[0], w1[2] - w1[0], abs_tol=1e-6)


def test_the_40k_table_and_the_drawn_models_move_shapes_through_geometry():
    from game.engines.engagement_range.table import moved_shape
    from game.render.drawn import _moved

    r = g.rect((10.0, 20.0), 25, 25, 30)
    assert moved_shape(r, (100, 50)) == r.moved((100.0, 50.0))
    assert _moved(r, (10.0, 20.0), (15.0, 27.0)) == r.translated(5.0, 7.0)
