"""Combat slots: the nearest-first fill (heap over per-place nearest lists) makes exactly the
choices of sorting every (model, place) pair, which it replaced (20,000 models: 1.1 GB)."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core import geometry as g
from game.core.unit_models import Model
from game.engines.combat_slots.fill import fill_nearest_first


def brute(own, places, want, pre=0):
    cands = []
    for e_i, em_i, place, at in places:
        for mi, m in enumerate(own):
            cands.append((round(g.dist(m.center, at), 6), mi, e_i, em_i, place, m.id))
    cands.sort(key=lambda c: c[:5])
    placed, taken, got = {own[i].id: (("x.m0", i),) for i in range(min(pre, len(own)))}, {}, 0
    for _d, _mi, _ei, _emi, place, mid in cands:
        if got >= want:
            break
        if mid in placed or any(slot in taken for slot in place):
            continue
        for slot in place:
            taken[slot] = mid
        placed[mid] = place
        got += 1
    return got, placed, taken


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 40), st.integers(1, 12), st.integers(0, 45), st.booleans(),
       st.sampled_from([200_000, 0]), st.integers(0, 3))
def test_fill_matches_sorting_every_pair(seed, n_own, n_enemy, want, grid, tree_pairs, pre):
    """Both first looks (one scan per place; the k-d tree of big tables, forced by
    ``tree_pairs=0``), with some models placed before (``pre``)."""
    rng = random.Random(seed)

    def pt():  # a coarse grid makes many equal distances (ties broken by index, as before)
        return (float(rng.randint(0, 6) * 10), float(rng.randint(0, 6) * 10)) if grid else \
            (rng.uniform(0, 100), rng.uniform(0, 100))

    own = [Model(f"a.m{i}", "a", f"m{i}", None, None, pt(), 0.0, g.Circle((0, 0), 1)) for i in range(n_own)]
    places = []
    for e in range(n_enemy):
        n = rng.choice([4, 8])
        room = rng.choice([1, 2])
        for start in range(0, n, rng.choice([1, room])):  # overlapping groups too
            place = tuple((f"b.m{e}", (start + k) % n) for k in range(room))
            places.append((0, e, place, pt()))
        if e and rng.random() < 0.3:  # a place across two neighbouring models
            places.append((0, e - 1, ((f"b.m{e - 1}", 0), (f"b.m{e}", 1)), pt()))
    placed, taken = {own[i].id: (("x.m0", i),) for i in range(min(pre, n_own))}, {}
    got = fill_nearest_first(own, places, want, placed, taken, tree_pairs=tree_pairs)
    assert (got, placed, taken) == brute(own, places, want, pre)
