"""A combat decided before and seen again moved by one offset takes that decision
(``rank_and_file.congruent``): the result equals a cold analysis of the moved board, on random
tables (hypothesis, bounded examples: mixed bases, turned tables, flank contacts, skirmishers,
combats near enough to be each other's neighbours) moved by random offsets, also after random
edits, for every rank-and-file ruleset (The Old World's never takes the path)."""
import dataclasses
import copy
import json

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.core import lru
from game.core.analyse import analyse
from game.core.board import Board
from game.core.engagement import combats
from game.core.ruleset import load_ruleset
from game.engines.rank_and_file import congruent

from tests.test_board_merge import apply, edit, tables

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
offset = st.tuples(st.floats(-300, 300, allow_nan=False), st.floats(-300, 300, allow_nan=False))


def moved(board: Board, dx: float, dy: float) -> Board:
    out = copy.copy(board)
    out = dataclasses.replace(out, units=[u.translated(dx, dy) for u in board.units])
    return out


def cold(board: Board, rs) -> str:
    lru.clear_all()
    return json.dumps(analyse(copy.deepcopy(board), rs).to_json(), indent=1)


@SETTINGS
@given(st.sampled_from(["whfb8", "t9a", "tow", "tow_2024"]), tables(),
       st.lists(st.tuples(offset, st.one_of(st.none(), edit)), min_size=1, max_size=5))
def test_a_moved_table_is_analysed_as_a_cold_one(rid, board, steps):
    """Each step: the table analysed where it stands (its combats decided and kept), then maybe
    edited (a slide changes base contacts, not the units' shape keys), then moved by an offset:
    the moved table's analysis equals a cold one."""
    rs = load_ruleset(rid)
    board = dataclasses.replace(board, ruleset=rid)
    assume(len(combats(board, rs.values.contact_tolerance_mm)) >= 2)
    for (dx, dy), e in steps:
        analyse(board, rs)
        if e is not None:
            board = apply(board, e)
        there = moved(board, dx, dy)
        warm = json.dumps(analyse(there, rs).to_json(), indent=1)
        assert warm == cold(there, rs), (dx, dy, e)


def test_the_path_is_taken_for_position_free_policies_only():
    """whfb8 and t9a choose only deciding policies that read no position; The Old World's
    fighting rank reads distances, so its rulesets never reuse a decision."""
    assert congruent.usable(load_ruleset("whfb8")) and congruent.usable(load_ruleset("t9a"))
    assert not congruent.usable(load_ruleset("tow")) and not congruent.usable(load_ruleset("tow_2024"))


def test_a_shifted_table_reuses_each_combat_decision(monkeypatch):
    """Four separate combats shifted by a fresh offset: nothing is decided again (each combat's
    decision moved to the new centres), and the result is the cold one."""
    from game.engines.rank_and_file import engine

    rs = load_ruleset("whfb8")
    board = Board(units=[u for i in range(4) for u in tables_pair(i)], ruleset="whfb8", table=(5000.0, 1200.0))
    analyse(board, rs)
    calls = []
    real = engine.decide
    monkeypatch.setattr(engine, "decide", lambda c: calls.append(1) or real(c))
    there = moved(board, 12.3456, -7.891)
    warm = json.dumps(analyse(there, rs).to_json(), indent=1)
    assert calls == []
    monkeypatch.setattr(engine, "decide", real)
    assert warm == cold(there, rs)


def tables_pair(i: int):
    from tests.test_board_merge import _ranked

    a = _ranked(f"a{i}", 1, (20, 20), 5, 12, (1000.0 * i + 300.0, 500.0), 0.0, 1)
    b = _ranked(f"b{i}", 2, (25, 25), 4, 9, (1000.0 * i + 310.0, 500.0), 180.0, 2)
    return [a, b]


def test_a_slide_along_the_front_is_not_taken_for_the_decision_before_it():
    """A unit slid half a base along its enemy's front (other base contacts, the same units,
    formations and engagements), then the whole table moved: decided anew, as a cold analysis."""
    rs = load_ruleset("whfb8")
    board = Board(units=[u for i in range(3) for u in tables_pair(i)], ruleset="whfb8", table=(4000.0, 1200.0))
    board = board.with_unit(board.units[1].translated(-10.0, 0.0))  # bases square to each other
    analyse(board, rs)
    board = board.with_unit(board.units[1].translated(12.5, 0.0))  # half a base along the front
    there = moved(board, 3.21, 4.5)
    warm = json.dumps(analyse(there, rs).to_json(), indent=1)
    assert warm == cold(there, rs)


def test_a_moved_decision_holds_the_same_records_as_a_cold_one(monkeypatch):
    """Not only the same JSON: the moved decision's model results equal a cold analysis' as
    records (the targets of the same type too: the engine's tuples, shared, not made lists)."""
    from game.engines.rank_and_file import engine

    rs = load_ruleset("whfb8")
    board = Board(units=[u for i in range(3) for u in tables_pair(i)], ruleset="whfb8", table=(5000.0, 1200.0))
    analyse(board, rs)
    calls = []
    real = engine.decide
    monkeypatch.setattr(engine, "decide", lambda c: calls.append(1) or real(c))
    there = moved(board, -4.25, 9.5)
    warm = analyse(there, rs)
    assert calls == []  # every combat's decision moved
    monkeypatch.setattr(engine, "decide", real)
    lru.clear_all()
    fresh = analyse(copy.deepcopy(there), rs)
    assert any(r.targets for r in fresh.models.values())
    assert warm.models == fresh.models
