"""Recovery is offered in a modal dialog on open (issue 26, item 3): what the recovery file
holds (title, units, changes) and when it was saved, with Restore / Discard / Keep for later;
a new board is offered the work of an earlier untitled board. Old recovery files are pruned
on start: saved more than 14 days ago, or offered, kept for later and their file gone. Driven
headless (synthetic events, the fake clock; the wall clock injected into the session)."""
from __future__ import annotations

import dataclasses

import shutil
from pathlib import Path

import pygame
import pytest

from apputil import FakeClock, make_app, make_blank
from game.core.board import Board
from game.core.editor import Editor
from game.core.scenario import load_scenario
from game.window import recovery
from game.window.session import Session

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
CTRL = pygame.KMOD_CTRL
DAY = 86400.0


@pytest.fixture
def battle(tmp_path):
    p = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, p)
    return p


def _app(path, tmp_path):
    return make_app(path, clock=FakeClock(), out_dir=tmp_path / "recovery", recent_file=tmp_path / "r.json")


def _crashed_session(battle, tmp_path, turns=2):
    """A window that turned the goblins ``turns`` times, autosaved, then was killed."""
    first = _app(battle, tmp_path)
    first.select("night_goblins")
    for _ in range(turns):
        first.key(pygame.K_t)
    first.clock.advance(11)
    first.frame()
    kept = first.doc.session.autosave_path
    assert kept.exists()
    return first.doc.board.unit("night_goblins").facing_deg, kept


def test_open_offers_the_work_in_a_dialog_and_restore_brings_it_back(battle, tmp_path):
    turned, kept = _crashed_session(battle, tmp_path)
    second = _app(battle, tmp_path)
    d = second.dialogs.top()
    assert d is not None, "no dialog offered the unsaved work"
    assert "battle.yaml" in d.text and "units" in d.text and "2 changes" in d.text and "UTC" in d.text
    assert recovery.read_header(kept).saved.replace("T", " ").rstrip("Z") in d.text  # when
    assert set(d.buttons.values()) == {"Restore", "Discard", "Keep for later"}
    second.key(pygame.K_t)  # modal: the key never reaches the board
    assert not second.doc.dirty
    second.answer("Restore")
    assert second.dialogs.top() is None
    assert second.doc.board.unit("night_goblins").facing_deg == turned and second.doc.dirty
    second.key(pygame.K_s, CTRL)
    assert load_scenario(battle).unit("night_goblins").facing_deg == turned and not kept.exists()


def test_discard_removes_the_recovery_file(battle, tmp_path):
    _, kept = _crashed_session(battle, tmp_path)
    second = _app(battle, tmp_path)
    second.answer("Discard")
    assert not kept.exists() and not second.doc.dirty and second.dialogs.top() is None
    assert "Discarded" in second.status.message
    assert _app(battle, tmp_path).dialogs.top() is None  # nothing offered again


def test_keep_for_later_keeps_it_and_offers_it_again(battle, tmp_path):
    _, kept = _crashed_session(battle, tmp_path)
    second = _app(battle, tmp_path)
    second.answer("Keep for later")
    assert kept.exists() and recovery.read_header(kept).refused and not second.doc.dirty
    assert "F9" in second.status.message
    load_scenario(kept)  # still a scenario file with its marked header
    third = _app(battle, tmp_path)
    assert third.dialogs.top() is not None  # offered again on the next open


def test_a_new_board_is_offered_an_earlier_untitled_boards_work(tmp_path):
    rec = tmp_path / "recovery"
    first = make_blank(out_dir=rec)
    b = dataclasses.replace(first.doc.board, title="My sketch")
    from game.core.editor import Change

    first.app.table.apply(Change(b, "titled"))
    first.clock.advance(11)
    first.frame()
    assert first.doc.session.autosave_path.exists()
    second = make_blank(out_dir=rec)
    d = second.dialogs.top()
    assert d is not None and "a new board" in d.text and "'My sketch'" in d.text and "1 change" in d.text
    second.answer("Restore")
    assert second.doc.board.title == "My sketch"


def _session(path, rec, wall, sid):
    return Session(load_scenario(path) if path else Board(units=[], ruleset="whfb8"), path, clock=lambda: 0.0,
                   wall=lambda: wall, out_dir=rec, session_id=sid, recent_file=None)


def test_refused_recovery_files_are_pruned_14_days_after_the_refusal(battle, tmp_path):
    rec, t0 = tmp_path / "rec", 1_800_000_000.0
    s = _session(battle, rec, t0, "1-a")
    s.apply(Editor().turn(s.board, "night_goblins", 90).board)
    old = s.autosave()
    assert old is not None and recovery.read_header(old).changes == "1"
    other = _session(battle, rec, t0 + 60, "2-b")
    [r] = other.recoveries()
    other.keep_for_later(r)  # offered and refused at t0 + 60
    _session(battle, rec, t0 + 13 * DAY, "3-c")
    assert old.exists()  # 13 days: kept
    assert _session(battle, rec, t0 + 15 * DAY, "4-d").pruned == [old] and not old.exists()


def test_refused_recovery_of_a_file_that_is_gone_is_pruned(battle, tmp_path):
    rec, t0 = tmp_path / "rec", 1_800_000_000.0
    s = _session(battle, rec, t0, "1-a")
    s.apply(Editor().turn(s.board, "night_goblins", 90).board)
    p = s.autosave()
    other = _session(battle, rec, t0 + 60, "2-b")
    battle.unlink()  # the file it was kept for is gone, but it was never offered and refused
    _session(None, rec, t0 + 120, "3-c")
    assert p.exists()
    battle.write_text(SCENARIO.read_text())
    [r] = other.recoveries()
    other.keep_for_later(r)
    assert recovery.read_header(p).refused
    _session(None, rec, t0 + 180, "4-d")
    assert p.exists()  # refused, but its file is still there
    battle.unlink()
    _session(None, rec, t0 + 240, "5-e")
    assert not p.exists()
