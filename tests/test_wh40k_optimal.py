"""wh40k Pile-in Moves maximise the models that end engaged (seeds/003: "units will pile in to
maximise the number of models that are engaged"): on random boards (mixed base sizes in one
unit, loose or in a clump, one base size in a clump) the solver engages at least as many
models as an independent brute force (tests/wh40k_brute.py) finds, so exactly the optimum
wherever that optimum is proven; ``move_status`` says "optimal" exactly when the move meets the
upper bound."""
from __future__ import annotations

import math

from hypothesis import given, settings, strategies as st

from game.core import geometry as g
from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import board_from_dict
from game.engines.engagement_range import engine as wh40k
from game.engines.engagement_range.table import moved_shape
from game.engines.engagement_range.solver import MoveSolver
from test_wh40k_placement import centred, turned
from wh40k_brute import brute_force_engaged, brute_force_search, random_board

RS = load_ruleset("wh40k")
P = wh40k.Params.of(RS)
ER, MOVE = P.er_mm, P.pile_in_mm
KW = dict(er=ER, move=MOVE, tol=P.tol_mm, clearance=P.clearance_mm)
BRUTE_NODES = 300000  # a few seconds: the odd board whose search would run for minutes stops there


def brute_best(b) -> int:
    """The most engaged models the brute force finds on ``b``, its search stopped after
    ``BRUTE_NODES`` nodes: never above the optimum, so the solver must reach at least it."""
    return brute_force_search(b, max_nodes=BRUTE_NODES, **KW)[0]


def solver_engaged(b) -> int:
    t = wh40k.Table(b)
    paths = MoveSolver(t, "mob", P, max_mm=MOVE, contact_stays=True, targets=["foe"]).solve()
    foes = t.models_of("foe")
    n = 0
    ends = []
    for pc in t.models_of("mob"):
        end = moved_shape(pc.shape, paths[pc.id][-1]) if pc.id in paths else pc.shape
        ends.append(end)
        if pc.id in paths:
            assert wh40k.path_length(paths[pc.id]) <= MOVE + 1e-6
        n += min(g.gap_mm(end, q.shape) for q in foes) <= ER + 1e-6
    for i, a in enumerate(ends):  # never overlapping
        for c in ends[i + 1:]:
            assert g.gap_mm(a, c) >= -1e-6
    return n


def loose_bound(b) -> int:
    """Models within Engagement Range already, or whose gap less a whole move is within it."""
    foes = b.unit("foe").models()
    return sum(1 for m in b.unit("mob").models() if min(g.gap_mm(m.shape, q.shape) for q in foes) - MOVE <= ER)


def _status(b):
    """The pile-in's ``move_status`` of ``mob``, or None when it has no pile-in target (no enemy
    within the 5" target radius: it does not pile in, so there is no move to judge); then no
    model may end engaged, which the brute force must agree with."""
    st_ = analyse(b, RS).to_json().get("move_status", {}).get("mob")
    if st_ is None:
        t = wh40k.Table(b)
        assert t.unit_gap("mob", "foe") > P.pile_in_radius_mm
        assert brute_best(b) == 0
    return st_


kinds = st.sampled_from([(True, False), (True, True), (False, True), (False, False)])


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6), kinds)
def test_solver_engages_the_optimum(seed, kind):
    b = random_board(seed, mixed=kind[0], clump=kind[1])
    best = brute_best(b)
    got = solver_engaged(b)
    assert got >= best, f"seed {seed} {kind}: the solver engages {got}, a brute force {best}"
    assert got <= loose_bound(b)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10 ** 6), kinds)
def test_status_says_optimal_exactly_when_the_bound_is_met(seed, kind):
    b = random_board(seed, mixed=kind[0], clump=kind[1])
    st_ = _status(b)
    if st_ is None:
        return
    assert brute_best(b) <= st_["bound"] <= loose_bound(b)  # sound, and never looser
    assert (st_["status"] == "optimal") == (st_["engaged"] >= st_["bound"])


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10 ** 6), kinds, st.floats(0, 360), st.floats(-400, 400), st.floats(-400, 400))
def test_turned_and_moved_boards_reach_the_optimum_and_the_bound_holds(seed, kind, deg, dx, dy):
    """Held-back-like boards: random mixed bases, clumps, turned and moved anywhere on the table.
    The solver engages at least what the brute force finds, the bound is never below it, and
    "optimal" is claimed only with the bound met."""
    b = turned(centred(random_board(seed, mixed=kind[0], clump=kind[1])), deg, (1500, 1500), (dx, dy))
    best = brute_best(b)
    assert solver_engaged(b) >= best, f"seed {seed} {kind} turned {deg}"
    st_ = _status(b)
    if st_ is None:
        return
    assert st_["bound"] >= best
    assert (st_["status"] == "optimal") == (st_["engaged"] >= st_["bound"])


