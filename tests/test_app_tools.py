"""The hands-on table: every tool driven headless through pygame events."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.core import geometry as g  # noqa: E402
from game.core.scenario import dump_scenario, load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


@pytest.fixture()
def app(tmp_path):
    from apputil import make_app

    shutil.copy(SCENARIO, tmp_path / "battle.yaml")
    return make_app(tmp_path / "battle.yaml", recent_file=tmp_path / "recent.json")


def key(app, k, mod=0):
    app.key(k, mod)


def click(app, p_mm, button=1):
    px = app.table.camera.to_px(p_mm)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=px, button=button))
    app.release(px, button)


def drag(app, a_mm, b_mm, frames=3):
    a, b = app.table.camera.to_px(a_mm), app.table.camera.to_px(b_mm)
    app.press(a)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=b, rel=(0, 0), buttons=(1, 0, 0)))
    app.frame(frames)
    app.release(b)


def select(app, uid):
    app.select(uid)


def test_forward_back_keys_stop_at_contact_and_undo_redo(app):
    select(app, "dwarfs")
    y0 = app.doc.board.unit("dwarfs").front[1]
    key(app, pygame.K_s)
    assert app.doc.board.unit("dwarfs").front[1] == pytest.approx(y0 + 25.4)
    assert set(app.doc.roles("dwarfs").values()) == {"none"}
    assert '1.0" (25.4 mm)' in app.status_line()
    key(app, pygame.K_w)
    key(app, pygame.K_w)  # blocked: the goblins are in the way
    assert app.doc.board.unit("dwarfs").front[1] == pytest.approx(y0, abs=0.5)
    assert app.doc.roles("dwarfs")["dwarfs.r1f1"] == "attack"
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.doc.board.unit("dwarfs").front[1] == pytest.approx(y0)
    key(app, pygame.K_z, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    assert app.doc.board.unit("dwarfs").front[1] == pytest.approx(y0 + 25.4)


def test_forward_tool_drag_moves_only_along_facing(app):
    ng = app.doc.board.unit("night_goblins")  # faces east
    key(app, pygame.K_2)
    assert app.table.tool == "forward"
    c = ng.center()
    drag(app, c, (c[0] + 50, c[1] + 40))
    new = app.doc.board.unit("night_goblins")
    assert new.front == pytest.approx((ng.front[0] + 50, ng.front[1]))
    assert app.doc.session.history.undo_depth == 1


def test_wheel_turn_reform_keys(app):
    select(app, "night_goblins")
    fl, fr = (app.doc.board.unit("night_goblins").tray().points[:2])
    key(app, pygame.K_d)  # wheel right 15 deg about the front-right corner
    u = app.doc.board.unit("night_goblins")
    assert u.facing_deg == pytest.approx(105) and u.tray().points[1] == pytest.approx(fr)
    key(app, pygame.K_t)
    assert app.doc.board.unit("night_goblins").facing_deg == pytest.approx(195)
    key(app, pygame.K_b)
    assert app.doc.board.unit("night_goblins").facing_deg == pytest.approx(15)
    key(app, pygame.K_RIGHTBRACKET)
    assert app.doc.board.unit("night_goblins").files == 6
    key(app, pygame.K_LEFTBRACKET)
    key(app, pygame.K_LEFTBRACKET)
    assert app.doc.board.unit("night_goblins").files == 4


def test_toolbar_button_turns_the_unit(app):
    select(app, "night_goblins")
    app.button("turn:90")
    assert app.doc.board.unit("night_goblins").facing_deg == pytest.approx(180)


def test_charge_into_flank_and_refusal(app):
    select(app, "night_goblins")
    key(app, pygame.K_c)
    click(app, app.doc.board.unit("dwarfs").center())
    ng = app.doc.board.unit("night_goblins")
    assert ng.facing_deg == pytest.approx(90)
    assert g.gap_mm(ng.tray(), app.doc.board.unit("dwarfs").tray()) == pytest.approx(0, abs=1e-6)
    assert app.doc.roles("dwarfs")["dwarfs.r1f1"] == "attack" and app.doc.roles("dwarfs")["dwarfs.r4f1"] == "attack"
    assert "charged the left of Dwarf Warriors" in app.status.message
    # from up here the night goblins' centre lies in the dwarfs' front arc: that front is taken
    ng = app.doc.board.unit("night_goblins")
    app.put_unit(ng.translated(430 - ng.front[0], 310 - ng.front[1]))  # tray x 370-430, y 260-360
    before = app.doc.board.unit("night_goblins").front
    select(app, "night_goblins")
    key(app, pygame.K_c)
    click(app, app.doc.board.unit("goblins").center())
    assert "friend" in app.status.message and app.doc.board.unit("night_goblins").front == pytest.approx(before)
    click(app, app.doc.board.unit("dwarfs").center())  # dwarfs' front is taken by the goblins
    assert "refused" in app.status.message and "Goblin Spearmen" in app.status.message
    assert app.doc.board.unit("night_goblins").front == pytest.approx(before)


def test_casualty_remove_and_restore(app):
    key(app, pygame.K_x)
    u = app.doc.board.unit("dwarfs")
    click(app, u.slot_center(1, 1))
    assert app.doc.board.unit("dwarfs").empty == ["r1f1"]
    assert "dwarfs.r1f1" not in app.doc.analysis.models
    click(app, u.slot_center(1, 1))
    assert app.doc.board.unit("dwarfs").empty == []
    assert app.doc.analysis.models["dwarfs.r1f1"].role == "attack"


def test_tape_reads_edge_to_edge_and_zero_when_touching(app):
    key(app, pygame.K_m)
    ng, dw = app.doc.board.unit("night_goblins"), app.doc.board.unit("dwarfs")
    a = ng.slot_center(1, 3)
    b = dw.slot_center(3, 1)
    drag(app, a, b)
    expect = g.gap_mm(ng.models()[2].shape, next(m for m in dw.models() if m.slot == "r3f1").shape)
    assert app.table.tape_tool.tape["gap_mm"] == pytest.approx(expect)
    assert f"{expect / 25.4:.1f}\"" in app.table.tape_tool.tape["text"]
    drag(app, dw.slot_center(1, 5), app.doc.board.unit("goblins").slot_center(1, 6))
    assert app.table.tape_tool.tape["gap_mm"] == 0 and app.table.tape_tool.tape["text"].startswith('0"')


def test_save_round_trips_and_closing_asks_about_unsaved_changes(app, tmp_path):
    select(app, "dwarfs")
    key(app, pygame.K_s)
    assert app.doc.dirty and "unsaved" in app.status_line()
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    saved = tmp_path / "battle.yaml"
    assert not app.doc.dirty  # the text keeps the source file's layout (lossless save); the meaning is the board
    assert dump_scenario(load_scenario(saved)) == dump_scenario(app.doc.board)
    key(app, pygame.K_e)  # an unsaved change ...
    app.post(pygame.event.Event(pygame.QUIT))
    assert app.window.running and app.dialogs.top() is not None  # ... closing asks Save / Discard / Cancel
    app.answer("Cancel")
    assert app.window.running and app.doc.dirty
    app.post(pygame.event.Event(pygame.QUIT))
    app.answer("Save")
    assert not app.window.running and not app.doc.dirty
    assert load_scenario(saved).unit("dwarfs").facing_deg == pytest.approx(15)


def test_undo_back_to_the_saved_board_is_clean(app):
    select(app, "night_goblins")
    key(app, pygame.K_e)
    key(app, pygame.K_e)
    assert app.doc.dirty
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert not app.doc.dirty and "saved" in app.status.message
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert app.doc.dirty
    key(app, pygame.K_q, pygame.KMOD_CTRL)  # quit with unsaved changes: Discard closes, the file stays
    app.answer("Discard")
    assert not app.window.running


def test_f1_help_lists_every_shortcut(app):
    from game.window.keymap import MOUSE, KeyMap

    key(app, pygame.K_F1)
    assert app.opened("help") is not None and app.opened("help").alive()
    text = app.help.text()
    for b in KeyMap().bindings + MOUSE:
        assert all(k in text for k in b.keys) and (b.help in text or b.group)
    key(app, pygame.K_F1)
    assert app.opened("help") is None
