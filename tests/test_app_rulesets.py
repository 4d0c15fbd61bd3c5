"""Rulesets in the window, driven headless: switching keeps the board and changes roles where
the rulesets differ, compare mode marks exactly the differing models (live while dragging),
and a Warhammer 40,000 board steps through its Fight phase and back."""
from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.core.compare import compare  # noqa: E402
from game.core.ruleset import available, load_ruleset  # noqa: E402
from game.core.scenario import board_to_dict, load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MISALIGNED = ROOT / "tests" / "fixtures" / "t9a_misaligned.yaml"  # a copy of the shared conformance case
PILE_IN = ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml"


def make_app(path, **kw):
    from apputil import make_app as mk

    return mk(path, **kw)


def key(app, k, mod=0):
    app.key(k, mod)


@pytest.fixture()
def app():
    return make_app(MISALIGNED)


def test_r_switches_ruleset_keeping_the_board_and_undo_switches_back(app):
    board0 = board_to_dict(app.doc.board)
    assert app.doc.analysis.ruleset == "t9a" and app.doc.analysis.models["dwarfs.r1f1"].role == "attack"
    ids = app.rulesets.usable()
    assert set(ids) == set(available())  # every ruleset, 40k too (it analyses a tray's models one by one)
    key(app, pygame.K_r)
    want = ids[(ids.index("t9a") + 1) % len(ids)]
    assert app.doc.analysis.ruleset == want == app.doc.board.ruleset
    while app.doc.analysis.ruleset != "whfb8":
        key(app, pygame.K_r)
    # whfb8 has no fighting over a misalignment: the slightly turned units are not in contact
    assert app.doc.analysis.models["dwarfs.r1f1"].role == "none"
    assert "fight differently" in app.status.message
    assert {k: v for k, v in board_to_dict(app.doc.board).items() if k != "ruleset"} == \
        {k: v for k, v in board0.items() if k != "ruleset"}
    assert app.toolbar.label("rules_menu") == "Rules: whfb8"
    key(app, pygame.K_r, pygame.KMOD_SHIFT)  # back one
    assert app.doc.analysis.ruleset == ids[(ids.index("whfb8") - 1) % len(ids)]
    while app.doc.session.history.undo_depth:
        key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.doc.analysis.ruleset == "t9a" and app.doc.analysis.models["dwarfs.r1f1"].role == "attack"


def test_ruleset_drop_down(app):
    assert app.choose_ruleset("whfb8")
    assert app.doc.rs.id == "whfb8" and app.doc.analysis.models["dwarfs.r1f1"].role == "none"


def _drawn_differ_tags(app, out=None):
    canvas = app.recorded(record_canvas=True)
    if out is not None:
        out.append(canvas)
    return {c.get("tag").split(":", 1)[1] for c in canvas.calls if str(c.get("tag", "")).startswith("differ:")}


def test_compare_mode_marks_exactly_the_differing_models(app):
    key(app, pygame.K_k)
    assert app.doc.live.compare_id == "whfb8"
    _, _, diffs = compare(app.doc.board, load_ruleset("t9a"), load_ruleset("whfb8"))
    expect = {d.model for d in diffs}
    assert expect and set(app.doc.live.diffs) == expect
    drawn = []
    assert _drawn_differ_tags(app, drawn) == expect
    legend = [c.args[1] for c in drawn[0].calls if c.name == "text" and c.get("tag") == "legend"]
    assert any(t.startswith(f"Differs under whfb8 ({len(expect)} model") for t in legend)
    # the tooltip names the rule (why) and how the model fights under the other ruleset
    mid = "dwarfs.r2f2"
    assert mid in expect
    differ = app.doc.live.differ_options(app.doc.rs.id)[0]
    assert differ[mid].startswith("Under whfb8: does not fight (under t9a: makes 1 supporting attack); whfb8: ")  # + its reason
    assert differ[mid].endswith(app.doc.live.diffs[mid].why_b) and app.doc.live.diffs[mid].why_b
    assert app.doc.analysis.models[mid].why and "Supporting Attacks" in app.doc.analysis.models[mid].why
    # another ruleset to compare with, then off
    key(app, pygame.K_k, pygame.KMOD_SHIFT)
    assert app.doc.live.compare_id == "slots" and app.toolbar.dropdowns.get("compare").selected_option[0] == "Compare: slots"
    key(app, pygame.K_k)
    assert app.doc.live.compare_id is None and _drawn_differ_tags(app) == set()


