"""Closing up (context.combats): whfb8 advances straight forward, t9a slides the shortest way;
blocked or impossible moves stay put with a note; the scenario key is validated."""
import math

import pytest
from hypothesis import given, settings, strategies as st

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core import closing
from game.core.scenario import ScenarioError, board_from_dict, parse_scenario

WHFB8 = load_ruleset("whfb8")
T9A = load_ruleset("t9a")


def unit(uid, player, files, models, front, facing, **kw):
    d = {"id": uid, "player": player, "base": [20, 20], "files": files, "models": models,
         "front": list(front), "facing": facing, "profile": {"attacks": 1, "initiative": 2, "agility": 2}}
    d.update(kw)
    return d


def rear_gap(ruleset="whfb8", gap=20.0, extra=()):
    """Goblins (5 models, tray y 400..420) facing north; Dwarfs behind them facing north, ``gap`` mm back."""
    return {"ruleset": ruleset, "context": {"combats": [["dwarfs", "goblins"]]},
            "units": [unit("goblins", 2, 5, 5, (600, 400), 0), unit("dwarfs", 1, 5, 10, (600, 420 + gap), 0),
                      *extra]}


def test_whfb8_mover_advances_straight_forward_into_contact():
    board = board_from_dict(rear_gap())
    shut = closing.close_up(board, WHFB8, board.context["combats"])
    assert shut.moved["dwarfs"] == pytest.approx((0.0, -20.0), abs=1e-6)
    assert shut.board.unit("dwarfs").front == pytest.approx((600, 420))
    assert board.unit("dwarfs").front == (600, 440)            # the given board is untouched
    assert len(shut.moves) == 10 and not shut.notes
    res = analyse(board, WHFB8)
    assert res.models["dwarfs.r1f3"].role == "attack" and res.models["dwarfs.r1f3"].at == pytest.approx((600, 430))
    assert list(res.moves["dwarfs.r1f3"]) == [pytest.approx((600, 450)), pytest.approx((600, 430))]


def test_touching_pairs_and_no_combats_move_nothing():
    board = board_from_dict(rear_gap(gap=0.0))
    assert not analyse(board, WHFB8).moves
    data = rear_gap()
    del data["context"]
    assert not analyse(board_from_dict(data), WHFB8).moves
    assert analyse(board_from_dict(data), WHFB8).models["dwarfs.r1f3"].role == "none"


def test_a_unit_in_the_way_stops_the_advance_with_a_note():
    wall = unit("wall", 1, 5, 5, (600, 425), 0)      # a friendly unit standing in the gap (y 425..445)
    data = rear_gap(gap=40.0, extra=[wall])
    board = board_from_dict(data)
    shut = closing.close_up(board, WHFB8, board.context["combats"])
    assert not shut.moved and shut.board is board
    assert any("in the way" in n and "wall" in n for n in shut.notes)
    assert any("in the way" in n for n in analyse(board, WHFB8).notes)


def test_an_enemy_not_ahead_cannot_be_reached_by_advancing_but_t9a_slides():
    # the Dwarfs face east, beside and below the Goblins: advancing east never meets them
    data = rear_gap()
    data["units"][1] = unit("dwarfs", 1, 5, 10, (560, 480), 90)
    board = board_from_dict(data)
    shut = closing.close_up(board, WHFB8, board.context["combats"])
    assert not shut.moved and "not ahead" in shut.notes[0]
    shut = closing.close_up(board, T9A, board.context["combats"])
    assert shut.board.unit("dwarfs").facing_deg == 90            # no change of facing
    dx, dy = shut.moved["dwarfs"]
    assert closing.gap_between(closing.polygons(shut.board.unit("dwarfs")),
                               closing.polygons(shut.board.unit("goblins"))) == pytest.approx(0.0, abs=1e-6)
    before = closing.gap_between(closing.polygons(board.unit("dwarfs")), closing.polygons(board.unit("goblins")))
    assert math.hypot(dx, dy) == pytest.approx(before, abs=1e-6)   # the smallest move that restores contact


@settings(max_examples=25, deadline=None)
@given(turn=st.floats(0, 360), gap=st.floats(2, 60), shift=st.floats(-40, 40))
def test_closing_up_does_not_depend_on_how_the_table_is_turned(turn, gap, shift):
    data = rear_gap(gap=gap)
    data["units"][1]["front"][0] += shift
    board = board_from_dict(data)
    for rs in (WHFB8, T9A):
        a = closing.close_up(board, rs, board.context["combats"])
        pivot = (600.0, 450.0)
        turned = board.copy()
        for u in list(turned.units):
            turned = turned.with_unit(u.rotated(turn, pivot))
        b = closing.close_up(turned, rs, turned.context["combats"])
        assert math.hypot(*a.moved["dwarfs"]) == pytest.approx(math.hypot(*b.moved["dwarfs"]), abs=1e-6)
        ra, rb = analyse(board, rs), analyse(turned, rs)
        assert {k: v.role for k, v in ra.models.items()} == {k: v.role for k, v in rb.models.items()}


def test_closing_up_joins_the_incomplete_rank_shuffle_into_one_path():
    first = {"d.r3f1": [(0.0, 0.0), (0.0, -10.0)], "d.r1f1": [(5.0, 0.0), (5.0, -10.0)]}
    then = {"d.r3f4": [(0.0, -10.0), (30.0, -10.0)]}
    out = closing.merge_moves(first, then)
    assert out == {"d.r1f1": [(5.0, 0.0), (5.0, -10.0)], "d.r3f4": [(0.0, 0.0), (0.0, -10.0), (30.0, -10.0)]}


GOOD = """ruleset: whfb8
context:
  combats: [[dwarfs, goblins]]
units:
  - {id: dwarfs, player: 1, base: [20, 20], files: 5, models: 10, front: [600, 440], facing: 0}
  - {id: goblins, player: 2, base: [20, 20], files: 5, models: 5, front: [600, 400], facing: 0}
"""


@pytest.mark.parametrize("bad,msg", [
    ("combats: [[dwarfs, orcs]]", "(got 'orcs')"),
    ("combats: [dwarfs, goblins]", "must be a pair"),
    ("combats: [[dwarfs, dwarfs]]", "with itself"),
    ("combats: dwarfs", "must be a list"),
])
def test_bad_combats_name_file_line_and_field(bad, msg):
    with pytest.raises(ScenarioError) as e:
        parse_scenario(GOOD.replace("combats: [[dwarfs, goblins]]", bad), "x.yaml")
    text = str(e.value)
    assert "x.yaml:3" in text and "context.combats" in text and msg in text
    assert parse_scenario(GOOD).context["combats"] == [["dwarfs", "goblins"]]
