"""The authoring parts of the window: demo recorder (F6), position / facing fields, unit
templates in the palette, the charge that keeps its angle, the drag readout."""
from __future__ import annotations

import pygame
import pytest

from game.core.bases import RectBase
from game.core import manoeuvre as mv
from game.core.demo import build_steps, load_demo
from game.window.demo_play import DemoPlayView

from tests.apputil import SCENARIOS, make_app, make_blank

SCENARIO = SCENARIOS / "dwarf_horde_vs_goblins.yaml"


def test_record_play_save_reopen_and_export(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)
    d.action("demo_recorder")
    rec = d.recorder
    assert rec.alive()
    rec.set_text("title", "Recorded here")
    rec.set_text("caption", "Two blocks meet.")
    rec.run("add")
    d.put_unit(mv.forward(d.doc.board.unit("night_goblins"), 30))
    rec.set_text("caption", "The Night Goblins come on.")
    rec.set_text("ring", "night_goblins")
    rec.run("add")
    rec.set_text("caption", "Goblins strike.")
    rec.set_text("strike", "1")
    rec.set_text("casualties", "dwarfs: r1f1")
    rec.run("add")
    assert rec.rec.labels() == ["1. Two blocks meet.", "2. The Night Goblins come on.", "3. Goblins strike."]
    rec.run("play")
    assert isinstance(d.window.view, DemoPlayView)
    first_button = d.toolbar.rects()[0].center
    assert not rec.window.visible and not d.gui.over(first_button)          # the demo has the whole window
    d.key(pygame.K_RIGHT)
    assert d.window.view.index == 1
    d.key(pygame.K_ESCAPE)
    assert not isinstance(d.window.view, DemoPlayView) and rec.alive() and rec.window.visible
    assert d.gui.over(first_button)
    out = tmp_path / "recorded.yaml"
    rec.run("save")
    d.pick_file(str(out))
    d.frame()
    assert "Saved the demo (3 steps)" in d.status.message
    steps = build_steps(load_demo(out))
    assert [s.caption for s in steps] == ["Two blocks meet.", "The Night Goblins come on.", "Goblins strike."]
    # reopen, edit the first caption, save again
    rec.rec = type(rec.rec)()
    rec.run("open")
    d.pick_file(str(out))
    d.frame()
    assert len(rec.rec.steps) == 3
    rec.rec.index = 0
    rec.run("show")
    rec.set_text("caption", "Edited.")
    rec.run("update")
    rec.run("save")
    assert build_steps(load_demo(out))[0].caption == "Edited."
    page = tmp_path / "recorded.html"
    rec.run("html")
    d.pick_file(str(page))
    d.frame()
    assert page.read_text().count('<section class="step"') == 3


def test_a_bad_mark_is_refused_and_said(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)
    d.action("demo_recorder")
    d.recorder.set_text("caption", "x")
    d.recorder.set_text("ring", "orcs")
    d.recorder.run("add")
    assert "no model or unit 'orcs'" in d.status.message and not d.recorder.rec.steps


def test_position_and_facing_fields(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)
    d.table.select("night_goblins")
    d.action("panel")
    d.frame()
    assert {"x", "y", "facing"} <= set(d.panels.unit.els)
    d.enter_text(d.panels.unit.entry("x"), "150")
    assert d.doc.board.unit("night_goblins").front[0] == pytest.approx(150)
    d.enter_text(d.panels.unit.entry("facing"), "45")
    assert d.doc.board.unit("night_goblins").facing_deg == pytest.approx(45)


def test_templates_in_the_palette_make_units():
    d = make_blank(ruleset="t9a")
    d.action("palette")
    d.frame()
    b = d.panels.palette.button_for("Knights 25x50")
    assert b is not None
    d.table.arm_place(d.panels.palette.buttons[b])
    d.click((800.0, 450.0))
    assert d.doc.board.units, d.status.message
    u = d.doc.board.units[-1]
    assert u.name.startswith("Knights") and u.profile["height"] == 2 and u.base == RectBase(25.0, 50.0)


def test_charge_keeps_the_angle_under_t9a(tmp_path):
    d = make_app(SCENARIOS / "t9a_misaligned_no_cap.yaml", copy_to=tmp_path)
    before = d.doc.board.unit("goblins").facing_deg
    d.put_unit(mv.forward(d.doc.board.unit("goblins"), -60))
    d.action("tool:charge")
    d.click(d.doc.board.unit("goblins").center())
    d.click(d.doc.board.unit("dwarfs").center())
    assert "keeping its angle" in d.status.message
    assert d.doc.board.unit("goblins").facing_deg == pytest.approx(before)