def test_compare_follows_a_drag(app):
    app.clock.step = 0.01  # every read of the window's clock: 10 ms later (the compare throttle runs on it)
    key(app, pygame.K_k)
    assert app.doc.live.diffs
    gob = app.doc.board.unit("goblins")
    c = gob.center()
    a, b = app.table.camera.to_px(c), app.table.camera.to_px((c[0], c[1] - 200))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
    app.frame()
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=b, rel=(0, 0), buttons=(1, 0, 0)))
    for _ in range(60):
        app.frame()
    assert app.table.busy()  # still dragging ...
    assert app.doc.live.diffs == {}  # ... and apart, both rulesets agree nobody fights
    assert _drawn_differ_tags(app) == set()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))
    app.frame()


def test_wh40k_steps_to_the_last_and_back():
    app = make_app(PILE_IN)
    board0 = board_to_dict(app.doc.board)
    key(app, pygame.K_n)
    n = app.steps.position()[1]
    assert n >= 5 and app.steps.position()[0] == 0  # N from the board shows step 1 (not 2)
    assert app.status_line().startswith(f"[Fight phase step 1/{n}]")
    key(app, pygame.K_n)
    assert app.steps.position()[0] == 1 and app.status_line().startswith(f"[Fight phase step 2/{n}]")
    shown_board, shown_analysis, _ = app.app.shown()
    assert shown_analysis.moves and shown_analysis.to_json()["move_reach_mm"] == pytest.approx(76.2)
    for _ in range(n + 2):
        key(app, pygame.K_PAGEDOWN)
    assert app.steps.position()[0] == n - 1 and "last step" in app.status.message
    assert app.app.shown()[0].context["step"] == "consolidate"
    key(app, pygame.K_e)  # editing keys do nothing while a step is shown
    assert board_to_dict(app.doc.board) == board0 and "Fight phase step" in app.status.message
    for _ in range(n - 1):
        key(app, pygame.K_p)
    assert app.steps.position()[0] == 0
    key(app, pygame.K_PAGEUP)
    assert app.steps.position() is None
    key(app, pygame.K_n)
    key(app, pygame.K_HOME)
    assert app.steps.position() is None and app.app.shown()[0] is app.doc.board
    key(app, pygame.K_n)
    key(app, pygame.K_ESCAPE)
    assert app.steps.position() is None
    assert board_to_dict(app.doc.board) == board0


def test_wh40k_offered_on_ranked_boards_and_dragged_off_the_frame(app):
    from game.core.analyse import analyse

    buttons = app.ruleset_buttons()
    assert buttons["wh40k"].is_enabled and "not for" not in buttons["wh40k"].text
    app.key(pygame.K_ESCAPE)
    assert app.choose_ruleset("wh40k")
    assert app.doc.rs.id == "wh40k"
    rs = load_ruleset("wh40k")
    assert app.doc.analysis.to_json() == analyse(app.doc.board, rs).to_json()
    live = app.doc.live
    live.inline_ms = 1000.0  # as slow as on a real rank-and-file board: drags go to the worker
    live.background.hold = True  # the worker is behind the drag
    u = app.doc.board.units[0]
    c = u.center()
    a = app.table.camera.to_px(c)
    app.move_mouse(a)
    app.press(a)
    for i in range(1, 6):
        app.move_mouse((a[0] - 4 * i, a[1] - 6 * i), (1, 0, 0))
    app.frame(3)
    assert live.solving and "solving" in app.table.status_text()
    app.release((a[0] - 20, a[1] - 30))
    app.frame(2)
    assert not live.solving
    assert app.doc.board.unit(u.id).center() != c  # it moved
    assert app.doc.analysis.to_json() == analyse(app.doc.board, rs).to_json()  # exactly a cold analysis


def test_n_on_a_rank_and_file_board_steps_through_a_combat_round(app):
    key(app, pygame.K_n)
    assert app.steps.position() is not None and app.steps.position()[0] == 0
    assert "Agility" in app.status_line()            # t9a strikes by Agility Steps
