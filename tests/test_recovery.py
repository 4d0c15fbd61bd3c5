"""Never losing a user's work in the document (issue 26, items 1 and 2; pygame-free).

Recovery files are one per session (never written over by another), removed when the user
saves, discards or comes back to the saved board, offered on open with what they hold and
when; a drag (a board changed without a history entry) is autosaved too; temporary files a
killed writer left are cleaned on start. A file changed, moved or deleted outside is noticed
(on the watch timer and before every save) and never silently overwritten; two sessions on one
file: B's save does not revert A's saved rename.
"""
from __future__ import annotations
import dataclasses

import os
import shutil
from pathlib import Path

import pytest

from game.core.bases import RectBase
from game.core.editor import Editor
from game.core.scenario import load_scenario
from game.window import recovery
from game.window.session import LayoutLoss, OutsideChange, Session

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


class Clock:
    def __init__(self, t: float = 0.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def _session(path, rec, clock, sid, wall=1_800_000_000.0):
    return Session(load_scenario(path), path, clock=clock, wall=lambda: wall, autosave_every_s=10,
                   out_dir=rec, session_id=sid, recent_file=None)


@pytest.fixture
def battle(tmp_path):
    p = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, p)
    return p


def test_two_sessions_never_share_a_recovery_file(battle, tmp_path):
    clock = Clock()
    a = _session(battle, tmp_path / "rec", clock, "111-a")
    b = _session(battle, tmp_path / "rec", clock, "222-b")
    a.apply(Editor().turn(a.board, "night_goblins", 90).board)
    b.apply(Editor().turn(b.board, "night_goblins", 45).board)
    clock.t = 11
    pa, pb = a.tick(), b.tick()
    assert pa is not None and pb is not None and pa != pb
    assert load_scenario(pa).unit("night_goblins").facing_deg != load_scenario(pb).unit("night_goblins").facing_deg
    b.save()  # B's save removes B's recovery file only
    assert pa.exists() and not pb.exists()
    # a third session opening the file is offered A's work, with what it holds and when
    c = _session(battle, tmp_path / "rec", clock, "333-c")
    recs = c.recoveries()
    assert [r.path for r in recs] == [pa] and recs[0].session == "111-a"
    assert "units" in recs[0].describe() and "2027-01-15 08:00:00 UTC" in recs[0].describe()
    board = c.restore(recs[0])
    c.apply(board)
    c.save(overwrite=True)
    assert not pa.exists()  # restored and saved: the recovery file has done its job


def test_discard_and_back_to_saved_remove_the_recovery_file(battle, tmp_path):
    clock = Clock()
    s = _session(battle, tmp_path / "rec", clock, "1-x")
    s.apply(Editor().turn(s.board, "night_goblins", 90).board)
    clock.t = 11
    p = s.tick()
    assert p is not None and p.exists()
    s.undo()
    clock.t = 22
    assert s.tick() is None and not p.exists()  # back at the saved board: nothing to recover
    s.redo()
    clock.t = 33
    p = s.tick()
    assert p is not None and p.exists()
    s.discard()
    assert not p.exists()


def test_a_drag_in_progress_is_autosaved(battle, tmp_path):
    clock = Clock()
    s = _session(battle, tmp_path / "rec", clock, "1-x")
    u = s.board.unit("night_goblins")
    s.board = s.board.with_unit(Editor().forward(s.board, u.id, 30).board.unit(u.id))  # moved, not yet in the history
    assert not s.dirty
    clock.t = 11
    p = s.tick()
    assert p is not None and load_scenario(p).unit(u.id).front != load_scenario(battle).unit(u.id).front


def test_new_boards_recover_under_the_user_data_folder(tmp_path):
    from game.core.board import Board

    s = Session(Board(units=[], ruleset="whfb8"), None, clock=Clock(), wall=lambda: 1.8e9, session_id="9-n")
    assert s.out_dir == recovery.default_dir() and str(s.out_dir).startswith(os.environ["XDG_DATA_HOME"])
    s.apply(s.board.copy())
    s.board = dataclasses.replace(s.board, title="changed")
    p = s.autosave()
    assert p is not None and recovery.read_header(p).for_file == recovery.NEW_BOARD
    other = Session(Board(units=[], ruleset="whfb8"), None, clock=Clock(), session_id="10-m")
    assert [r.path for r in other.recoveries()] == [p]
    s.discard()


