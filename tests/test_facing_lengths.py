"""The facing a tray edge is touched on (:func:`game.core.engagement.edge_contact_lengths`,
:func:`~game.core.engagement.facing_of`) gives exactly the lengths of the clipping it replaced
(the reference below, the code before the clips were written out inline) for rectangles,
circles and polygons around a tray at any angle, touching its edges, corners or inside it:
the same floats, so the same facing (ties and the 2 x tolerance threshold included)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import engagement as E
from game.core import geometry as g
from game.core.board import Unit


def reference_lengths(unit, other, tol: float) -> dict[str, float]:
    """How much of each edge of ``unit``'s tray the shapes ``other`` touch (mm along the edge).

    A shape touches an edge where it lies within ``tol`` of the edge line, outside or on it,
    and within the edge's extent. Pure corner contact gives lengths near zero.
    """
    W, D = unit.width_mm, unit.depth_mm
    out = dict.fromkeys(E.FACINGS, 0.0)
    # each edge: (facing, normal axis in local (u, v), band test, extent axis, lo, hi)
    (ox, oy), (rx, ry), (fx, fy) = unit.front, g.right(unit.facing_deg), g.forward(unit.facing_deg)
    for s in other:
        # g.to_local of each vertex (the same arithmetic; the frame's unit vectors worked out once)
        local = [((x - ox) * rx + (y - oy) * ry, -((x - ox) * fx + (y - oy) * fy)) for x, y in E.as_poly(s)]
        us, vs = [p[0] for p in local], [p[1] for p in local]
        u0, u1, v0, v1 = min(us), max(us), min(vs), max(vs)
        for facing in E.FACINGS:
            if E._outside(facing, u0, u1, v0, v1, W, D, tol):
                continue  # every clip below would leave nothing: the length stays 0.0
            # the band's two half-planes, then the edge's extent (lo, hi) along ``axis``
            cuts: tuple[tuple[int, str, Any], ...]
            if facing == "front":    # -tol <= v <= tol, -W/2 <= u <= W/2
                cuts = ((1, "add", tol), (1, "rsub", tol), (0, "sub", -W / 2), (0, "rsub", W / 2))
            elif facing == "rear":   # D - tol <= v <= D + tol
                cuts = ((1, "sub", D - tol), (1, "rsub", D + tol), (0, "sub", -W / 2), (0, "rsub", W / 2))
            elif facing == "left":   # -W/2 - tol <= u <= -W/2 + tol, 0 <= v <= D
                cuts = ((0, "add2", (W / 2, tol)), (0, "rsub", -W / 2 + tol), (1, "sub", 0.0), (1, "rsub", D))
            else:                    # W/2 - tol <= u <= W/2 + tol
                cuts = ((0, "sub", W / 2 - tol), (0, "rsub", W / 2 + tol), (1, "sub", 0.0), (1, "rsub", D))
            axis = cuts[2][0]
            poly = local
            for ax, kind, c in cuts:
                poly = E._clip(poly, E._values(poly, ax, kind, c))
                if not poly:
                    break
            if poly:
                vals = [p[axis] for p in poly]
                out[facing] += max(vals) - min(vals)
    return out



angles = st.sampled_from([0.0, 90.0, 180.0, 270.0, 45.0, 30.0, 359.9]) | st.floats(0, 360)
where = st.tuples(st.floats(-80, 80), st.floats(-40, 120))


@settings(max_examples=300, deadline=None)
@given(angles, st.sampled_from([(4, 8), (5, 13), (1, 1), (10, 100)]), where, angles,
       st.sampled_from(["rect", "circle", "tri", "tray"]), st.sampled_from([0.5, 0.0, 2.0]))
def test_lengths_are_those_of_the_clipping_they_replace(facing, shape, at, turn, kind, tol):
    files, count = shape
    u = Unit(id="u", player=1, kind="ranked", base=(20, 20), files=files, count=count, front=(300.0, 200.0),
             facing_deg=facing)
    c = g.to_table(at[0], at[1], u.front, u.facing_deg)
    if kind == "rect":
        s = [g.rect(c, 20.0, 40.0, turn)]
    elif kind == "circle":
        s = [g.Circle(c, 12.5)]
    elif kind == "tri":
        s = [g.Poly((c, (c[0] + 30.0, c[1] + 5.0), (c[0] + 10.0, c[1] - 25.0)))]
    else:  # an enemy tray flush on an edge, the usual contact
        flush = g.to_table(at[0], -10.0 - tol / 2, u.front, u.facing_deg)
        s = [g.rect(flush, 40.0, 20.0, facing + round(turn / 90) * 90)]
    assert E.edge_contact_lengths(u, s, tol) == reference_lengths(u, s, tol)
    assert E.edge_contact_lengths(u, s + s, tol) == reference_lengths(u, s + s, tol)
