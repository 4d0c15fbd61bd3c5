"""wh40k Pile-in Moves maximise the models engaged (seeds/003) also when the ends must be reached
one after another: on a clump of mixed round bases (hypothesis board 24492 of
tests/test_wh40k_optimal.py) an end set where one model's slide crosses both the start and the
end of a neighbour cannot be ordered, and the model is left short. The exact search must prefer
an end set whose straight slides can be ordered, and so engage all six that a brute force does."""
from __future__ import annotations

import numpy as np

from game.core import geometry as g
from game.core.ruleset import load_ruleset
from game.core.scenario import board_from_dict
from game.engines.engagement_range import engine as wh40k
from game.engines.engagement_range.exact import slides_orderable
from game.engines.engagement_range.solver import MoveSolver
from game.engines.engagement_range.table import moved_shape

RS = load_ruleset("wh40k")
P = wh40k.Params.of(RS)

MOB = [((671.96, 494.81), 50), ((661.3, 540.96), 40), ((636.79, 477.05), 25), ((608.08, 469.29), 32),
       ((619.22, 499.9), 25), ((708.99, 516.16), 32), ((576.39, 459.15), 32)]
FOE = [((618.15, 397.08), 40), ((688.04, 398.91), 40), ((733.26, 392.13), 32)]


def _board():
    def unit(uid, player, models):
        return {"id": uid, "player": player, "base": models[0][1],
                "models": [{"at": list(p), "base": d} for p, d in models]}
    return board_from_dict({"ruleset": "wh40k", "table": {"width": 1600, "height": 1000},
                            "context": {"step": "pile_in", "active_player": 1, "charged": ["mob"]},
                            "units": [unit("mob", 1, MOB), unit("foe", 2, FOE)]})


def test_clump_whose_slides_must_be_ordered_engages_all_six():
    t = wh40k.Table(_board())
    paths = MoveSolver(t, "mob", P, max_mm=P.pile_in_mm, contact_stays=True, targets=["foe"]).solve()
    foes = t.models_of("foe")
    engaged = 0
    for pc in t.models_of("mob"):
        end = moved_shape(pc.shape, paths[pc.id][-1]) if pc.id in paths else pc.shape
        if pc.id in paths:
            assert wh40k.path_length(paths[pc.id]) <= P.pile_in_mm + 1e-6
        engaged += min(g.gap_mm(end, q.shape) for q in foes) <= P.er_mm + 1e-6
    assert engaged == 6  # a brute force over straight, orderable slides finds 6; the old solver 5


def test_a_slide_over_a_neighbours_start_and_end_cannot_be_ordered():
    ext = np.array([12.5, 12.5])
    starts = np.array([[0.0, 0.0], [0.0, 40.0]])
    # mover 0 slides north through mover 1's start and onto the line past its end: a cycle
    assert not slides_orderable(starts, np.array([[0.0, 70.0], [0.0, 45.0]]), ext, [0, 1])
    # mover 1 moves away sideways first, then mover 0 slides: an order exists
    assert slides_orderable(starts, np.array([[0.0, 70.0], [40.0, 40.0]]), ext, [0, 1])
    # mover 1 stays where it stands, in mover 0's way
    assert not slides_orderable(starts, np.array([[0.0, 70.0], [0.0, 40.0]]), ext, [0])
