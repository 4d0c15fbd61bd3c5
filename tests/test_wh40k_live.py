"""wh40k live re-analysis: a drag re-solves only the moves whose inputs changed (answers kept
by every input the solver reads), and the kept answers are exactly a cold solve's."""
from __future__ import annotations

import dataclasses

from hypothesis import given, settings, strategies as st

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.engines.engagement_range import geom, memo, solver, table
from pathlib import Path
from wh40k_brute import random_board

RS = load_ruleset("wh40k")
WORKED = Path(__file__).resolve().parent / "fixtures" / "wh40k_fight_phase.yaml"


def cold(board):
    memo._SOLVED.clear()
    table._UNIT_GAPS.clear()
    geom._CURVES.clear()
    return analyse(board, RS).to_json()


def moved(board, uid, dx, dy):
    return board.with_unit(board.unit(uid).translated(dx, dy))


def with_far_combat(board, seed):
    """``board`` plus a second combat (random_board's mob charging foe) far across the table."""
    other = random_board(seed, mixed=True, clump=False)
    return dataclasses.replace(board, table=(3000.0, 1600.0),
                               units=(*board.units, *(u.translated(1500, 300) for u in other.units)),
                               context={**board.context, "charged": list(board.context.get("charged") or []) + ["mob"]})


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10 ** 6), st.lists(st.tuples(st.floats(-15, 15), st.floats(-15, 15)), min_size=1, max_size=4))
def test_a_drag_gives_what_a_cold_solve_gives(seed, steps):
    """Each frame of a drag (a warm analysis, solving only the combat that changed) equals a
    cold solve of the same board. Slow for a reason: 12 examples of up to 4 frames, each frame
    solved twice (warm and cold) by the 40k pile-in solver: about 2 s of CPU, over 5 s of wall
    time on a loaded machine; fewer examples would miss the drags that cross a combat's edge."""
    b = with_far_combat(load_scenario(WORKED), seed)
    analyse(b, RS)
    for k, (dx, dy) in enumerate(steps):  # a drag: the same board, a unit a little further each frame
        b = moved(b, ("assault_squad", "foe")[k % 2], dx, dy)
        warm = analyse(b, RS).to_json()
        assert warm == cold(b)


def test_a_far_combat_is_not_solved_again():
    b = with_far_combat(load_scenario(WORKED), 7)
    analyse(b, RS)
    calls = []
    real = solver.MoveSolver.solve

    def counting(self):
        calls.append(self.uid)
        return real(self)

    solver.MoveSolver.solve = counting
    try:
        analyse(moved(b, "assault_squad", 1.5, -0.5), RS)
    finally:
        solver.MoveSolver.solve = real
    assert "assault_squad" in calls
    assert "mob" not in calls and "foe" not in calls
