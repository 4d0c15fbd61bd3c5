"""wh40k pile-in maximises the models engaged when a model reaches Engagement Range only at
the very end of its 3" move (its gap less the move lies inside Engagement Range by less than
the exact search's rings are apart): boards the property test of test_wh40k_optimal found
(random_board seeds 918 and 1167, mixed bases), where the solver engaged 3 and a brute force 4."""
from __future__ import annotations

import pytest

from test_wh40k_optimal import KW, solver_engaged
from wh40k_brute import brute_force_engaged, random_board


@pytest.mark.parametrize("seed, clump", [(918, False), (1167, True)])
def test_a_model_at_the_edge_of_its_reach_is_engaged(seed, clump):
    b = random_board(seed, mixed=True, clump=clump)
    best = brute_force_engaged(b, **KW)
    assert best == 4
    assert solver_engaged(b) >= best