def test_ring_capacity_is_never_below_a_packing():
    """Bases set round one enemy base one after another, each as near the last as it may stand
    (touching it or the enemy), never fewer than ring_capacity allows: the bound is sound."""
    import math

    from game.engines.engagement_range.optimality import ring_capacity

    for big in (12.5, 16.0, 20.0, 25.0, 50.0):
        for small in (12.5, 16.0, 20.0, 25.0):
            for d in (big + small, big + small + ER * 0.99):  # touching it, or at the edge of its range
                step = 2 * math.asin(min(1.0, small / d))  # neighbours touching on a circle of radius d
                n = int((2 * math.pi + 1e-9) // step)
                assert ring_capacity(big, [small], ER, P.tol_mm) >= n, (big, small, d, n)


def test_room_to_end_sees_a_place_boxed_in():
    from game.engines.engagement_range.optimality import room_to_end

    foe = ((0.0, 0.0), 12.5)
    reach = 12.5 + 16 + ER
    assert room_to_end((0.0, 100.0), 16.0, MOVE, foe, reach, [foe], P.tol_mm)
    # the foe's friends stand all round it: no place within range is left for a 32 mm base
    ring = [((math.cos(a) * 37.5, math.sin(a) * 37.5), 12.5) for a in [k * math.pi / 5 for k in range(10)]]
    assert not room_to_end((0.0, 100.0), 16.0, MOVE, foe, reach, [foe] + ring, P.tol_mm)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.floats(-80, 80), st.floats(-80, 80), st.floats(10, 25)), max_size=6),
       st.floats(40, 110), st.floats(0, 360))
def test_room_to_end_finds_every_place_a_grid_finds(obstacles, dist, ang):
    from game.engines.engagement_range.optimality import room_to_end

    foe = ((0.0, 0.0), 12.5)
    r = 16.0
    start = (dist * math.cos(math.radians(ang)), dist * math.sin(math.radians(ang)))
    standing = [foe] + [((x, y), R) for x, y, R in obstacles if math.hypot(x - start[0], y - start[1]) > R + r]
    reach = 12.5 + r + ER
    found = False
    for i in range(-40, 41):
        for j in range(-40, 41):
            c = (i * 2.5, j * 2.5)
            if (math.dist(c, start) <= MOVE and math.dist(c, foe[0]) <= reach
                    and all(math.dist(c, q) >= R + r - P.tol_mm for q, R in standing)):
                found = True
                break
        if found:
            break
    if found:
        assert room_to_end(start, r, MOVE, foe, reach, standing, P.tol_mm)


def test_loose_mob_against_three_engages_everyone():
    # the kind of board: 7 models on 32 mm bases, loose, against 3 on 32 mm bases
    b = board_from_dict({"ruleset": "wh40k", "context": {"step": "pile_in", "active_player": 1, "charged": ["mob"]},
                         "units": [{"id": "mob", "player": 1, "base": 32,
                                    "models": [[380, 370], [420, 365], [460, 372], [500, 368], [400, 420],
                                               [450, 425], [490, 418]]},
                                   {"id": "foe", "player": 2, "base": 32, "models": [[410, 300], [446, 300], [482, 300]]}]})
    assert solver_engaged(b) == brute_force_engaged(b, **KW) == 7
    res = analyse(b, RS)
    assert res.to_json()["move_status"]["mob"] == {"status": "optimal", "engaged": 7, "bound": 7}


def test_mixed_bases_reach_the_optimum():
    # boards the old solver fell short on (it searched one base size at a time)
    for seed in (0, 3, 20, 32, 38):
        b = random_board(seed, mixed=True, clump=False)
        assert solver_engaged(b) >= brute_force_engaged(b, **KW), seed
