"""DrawnModels (game.window.retained) knows an unchanged unit by its result dict: the rank and
file engine hands each unit's results as one dict object (game.core.results: ModelResults.units) that stays the
same while its combat's part is reused. The drawn models must always be those
drawn_models gives for the board and analysis as they are; unchanged units keep their lists
(by object), the units of a combat analysed anew get theirs rebuilt."""
import copy
import dataclasses


from game.core.analyse import analyse
from game.core.board import Board
from game.core.ruleset import load_ruleset
from game.render.drawn import drawn_models
from game.window.retained import DrawnModels

from test_retained_region import _board  # three combats side by side


def _plain(ms) -> list:
    return [(m.id, m.unit.id, m.role, m.shape.bbox(), m.slot_from) for m in ms]


def test_units_are_known_by_their_result_dict_and_a_changed_combat_is_drawn_anew():
    rs = load_ruleset("whfb8")
    board = _board()
    an = analyse(board, rs)
    assert an.models.units() is not None
    dm = DrawnModels()
    first = dm(board, an)
    assert _plain(first) == _plain(drawn_models(board, an))
    for step in range(1, 7):  # u0_0 slides along its enemy's front: combat 0 changes, 1 and 2 do not
        moved = dataclasses.replace(board.unit("u0_0"), front=(200.0 + 4 * step, 400.0))
        board = Board(units=(moved, *board.units[1:]), ruleset="whfb8", table=board.table)
        an = analyse(board, rs)
        got = dm(board, an)
        assert _plain(got) == _plain(drawn_models(board, an)), step
        for uid in ("u1_0", "u1_1", "u2_0", "u2_1"):
            assert got.by_unit[uid] is first.by_unit[uid]  # the same dict: the same list
    assert [m.role for m in got.by_unit["u0_1"]] != [m.role for m in first.by_unit["u0_1"]]


def test_a_dict_handed_with_other_models_is_not_trusted():
    """A unit's noted dict belongs to the models dict it was made with: an analysis whose models
    were replaced (a copy with other results) is read model by model."""
    rs = load_ruleset("whfb8")
    board = _board()
    an = analyse(board, rs)
    dm = DrawnModels()
    dm(board, an)
    other = copy.copy(an)  # (what was noted, kept with the old models)
    other.models = {mid: dataclasses.replace(r, role="none") for mid, r in an.models.items()}
    assert not isinstance(other.models, type(an.models)) or other.models.units() is None
    got = dm(board, other)
    assert {m.role for m in got} == {"none"}
    assert _plain(got) == _plain(drawn_models(board, other))
