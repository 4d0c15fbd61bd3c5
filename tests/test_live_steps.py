"""A live page's steps (game/live/steps.py, LiveSession.goto) in CPython: a demo's steps written
as scenario files the page's Python reloads, each step opening where the demo left it and
draggable from there; the phase steps of a board whose ruleset steps through a phase; a step
whose board the scenario format cannot hold is shown, not live, with one line why."""
from __future__ import annotations

import json

import pytest

import game  # noqa: F401 - the composition root: engine discovery
from game.core.demo import build_steps, load_demo
from game.core.scenario import load_scenario
from game.live.frame import Frame, options
from game.live.session import LiveSession, unit_models
from game.live.steps import LiveStep, demo_steps, phase_steps, write_steps
from tests.live_support import ROOT

DEMO = ROOT / "assets" / "demos" / "slots_large_model.yaml"


def _session(tmp_path, monkeypatch, steps):
    monkeypatch.chdir(tmp_path)   # the page's Python reads steps/NN.yaml from its own folder
    entries, drawn = write_steps(steps, tmp_path, unit_models)
    first = entries[0]
    board = load_scenario(first["scenario"])
    s = LiveSession(board, Frame(tuple(first["size_px"]), tuple(first["box_mm"]), options()),  # type: ignore[arg-type]
                    first["rulesets"], steps=entries)
    return s, entries, drawn


def _fronts(board):
    return {u.id: (round(u.front[0], 6), round(u.front[1], 6), round(u.facing_deg, 6), len(u.models())) for u in board.units}


def test_each_step_opens_where_the_demo_left_it_and_drags_from_there(tmp_path, monkeypatch):
    built = build_steps(load_demo(DEMO))
    s, entries, drawn = _session(tmp_path, monkeypatch, demo_steps(built))
    assert len(entries) == len(built) == len(drawn)
    assert [e["caption"] for e in entries] == [st.caption for st in built]
    for i in (3, 6, 1):
        pic = json.loads(s.goto(i))
        assert pic["step"] == i and pic["live"] and pic["svg"]
        assert _fronts(s.board) == _fronts(built[i].board)
        assert pic["roles"] == {mid: r.role for mid, r in built[i].analysis.models.items()}
    uid = s.board.units[0].id
    assert json.loads(s.begin(uid))["ok"]
    s.drag(30 * s._view[2], 0, False)
    json.loads(s.drop())
    assert _fronts(s.board)[uid] != _fronts(built[1].board)[uid] and json.loads(s.picture())["can_undo"]
    json.loads(s.goto(2))
    json.loads(s.goto(1))   # back at a step: the demo's board again, nothing to undo
    assert _fronts(s.board) == _fronts(built[1].board) and not json.loads(s.picture())["can_undo"]
    assert json.loads(s.goto(99))["step"] == len(entries) - 1


def test_a_step_the_scenario_format_cannot_hold_is_shown_not_live(tmp_path, monkeypatch):
    import game.live.steps as live_steps
    from game.core.scenario import ScenarioError

    built = build_steps(load_demo(DEMO))[:2]
    real = live_steps.parse_scenario

    def refuse_second(text, name):
        if name.endswith("02.yaml"):
            raise ScenarioError(name, 3, "units", "cannot hold this")
        return real(text, name)

    monkeypatch.setattr(live_steps, "parse_scenario", refuse_second)
    s, entries, drawn = _session(tmp_path, monkeypatch, demo_steps(built))
    assert entries[1]["scenario"] is None and drawn[1]["svg"].startswith("<svg")
    pic = json.loads(s.goto(1))
    assert not pic["live"] and "svg" not in pic and "\n" not in pic["why"] and "cannot hold this" in pic["why"]
    assert json.loads(s.goto(0))["live"]


def test_a_board_with_phase_steps_carries_them_after_the_opening_board():
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset

    board = load_scenario(ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml")
    an = analyse(board, load_ruleset(board.ruleset))
    steps = phase_steps(board, an)
    assert len(steps) > 2 and steps[0].board is board and all(isinstance(st, LiveStep) for st in steps)
    assert "Fight phase" in steps[0].caption
    assert len({st.caption for st in steps[1:]}) == len(steps) - 1


@pytest.mark.parametrize("name", ["slots_large_model.yaml", "tow_combat_round.yaml", "whfb8_close_combat.yaml"])
def test_every_step_of_a_bundled_demo_reloads_as_the_demo_left_it(tmp_path, monkeypatch, name):
    built = build_steps(load_demo(ROOT / "assets" / "demos" / name))
    s, entries, _ = _session(tmp_path, monkeypatch, demo_steps(built))
    for i, st in enumerate(built):
        assert entries[i]["scenario"], entries[i]["why"]
        json.loads(s.goto(i))
        assert _fronts(s.board) == _fronts(st.board) and s.board.ruleset == st.board.ruleset


def test_a_demo_whose_first_step_cannot_run_here_goes_live_at_a_step_that_can(tmp_path, monkeypatch):
    import game.live.session as live_session
    from game.live.session import start

    built = build_steps(load_demo(DEMO))[:3]
    monkeypatch.chdir(tmp_path)
    entries, _ = write_steps(demo_steps(built), tmp_path, unit_models)
    real = live_session.load_scenario

    def engine_missing_for_the_first(path):
        if str(path) in ("scenario.yaml", entries[0]["scenario"]):
            raise ModuleNotFoundError("No module named 'numpy'", name="numpy")
        return real(path)

    monkeypatch.setattr(live_session, "load_scenario", engine_missing_for_the_first)
    cfg = {"scenario": "scenario.yaml", "size_px": entries[0]["size_px"], "box_mm": entries[0]["box_mm"],
           "ruleset": "slots", "rulesets": ["slots"], "ruleset_names": {"slots": "Combat slots"},
           "steps": entries, "demo": True}
    s = start(json.dumps(cfg))
    pic = json.loads(s.picture())
    assert not pic["live"] and pic["why"].startswith("Not live yet under Combat slots") and "numpy" in pic["why"]
    assert not json.loads(s.goto(0))["live"]
    pic = json.loads(s.goto(2))
    assert pic["live"] and pic["svg"] and _fronts(s.board) == _fronts(built[2].board)
    assert not json.loads(s.goto(0))["live"]
    cfg["demo"] = False   # a scenario page: nothing else to show
    assert not json.loads(start(json.dumps(cfg)).picture())["live"]


def test_a_step_shows_the_demo_s_marks_drawn_and_live_alike(tmp_path, monkeypatch):
    built = build_steps(load_demo(DEMO))
    s, entries, drawn = _session(tmp_path, monkeypatch, demo_steps(built))
    marked = [i for i, st in enumerate(built) if st.marks.highlight or st.marks.notes or st.marks.fallen]
    assert len(marked) >= 3
    for i in marked:
        pic = json.loads(s.goto(i))
        assert pic["svg"][pic["svg"].index("<svg"):] == drawn[i]["svg"]   # the live picture is the step as built
        bare = json.loads(LiveSession(s.board, Frame(tuple(entries[i]["size_px"]), tuple(entries[i]["box_mm"]), options()),
                                      ["slots"]).picture())
        assert bare["svg"] != pic["svg"]   # ... with the demo's rings, callouts or crossed-out models
    for note_model, text in built[0].marks.notes:
        assert text in drawn[0]["svg"]
