"""The live page's Python session (game/live/session.py) in CPython: dragging stops at base contact
and never passes through another base, undo, reset, turn, the ruleset switcher, the not-live line,
and the opening picture equal to the static figure."""
from __future__ import annotations

import json

import pytest

import game  # noqa: F401 - the composition root: engine discovery
from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.live.frame import draw, first_frame, static_svg
from game.live.session import LiveSession
from tests.live_support import ROOT

APART = ROOT / "tests" / "fixtures" / "live" / "slots_apart.yaml"


def session(path=APART, rulesets=("slots",)) -> LiveSession:
    board = load_scenario(path)
    s = LiveSession(board, first_frame(board, analyse(board, load_ruleset(board.ruleset))), list(rulesets))
    s.picture()
    return s


def _drag_mm(s: LiveSession, uid: str, dx_mm: float, dy_mm: float = 0.0) -> dict:
    assert json.loads(s.begin(uid))["ok"]
    k = s._view[2]
    s.drag(dx_mm * k, dy_mm * k, False)
    return json.loads(s.drop())


def test_drag_stops_flush_at_the_enemy_flank():
    s = session()
    pic = _drag_mm(s, "wolves", -150)
    front = s.board.unit("wolves").front
    assert front[0] == pytest.approx(650.0, abs=0.02) and front[1] == pytest.approx(440.0)
    assert pic["roles"]["wolves.r1f1"] == "attack"
    assert s.editor.penetration(s.board, s.board.unit("wolves")) <= s.editor.flush_mm + 1e-6


def test_a_long_drag_never_passes_through_a_base():
    """A pointer that jumps to the far side of the orcs (where the wolves would fit) leaves them at
    the orcs' flank: the move is taken in short steps."""
    s = session()
    _drag_mm(s, "wolves", -400)
    assert s.board.unit("wolves").front[0] == pytest.approx(650.0, abs=0.02)


def test_a_blocked_drag_slides_along_the_other_axis():
    s = session()
    _drag_mm(s, "wolves", -200, 30)
    front = s.board.unit("wolves").front
    assert front[0] == pytest.approx(650.0, abs=0.02) and front[1] == pytest.approx(470.0, abs=0.02)


def test_undo_reset_turn_and_ruleset():
    s = session(rulesets=("slots", "whfb8"))
    start = s.board.unit("wolves").front
    _drag_mm(s, "wolves", -50)
    moved = s.board.unit("wolves").front
    assert moved != start and json.loads(s.picture())["can_undo"]
    assert json.loads(s.undo())["message"] == "Undone." and s.board.unit("wolves").front == start
    pic = json.loads(s.turn("orcs", 15))
    assert s.board.unit("orcs").facing_deg == pytest.approx(15.0) and "turned" in pic["message"]
    json.loads(s.reset())
    assert s.board.unit("orcs").facing_deg == pytest.approx(0.0)
    json.loads(s.undo())
    assert s.board.unit("orcs").facing_deg == pytest.approx(15.0)  # reset is undone like any edit
    pic = json.loads(s.set_ruleset("whfb8"))
    assert pic["ruleset"] == "whfb8" and s.board.ruleset == "whfb8"
    assert json.loads(s.set_ruleset("wh40k"))["ruleset"] == "whfb8"  # not offered: ignored


def test_an_engine_the_page_cannot_import_leaves_the_static_picture_and_one_line(monkeypatch):
    s = session()
    import game.live.session as live

    def needs_shapely(*a, **k):
        raise ModuleNotFoundError("No module named 'shapely'", name="shapely")

    monkeypatch.setattr(live, "analyse", needs_shapely)
    s._set(s.board)
    pic = json.loads(s.picture())
    assert not pic["live"] and "svg" not in pic
    assert pic["why"].startswith("Not live yet") and "shapely" in pic["why"] and "\n" not in pic["why"]
    assert not json.loads(s.begin("wolves"))["ok"]


@pytest.mark.parametrize("name", ["slots_flank.yaml", "whfb8_rear_gap.yaml", "tow_round.yaml"])
def test_the_opening_picture_is_the_static_figure(name):
    board = load_scenario(ROOT / "assets" / "scenarios" / name)
    an = analyse(board, load_ruleset(board.ruleset))
    assert draw(board, an, first_frame(board, an)).svg == static_svg(board, an)