def test_drag_shows_the_readout(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)
    u = d.doc.board.unit("night_goblins")
    a = d.table.camera.to_px(u.center())
    d.move_mouse(a)
    d.press(a)
    d.move_mouse((a[0] + 40, a[1]), (1, 0, 0))
    d.frame(5)
    kinds = [o[0] for o in d.table.options.overlays]
    assert "drag_readout" in kinds
    r = next(o for o in d.table.options.overlays if o[0] == "drag_readout")[3]
    assert r.unit == "in" and r.lines()[0].startswith("moved ")
    d.release((a[0] + 40, a[1]))


def test_q_and_e_turn_the_dragged_unit(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)
    u = d.doc.board.unit("night_goblins")
    f0 = u.facing_deg
    a = d.table.camera.to_px(u.center())
    d.move_mouse(a)
    d.press(a)
    d.move_mouse((a[0] + 20, a[1]), (1, 0, 0))
    d.frame(3)
    d.key(pygame.K_e)
    d.frame(3)
    assert d.table.busy() and d.doc.board.unit("night_goblins").facing_deg == pytest.approx((f0 + 15) % 360)
    d.key(pygame.K_q, pygame.KMOD_SHIFT)
    d.frame(3)
    assert d.doc.board.unit("night_goblins").facing_deg == pytest.approx((f0 + 14) % 360)
    d.release((a[0] + 20, a[1]))


def test_several_units_selected_move_and_turn_together(tmp_path, monkeypatch):
    d = make_app(SCENARIO, copy_to=tmp_path)
    t = d.table
    t.select("goblins")
    t.toggle_in_selection("night_goblins")
    assert t.selected_ids() == ["goblins", "night_goblins"]
    g0, n0 = d.doc.board.unit("goblins").center(), d.doc.board.unit("night_goblins").center()
    d.action("turn:90")
    assert t.selected_ids() == ["goblins", "night_goblins"]           # still both after the turn
    f_g, f_n = d.doc.board.unit("goblins").facing_deg, d.doc.board.unit("night_goblins").facing_deg
    d.action("turn:-90")
    assert d.doc.board.unit("goblins").center() == pytest.approx(g0) and d.doc.board.unit("night_goblins").center() == pytest.approx(n0)
    assert f_g != d.doc.board.unit("goblins").facing_deg and f_n != d.doc.board.unit("night_goblins").facing_deg
    # drag one: the other follows by the same amount
    u = d.doc.board.unit("night_goblins")
    a = t.camera.to_px(u.center())
    d.move_mouse(a)
    d.press(a)
    for i in range(1, 6):  # up the table: away from the Dwarfs the Goblins touch
        d.move_mouse((a[0], a[1] - 8 * i), (1, 0, 0))
    d.frame(20)
    d.release((a[0], a[1] - 40))
    dn = d.doc.board.unit("night_goblins").center()[1] - n0[1]
    dg = d.doc.board.unit("goblins").center()[1] - g0[1]
    assert dn < -1 and dg == pytest.approx(dn, abs=0.01)
    # a box drag on the empty table selects what it holds
    t.select(None)
    l, tp, w, h = t.layout().table
    box_a, box_b = (l + 3, tp + 3), (l + w - 3, tp + h - 3)
    monkeypatch.setattr(t, "body_at", lambda p: None)
    d.move_mouse(box_a)
    d.press(box_a)
    d.move_mouse(box_b, (1, 0, 0))
    d.release(box_b)
    assert len(t.selected_ids()) == len(d.doc.board.units)


def test_open_starts_in_the_scenarios_folder_and_enter_opens():
    import pygame_gui

    d = make_blank()
    d.action("open")
    dlg = d.dialogs.top()
    assert dlg is not None
    assert dlg.window.current_directory_path == str(SCENARIOS)    # a new board: the bundled scenarios
    line = dlg.window.file_path_text_line
    line.set_text(str(SCENARIO))
    d.post(pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_FINISHED, text=str(SCENARIO), ui_element=line))
    d.frame(2)
    assert [u.id for u in d.doc.board.units] == ["dwarfs", "goblins", "night_goblins"]


def test_the_tape_snaps_to_a_base_corner(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)
    d.action("tool:tape")
    ng = d.doc.board.unit("night_goblins")
    corner = ng.tray().points[0]
    near = (corner[0] + 1.0, corner[1] + 1.0)            # a hair off the corner
    far = (corner[0] + 1.0, corner[1] - 120.0)           # empty table above it
    d.drag(near, far)
    t = d.table.tape_tool.tape
    assert t["p0"] == pytest.approx(corner)               # the end sits on the corner itself
    assert t["gap_mm"] == pytest.approx(120.0, abs=0.5)   # from the corner, not from the model's edge (119)
