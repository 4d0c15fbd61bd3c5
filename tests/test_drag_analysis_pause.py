"""The live analysis during a drag, driven headless: a slow analysis of an engine that does not
declare ``live_drag`` pauses while dragging and runs once at the drag's end (the dragged unit
drawn where it is, with the last roles); a rank-and-file analysis is never paused however slow;
a cheap one stays live; the Fight phase steps are computed once per board."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from apputil import key, make_app, move_mouse  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
PILE_IN = ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml"


@pytest.fixture()
def battle(tmp_path):
    path = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, path)
    return make_app(path)


# -- a slow analysis is not rerun on every frame of a drag -----------------------------
def _drag_frames(app, a_mm, b_mm, steps=8):
    """Press on ``a_mm``, move to ``b_mm`` in ``steps`` frames; returns the px of the end (the
    button is still down)."""
    a, b = app.table.camera.to_px(a_mm), app.table.camera.to_px(b_mm)
    move_mouse(app, a)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
    app.frame()
    for i in range(1, steps + 1):
        move_mouse(app, (a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps), (1, 0, 0))
    for _ in range(20):  # the dragged body catches up with the mouse
        app.frame()
    return b


def _counting_analyse(monkeypatch, app, slow_s):
    """Count the analyses; each one takes ``slow_s`` on the window's (fake) clock."""
    import game.window.live as live_mod

    real = live_mod.analyse
    calls = []

    def fake(*args, **kw):
        calls.append(1)
        out = real(*args, **kw)
        app.clock.advance(slow_s)  # longer than the budget: the window must not wait on it every frame
        return out

    monkeypatch.setattr(live_mod, "analyse", fake)
    return calls


def _not_live(monkeypatch):
    """The board's engine as one that does not declare ``live_drag``."""
    import dataclasses

    import game.window.live as live_mod

    real = live_mod.strategy_of
    monkeypatch.setattr(live_mod, "strategy_of", lambda rs: dataclasses.replace(real(rs), live_drag=False))


def test_a_slow_analysis_pauses_during_a_drag_and_runs_at_its_end(battle, monkeypatch):
    from game.window.live import ANALYSIS_BUDGET_MS

    app = battle
    _not_live(monkeypatch)
    app.doc.live.background = None  # no worker to analyse off the frame: the throttle decides
    calls = _counting_analyse(monkeypatch, app, slow_s=1.5 * ANALYSIS_BUDGET_MS / 1000)
    app.doc.recompute()
    assert app.doc.live.analyse_ms > ANALYSIS_BUDGET_MS
    calls.clear()
    gob = app.doc.board.unit("goblins")
    c = gob.center()
    roles0 = app.doc.roles("goblins")
    end = _drag_frames(app, c, (c[0], c[1] - 150))
    assert app.table.busy() and app.doc.live.paused
    assert calls == []  # thirty frames of dragging, no analysis
    assert "analysis paused while dragging" in app.status_line()
    # the dragged unit is drawn where it is now, with the roles of the last analysis
    moved = app.doc.board.unit("goblins")
    assert moved.center()[1] < c[1] - 100
    drawn = {dm.id: dm.shape.center for dm in app.doc.live.models if dm.unit.id == "goblins"}
    now = {m.id: m.center for m in moved.models()}
    assert drawn.keys() == now.keys()
    assert all(drawn[k] == pytest.approx(now[k]) for k in now)
    assert app.doc.roles("goblins") == roles0
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    app.frame()
    assert len(calls) == 1 and not app.doc.live.paused  # once, at the drag's end
    assert "analysis paused" not in app.status_line()
    assert set(app.doc.roles("goblins").values()) == {"none"}  # apart now: nobody fights
    assert app.doc.analysis.models[next(iter(now))].at == pytest.approx(app.doc.board.unit("goblins").models()[0].center)


def test_a_rank_and_file_analysis_is_never_paused_however_slow(battle, monkeypatch):
    from game.window.live import ANALYSIS_BUDGET_MS

    app = battle
    calls = _counting_analyse(monkeypatch, app, slow_s=3 * ANALYSIS_BUDGET_MS / 1000)
    app.doc.recompute()
    assert app.doc.live.analyse_ms > ANALYSIS_BUDGET_MS
    c = app.doc.board.unit("goblins").center()
    _drag_frames(app, c, (c[0], c[1] - 150))
    assert len(calls) >= 8 and not app.doc.live.paused  # the engine declares live_drag: every frame
    assert set(app.doc.roles("goblins").values()) == {"none"}


def test_a_cheap_analysis_stays_live_during_a_drag(battle, monkeypatch):
    app = battle
    calls = _counting_analyse(monkeypatch, app, slow_s=0)
    c = app.doc.board.unit("goblins").center()
    _drag_frames(app, c, (c[0], c[1] - 150))
    assert len(calls) >= 8 and not app.doc.live.paused
    assert set(app.doc.roles("goblins").values()) == {"none"}  # live: apart already while dragging


def test_fight_phase_steps_are_computed_once_per_board(monkeypatch):
    import game.engines.engagement_range.steps as w

    real = w.fight_phase_steps
    calls = []
    monkeypatch.setattr(w, "fight_phase_steps", lambda *a, **k: calls.append(1) or real(*a, **k))
    app = make_app(PILE_IN)
    for k in (pygame.K_n, pygame.K_n, pygame.K_p, pygame.K_HOME, pygame.K_n, pygame.K_n):
        key(app, k)
    assert len(calls) == 1
