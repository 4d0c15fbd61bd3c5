"""The status-line messages of placing and duplicating a unit name it the way a user knows it
(its name), never by its internal id (the README: texts never name models by their ids)."""
from __future__ import annotations

from pathlib import Path

from game.core import edits as ed
from game.core.editor import Editor
from game.core.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def test_place_message_names_the_unit_without_its_id():
    board = load_scenario(SCENARIO)
    ch = Editor().place(board, ed.BASE_PALETTE[0], (100.0, 100.0), 1)
    assert ch.ok
    new = [u for u in ch.board.units if u.id not in {v.id for v in board.units}][0]
    assert new.name in ch.message
    assert new.id not in ch.message


def test_add_unit_message_names_the_unit_without_its_id():
    board = load_scenario(SCENARIO)
    u = ed.new_unit(board, ed.BASE_PALETTE[0], (100.0, 100.0), 2)
    ch = Editor().add_unit(board, u)
    assert ch.ok and u.name in ch.message and u.id not in ch.message


def test_duplicate_message_names_the_copy_without_its_id():
    board = load_scenario(SCENARIO)
    ch = Editor().duplicate(board, "night_goblins")
    assert ch.ok
    copy = [u for u in ch.board.units if u.id not in {v.id for v in board.units}][0]
    assert copy.name in ch.message
    assert copy.id not in ch.message
