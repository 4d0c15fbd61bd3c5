"""The first analysis of a big board runs off the frame: the window draws the board at once
without roles, the status line says what the analysis is doing (the stage the worker reports,
named by ``game.core.work.doing``) and Esc cancels it, leaving the window usable. Driven
headless with synthetic events; the slow worker is a test double
(:class:`~game.window.background.InlineBackground` held busy), so nothing sleeps and no clock
decides a result. The size that counts as big is lowered so a bundled scenario is big."""
from __future__ import annotations

from multiprocessing import Pipe
from pathlib import Path

import pygame
import pytest

from apputil import SCENARIOS, make_app
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.window import background, files, live
from game.window.background import Background, Finished, InlineBackground, board_key

SCENARIO = SCENARIOS / "dwarf_horde_vs_goblins.yaml"
WH40K = SCENARIOS / "wh40k_fight_phase.yaml"


@pytest.fixture
def big(monkeypatch):
    """Boards of 10 models or more count as big (the window's threshold is 1,000)."""
    monkeypatch.setattr(live, "OFF_FRAME_MODELS", 10)
    monkeypatch.setattr(files, "OFF_FRAME_MODELS", 10)


def slow_app(tmp_path: Path, path: Path = SCENARIO):
    bg = InlineBackground()
    bg.hold = True  # the worker is still at work
    d = make_app(path, copy_to=tmp_path, recent_file=tmp_path / "r.json", background=bg)
    return d, bg


def test_a_slow_first_analysis_shows_progress_and_esc_cancels(tmp_path, big):
    d, bg = slow_app(tmp_path)
    assert d.doc.analysing and d.doc.analysis.models == {}  # drawn at once, without roles
    assert "Analysing" in d.status.message and "Esc cancels" in d.status.message
    bg.stage = "the gap search (Fighting over Gaps)"  # what the worker reports
    d.frame()
    assert "the gap search (Fighting over Gaps)" in d.status.message
    d.key(pygame.K_ESCAPE)
    assert not d.doc.analysing and "cancelled" in d.status.message
    bg.hold = False
    d.frame(3)
    assert d.doc.analysis.models == {} and bg.runs == 0  # the cancelled analysis never shows
    # the window still answers: selecting and an edit work, and the edit analyses the board here
    d.select("night_goblins")
    assert d.table.selection == "night_goblins"
    d.key(pygame.K_t)
    assert d.doc.analysis.models and d.doc.dirty


def test_the_answer_is_shown_once_the_worker_has_it(tmp_path, big):
    d, bg = slow_app(tmp_path)
    d.frame(2)
    assert d.doc.analysing and d.doc.analysis.models == {}
    bg.hold = False
    d.frame()
    assert not d.doc.analysing and d.doc.analysis.models
    assert "Analysing" not in d.status.message
    cold = live.analyse(d.doc.board, d.doc.rs)
    assert {k: v.role for k, v in d.doc.analysis.models.items()} == {k: v.role for k, v in cold.models.items()}


def test_opening_a_big_file_analyses_it_off_the_frame(tmp_path, big):
    d, bg = slow_app(tmp_path)
    bg.hold = False
    d.frame()
    assert d.doc.analysis.models
    bg.hold = True
    other = tmp_path / "other.yaml"
    other.write_bytes(WH40K.read_bytes())
    assert d.files.request_open(str(other))
    assert d.doc.session.path == other and d.doc.analysing and d.doc.analysis.models == {}
    d.key(pygame.K_ESCAPE)
    assert not d.doc.analysing and "cancelled" in d.status.message


def test_small_boards_are_analysed_at_once(tmp_path):
    bg = InlineBackground()
    bg.hold = True
    d = make_app(SCENARIO, copy_to=tmp_path, recent_file=tmp_path / "r.json", background=bg)
    assert not d.doc.analysing and d.doc.analysis.models


def test_the_worker_reports_its_stages_before_its_answer():
    board = load_scenario(WH40K)
    rs = load_ruleset(board.ruleset)
    jobs_r, jobs_w = Pipe(duplex=False)
    out_r, out_w = Pipe(duplex=False)
    jobs_w.send((7, board_key(board, rs), board, rs))
    jobs_w.send(None)
    background._serve(jobs_r, out_w)
    msgs = []
    while out_r.poll():
        msgs.append(out_r.recv())
    assert isinstance(msgs[-1], Finished) and msgs[-1].analysis is not None
    stages = msgs[:-1]
    assert stages and all(m[0] == "stage" and m[1] == 7 for m in stages)
    assert any("engaged models" in m[2] for m in stages)


def test_cancel_stops_the_worker_and_a_new_one_answers():
    board = load_scenario(WH40K)
    rs = load_ruleset(board.ruleset)
    bg = Background()
    try:
        assert bg.submit(board, rs) and bg.busy
        bg.cancel()
        assert not bg.busy and bg._proc is None and bg.poll() is None
        assert bg.submit(board, rs)
        done = None
        while done is None and not bg.failed:
            done = bg.poll(timeout_s=60.0)  # waits for the answer; decides nothing by the clock
        assert done.analysis is not None and done.key == board_key(board, rs)
    finally:
        bg.close()


@pytest.mark.parametrize("rid", ["whfb8", "t9a", "slots", "wh40k", "tow", "tow_2024"])
def test_every_ruleset_can_go_to_the_worker(rid):
    """The worker gets the ruleset pickled: merged parameter schemas (t9a's ranked one, slots')
    pickle too, so big boards of every ruleset are analysed off the frame."""
    import pickle

    rs = load_ruleset(rid)
    assert Background().usable(rs)
    again = pickle.loads(pickle.dumps(rs))
    assert again.id == rs.id and type(again.params) is type(rs.params) and again.params == rs.params
