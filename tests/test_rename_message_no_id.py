"""Renaming a unit says so by its names only: a unit placed from the palette takes an id from
its new name too (so a saved file reads well), but the status line never names that id (the
README: texts never name models or units by their ids). Trial 38b read "Renamed Infantry 2 to
Red unit. Its id is now red_unit."."""
from __future__ import annotations

from pathlib import Path

from game.core import edits as ed
from game.core.editor import Editor
from game.core.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def test_renaming_a_placed_unit_names_it_without_its_new_id():
    board = load_scenario(SCENARIO)
    placed = Editor().place(board, ed.BASE_PALETTE[0], (100.0, 100.0), 2)
    assert placed.ok and placed.board is not None
    uid = next(u.id for u in placed.board.units if u.id not in {v.id for v in board.units})
    old_name = placed.board.unit(uid).name
    ch = Editor().rename(placed.board, uid, "Red unit")
    assert ch.ok and ch.board is not None and ch.select is not None
    new_id = ch.select
    assert new_id != uid and ch.board.unit(new_id).name == "Red unit"  # the id still follows the name
    assert ch.message == f"Renamed {old_name} to Red unit."
    assert new_id not in ch.message and uid not in ch.message
