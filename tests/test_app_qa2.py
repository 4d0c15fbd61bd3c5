"""Window defects of the second QA pass, driven headless (SDL dummy video driver): typing in a
text field, the close buttons of the pygame_gui windows, slow analyses while dragging, the
Fight phase steps, the wheel over a window, undo and the distance moved, the status line."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.core.scenario import board_to_dict, load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
PILE_IN = ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml"


def make_app(path, size=(1400, 880)):
    from game.view.app import App

    a = App(load_scenario(path), path=str(path), size=size)
    a.frame()
    return a


@pytest.fixture()
def battle(tmp_path):
    path = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, path)
    return make_app(path)


def key(app, k, mod=0, text=""):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=text))
    app.frame()


def type_text(app, text):
    """Key presses the way SDL sends them: KEYDOWN, then TEXTINPUT with the character."""
    for ch in text:
        k = pygame.key.key_code(ch) if ch != " " else pygame.K_SPACE
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=ch))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0))
        app.frame()


def move_mouse(app, px, buttons=(0, 0, 0)):
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=px, rel=(0, 0), buttons=buttons))
    app.frame()


def click_px(app, px):
    move_mouse(app, px)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=px, button=1))
    app.frame()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=px, button=1))
    app.frame()
    app.frame()


# -- P1-1: typing in a text field goes to the field only --------------------------------------
def test_typing_in_the_name_field_fires_no_board_shortcut(battle):
    app = battle
    app.select("dwarfs")
    key(app, pygame.K_F2)
    entry = app.unit_panel.entry("name")
    assert entry.is_focused
    entry.set_text("")
    board0 = board_to_dict(app.board)
    view0 = (app.view.scale, app.view.offset_px)
    tool0, rules0, undo0 = app.tool, app.rs.id, len(app.undo_stack)
    type_text(app, "Wolf Riders tdbwsrqe3[].,+-fl")
    assert entry.get_text() == "Wolf Riders tdbwsrqe3[].,+-fl"
    assert board_to_dict(app.board) == board0
    assert app.tool == tool0 and app.rs.id == rules0 and len(app.undo_stack) == undo0
    assert (app.view.scale, app.view.offset_px) == view0
    assert app.options.legend
    key(app, pygame.K_RETURN)
    app.frame()
    assert app.board.unit("dwarfs").name == "Wolf Riders tdbwsrqe3[].,+-fl"
    assert len(app.undo_stack) == undo0 + 1 and app.rs.id == rules0
    # Esc leaves the field; then the keys are board shortcuts again
    app.gui.set_focus_set(entry)
    key(app, pygame.K_ESCAPE)
    assert not entry.is_focused
    key(app, pygame.K_3)
    assert app.tool == "wheel"


def test_typing_a_digit_in_the_files_field_keeps_the_tool(battle):
    app = battle
    app.select("dwarfs")
    key(app, pygame.K_F2)
    files = app.unit_panel.entry("files")
    app.gui.set_focus_set(files)
    files.set_text("")
    type_text(app, "3")
    assert app.tool == "move" and files.get_text() == "3"


# -- P1-2: the x of a window closes it; Esc closes the panels; F2 toggles ----------------------
def _close_px(window):
    return window.close_window_button.rect.center


@pytest.mark.parametrize("opener, attr", [(pygame.K_F1, "help_window"), (pygame.K_u, "palette_panel"),
                                          (pygame.K_F2, "unit_panel")])
def test_the_close_button_closes_each_window(battle, opener, attr):
    app = battle
    app.select("dwarfs")
    key(app, opener)
    obj = getattr(app, attr)
    assert obj is not None and obj.alive()
    window = obj if attr == "help_window" else obj.window
    click_px(app, _close_px(window))
    assert getattr(app, attr) is None and not window.alive()
    key(app, opener)  # and it opens again
    assert getattr(app, attr) is not None and getattr(app, attr).alive()


def test_esc_closes_the_panels_and_f2_toggles_the_unit_panel(battle):
    app = battle
    app.select("dwarfs")
    key(app, pygame.K_u)
    key(app, pygame.K_F2)
    assert app.unit_panel is not None and app.palette_panel is not None
    app.gui.set_focus_set(None)
    key(app, pygame.K_ESCAPE)
    assert app.unit_panel is None and app.palette_panel is not None
    key(app, pygame.K_ESCAPE)
    assert app.palette_panel is None and app.selection == "dwarfs"  # Esc closed windows only
    key(app, pygame.K_F2)
    assert app.unit_panel is not None
    app.gui.set_focus_set(None)
    key(app, pygame.K_F2)
    assert app.unit_panel is None


def test_the_unit_panel_leaves_the_legend_free(battle):
    from game.view.scene import scene_layout

    app = battle
    app.select("dwarfs")
    key(app, pygame.K_F2)
    lay = scene_layout(app.canvas, app.board, app.options)
    legend = pygame.Rect(*[int(v) for v in lay.panel])
    assert not app.unit_panel.window.rect.colliderect(legend)
