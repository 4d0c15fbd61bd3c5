"""wh40k "Pile-in Moves" (seeds/003): a moved model ends closer to the closest target and, for
the moves that maximise the models engaged, engaged. The solver's test of a candidate end
(``MoveSolver._legal_many``, which every engaging end of the packings and of the exact search
passes) must reject an end that is engaged only by ending farther from the closest target unit,
and an end that is closer but not engaged; :meth:`MoveSolver._legal` (the one-at-a-time moves)
must reject the first and accept the second. These fail when the "closer" check or the
engagement check is taken out of the solver; tests/test_wh40k_closer.py covers whole boards."""
from __future__ import annotations

import numpy as np

from game.core.ruleset import load_ruleset
from game.core.scenario import board_from_dict
from game.engines.engagement_range import engine as wh40k
from game.engines.engagement_range.solver import MoveSolver

RS = load_ruleset("wh40k")
P = wh40k.Params.of(RS)


def solver():
    """``mob.m1`` (32 mm) 50 mm edge to edge from ``near`` (its closest target unit, above it)
    and 60 mm from ``far`` (below it): both targets, both within a pile-in and Engagement Range."""
    b = board_from_dict({
        "ruleset": "wh40k", "table": {"width": 1200, "height": 900},
        "context": {"step": "pile_in", "active_player": 1, "charged": ["mob"]},
        "units": [{"id": "mob", "player": 1, "base": 32, "models": [[500, 450]]},
                  {"id": "near", "player": 2, "base": 32, "models": [[500, 368]]},
                  {"id": "far", "player": 2, "base": 32, "models": [[500, 542]]}]})
    return MoveSolver(wh40k.Table(b), "mob", P, max_mm=P.pile_in_mm, contact_stays=True, targets=["near", "far"])


def gap_mm(a, b) -> float:
    return float(np.hypot(*(np.asarray(a) - np.asarray(b)))) - 32.0


def test_the_solver_sees_the_board_as_built():
    s = solver()
    (m,) = s.movers
    assert m.closest == "near" and round(m.start_gap, 6) == 50.0


def test_an_end_engaged_only_by_moving_away_from_the_closest_target_is_rejected():
    s = solver()
    (m,) = s.movers
    away = np.array([[500.0, 500.0]])  # 50 mm down: 10 mm from "far" (engaged), 100 mm from "near"
    assert gap_mm(away[0], (500, 542)) <= P.er_mm - 1 and gap_mm(away[0], (500, 368)) > m.start_gap
    ok, _ = s._legal_many([m], away)
    assert not ok[0, 0]
    ok1, _ = s._legal(m, away, {})
    assert not ok1[0]


def test_an_end_closer_but_not_engaged_is_no_engaging_end():
    s = solver()
    (m,) = s.movers
    closer = np.array([[500.0, 440.0]])  # 10 mm up: 40 mm from "near", closer, not engaged
    assert P.er_mm < gap_mm(closer[0], (500, 368)) < m.start_gap - 1
    ok, _ = s._legal_many([m], closer)
    assert not ok[0, 0]
    ok_loose, _ = s._legal_many([m], closer, engaging=False)
    assert ok_loose[0, 0]  # legal as a move: only the engagement is missing
    ok1, info = s._legal(m, closer, {})
    assert ok1[0] and not info["any"][0]


def test_an_end_closer_and_engaged_is_accepted():
    s = solver()
    (m,) = s.movers
    there = np.array([[500.0, 420.0]])  # 30 mm up: 20 mm from "near"
    ok, eng = s._legal_many([m], there)
    assert ok[0, 0] and eng[0, 0] == 1
