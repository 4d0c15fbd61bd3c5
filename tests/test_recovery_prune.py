"""Recovery files are pruned only once offered and refused (kept for later), never by age
alone: work that was never offered survives any age and any jump of the clock, and is
offered the next time its file is opened. The wall clock is injected."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from apputil import FakeClock, make_app
from game.core.board import Board
from game.core.editor import Editor
from game.core.scenario import load_scenario
from game.window import recovery
from game.window.session import Session

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
DAY = 86400.0
T0 = 1_800_000_000.0


def _session(path, rec, wall, sid):
    return Session(load_scenario(path) if path else Board(units=[], ruleset="whfb8"), path, clock=lambda: 0.0,
                   wall=lambda: wall, out_dir=rec, session_id=sid, recent_file=None)


@pytest.fixture
def kept(tmp_path):
    """A battle file and the recovery file of unsaved work on it, never offered."""
    battle = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, battle)
    s = _session(battle, tmp_path / "rec", T0, "1-a")
    s.apply(Editor().turn(s.board, "night_goblins", 90).board)
    p = s.autosave()
    assert p is not None and p.exists()
    return battle, p


@pytest.mark.parametrize("days", [15, 400, 365 * 30])
def test_never_offered_work_is_kept_whatever_its_age(tmp_path, kept, days):
    battle, p = kept
    later = _session(None, tmp_path / "rec", T0 + days * DAY, "2-b")  # a clock jumped forward
    assert later.pruned == [] and p.exists()
    battle.unlink()  # its file gone, but it was never offered: kept
    assert _session(None, tmp_path / "rec", T0 + days * DAY + 60, "3-c").pruned == [] and p.exists()


def test_old_never_offered_work_is_offered_when_its_file_is_opened(tmp_path, kept):
    """Pruning used to run before the offer: 15-day-old work was deleted as its file opened."""
    battle, p = kept
    s = _session(battle, tmp_path / "rec", T0 + 15 * DAY, "2-b")
    assert p.exists() and [r.path for r in s.recoveries()] == [p]


def test_prune_keeps_a_file_without_a_refusal_even_with_no_saved_time(tmp_path, kept):
    _, p = kept
    text = p.read_text(encoding="utf-8")
    p.write_text("\n".join(line for line in text.splitlines() if not line.startswith("# saved:")) + "\n",
                 encoding="utf-8")
    assert recovery.prune(p.parent, T0 + 10_000 * DAY) == [] and p.exists()


def test_window_offers_work_saved_years_ago(tmp_path):
    """The window (its own wall clock) offers work autosaved in 2001 instead of deleting it."""
    battle = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, battle)
    s = _session(battle, tmp_path / "rec", 1_000_000_000.0, "1-a")
    s.apply(Editor().turn(s.board, "night_goblins", 90).board)
    p = s.autosave()
    d = make_app(battle, clock=FakeClock(), out_dir=tmp_path / "rec", recent_file=tmp_path / "r.json")
    q = d.dialogs.top()
    assert q is not None and q.button("Restore") is not None and p.exists()
    assert "2001" in q.text