def test_stale_temporary_files_are_cleaned_on_start(battle, tmp_path):
    rec = tmp_path / "rec"
    rec.mkdir()
    stale = [battle.parent / ".battle.yaml.abcd1234.tmp", rec / ".x.autosave.yaml.zz99yy88.tmp"]
    fresh = battle.parent / ".battle.yaml.fresh123.tmp"
    mine = battle.parent / ".notes.tmp"  # not the atomic writer's: left alone
    for p in stale + [fresh, mine]:
        p.write_text("half")
    for p in stale + [mine]:
        os.utime(p, (1000, 1000))
    os.utime(fresh, (1.8e9 - 5, 1.8e9 - 5))
    _session(battle, rec, Clock(), "1-x", wall=1.8e9)
    assert not any(p.exists() for p in stale) and fresh.exists() and mine.exists()


def test_outside_change_is_noticed_and_never_overwritten(battle, tmp_path):
    clock = Clock()
    s = _session(battle, tmp_path / "rec", clock, "1-x")
    s.apply(Editor().turn(s.board, "night_goblins", 90).board)
    theirs = battle.read_text().replace("title:", "# edited elsewhere\ntitle:", 1)
    battle.write_text(theirs)
    clock.t = 3
    s.tick()
    assert s.outside == "changed"
    with pytest.raises(OutsideChange, match="changed on disk"):
        s.save()
    assert battle.read_text() == theirs
    assert any("night_goblins" in d for d in s.differences())
    mine = s.save_beside()
    assert mine == battle.with_name("battle.mine.yaml") and battle.read_text() == theirs
    assert load_scenario(mine).unit("night_goblins").facing_deg == s.board.unit("night_goblins").facing_deg


def test_a_rewrite_with_the_same_bytes_is_no_change(battle, tmp_path):
    clock = Clock()
    s = _session(battle, tmp_path / "rec", clock, "1-x")
    data = battle.read_bytes()
    battle.unlink()
    battle.write_bytes(data)  # an editor that saves by replacing the file
    assert s.check_disk() is None


def test_deleted_or_moved_file_is_noticed(battle, tmp_path):
    clock = Clock()
    s = _session(battle, tmp_path / "rec", clock, "1-x")
    battle.rename(battle.with_name("moved.yaml"))
    clock.t = 3
    s.tick()
    assert s.outside == "missing"
    with pytest.raises(OutsideChange, match="moved or deleted"):
        s.save()
    assert not battle.exists()


def test_two_windows_b_does_not_revert_a_saved_rename(battle, tmp_path):
    clock = Clock()
    a = _session(battle, tmp_path / "rec", clock, "1-a")
    b = _session(battle, tmp_path / "rec", clock, "2-b")
    a.apply(Editor().rename(a.board, "night_goblins", "Renamed by A").board)
    a.save()
    b.apply(Editor().turn(b.board, "night_goblins", 90).board)
    with pytest.raises(OutsideChange):
        b.save()
    assert load_scenario(battle).unit("night_goblins").name == "Renamed by A"


def test_a_save_that_cannot_keep_the_layout_asks_first(tmp_path):
    text = ("base: &b [20, 20]\nruleset: whfb8\nunits:\n"
            "  - {id: a, player: 1, base: *b, files: 5, models: 5, front: [100, 100], facing: 0}\n"
            "  - {id: c, player: 2, base: *b, files: 5, models: 5, front: [100, 300], facing: 180}\n")
    p = tmp_path / "alias.yaml"
    p.write_text(text)
    s = _session(p, tmp_path / "rec", Clock(), "1-x")
    s.apply(Editor().set_base(s.board, "a", "25 x 25").board)
    with pytest.raises(LayoutLoss, match="could not be written in place"):
        s.save()
    assert p.read_text() == text  # nothing written before the user agrees
    s.save(accept_loss=True)
    assert load_scenario(p).unit("a").base == RectBase(25.0, 25.0)


def test_the_recovery_text_reads_back_as_the_board(battle, monkeypatch):
    """The scenario part of a recovery file (libyaml's emitter when PyYAML has it) loads back to
    the same data as dump_scenario's, odd names too; without libyaml it is dump_scenario's text."""
    import yaml

    from game.core.scenario import board_to_dict, dump_scenario, parse_scenario

    board = load_scenario(battle)
    u = dataclasses.replace(board.units[0], name="Zwerge \u00fcber \"Gr\u00fcn\": #1 \u2014 \u03bb\u00e9 \U0001f600 'x' : - ? [a]")
    board = dataclasses.replace(board.with_unit(u), title="yes")  # (a word YAML 1.1 reads as true when unquoted)
    text = recovery.scenario_text(board)
    assert board_to_dict(parse_scenario(text)) == board_to_dict(parse_scenario(dump_scenario(board)))
    assert parse_scenario(text).units[0].name == u.name and parse_scenario(text).title == "yes"
    monkeypatch.delattr(yaml, "CSafeDumper", raising=False)
    assert recovery.scenario_text(board) == dump_scenario(board)
