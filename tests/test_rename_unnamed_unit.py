"""Renaming a unit that has no ``name:`` writes valid YAML in place: a block unit gets a
``name: ...`` line in its own style (it used to get ``{name: ...}``, which is no entry of a
block mapping, and the save then asked the alarming "cannot keep the layout" question); a
flow unit gets ``name`` inside its braces. Nothing else in the file changes."""
from __future__ import annotations

from pathlib import Path

import pygame
import pytest
import yaml

from apputil import make_app
from game.core.editor import Editor
from game.core.scenario import load_scenario, plan_save

FILE = """title: Units without names
ruleset: whfb8
units:
  - {id: a, player: 1, base: [20, 20], files: 5, models: 10, front: [600, 400], facing: 0}
  - {id: b, player: 2, base: [20, 20], files: 5, models: 10,
     front: [600, 300], facing: 180}   # two lines
  - id: c
    player: 2
    base: [20, 20]
    files: 5
    models: 10
    front: [200, 200]
    facing: 0
  - id: d   # a comment
    player: 1
    base: [20, 20]
    files: 5
    models: 10
    front: [900, 600]
    facing: 90

# the end
"""


@pytest.fixture
def path(tmp_path):
    p = tmp_path / "unnamed.yaml"
    p.write_text(FILE, encoding="utf-8")
    return p


@pytest.mark.parametrize("uid", ["a", "b", "c", "d"])
@pytest.mark.parametrize("name", ["New name", "Dwarfs: the 2nd", "x\ny"])
def test_rename_is_patched_in_place_as_valid_yaml(path, uid, name):
    board = load_scenario(path)
    change = Editor().rename(board, uid, name)
    if "\n" in name:  # no name may hold a line break: refused, as the loader would
        assert not change.ok and "control character" in change.message
        return
    plan = plan_save(change.board, path)
    assert plan.notes == [], plan.notes
    yaml.safe_load(plan.text)
    before, after = FILE.splitlines(), plan.text.splitlines()
    assert len(after) - len(before) in (0, 1)  # one line added (block) or one line changed (flow)
    assert "# a comment" in plan.text and "# two lines" in plan.text and "# the end" in plan.text
    path.write_text(plan.text, encoding="utf-8")
    again = load_scenario(path)
    assert again.unit(uid).name == name
    assert [u.id for u in again.units] == ["a", "b", "c", "d"]


def test_window_rename_then_save_asks_nothing(path, tmp_path):
    d = make_app(path, recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    d.select("c")
    assert d.edit("rename", "Handgunners")
    d.key(pygame.K_s, pygame.KMOD_CTRL)
    assert d.dialogs.top() is None, d.dialogs.top().text
    assert not d.doc.dirty and load_scenario(path).unit("c").name == "Handgunners"
    assert path.read_text(encoding="utf-8") == FILE.replace("    facing: 0\n  - id: d",
                                                             "    facing: 0\n    name: Handgunners\n  - id: d")
