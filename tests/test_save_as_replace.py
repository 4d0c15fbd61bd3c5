"""Save As never loses another file: onto another scenario it asks Replace / Cancel naming the
file; onto a file that is not a scenario (not YAML, a demo, a book file) it refuses and leaves
it byte for byte; a folder that does not exist is made (as ``render -o`` does); a bare name is
saved in the folder the dialog shows, never the working folder."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from apputil import make_app  # noqa: E402
from game.core.scenario import dump_scenario, load_scenario  # noqa: E402
from game.window.dialogs import Buttons, FileDialog  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
OTHER = ROOT / "assets" / "scenarios" / "t9a_knight_height2.yaml"
DEMO = ROOT / "assets" / "demos" / "slots_large_model.yaml"
BOOK = ROOT / "assets" / "book.yaml"
CTRL, SHIFT = pygame.KMOD_CTRL, pygame.KMOD_SHIFT


@pytest.fixture()
def app(tmp_path):
    (tmp_path / "mine").mkdir()
    d = make_app(SCENARIO, copy_to=tmp_path / "mine", recent_file=tmp_path / "recent.json", out_dir=tmp_path / "out")
    d.select("night_goblins")
    d.key(pygame.K_t)  # a change to save
    return d


def save_as(d, path) -> None:
    d.key(pygame.K_s, CTRL | SHIFT)
    assert isinstance(d.dialogs.top(), FileDialog)
    d.pick_file(str(path))


def test_save_as_onto_another_scenario_asks_and_cancel_keeps_it(app, tmp_path):
    other = tmp_path / "other.yaml"
    shutil.copy(OTHER, other)
    before = other.read_bytes()
    save_as(app, other)
    q = app.dialogs.top()
    assert isinstance(q, Buttons) and q.button("Replace") is not None and q.button("Cancel") is not None
    assert "Replace other.yaml?" in q.text and "another scenario" in q.text
    assert other.read_bytes() == before  # nothing written while it asks
    app.answer("Cancel")
    assert app.dialogs.top() is None and other.read_bytes() == before
    assert app.doc.dirty and app.doc.session.save_path == tmp_path / "mine" / SCENARIO.name
    assert "Not saved" in app.status.message


def test_save_as_onto_another_scenario_replace_writes_it(app, tmp_path):
    other = tmp_path / "other.yaml"
    shutil.copy(OTHER, other)
    save_as(app, other)
    app.answer("Replace")
    if isinstance(app.dialogs.top(), Buttons) and app.dialogs.top().button("Save anyway"):
        app.answer("Save anyway")  # another file's layout: the usual question
    assert app.dialogs.top() is None, app.status.message
    assert dump_scenario(load_scenario(other)) == dump_scenario(app.doc.board)
    assert app.doc.session.save_path == other and not app.doc.dirty


@pytest.mark.parametrize("kind", ["not yaml", "demo", "book"])
def test_save_as_refuses_a_file_that_is_not_a_scenario(app, tmp_path, kind):
    target = tmp_path / "victim.yaml"
    if kind == "not yaml":
        target.write_text("title: [unclosed\n")
    else:
        shutil.copy(DEMO if kind == "demo" else BOOK, target)
    before = target.read_bytes()
    save_as(app, target)
    assert app.dialogs.top() is None  # no Replace offered: refused outright
    assert target.read_bytes() == before
    assert "victim.yaml is not a scenario file" in app.status.banner and "Not saved" in app.status.banner
    assert app.doc.dirty and app.doc.session.save_path == tmp_path / "mine" / SCENARIO.name


def test_save_as_onto_its_own_file_asks_nothing(app, tmp_path):
    own = tmp_path / "mine" / SCENARIO.name
    save_as(app, own)
    assert app.dialogs.top() is None and not app.doc.dirty
    assert dump_scenario(load_scenario(own)) == dump_scenario(app.doc.board)


def type_path(d, text: str, finish: bool = True) -> None:
    """Type ``text`` into the file dialog's path field (changed, then Enter when ``finish``)."""
    line = d.dialogs.top().window.file_path_text_line
    line.set_text(text)
    d.post(pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_CHANGED, text=text, ui_element=line))
    if finish:
        d.post(pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_FINISHED, text=text, ui_element=line))
    d.frame(2)


def test_save_as_into_a_folder_that_does_not_exist_says_so_and_enter_makes_it(app, tmp_path):
    target = tmp_path / "nodir" / "sub" / "pos.yaml"
    app.key(pygame.K_s, CTRL | SHIFT)
    dlg = app.dialogs.top()
    type_path(app, str(target), finish=False)
    assert f"no folder {target.parent}" in dlg.window.window_display_title  # why OK is greyed
    type_path(app, str(target))
    assert app.dialogs.top() is None and target.is_file(), app.status.message
    assert app.doc.session.save_path == target and not app.doc.dirty


def test_a_bare_name_is_saved_in_the_folder_shown_not_the_working_folder(app, tmp_path, monkeypatch):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    folder = tmp_path / "u8" / "out"
    folder.mkdir(parents=True)
    app.key(pygame.K_s, CTRL | SHIFT)
    type_path(app, str(folder))  # Enter on a folder: the dialog moves into it
    assert app.dialogs.top() is not None
    type_path(app, "pos1.yaml")
    assert (folder / "pos1.yaml").is_file(), app.status.message
    assert not (cwd / "pos1.yaml").exists() and app.doc.session.save_path == folder / "pos1.yaml"
