"""The board and its units are values: setting a field of a loaded unit or board raises; an edit
(by the editor, a manoeuvre, a drag in the window) makes a new board that shares, by identity,
every unit it leaves alone, and never changes the board it was made from; a long drag keeps no
old pose of the dragged unit alive (a unit keeps its own models, so one held is one too many)."""
import dataclasses
import gc
import weakref

import pytest

from apputil import SCENARIOS, make_app
from game.core import manoeuvre as mv
from game.core.editor import Editor
from game.core.scenario import load_scenario

HORDE = SCENARIOS / "dwarf_horde_vs_goblins.yaml"


def test_setting_a_field_of_a_loaded_unit_or_board_raises():
    board = load_scenario(HORDE)
    u = board.units[0]
    assert type(board.units) is tuple
    for name, value in (("front", (1.0, 2.0)), ("facing_deg", 90.0), ("count", 3), ("name", "x"), ("placed", [])):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(u, name, value)
    for name, value in (("units", ()), ("ruleset", "t9a"), ("context", {}), ("title", "x")):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(board, name, value)
    with pytest.raises(TypeError):
        board.units[0] = u  # type: ignore[index]


def _poses(board) -> dict:
    return {u.id: (u.pose_key(), repr(u)) for u in board.units}


@pytest.mark.parametrize("edit", ["forward", "turn", "rename", "profile", "files", "group", "duplicate", "delete"])
def test_an_edit_shares_the_units_it_leaves_alone(edit):
    board = load_scenario(HORDE)
    before = _poses(board)
    ed = Editor()
    uid = "night_goblins"
    ch = {
        "forward": lambda: ed.forward(board, uid, -10.0),
        "turn": lambda: ed.turn(board, uid, 180.0),
        "rename": lambda: ed.rename(board, uid, "Night Gobbos"),
        "profile": lambda: ed.set_profile(board, uid, "attacks", "3"),
        "files": lambda: ed.set_files(board, uid, "4"),
        "group": lambda: ed.move_group(board, [uid, "goblins"], -10.0, 0.0),
        "duplicate": lambda: ed.duplicate(board, uid),
        "delete": lambda: ed.delete(board, uid),
    }[edit]()
    assert ch.ok and ch.board is not None and ch.board is not board, ch.message
    changed = {"group": {uid, "goblins"}, "duplicate": set()}.get(edit, {uid})  # (a copy is a unit more)
    assert len(ch.board.units) == len(board.units) + {"duplicate": 1, "delete": -1}.get(edit, 0)
    for u in board.units:
        if u.id in changed:
            assert edit == "delete" or ch.board.unit(u.id) is not u
        else:
            assert ch.board.unit(u.id) is u  # the very same unit object: its identity says it is unchanged
    assert _poses(board) == before  # the board edited is as it was


def test_a_manoeuvre_makes_a_new_unit_and_leaves_the_old_one():
    u = load_scenario(HORDE).unit("goblins")
    key = u.pose_key()
    moved = mv.forward(u, 25.0)
    assert moved is not u and moved.pose_key() != key and u.pose_key() == key
    assert moved.profile is u.profile  # what the move leaves alone is shared, not copied


def test_a_drag_in_the_window_shares_the_units_standing_still(tmp_path):
    d = make_app(HORDE, copy_to=tmp_path)
    start = d.doc.board
    before = _poses(start)
    g = start.unit("goblins")
    d.drag(g.center(), (g.center()[0] - 40.0, g.center()[1] - 60.0), frames=20)
    d.frame()
    now = d.doc.board
    assert now.unit("goblins").pose_key() != g.pose_key()  # it moved
    for u in start.units:
        if u.id != "goblins":
            assert now.unit(u.id) is u
    assert _poses(start) == before  # the drag never changed the board it started from


def test_a_long_drag_keeps_no_old_pose_of_the_dragged_unit_alive(tmp_path):
    d = make_app(HORDE, copy_to=tmp_path)
    t = d.app.table
    g = d.doc.board.unit("goblins")
    a = t.camera.to_px(g.center())
    d.move_mouse(a)
    d.press(a)
    held = []
    for k in range(60):
        d.move_mouse((a[0] - k * 0.7, a[1] - 1.0 - (k % 7)), (1, 0, 0))
        d.frame()
        held.append(weakref.ref(d.doc.board.unit("goblins")))
    d.release((a[0] - 42, a[1]))
    d.frame()
    gc.collect()
    alive = sum(r() is not None for r in held)
    assert len({id(r) for r in held}) == 60 and alive <= 4, alive
