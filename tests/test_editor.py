"""The window's edits as pure commands (no pygame): the collision policy, manoeuvres up to
contact, unit properties, and one undo history with a clean saved state."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core import edits as ed
from game.core import geometry as g
from game.core.editor import Editor, n_models
from game.core.history import History
from game.core.scenario import dump_scenario, load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


@pytest.fixture()
def board():
    return load_scenario(SCENARIO)


def test_commands_never_change_their_input(board):
    before = dump_scenario(board)
    e = Editor()
    for ch in (e.turn(board, "night_goblins", 90), e.forward(board, "dwarfs", -25.4), e.reform(board, "dwarfs", 1),
               e.set_profile(board, "dwarfs", "initiative", "5"), e.delete(board, "goblins"),
               e.set_title(board, "x"), e.duplicate(board, "night_goblins")):
        assert ch.ok
    assert dump_scenario(board) == before


def test_forward_stops_at_contact_and_is_refused_when_blocked(board):
    e = Editor()
    back = e.forward(board, "dwarfs", -25.4)
    assert back.ok and back.moved == ("dwarfs", pytest.approx(25.4))
    again = e.forward(back.board, "dwarfs", 100.0)  # the goblins are 1" away: it stops flush
    assert again.ok and "stopped at contact" in again.message
    assert g.gap_mm(again.board.unit("dwarfs").tray(), again.board.unit("goblins").tray()) == pytest.approx(0, abs=0.02)
    assert not e.forward(again.board, "dwarfs", 10.0).ok


def test_charge_and_friend_refusal(board):
    e = Editor()
    friend = e.charge(board, "goblins", "night_goblins")
    assert not friend.ok and "friend" in friend.message
    ch = e.charge(board, "night_goblins", "dwarfs")
    assert ch.ok and "charged the left" in ch.message
    assert e.blocker(ch.board, ch.board.unit("night_goblins")) is None


def test_casualty_toggles_a_slot(board):
    e = Editor()
    u = board.unit("dwarfs")
    gone = e.casualty(board, u.slot_center(1, 1))
    assert gone.ok and gone.board.unit("dwarfs").empty == ["r1f1"]
    back = e.casualty(gone.board, u.slot_center(1, 1))
    assert back.ok and back.board.unit("dwarfs").empty == []


def test_unit_properties_validate(board):
    e = Editor()
    assert not e.set_profile(board, "dwarfs", "initiative", "x").ok
    assert not e.set_profile(board, "dwarfs", "initiative", "100").ok
    assert e.set_profile(board, "dwarfs", "initiative", "").board.unit("dwarfs").profile.get("initiative") is None
    assert e.set_last_rank(board, "dwarfs", "right").board.unit("dwarfs").last_rank == "right"
    assert not e.set_last_rank(board, "dwarfs", "middle").ok
    assert e.set_keywords(board, "dwarfs", "horde stubborn").board.unit("dwarfs").keywords == ["horde", "stubborn"]
    assert n_models(e.set_models(board, "dwarfs", "12").board.unit("dwarfs")) == 12
    assert not e.set_models(board, "dwarfs", "0").ok
    assert e.set_extra(board, "dwarfs", "weapon", "halberd").board.unit("dwarfs").extra["weapon"] == "halberd"
    parts = e.set_parts(board, "dwarfs", "rider 2/4, mount 1/3").board.unit("dwarfs").profile["parts"]
    assert [p["attacks"] for p in parts] == [2, 1]
    assert not e.set_parts(board, "dwarfs", "rider two").ok
    assert not e.set_title(board, "a\x00b").ok and not e.set_caption(board, "x" * 4001).ok  # the format: 4,000


def test_place_refuses_overlap_and_names_units(board):
    e = Editor()
    choice = ed.BASE_PALETTE[0]
    assert not e.place(board, choice, board.unit("dwarfs").center(), 1).ok
    ok = e.place(board, choice, (100.0, 100.0), 2, {"attacks": 1, "initiative": 3})
    u = ok.board.units[-1]
    assert ok.ok and ok.select == u.id and u.name == "Infantry 1" and u.profile["initiative"] == 3


def test_history_knows_the_saved_state():
    b0 = load_scenario(SCENARIO)
    h = History()
    saved = h.current_id
    h.record(b0.copy())
    h.record(b0.copy())
    assert h.current_id != saved and h.undo_depth == 2
    h.undo(b0, {})
    h.undo(b0, {})
    assert h.current_id == saved and h.redo_depth == 2
    h.redo(b0, {})
    assert h.current_id != saved
    h.undo(b0, {})
    h.record(b0.copy())  # a new edit after undo: the redo future is gone
    assert h.redo_depth == 0 and h.current_id != saved


def test_a_palette_unit_takes_its_id_from_its_new_name(board):
    e = Editor()
    placed = e.place(board, ed.BASE_PALETTE[0], (100.0, 100.0), 1)
    uid = placed.board.units[-1].id
    ch = e.rename(placed.board, uid, "Dwarf Warriors")
    assert ch.ok and ch.select == "dwarf_warriors" and ch.board.units[-1].id == "dwarf_warriors"
    assert e.rename(board, "dwarfs", "Iron Guard").board.unit("dwarfs").name == "Iron Guard"  # ids from files stay
