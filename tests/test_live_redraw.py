"""What a live page's redraw after a drop does (its cost in the browser, where every module import
compiles source and nothing is cached by numpy): the figure is laid out once per picture, and
no ruleset is loaded again (a ruleset whose engine cannot run in the page would otherwise have its
modules tried, and compiled, on every picture)."""
from __future__ import annotations

import json

import game  # noqa: F401 - the composition root: engine discovery
import game.live.frame as live_frame
import game.live.session as live_session
import game.render.figure_panels as figure_panels
from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.live.frame import draw, first_frame
from game.live.session import LiveSession
from tests.live_support import ROOT

APART = ROOT / "tests" / "fixtures" / "live" / "slots_apart.yaml"


def _board_and_frame():
    board = load_scenario(APART)
    an = analyse(board, load_ruleset(board.ruleset))
    return board, an, first_frame(board, an)


def test_a_picture_is_laid_out_once(monkeypatch):
    board, an, frame = _board_and_frame()
    calls = []
    real = figure_panels.figure_layout

    def counting(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(figure_panels, "figure_layout", counting)
    monkeypatch.setattr(live_frame, "figure_layout", counting, raising=False)  # however the page imports it
    d = draw(board, an, frame)
    assert len(calls) == 1
    assert d.view[2] > 0 and "<svg" in d.svg


def test_pictures_after_the_start_load_no_ruleset(monkeypatch):
    board, _, frame = _board_and_frame()
    s = LiveSession(board, frame, ["slots", "whfb8", "wh40k"])
    tried = []

    def refusing(rid):
        tried.append(rid)
        return rid

    monkeypatch.setattr(live_session, "ruleset_name", refusing)
    s.picture()
    assert json.loads(s.begin("wolves"))["ok"]
    s.drag(-20, 0, False)
    pic = json.loads(s.drop())
    assert tried == []
    assert [r for r, _ in pic["rulesets"]] == ["slots", "whfb8", "wh40k"]
    assert all(name and name != rid for rid, name in pic["rulesets"])  # the display names, kept


def test_the_build_gives_the_names_so_the_page_loads_none(monkeypatch):
    board, _, frame = _board_and_frame()
    tried = []
    monkeypatch.setattr(live_session, "ruleset_name", lambda rid: tried.append(rid) or rid)
    s = LiveSession(board, frame, ["slots", "whfb8"], {"slots": "Combat slots", "whfb8": "WFB 8"})
    assert json.loads(s.picture())["rulesets"] == [["slots", "Combat slots"], ["whfb8", "WFB 8"]]
    assert tried == []
