"""Position and facing fields, the charge that keeps its angle, adding a template unit (Editor)."""
from __future__ import annotations

import pytest

from game.core import measure as ms
from game.core.board import Board, Unit
from game.core.editor import Editor
from game.core.ruleset import load_ruleset
from game.core.templates import load_templates, template_unit


def ranked(front, facing, uid, player):
    return Unit(id=uid, player=player, kind="ranked", base=(20.0, 20.0), facing_deg=facing, files=5, count=10,
                front=front, name=uid)


def board():
    return Board(units=[ranked((600.0, 400.0), 0.0, "dwarfs", 1), ranked((500.0, 200.0), 190.0, "goblins", 2)],
                 ruleset="t9a")


def test_position_and_facing_fields():
    ed = Editor()
    ch = ed.set_position(board(), "dwarfs", "610.5", " 420 ")
    assert ch.ok and ch.board.unit("dwarfs").front == pytest.approx((610.5, 420.0))
    assert not ed.set_position(board(), "dwarfs", "x", "1").ok
    ch = ed.set_facing(board(), "dwarfs", "370")
    u = ch.board.unit("dwarfs")
    assert u.facing_deg == pytest.approx(10) and u.front == pytest.approx((600.0, 400.0))  # turned about its front
    assert not ed.set_facing(board(), "dwarfs", "north").ok
    # refused where it would overlap another unit
    assert not ed.set_position(board(), "dwarfs", "500", "190").ok


def test_charge_keeps_the_angle_or_aligns():
    ed = Editor()
    kept = ed.charge(board(), "dwarfs", "goblins", align=False)
    assert kept.ok and "keeping its angle" in kept.message
    d = kept.board.unit("dwarfs")
    assert d.facing_deg == pytest.approx(0)
    assert ms.unit_gap(d, kept.board.unit("goblins"))[0] == pytest.approx(0, abs=1e-6)
    aligned = ed.charge(board(), "dwarfs", "goblins")
    assert aligned.ok and aligned.board.unit("dwarfs").facing_deg == pytest.approx(10)   # flush with the 190 front
    assert load_ruleset("t9a").measure.charge == "keep_angle" and load_ruleset("whfb8").measure.charge == "align"


def test_add_a_template_unit():
    ed = Editor()
    b = board()
    t = load_templates("t9a")[0]
    ch = ed.add_unit(b, template_unit(b, t, (200.0, 600.0), 1))
    assert ch.ok and ch.select == "p1_infantry_1" and len(ch.board.units) == 3
    assert not ed.add_unit(b, template_unit(b, t, (600.0, 430.0), 1)).ok   # on top of the dwarfs


def test_several_units_move_and_turn_together():
    ed = Editor()
    b = board()
    b = b.with_units([*b.units, ranked((700.0, 400.0), 0.0, "elves", 1)])
    ch = ed.move_group(b, ["dwarfs", "elves"], 10, -5)
    assert ch.ok and ch.board.unit("dwarfs").front == pytest.approx((610, 395)) \
        and ch.board.unit("elves").front == pytest.approx((710, 395))
    ch = ed.turn_group(b, ["dwarfs", "elves"], 90)
    d, e = ch.board.unit("dwarfs"), ch.board.unit("elves")
    assert d.facing_deg == pytest.approx(90) and e.facing_deg == pytest.approx(90)
    assert abs(d.center()[1] - e.center()[1]) == pytest.approx(100)   # the pair turned about its middle
    assert not ed.move_group(b, ["dwarfs"], -100, -220).ok             # onto the goblins: refused
    assert not ed.move_group(b, [], 1, 1).ok


def test_turn_while_touching_steps_back_to_stay_in_contact():
    from game.core import manoeuvre as mv

    ed = Editor()
    b = Board(units=[ranked((600.0, 400.0), 0.0, "a", 1), ranked((600.0, 400.0), 180.0, "b", 2)], ruleset="t9a")
    ch = ed.turn(b, "a", 15)
    assert ch.ok and "stepping back" in ch.message
    a = ch.board.unit("a")
    assert a.facing_deg == pytest.approx(15)
    gap = ms.unit_gap(a, ch.board.unit("b"))[0]
    assert -ed.tol_mm <= gap <= 0.05                                 # still touching, not overlapping
    assert ed.turn(b, "a", 15).board.unit("b").pose_key() == b.unit("b").pose_key()   # the enemy stays
    free = Board(units=[ranked((600.0, 400.0), 0.0, "a", 1)], ruleset="t9a")
    assert "stepping back" not in ed.turn(free, "a", 15).message      # nothing touching: a plain turn
    assert ed.wheel(b, "a", 15, "left").ok and not ed.wheel(b, "a", -15, "left").ok   # away: yes; into: no
