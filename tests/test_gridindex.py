"""The label grid index finds every stored box overlapping a query (hypothesis, bounded), and
the label placer scores a spot exactly as summing over every box would."""
from hypothesis import given, settings
from hypothesis import strategies as st

from game.render.canvas import overlap_area
from game.render.gridindex import GridIndex
from game.render.placer import Placer

box = st.tuples(st.floats(-500, 3000), st.floats(-500, 3000), st.floats(0, 400), st.floats(0, 400)).map(
    lambda t: (t[0], t[1], t[0] + t[2], t[1] + t[3]))


@settings(max_examples=60, deadline=None)
@given(st.lists(box, max_size=40), st.lists(box, min_size=1, max_size=10), st.sampled_from([16.0, 64.0, 500.0]))
def test_near_holds_every_overlapping_box(stored, queries, cell):
    ix = GridIndex(stored, cell_px=cell)
    for q in queries:
        near = ix.near(q)
        assert all(b in near for b in stored if overlap_area(q, b) > 0)


@settings(max_examples=40, deadline=None)
@given(st.lists(box, max_size=20), st.lists(box, max_size=20), st.lists(box, max_size=20), box)
def test_placer_score_equals_the_plain_sum(taken, soft, avoid, q):
    p = Placer((0.0, 0.0, 2000.0, 2000.0))
    for b in taken:
        p.add(b)
    for b in soft:
        p.add(b, soft=True)
    want = (sum(overlap_area(q, b) for b in taken) * 1e4 + sum(overlap_area(q, b) for b in soft + avoid)
            + p.off_area(q) * 1e6)
    assert abs(p.score(q, avoid) - want) <= 1e-6 * max(1.0, want)
