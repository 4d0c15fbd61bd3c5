"""wh40k Pile-in Moves maximise the models engaged (seeds/003) when a unit of mixed base sizes
must pack round a target with some models at the very end of their reach: the best places lie
where a model's circle about the target meets its reach or a standing base, or touching a model
placed there, between the points of any angular grid. Boards the property test of
tests/test_wh40k_optimal.py found (random_board seeds 6385 and 290, mixed bases in a clump):
on 6385 the solver's grid engaged 5 of 6 possible, on 290 a first try with the tangent spots
(whose many spots crowded out the arc ends) engaged 5 of 6."""
from __future__ import annotations

import numpy as np
import pytest

from test_wh40k_optimal import KW, solver_engaged
from wh40k_brute import brute_force_engaged, random_board


@pytest.mark.parametrize("seed, best", [(6385, 5), (290, 6)])
def test_mixed_bases_packed_at_the_ends_of_their_reach(seed, best):
    b = random_board(seed, mixed=True, clump=True)
    assert brute_force_engaged(b, **KW) == best
    assert solver_engaged(b) >= best


def test_circle_cuts_lie_on_both_circles():
    from game.engines.engagement_range.arcs import circle_cuts

    P = circle_cuts(np.array([0.0, 0.0]), 10.0, np.array([[12.0, 0.0], [50.0, 0.0]]), np.array([5.0, 5.0]))
    assert len(P) == 2  # the far circle does not cross
    assert np.allclose(np.hypot(*P.T), 10.0) and np.allclose(np.hypot(P[:, 0] - 12, P[:, 1]), 5.0)


class _M:
    def __init__(self, start, rad, closest="foe", start_gap=60.0):
        self.start, self.closest, self.start_gap = np.array(start, float), closest, start_gap
        self.foot = type("F", (), {"rad": rad})()


def test_arc_ends_are_where_the_reach_meets_the_ring():
    from game.engines.engagement_range.arcs import arc_spots

    # one 25 mm target at the origin, a 32 mm mover 90 mm from it: its circle at gap 1 mm about
    # the target (radius 29.5) is reached only on an arc whose ends lie 76 mm from its start
    m = _M((0.0, 90.0), 16.0, start_gap=90.0 - 28.5)
    foe = (np.array([0.0, 0.0]), 12.5, "foe")
    spots = arc_spots([m], [foe], [foe[:2]], (1.0,), 76.0, 0.2, 0.1)[16.0]
    assert len(spots) == 2
    assert np.allclose(np.hypot(*spots.T), 29.5)
    assert np.allclose(np.hypot(spots[:, 0], spots[:, 1] - 90.0), 76.0 - 0.02)
    # one level of tangent spots: a second mover of the same size just clear of each end
    spots1 = arc_spots([m], [foe], [foe[:2]], (1.0,), 76.0, 0.2, 0.1, levels=1)[16.0]
    new = spots1[2:]
    assert len(new) == 2 and np.allclose(np.hypot(*new.T), 29.5)
    D = np.hypot(new[:, None, 0] - spots[None, :, 0], new[:, None, 1] - spots[None, :, 1])
    assert np.isclose(D, 32.0 + 0.2 + 0.02).any(1).all()  # each just clear of one end
