"""The window's document (pygame-free): dirty state, Save / Save As, built-in scenarios,
autosave on an injected clock and its failures, recent files."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.core.editor import Editor
from game.core.scenario import load_scenario
from game.window.session import NeedsSaveAs, Session

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


class Clock:
    t = 0.0

    def __call__(self):
        return self.t


def test_builtin_needs_save_as_and_is_never_written(tmp_path):
    s = Session(load_scenario(SCENARIO), SCENARIO, out_dir=tmp_path, recent_file=tmp_path / "r.json")
    assert s.save_path is None and not s.dirty
    s.apply(Editor().turn(s.board, "night_goblins", 90).board)
    with pytest.raises(NeedsSaveAs):
        s.save()
    with pytest.raises(OSError):
        s.save_as(SCENARIO)  # not over the shipped file either
    p = s.save_as(tmp_path / "mine")
    assert p == tmp_path / "mine.yaml" and not s.dirty and s.save_path == p
    assert [x.name for x in s.recent()] == ["mine.yaml"]


def test_undo_to_saved_is_clean_and_autosave_runs_on_the_clock(tmp_path):
    shutil.copy(SCENARIO, tmp_path / "b.yaml")
    clock = Clock()
    s = Session(load_scenario(tmp_path / "b.yaml"), tmp_path / "b.yaml", clock=clock, autosave_every_s=10,
                out_dir=tmp_path / "rec")
    s.apply(Editor().turn(s.board, "night_goblins", 90).board)
    assert s.dirty and s.tick() is None  # not yet: no time has passed
    clock.t = 11
    auto = s.tick()
    assert auto == s.autosave_path and auto.parent == tmp_path / "rec" and auto.name.startswith("b.")
    s.undo()
    assert not s.dirty
    s.redo()
    assert s.dirty
    s.save()
    assert not s.dirty and not auto.exists()


def test_autosave_failure_is_kept(tmp_path):
    (tmp_path / "x").write_text("")
    s = Session(load_scenario(SCENARIO), None, out_dir=tmp_path / "x" / "out")
    s.apply(Editor().turn(s.board, "night_goblins", 90).board)
    assert s.autosave() is None and "Autosave" in s.autosave_error
