"""The window's fields and pygame_gui windows, driven headless (SDL dummy video driver): typing
in a text field goes to the field only, the close button and Esc close each window, F2 toggles
the unit panel, which leaves the legend free, and the wheel over a window neither zooms nor
turns."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.core.scenario import board_to_dict  # noqa: E402
from apputil import key, make_app, move_mouse  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


@pytest.fixture()
def battle(tmp_path):
    path = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, path)
    return make_app(path)


def type_text(app, text):
    """Key presses the way SDL sends them: KEYDOWN, then TEXTINPUT with the character."""
    for ch in text:
        k = pygame.key.key_code(ch) if ch != " " else pygame.K_SPACE
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=ch))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0))
        app.frame()


def click_px(app, px):
    move_mouse(app, px)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=px, button=1))
    app.frame()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=px, button=1))
    app.frame()
    app.frame()


# -- typing in a text field goes to the field only --------------------------------------
def test_typing_in_the_name_field_fires_no_board_shortcut(battle):
    app = battle
    app.table.select("dwarfs")
    key(app, pygame.K_F2)
    app.key(pygame.K_RETURN)
    entry = app.panels.unit.entry("name")
    assert entry.is_focused
    entry.set_text("")
    board0 = board_to_dict(app.doc.board)
    view0 = (app.table.camera.scale, app.table.camera.offset_px)
    tool0, rules0, undo0 = app.table.tool, app.doc.rs.id, app.doc.session.history.undo_depth
    type_text(app, "Wolf Riders tdbwsrqe3[].,+-fl")
    assert entry.get_text() == "Wolf Riders tdbwsrqe3[].,+-fl"
    assert board_to_dict(app.doc.board) == board0
    assert app.table.tool == tool0 and app.doc.rs.id == rules0 and app.doc.session.history.undo_depth == undo0
    assert (app.table.camera.scale, app.table.camera.offset_px) == view0
    assert app.table.options.legend
    key(app, pygame.K_RETURN)
    app.frame()
    assert app.doc.board.unit("dwarfs").name == "Wolf Riders tdbwsrqe3[].,+-fl"
    assert app.doc.session.history.undo_depth == undo0 + 1 and app.doc.rs.id == rules0
    # Esc leaves the field; then the keys are board shortcuts again
    app.gui.focus(entry)
    key(app, pygame.K_ESCAPE)
    assert not entry.is_focused
    key(app, pygame.K_3)
    assert app.table.tool == "wheel"


def test_typing_a_digit_in_the_files_field_keeps_the_tool(battle):
    app = battle
    app.table.select("dwarfs")
    key(app, pygame.K_F2)
    files = app.panels.unit.entry("files")
    app.gui.focus(files)
    files.set_text("")
    type_text(app, "3")
    assert app.table.tool == "move" and files.get_text() == "3"


# -- the x of a window closes it; Esc closes the panels; F2 toggles ----------------------
def _close_px(window):
    return window.close_window_button.rect.center


@pytest.mark.parametrize("opener, attr", [(pygame.K_F1, "help"), (pygame.K_u, "palette"), (pygame.K_F2, "unit")])
def test_the_close_button_closes_each_window(battle, opener, attr):
    app = battle
    app.table.select("dwarfs")
    key(app, opener)
    window = app.opened(attr)
    assert window is not None and window.alive()
    click_px(app, _close_px(window))
    assert app.opened(attr) is None and not window.alive()
    key(app, opener)  # and it opens again
    assert app.opened(attr) is not None and app.opened(attr).alive()


def test_esc_closes_the_panels_and_f2_toggles_the_unit_panel(battle):
    app = battle
    app.table.select("dwarfs")
    key(app, pygame.K_u)
    key(app, pygame.K_F2)
    assert app.opened("unit") is not None and app.opened("palette") is not None
    app.gui.focus(None)
    key(app, pygame.K_ESCAPE)
    assert app.opened("unit") is None and app.opened("palette") is not None
    key(app, pygame.K_ESCAPE)
    assert app.opened("palette") is None and app.table.selection == "dwarfs"  # Esc closed windows only
    key(app, pygame.K_F2)
    assert app.opened("unit") is not None
    app.gui.focus(None)
    key(app, pygame.K_F2)
    assert app.opened("unit") is None


def test_the_unit_panel_leaves_the_legend_free(battle):
    from game.render.scene import scene_layout

    app = battle
    app.table.select("dwarfs")
    key(app, pygame.K_F2)
    lay = app.table.layout()
    legend = pygame.Rect(*[int(v) for v in lay.panel])
    assert not app.opened("unit").rect.colliderect(legend)


# -- the wheel over a pygame_gui window goes to the window only -------------------------
def wheel(app, dy, mod=0):
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=dy, flipped=False, precise_x=0.0,
                                         precise_y=float(dy)))
    app.frame()


@pytest.mark.parametrize("opener, attr", [(pygame.K_F1, "help"), (pygame.K_u, "palette")])
def test_the_wheel_over_a_window_neither_zooms_nor_turns(battle, opener, attr):
    app = battle
    key(app, opener)
    window = app.opened(attr)
    move_mouse(app, window.rect.center)
    view0 = (app.table.camera.scale, app.table.camera.offset_px)
    wheel(app, 1)
    wheel(app, -2)
    assert (app.table.camera.scale, app.table.camera.offset_px) == view0  # nothing selected: the wheel would zoom
    app.table.select("dwarfs")
    facing = app.doc.board.unit("dwarfs").facing_deg
    wheel(app, 1)
    assert app.doc.board.unit("dwarfs").facing_deg == facing and not app.doc.session.history.undo_depth  # ... or turn
    # over the table the wheel still zooms (nothing selected)
    app.select(None)
    from game.render.scene import scene_layout

    left, top, tw, th = app.table.layout().table
    move_mouse(app, (left + 20, top + th - 20))  # bottom left of the table: clear of every window
    assert not app.gui.over(app.window.mouse_px)
    wheel(app, 1)
    assert app.table.camera.scale > view0[0]
