"""The label placer's all-at-once scoring (:meth:`Placer._best_index`) looks only at the stored
boxes near the candidates (grid look-ups) and still picks what scoring every candidate against
every box, one by one, picks (hypothesis)."""
from hypothesis import given, settings
from hypothesis import strategies as st

from game.render.placer import VECTOR_FROM, Placer

box = st.tuples(st.floats(-300, 2300), st.floats(-300, 2300), st.floats(1, 300), st.floats(1, 300)).map(
    lambda t: (t[0], t[1], t[0] + t[2], t[1] + t[3]))


def plain_best(p: Placer, boxes, avoid):
    scores = [p.score(b, avoid) for b in boxes]
    for b, sc in zip(boxes, scores):
        if sc <= 0:
            return b
    i = min(range(len(scores)), key=lambda k: (scores[k], k))
    return p.inside(boxes[i])


@settings(max_examples=120, deadline=None)
@given(st.lists(box, max_size=60), st.lists(box, max_size=60), st.lists(box, max_size=40),
       st.lists(box, min_size=2 * VECTOR_FROM + 1, max_size=40))
def test_the_pick_among_near_boxes_is_the_pick_among_all(taken, soft, avoid, cands):
    p = Placer((0.0, 0.0, 2000.0, 2000.0))
    for b in taken:
        p.add(b)
    for b in soft:
        p.add(b, soft=True)
    assert p.best(cands, avoid) == plain_best(p, cands, avoid)
