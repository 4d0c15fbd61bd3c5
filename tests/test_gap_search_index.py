"""The t9a gap search (Fighting over Gaps) with its enemy bases indexed along the engaged facing
(:class:`game.engines.rank_and_file.gap_index.EnemyAhead`) links exactly the models that trying
every enemy base links (``tests/gap_brute.py``, the search as it was), on random boards of
skirmish clumps with mixed bases (round, square, long, oval) and ranked units; and it still
crosses a long gap (the index has no distance limit: the rule sets none)."""
from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from game.core.board import Board, Unit
from game.core.engagement import boundary, find_engagements
from game.engines.rank_and_file import gaps
from game.engines.rank_and_file.gap_index import EnemyAhead
from tests.gap_brute import gaps_extend_brute

BASES = [20, 25, 32, 40, 60, [20, 20], [25, 50], [50, 25], {"oval": [60, 35]}]
FACINGS = [0.0, 90.0, 180.0, 270.0, 45.0, 13.7, 333.3]
coord = st.floats(0, 220) | st.sampled_from([0.0, 26.0, 52.0, 100.0])

# a clump: where it is, how many models, their spacing (touching, a gap, far apart), its bases
clump = st.tuples(coord, coord, st.integers(1, 7), st.sampled_from([20.5, 25.5, 26.0, 33.0, 45.0, 70.0]),
                  st.lists(st.sampled_from(BASES), min_size=1, max_size=3), st.integers(1, 4))


def skirmish(uid: str, player: int, facing: float, clumps: list) -> Unit:
    placed = []
    for x, y, n, step, bases, cols in clumps:
        for i in range(n):
            r, c = divmod(i, cols)
            placed.append(((x + c * step, y + r * step), bases[i % len(bases)]))
    return Unit(id=uid, player=player, kind="skirmish", base=25, facing_deg=facing, placed=placed,
                profile={"attacks": 1, "initiative": 3, "agility": 3, "height": 1})


unit_spec = st.one_of(
    st.tuples(st.just("skirmish"), st.sampled_from(FACINGS), st.lists(clump, min_size=1, max_size=3)),
    st.tuples(st.just("ranked"), st.sampled_from(FACINGS), st.tuples(coord, coord, st.integers(1, 4),
                                                                       st.integers(1, 10), st.sampled_from([20.0, 25.0]))))


def make_units(specs: list) -> list[Unit]:
    out = []
    for i, (kind, facing, rest) in enumerate(specs):
        uid, player = f"u{i}", 1 + i % 2
        if kind == "skirmish":
            out.append(skirmish(uid, player, facing, rest))
        else:
            x, y, files, count, w = rest
            out.append(Unit(id=uid, player=player, kind="ranked", base=(w, w), files=files, count=count,
                            front=(x, y), facing_deg=facing, profile={"attacks": 1, "initiative": 3}))
    return out


def both(units: list[Unit], tol: float, terrain: list | None = None) -> tuple[set, set]:
    """(indexed links, brute-force links) of the gap search on a board of ``units``."""
    board = Board(units=units, ruleset="t9a", table=(1000.0, 1000.0), terrain=terrain or [])
    by_id = {u.id: u for u in units}
    models = {u.id: u.models() for u in units}
    engs = find_engagements(by_id, models, {uid: boundary(by_id[uid], models[uid]) for uid in by_id}, tol)
    return (gaps.gaps_extend(board, by_id, models, engs, tol),
            gaps_extend_brute(board, by_id, models, engs, tol))


@settings(max_examples=250, deadline=None)
@given(st.lists(unit_spec, min_size=2, max_size=4), st.sampled_from([0.0, 0.5, 1.0, 3.0]))
def test_indexed_gap_search_links_what_trying_every_base_links(specs, tol):
    got, want = both(make_units(specs), tol)
    assert got == want


def _line(uid: str, player: int, y: float, facing: float, xs: list[float], base=25) -> Unit:
    return Unit(id=uid, player=player, kind="skirmish", base=base, facing_deg=facing,
                placed=[((x, y), None) for x in xs], profile={"attacks": 1, "initiative": 3})


def test_a_long_gap_is_crossed_and_the_nearest_base_is_the_one_linked():
    """Two lines front to front 0.5 mm apart; the enemy's middle base is missing from its
    front line and its next base in that file stands 300 mm back: the model facing the hole is
    linked with that far base (no distance limit), and not with the one behind it."""
    xs = [100.0 + 26 * i for i in range(5)]
    a = _line("a", 1, 500.0, 0.0, xs)  # faces north (towards smaller y)
    front = _line("b", 2, 474.5, 180.0, [x for x in xs if x != xs[2]])
    b = Unit(id="b", player=2, kind="skirmish", base=25, facing_deg=180.0,
             placed=front.placed + [((xs[2], 174.5), None), ((xs[2], 100.0), None)], profile={"attacks": 1})
    got, want = both([a, b], 0.5)
    assert got == want
    assert frozenset(("a.m3", "b.m5")) in got  # the base 300 mm back across the hole
    assert frozenset(("a.m3", "b.m6")) not in got  # the one behind it: the extension stops at the first


def test_the_index_keeps_every_base_the_stretched_base_can_meet():
    """EnemyAhead.ahead on a column of bases straight ahead, one slightly aside, one behind:
    every base ahead within the stretch is kept whatever its distance, nearest first, with a
    lower bound no larger than the true distance less the tolerance; the base behind is not."""
    from game.core import geometry as g
    shapes = [g.Circle((0.0, -30.0 - 40.0 * k), 12.5) for k in range(10)] + [g.Circle((0.0, 60.0), 12.5),
                                                                              g.Circle((24.0, -500.0), 12.5)]
    from game.core.engagement import as_poly
    ix = EnemyAhead(shapes, [as_poly(s) for s in shapes], (0.0, -1.0), 0.5)
    me = g.Circle((0.0, 0.0), 12.5)
    pts = as_poly(me)
    side = [p[0] for p in pts]  # the side axis of d = (0, -1) is (1, 0)
    along = [-p[1] for p in pts]
    got = ix.ahead((min(side), max(side)), (min(along), max(along)), 1000.0)
    idx = [j for _, j in got]
    assert idx[:10] == list(range(10)) and 11 in idx and 10 not in idx
    for bound, j in got:
        true_gap = g.gap_mm(me, shapes[j])
        assert bound <= true_gap - 0.5 + 1e-9
    assert math.isclose(got[0][0], 30.0 - 12.5 - 12.5 - 0.5, abs_tol=1e-3)
