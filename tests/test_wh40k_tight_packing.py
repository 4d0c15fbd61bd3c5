"""wh40k Pile-in Moves maximise the models engaged (seeds/003) on boards where the optimum needs
bases packed side by side round a target (a row of touching bases the end spots must hold), and
on units of up to 12 movers (the exact search covers them)."""
from __future__ import annotations

from test_wh40k_optimal import KW, solver_engaged
from wh40k_boards import crowd_board
from wh40k_brute import brute_force_engaged, random_board


def test_a_row_of_touching_bases_round_one_enemy():
    # seven 32 mm bases in a clump behind one 25 mm enemy: five fit only with three side by side
    b = random_board(1505, mixed=False, clump=True)
    assert solver_engaged(b) >= brute_force_engaged(b, **KW) == 5


def test_eleven_movers_in_a_clump_reach_the_optimum():
    b = crowd_board(10, 11, "clump")
    assert solver_engaged(b) >= brute_force_engaged(b, **KW) == 6
