"""Window defects of the second QA pass, driven headless (SDL dummy video driver): typing in a
text field, the close buttons of the pygame_gui windows, slow analyses while dragging, the
Fight phase steps, the wheel over a window, undo and the distance moved, the status line."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.core.scenario import board_to_dict  # noqa: E402
from apputil import key, make_app, move_mouse  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
PILE_IN = ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml"


@pytest.fixture()
def battle(tmp_path):
    path = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, path)
    return make_app(path)


def type_text(app, text):
    """Key presses the way SDL sends them: KEYDOWN, then TEXTINPUT with the character."""
    for ch in text:
        k = pygame.key.key_code(ch) if ch != " " else pygame.K_SPACE
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=ch))
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0))
        app.frame()


def click_px(app, px):
    move_mouse(app, px)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=px, button=1))
    app.frame()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=px, button=1))
    app.frame()
    app.frame()


# -- P1-1: typing in a text field goes to the field only --------------------------------------
def test_typing_in_the_name_field_fires_no_board_shortcut(battle):
    app = battle
    app.table.select("dwarfs")
    key(app, pygame.K_F2)
    app.key(pygame.K_RETURN)
    entry = app.panels.unit.entry("name")
    assert entry.is_focused
    entry.set_text("")
    board0 = board_to_dict(app.doc.board)
    view0 = (app.table.camera.scale, app.table.camera.offset_px)
    tool0, rules0, undo0 = app.table.tool, app.doc.rs.id, app.doc.session.history.undo_depth
    type_text(app, "Wolf Riders tdbwsrqe3[].,+-fl")
    assert entry.get_text() == "Wolf Riders tdbwsrqe3[].,+-fl"
    assert board_to_dict(app.doc.board) == board0
    assert app.table.tool == tool0 and app.doc.rs.id == rules0 and app.doc.session.history.undo_depth == undo0
    assert (app.table.camera.scale, app.table.camera.offset_px) == view0
    assert app.table.options.legend
    key(app, pygame.K_RETURN)
    app.frame()
    assert app.doc.board.unit("dwarfs").name == "Wolf Riders tdbwsrqe3[].,+-fl"
    assert app.doc.session.history.undo_depth == undo0 + 1 and app.doc.rs.id == rules0
    # Esc leaves the field; then the keys are board shortcuts again
    app.gui.focus(entry)
    key(app, pygame.K_ESCAPE)
    assert not entry.is_focused
    key(app, pygame.K_3)
    assert app.table.tool == "wheel"


def test_typing_a_digit_in_the_files_field_keeps_the_tool(battle):
    app = battle
    app.table.select("dwarfs")
    key(app, pygame.K_F2)
    files = app.panels.unit.entry("files")
    app.gui.focus(files)
    files.set_text("")
    type_text(app, "3")
    assert app.table.tool == "move" and files.get_text() == "3"


# -- P1-2: the x of a window closes it; Esc closes the panels; F2 toggles ----------------------
def _close_px(window):
    return window.close_window_button.rect.center


@pytest.mark.parametrize("opener, attr", [(pygame.K_F1, "help"), (pygame.K_u, "palette"), (pygame.K_F2, "unit")])
def test_the_close_button_closes_each_window(battle, opener, attr):
    app = battle
    app.table.select("dwarfs")
    key(app, opener)
    window = app.opened(attr)
    assert window is not None and window.alive()
    click_px(app, _close_px(window))
    assert app.opened(attr) is None and not window.alive()
    key(app, opener)  # and it opens again
    assert app.opened(attr) is not None and app.opened(attr).alive()


def test_esc_closes_the_panels_and_f2_toggles_the_unit_panel(battle):
    app = battle
    app.table.select("dwarfs")
    key(app, pygame.K_u)
    key(app, pygame.K_F2)
    assert app.opened("unit") is not None and app.opened("palette") is not None
    app.gui.focus(None)
    key(app, pygame.K_ESCAPE)
    assert app.opened("unit") is None and app.opened("palette") is not None
    key(app, pygame.K_ESCAPE)
    assert app.opened("palette") is None and app.table.selection == "dwarfs"  # Esc closed windows only
    key(app, pygame.K_F2)
    assert app.opened("unit") is not None
    app.gui.focus(None)
    key(app, pygame.K_F2)
    assert app.opened("unit") is None


def test_the_unit_panel_leaves_the_legend_free(battle):
    from game.render.scene import scene_layout

    app = battle
    app.table.select("dwarfs")
    key(app, pygame.K_F2)
    lay = app.table.layout()
    legend = pygame.Rect(*[int(v) for v in lay.panel])
    assert not app.opened("unit").rect.colliderect(legend)


# -- P1-3: a slow analysis is not rerun on every frame of a drag -----------------------------
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


# -- P2-6: the wheel over a pygame_gui window goes to the window only -------------------------
def wheel(app, dy, mod=0):
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=dy, flipped=False, precise_x=0.0,
                                         precise_y=float(dy)))
    app.frame()


@pytest.mark.parametrize("opener, attr", [(pygame.K_F1, "help"), (pygame.K_u, "palette")])
def test_the_wheel_over_a_window_neither_zooms_nor_turns(battle, opener, attr):
    app = battle
    key(app, opener)
    window = app.opened(attr)
    move_mouse(app, window.rect.center)
    view0 = (app.table.camera.scale, app.table.camera.offset_px)
    wheel(app, 1)
    wheel(app, -2)
    assert (app.table.camera.scale, app.table.camera.offset_px) == view0  # nothing selected: the wheel would zoom
    app.table.select("dwarfs")
    facing = app.doc.board.unit("dwarfs").facing_deg
    wheel(app, 1)
    assert app.doc.board.unit("dwarfs").facing_deg == facing and not app.doc.session.history.undo_depth  # ... or turn
    # over the table the wheel still zooms (nothing selected)
    app.select(None)
    from game.render.scene import scene_layout

    left, top, tw, th = app.table.layout().table
    move_mouse(app, (left + 20, top + th - 20))  # bottom left of the table: clear of every window
    assert not app.gui.over(app.window.mouse_px)
    wheel(app, 1)
    assert app.table.camera.scale > view0[0]


# -- P3-7: undo and redo bring back the distance moved -----------------------------------------
def _moved_in_status(app):
    import re

    m = re.search(r'moved ([0-9.]+)" \(', app.status_line())
    return float(m.group(1)) if m else None


def test_undo_rolls_back_the_distance_moved(battle):
    app = battle
    app.table.select("goblins")
    key(app, pygame.K_s)   # the goblins face the dwarfs: back 1"
    key(app, pygame.K_s)
    assert _moved_in_status(app) == pytest.approx(2.0)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert _moved_in_status(app) == pytest.approx(1.0)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert _moved_in_status(app) == pytest.approx(0.0)
    key(app, pygame.K_z, pygame.KMOD_CTRL, )  # nothing more to undo: still 0
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert _moved_in_status(app) == pytest.approx(1.0)
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert _moved_in_status(app) == pytest.approx(2.0)
    # a drag is undone the same way
    c = app.doc.board.unit("goblins").center()
    end = _drag_frames(app, c, (c[0], c[1] - 100))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=end, button=1))
    app.frame()
    assert _moved_in_status(app) > 4.0
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert _moved_in_status(app) == pytest.approx(2.0)


# -- P3-8: the status line fits the window ------------------------------------------------------
def _status_drawn(app):
    texts = [c for c in app.recorded(record_canvas=True).calls if c.name == "text" and c.get("tag") == "status"]
    assert len(texts) == 1
    return texts[0]


@pytest.mark.parametrize("width", [1400, 1000, 760])
def test_the_status_line_fits_the_window_and_keeps_the_message(tmp_path, width):
    path = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, path)
    app = make_app(path, size=(width, 800))
    app.table.select("goblins")
    key(app, pygame.K_s)
    key(app, pygame.K_k)  # compare mode: one more part
    app.status.say("Goblins moved back.")
    call = _status_drawn(app)
    (x, _), text, size = call.args[0], call.args[1], call.get("size")
    assert x + app.window.canvas.text_size(text, size)[0] <= width
    assert text.startswith("[move]") and "Goblins moved back." in text
    if width == 1400:
        assert "rules whfb8 (R)" in text and 'moved 1.0"' in text
    # a message too long for any window is cut with an ellipsis, never drawn past the edge
    app.status.say("A very long message " * 30)
    call = _status_drawn(app)
    assert call.args[1].endswith("…") and call.args[0][0] + app.window.canvas.text_size(call.args[1], size)[0] <= width
