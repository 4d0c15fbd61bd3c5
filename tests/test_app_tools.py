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
    from game.view.app import App

    path = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, path)
    a = App(load_scenario(path), path=str(path), size=(1400, 880))
    a.frame()
    return a


def key(app, k, mod=0):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=""))
    app.frame()


def click(app, p_mm, button=1):
    px = app.view.to_px(p_mm)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=px, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=px, button=button))
    app.frame()


def drag(app, a_mm, b_mm, frames=3):
    a, b = app.view.to_px(a_mm), app.view.to_px(b_mm)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
    app.frame()
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=b, rel=(0, 0), buttons=(1, 0, 0)))
    for _ in range(frames):
        app.frame()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))
    app.frame()


def select(app, uid):
    app.set_tool("move")
    click(app, app.board.unit(uid).center())
    assert app.selection == uid


def test_forward_back_keys_stop_at_contact_and_undo_redo(app):
    select(app, "dwarfs")
    y0 = app.board.unit("dwarfs").front[1]
    key(app, pygame.K_s)
    assert app.board.unit("dwarfs").front[1] == pytest.approx(y0 + 25.4)
    assert set(app.roles("dwarfs").values()) == {"none"}
    assert '1.0" (25.4 mm)' in app.status_text()
    key(app, pygame.K_w)
    key(app, pygame.K_w)  # blocked: the goblins are in the way
    assert app.board.unit("dwarfs").front[1] == pytest.approx(y0, abs=0.5)
    assert app.roles("dwarfs")["dwarfs.r1f1"] == "attack"
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.board.unit("dwarfs").front[1] == pytest.approx(y0)
    key(app, pygame.K_z, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    assert app.board.unit("dwarfs").front[1] == pytest.approx(y0 + 25.4)


def test_forward_tool_drag_moves_only_along_facing(app):
    ng = app.board.unit("night_goblins")  # faces east
    key(app, pygame.K_2)
    assert app.tool == "forward"
    c = ng.center()
    drag(app, c, (c[0] + 50, c[1] + 40))
    new = app.board.unit("night_goblins")
    assert new.front == pytest.approx((ng.front[0] + 50, ng.front[1]))
    assert app.undo_stack


def test_wheel_turn_reform_keys(app):
    select(app, "night_goblins")
    fl, fr = (app.board.unit("night_goblins").tray().points[:2])
    key(app, pygame.K_d)  # wheel right 15 deg about the front-right corner
    u = app.board.unit("night_goblins")
    assert u.facing_deg == pytest.approx(105) and u.tray().points[1] == pytest.approx(fr)
    key(app, pygame.K_t)
    assert app.board.unit("night_goblins").facing_deg == pytest.approx(195)
    key(app, pygame.K_b)
    assert app.board.unit("night_goblins").facing_deg == pytest.approx(15)
    key(app, pygame.K_RIGHTBRACKET)
    assert app.board.unit("night_goblins").files == 6
    key(app, pygame.K_LEFTBRACKET)
    key(app, pygame.K_LEFTBRACKET)
    assert app.board.unit("night_goblins").files == 4


def test_toolbar_button_turns_the_unit(app):
    select(app, "night_goblins")
    r = app.button_rect("turn:90")
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=r.center, rel=(0, 0), buttons=(0, 0, 0)))
    app.frame()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=r.center, button=1))
    app.frame()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=r.center, button=1))
    app.frame()
    app.frame()
    assert app.board.unit("night_goblins").facing_deg == pytest.approx(180)


def test_charge_into_flank_and_refusal(app):
    select(app, "night_goblins")
    key(app, pygame.K_c)
    click(app, app.board.unit("dwarfs").center())
    ng = app.board.unit("night_goblins")
    assert ng.facing_deg == pytest.approx(90)
    assert g.gap_mm(ng.tray(), app.board.unit("dwarfs").tray()) == pytest.approx(0, abs=1e-6)
    assert app.roles("dwarfs")["dwarfs.r1f1"] == "attack" and app.roles("dwarfs")["dwarfs.r4f1"] == "attack"
    assert "charged the left of Dwarf Warriors" in app.message
    # from up here the night goblins' centre lies in the dwarfs' front arc: that front is taken
    ng = app.board.unit("night_goblins")
    app.board.replace_unit(ng.translated(430 - ng.front[0], 310 - ng.front[1]))  # tray x 370-430, y 260-360
    app.space.sync(app.board)
    before = app.board.unit("night_goblins").front
    select(app, "night_goblins")
    key(app, pygame.K_c)
    click(app, app.board.unit("goblins").center())
    assert "friend" in app.message and app.board.unit("night_goblins").front == pytest.approx(before)
    click(app, app.board.unit("dwarfs").center())  # dwarfs' front is taken by the goblins
    assert "refused" in app.message and "Goblin Spearmen" in app.message
    assert app.board.unit("night_goblins").front == pytest.approx(before)


def test_casualty_remove_and_restore(app):
    key(app, pygame.K_x)
    u = app.board.unit("dwarfs")
    click(app, u.slot_center(1, 1))
    assert app.board.unit("dwarfs").empty == ["r1f1"]
    assert "dwarfs.r1f1" not in app.analysis.models
    click(app, u.slot_center(1, 1))
    assert app.board.unit("dwarfs").empty == []
    assert app.analysis.models["dwarfs.r1f1"].role == "attack"


def test_tape_reads_edge_to_edge_and_zero_when_touching(app):
    key(app, pygame.K_m)
    ng, dw = app.board.unit("night_goblins"), app.board.unit("dwarfs")
    a = ng.slot_center(1, 3)
    b = dw.slot_center(3, 1)
    drag(app, a, b)
    expect = g.gap_mm(ng.models()[2].shape, next(m for m in dw.models() if m.slot == "r3f1").shape)
    assert app.tape["gap_mm"] == pytest.approx(expect)
    assert f"{expect / 25.4:.1f}\"" in app.tape["text"]
    drag(app, dw.slot_center(1, 5), app.board.unit("goblins").slot_center(1, 6))
    assert app.tape["gap_mm"] == 0 and app.tape["text"].startswith('0"')


def test_save_round_trips_and_autosave_on_quit(app, tmp_path):
    select(app, "dwarfs")
    key(app, pygame.K_s)
    assert app.dirty
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    saved = tmp_path / "battle.yaml"
    assert not app.dirty  # the text keeps the source file's layout (lossless save); the meaning is the board
    assert dump_scenario(load_scenario(saved)) == dump_scenario(app.board)
    key(app, pygame.K_e)  # an unsaved change ...
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.frame()
    auto = tmp_path / "battle.autosave.yaml"
    assert not app.running and auto.exists()  # ... is kept on quit
    assert load_scenario(auto).unit("dwarfs").facing_deg == pytest.approx(15)
    assert load_scenario(saved).unit("dwarfs").facing_deg == pytest.approx(0)


def test_f1_help_lists_every_shortcut(app):
    from game.view.app import SHORTCUTS

    key(app, pygame.K_F1)
    assert app.help_window is not None and app.help_window.alive()
    text = app.help_text()
    for k, v in SHORTCUTS:
        assert k in text and v in text
    key(app, pygame.K_F1)
    assert app.help_window is None
