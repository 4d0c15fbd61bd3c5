"""Which unit a label's spot reads as (game.render.label_near.BaseIndex): the indexed answer is
the one measuring every drawn base gives (hypothesis over varied boxes, on a coarse grid so
ties are common), and a spot is measured only against the bases near it, so a figure of many
units costs work in proportion to its labels, not to labels times bases (1,000 units of 20:
minutes of CPU before)."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from game.render import label_near
from game.render.label_near import BaseIndex


def brute(bases: dict, bx, uid: str, own) -> bool:
    """The spot, or its centre, nearer another unit's base than every one of its own (every
    base measured)."""
    def dist(a, b) -> float:
        dx = max(0.0, a[0] - b[2], b[0] - a[2])
        dy = max(0.0, a[1] - b[3], b[1] - a[3])
        return math.hypot(dx, dy)
    mine = bases.get(uid) or [own]
    cx, cy = (bx[0] + bx[2]) / 2, (bx[1] + bx[3]) / 2
    for pr in (bx, (cx, cy, cx, cy)):
        d_own = min(dist(pr, m) for m in mine)
        if any(dist(pr, ob) < d_own for o, obs in bases.items() if o != uid for ob in obs):
            return True
    return False


coord = st.integers(0, 40).map(float)
box = st.tuples(coord, coord, st.integers(0, 6).map(float), st.integers(0, 6).map(float)).map(
    lambda t: (t[0], t[1], t[0] + t[2], t[1] + t[3]))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from("abcd"), st.lists(box, min_size=1, max_size=6), min_size=1, max_size=4),
       st.lists(box, min_size=1, max_size=12), st.sampled_from("abce"), box)
def test_indexed_answer_equals_measuring_every_base(bases, spots, uid, own):
    got = BaseIndex(bases).nearer_other(spots, uid, own)
    assert got == [brute(bases, s, uid, own) for s in spots]


def test_a_spot_is_measured_only_against_the_bases_near_it(monkeypatch):
    """400 small units of 20 bases in a grid 100 px apart: each unit's spots, all within 30 px
    of it, are measured against its own bases and its neighbours' only (a few hundred), never
    the 8,000 of the table."""
    bases = {}
    for i in range(400):
        x0, y0 = (i % 20) * 100.0, (i // 20) * 100.0
        bases[f"u{i}"] = [(x0 + 4 * k, y0 + 4 * r, x0 + 4 * k + 3, y0 + 4 * r + 3) for r in range(4) for k in range(5)]
    index = BaseIndex(bases)
    measured: list[int] = []
    real = label_near.min_dists

    def counting(probes, boxes):
        measured.append(len(boxes))
        return real(probes, boxes)

    monkeypatch.setattr(label_near, "min_dists", counting)
    for i in (0, 57, 399):
        x0, y0 = (i % 20) * 100.0, (i // 20) * 100.0
        spots = [(x0 - 25 + dx, y0 - 25 + dy, x0 - 5 + dx, y0 - 15 + dy) for dx in (0, 30) for dy in (0, 40)]
        assert index.nearer_other(spots, f"u{i}", bases[f"u{i}"][0]) == \
            [brute(bases, s, f"u{i}", bases[f"u{i}"][0]) for s in spots]
    assert measured and max(measured) <= 200, measured
