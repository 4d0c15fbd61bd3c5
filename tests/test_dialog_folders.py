"""File dialogs take a name typed without a folder in the folder they show, for OK clicked as
well as Return (Save As, Open, the export form, the demo recorder's Save and HTML export), never
in the program's working folder; every status line that reports a written file names it by its
full path."""
from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pygame_gui
import pytest

from game.window.dialogs import FileDialog

from tests.apputil import SCENARIOS, make_app

SCENARIO = SCENARIOS / "dwarf_horde_vs_goblins.yaml"
CTRL, SHIFT = pygame.KMOD_CTRL, pygame.KMOD_SHIFT


@pytest.fixture()
def setup(tmp_path, monkeypatch):
    """A window on a copy of the scenario in ``mine/``; the working folder is ``cwd/``."""
    cwd, mine = tmp_path / "cwd", tmp_path / "mine"
    cwd.mkdir()
    mine.mkdir()
    monkeypatch.chdir(cwd)
    d = make_app(SCENARIO, copy_to=mine, recent_file=tmp_path / "recent.json", out_dir=tmp_path / "out")
    return d, cwd, mine


def type_name(d, text: str) -> None:
    """Type ``text`` into the file dialog's name field (no Return)."""
    line = d.dialogs.top().window.file_path_text_line
    line.set_text(text)
    d.post(pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_CHANGED, text=text, ui_element=line))


def click_ok(d) -> None:
    """Click the file dialog's OK as pygame_gui has it (its press, then the answer it posts)."""
    win = d.dialogs.top().window
    assert win.ok_button.is_enabled, "OK is greyed"
    d.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=win.ok_button))
    d.frame(3)


def enter_folder(d, name: str) -> None:
    """Double-click folder ``name`` in the dialog's list."""
    win = d.dialogs.top().window
    d.post(pygame.event.Event(pygame_gui.UI_SELECTION_LIST_DOUBLE_CLICKED_SELECTION, text=name,
                              ui_element=win.file_selection_list))
    d.frame()


def test_save_as_bare_name_and_ok_saves_in_the_folder_shown(setup):
    d, cwd, mine = setup
    d.select("night_goblins")
    d.key(pygame.K_t)
    d.key(pygame.K_s, CTRL | SHIFT)
    assert isinstance(d.dialogs.top(), FileDialog)
    type_name(d, "bare.yaml")
    click_ok(d)
    assert (mine / "bare.yaml").is_file(), d.status.message
    assert not (cwd / "bare.yaml").exists()
    assert d.status.message == f"Saved {mine / 'bare.yaml'}."


def test_save_as_after_entering_a_folder_from_the_list(setup):
    d, cwd, mine = setup
    (mine / "sub").mkdir()
    d.key(pygame.K_s, CTRL | SHIFT)
    enter_folder(d, "sub")
    type_name(d, "in_sub.yaml")
    click_ok(d)
    assert (mine / "sub" / "in_sub.yaml").is_file(), d.status.message
    assert not (cwd / "in_sub.yaml").exists()


def test_a_folder_typed_without_its_parents_is_found_in_the_folder_shown(setup):
    d, cwd, mine = setup
    (mine / "figs").mkdir()
    d.key(pygame.K_s, CTRL | SHIFT)
    type_name(d, "figs")
    line = d.dialogs.top().window.file_path_text_line
    d.post(pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_FINISHED, text="figs", ui_element=line))
    d.frame()
    assert d.dialogs.top() is not None
    assert Path(d.dialogs.top().window.current_directory_path) == mine / "figs"  # the list shows it
    type_name(d, "x.yaml")
    click_ok(d)
    assert (mine / "figs" / "x.yaml").is_file(), d.status.message


def test_open_bare_name_and_ok_opens_the_file_in_the_folder_shown(setup):
    d, cwd, mine = setup
    other = mine / "other.yaml"
    shutil.copy(SCENARIOS / "t9a_knight_height2.yaml", other)
    (cwd / "other.yaml").write_text("not: [a scenario\n")  # the working folder's namesake
    d.key(pygame.K_o, CTRL)
    assert isinstance(d.dialogs.top(), FileDialog)
    type_name(d, "other.yaml")
    click_ok(d)
    assert d.doc.session.path == other, d.status.message


def test_export_form_bare_name_is_written_in_the_folder_it_showed(setup):
    d, cwd, mine = setup
    d.key(pygame.K_e, CTRL)
    form = d.dialogs.top()
    shown = Path(form.values()["file"]).parent
    d.fill({"file": "fig.png", "size": "400x300"})
    d.answer("Export")
    assert (shown / "fig.png").is_file(), d.status.message
    assert not (cwd / "fig.png").exists()
    assert d.status.message == f"Exported {shown / 'fig.png'}."


@pytest.mark.parametrize("what, name", [("html", "page.html"), ("save", "demo.yaml")])
def test_recorder_bare_name_and_ok_writes_in_the_folder_shown(setup, what, name):
    d, cwd, mine = setup
    d.action("demo_recorder")
    rec = d.recorder
    rec.set_text("caption", "Two blocks meet.")
    rec.run("add")
    rec.run(what)
    shown = d.dialogs.top().folder  # (beside the scenario: tests/test_save_dialogs_start_beside.py)
    (shown / "sub").mkdir()
    enter_folder(d, "sub")  # the user moves into sub/
    type_name(d, name)
    click_ok(d)
    out = shown / "sub" / name
    assert out.is_file(), d.status.message
    assert not (cwd / name).exists()
    assert str(out) in d.status.message  # the full path, not only the name
