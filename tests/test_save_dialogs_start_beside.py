"""Save dialogs start beside the work, never merely in the folder the program was started
from: the demo recorder's Save and HTML beside the scenario on the table (or the file saved
last), Save As of a new board in the folder of the file saved or opened last."""
from __future__ import annotations

import json
from pathlib import Path

import pygame

from tests.apputil import SCENARIOS, make_app, make_blank

SCENARIO = SCENARIOS / "dwarf_horde_vs_goblins.yaml"


def _recorded(d) -> None:
    d.action("demo_recorder")
    d.recorder.set_text("caption", "One.")
    d.recorder.run("add")
    assert d.recorder.rec.steps


def test_the_demo_save_and_html_start_beside_the_scenario(tmp_path):
    assert Path.cwd().resolve() != tmp_path.resolve()
    d = make_app(SCENARIO, copy_to=tmp_path)
    _recorded(d)
    d.recorder.run("save")
    top = d.dialogs.top()
    assert top is not None and top.folder.resolve() == tmp_path.resolve()
    d.key(pygame.K_ESCAPE)
    d.key(pygame.K_ESCAPE)
    d.frame()
    d.recorder.run("html")
    top = d.dialogs.top()
    assert top is not None and top.folder.resolve() == tmp_path.resolve()


def test_a_new_board_saved_then_recorded_offers_the_folder_it_was_saved_in(tmp_path):
    d = make_blank(out_dir=tmp_path / "data")
    d.key(pygame.K_s, pygame.KMOD_CTRL)  # a new board: Save asks where
    assert d.dialogs.top() is not None
    d.pick_file(str(tmp_path / "seed.yaml"))
    d.frame()
    assert (tmp_path / "seed.yaml").is_file()
    _recorded(d)
    d.recorder.run("save")
    top = d.dialogs.top()
    assert top is not None and top.folder.resolve() == tmp_path.resolve()


def test_save_as_of_a_new_board_starts_where_the_last_file_was(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    last = work / "last.yaml"
    last.write_text(SCENARIO.read_text())
    recent = tmp_path / "recent.json"
    recent.write_text(json.dumps([str(last)]))
    d = make_blank(recent_file=recent, out_dir=tmp_path / "data")
    d.key(pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    top = d.dialogs.top()
    assert top is not None and top.folder.resolve() == work.resolve()
