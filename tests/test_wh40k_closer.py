"""wh40k "Pile-in Moves": a model that moves must end closer to the closest target (seeds/003).
Boards where a model could become engaged only by ending farther from its closest target unit
(walled off from it by impassable terrain, another target unit behind it): the solver must leave
it short. Plus a property over random boards with two target units: every moved model of the
charging unit ends closer to the target unit that was closest to it. Measured here with plain
circle geometry, sharing no code with the engine (game/engines/engagement_range/solver.py)."""
from __future__ import annotations

import math
import random

from hypothesis import given, settings, strategies as st

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import board_from_dict

RS = load_ruleset("wh40k")
MM = 25.4
ER = RS.values.engagement_range_in * MM
WALL = [  # impassable terrain round the lone cultist at (500, 300): no base can come within 1" of it
    {"points": [[420, 220], [580, 220], [580, 280], [420, 280]]},
    {"points": [[420, 320], [580, 320], [580, 380], [420, 380]]},
    {"points": [[420, 280], [480, 280], [480, 320], [420, 320]]},
    {"points": [[520, 280], [580, 280], [580, 320], [520, 320]]},
]


def walled(extra_mob=()):
    """The charging model ``mob.m1`` (32 mm) 2 mm below the wall round the lone cultist
    (its closest target: 69.5 mm edge to edge), a second target unit's model 75 mm below it:
    engaging that one means ending farther from the cultist."""
    mob = [{"at": [500, 398]}] + [{"at": list(p)} for p in extra_mob]
    return board_from_dict({
        "ruleset": "wh40k", "table": {"width": 1200, "height": 900}, "terrain": WALL,
        "context": {"step": "pile_in", "active_player": 1, "charged": ["mob"]},
        "units": [{"id": "mob", "player": 1, "base": 32, "models": mob},
                  {"id": "walled", "player": 2, "base": 25, "models": [[500, 300]]},
                  {"id": "below", "player": 2, "base": 25, "models": [[500, 501.5], [640, 470]]}]})


def circles(board, uid):
    return [(m.center, m.shape.radius_mm) for m in board.unit(uid).models()]


def gap_to(c, r, board, uid) -> float:
    return min(math.dist(c, q) - r - rq for q, rq in circles(board, uid))


def end_of(a, mid, board):
    path = a.moves.get(mid)
    if path:
        return tuple(path[-1])
    return next(m.center for u in board.units for m in u.models() if m.id == mid)


def test_a_model_walled_off_from_its_closest_target_does_not_engage_another_by_moving_away():
    b = walled()
    start = b.unit("mob").models()[0].center
    assert gap_to(start, 16, b, "walled") < gap_to(start, 16, b, "below") < 127  # both targets, the walled one closest
    a = analyse(b, RS)
    end = end_of(a, "mob.m1", b)
    assert gap_to(end, 16, b, "below") > ER  # left short ...
    assert "mob.m1" not in a.moves  # ... and the unit, which cannot end engaged, does not pile in


def test_the_unit_piles_in_but_its_walled_off_model_is_left_short():
    b = walled(extra_mob=[(640, 390)])  # this one's closest target is the second unit: it may engage it
    a = analyse(b, RS)
    assert gap_to(end_of(a, "mob.m2", b), 16, b, "below") <= ER  # the unit piles in ...
    start = b.unit("mob").models()[0].center
    end = end_of(a, "mob.m1", b)
    assert gap_to(end, 16, b, "below") > ER  # ... without the walled-off model engaging by moving away
    assert gap_to(end, 16, b, "walled") <= gap_to(start, 16, b, "walled") + 1e-6


def two_targets(seed: int):
    """A charging unit of 2-6 round models between two enemy units of 1-3 models each, one
    above and one below (seeded), so many a model has targets on both sides."""
    rng = random.Random(seed)
    placed: list = []

    def put(n, box, radii):
        out = []
        for _ in range(n):
            r = rng.choice(radii)
            for _try in range(300):
                p = (rng.uniform(box[0], box[2]), rng.uniform(box[1], box[3]))
                if all(math.dist(p, q) >= r + rq + 1.0 for q, rq in placed):
                    out.append({"at": [round(p[0], 2), round(p[1], 2)], "base": 2 * r})
                    placed.append((p, r))
                    break
        return out

    up = put(rng.randint(1, 3), (520, 300, 680, 330), [12.5, 16, 20])
    mob = put(rng.randint(2, 6), (520, 380, 680, 440), [12.5, 16, 20])
    down = put(rng.randint(1, 3), (520, 470, 680, 520), [12.5, 16, 20])
    return board_from_dict({
        "ruleset": "wh40k", "table": {"width": 1200, "height": 900},
        "context": {"step": "pile_in", "active_player": 1, "charged": ["mob"]},
        "units": [{"id": "mob", "player": 1, "base": 32, "models": mob},
                  {"id": "up", "player": 2, "base": 25, "models": up},
                  {"id": "down", "player": 2, "base": 25, "models": down}]})


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10 ** 6))
def test_every_moved_model_ends_closer_to_its_closest_target(seed):
    b = two_targets(seed)
    a = analyse(b, RS)
    mob = b.unit("mob")
    engaged = [e for e in ("up", "down") if min(gap_to(m.center, m.shape.radius_mm, b, e) for m in mob.models()) <= ER]
    targets = engaged or [e for e in ("up", "down")
                          if min(gap_to(m.center, m.shape.radius_mm, b, e) for m in mob.models()) <= 5 * MM]
    for m in mob.models():
        path = a.moves.get(m.id)
        if not path:
            continue
        r = m.shape.radius_mm
        closest = min(targets, key=lambda e: gap_to(m.center, r, b, e))
        assert gap_to(tuple(path[-1]), r, b, closest) < gap_to(m.center, r, b, closest), (seed, m.id)
