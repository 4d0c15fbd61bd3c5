"""The window's title bar, status line and help, driven headless (SDL dummy video driver): a
scenario without a title keeps its title bar, the distance moved since selection is counted once,
Esc closes the F1 help first, no tooltip shows under the help or a panel, undo and redo bring
back the distance moved, and the status line fits the window."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.core.scenario import load_scenario  # noqa: E402
from apputil import drag, key, make_app, move_mouse  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
APART = ROOT / "tests" / "golden" / "whfb8_apart.yaml"


def untitled(tmp_path) -> Path:
    """whfb8_apart.yaml without its (optional) title line."""
    p = tmp_path / "no_title.yaml"
    p.write_text("".join(ln for ln in APART.read_text().splitlines(True) if not ln.startswith("title:")))
    return p


# -- a scenario without a title -----------------------------------------------------------
@pytest.mark.parametrize("size", [(1400, 880), (1280, 820), (1100, 760)])
def test_untitled_scenario_keeps_the_title_bar_and_the_panel_below_the_toolbar(tmp_path, size):
    path = untitled(tmp_path)
    assert load_scenario(path).title == ""
    app = make_app(path, size)
    c = app.recorded()
    titles = [x.args[1] for x in c.find("text", "title")]
    assert any("no_title" in t for t in titles)  # the file name stands in for the title
    assert not any(".yaml" in t for t in titles)  # without its extension
    lay = app.table.layout()
    assert lay.title is not None
    toolbar = app.toolbar.rects()
    assert min(r.top for r in toolbar) >= lay.title[3]
    # nothing of the toolbar reaches into the legend panel or the table
    assert max(r.bottom for r in toolbar) <= lay.panel[1] == lay.table[1]
    heading = [x for x in c.find("text", "legend") if x.args[1] == "Legend"]
    assert heading and heading[0].args[0][1] >= lay.panel[1]


def test_titled_scenario_shows_its_own_title(tmp_path):
    app = make_app(APART)
    assert any(x.args[1].startswith("Bases 1.5 mm apart") for x in app.recorded().find("text", "title"))


# -- the distance moved since selection ------------------------------------------------------
def _status_distances(app):
    import re

    text = app.status_line()
    return ([float(x) for x in re.findall(r'moved ([0-9.]+)" \(', text)],
            [float(x) for x in re.findall(r'Moved ([0-9.]+)" \(', text)])


@pytest.mark.parametrize("tool", ["move", "forward"])
def test_a_drag_is_counted_once_in_the_status_line(tmp_path, tool):
    path = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, path)
    app = make_app(path)
    app.action(f"tool:{tool}")
    c = app.doc.board.unit("goblins").center()
    drag(app, c, (c[0], c[1] - 100))  # the goblins face south: straight back for the forward tool
    assert app.table.selection == "goblins"
    moved = app.doc.session.moved_mm["goblins"]
    assert moved == pytest.approx(100, abs=1.0)
    shown, since = _status_distances(app)
    assert shown == [pytest.approx(moved / 25.4, abs=0.05)]
    assert since == shown  # "Moved ... since selected" is the same single drag
    drag(app, app.doc.board.unit("goblins").center(), (c[0], c[1] - 150))  # a second drag adds up
    shown2, since2 = _status_distances(app)
    assert shown2 == since2 == [pytest.approx(app.doc.session.moved_mm["goblins"] / 25.4, abs=0.05)]
    assert app.doc.session.moved_mm["goblins"] == pytest.approx(150, abs=1.5)


# -- the F1 help: Esc closes it; no tooltips over dialogs ------------------------------------
@pytest.fixture()
def battle(tmp_path):
    path = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, path)
    return make_app(path)


def test_esc_closes_the_help_and_only_the_help(battle):
    app = battle
    app.table.select("dwarfs")
    key(app, pygame.K_F1)
    assert app.opened("help") is not None
    key(app, pygame.K_ESCAPE)
    assert app.opened("help") is None
    assert app.table.selection == "dwarfs"  # the first Esc only closed the help
    key(app, pygame.K_ESCAPE)
    assert app.table.selection is None


def _hover_px(app, mid):
    model = next(m for u in app.doc.board.units for m in u.models() if m.id == mid)
    return app.table.camera.to_px(model.shape.center)


def test_no_tooltip_while_the_help_is_open(battle):
    app = battle
    px = _hover_px(app, "dwarfs.r1f1")
    move_mouse(app, px)
    assert app.table.hover == "dwarfs.r1f1" and app.recorded().find("polygon", "tooltip")
    key(app, pygame.K_F1)
    move_mouse(app, px)
    assert app.table.hover is None and not app.recorded().find(None, "tooltip")
    key(app, pygame.K_ESCAPE)
    move_mouse(app, px)
    assert app.table.hover == "dwarfs.r1f1"


def test_no_tooltip_under_a_panel(battle):
    app = battle
    key(app, pygame.K_u)  # the palette opens at the top left of the table
    rect = app.opened("palette").rect
    under = [m.id for m in app.doc.live.models if rect.collidepoint(app.table.camera.to_px(m.shape.center))]
    if not under:  # put a model under the panel
        c = app.table.camera.to_mm(rect.center)
        g0 = app.doc.board.unit("goblins")
        app.put_unit(g0.translated(c[0] - g0.center()[0], c[1] - g0.center()[1]))
        under = [m.id for m in app.doc.live.models if rect.collidepoint(app.table.camera.to_px(m.shape.center))]
    assert under
    move_mouse(app, app.table.camera.to_px(next(m.shape.center for m in app.doc.live.models if m.id == under[0])))
    assert app.table.hover is None
    assert app.gui.over(app.window.mouse_px)
    assert not app.recorded().find(None, "tooltip")


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


# -- undo and redo bring back the distance moved -----------------------------------------
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


# -- the status line fits the window ------------------------------------------------------
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
        assert "rules whfb8 (R, Ctrl+R)" in text and 'moved 1.0"' in text
    # a message too long for any window is cut with an ellipsis, never drawn past the edge
    app.status.say("A very long message " * 30)
    call = _status_drawn(app)
    assert call.args[1].endswith("…") and call.args[0][0] + app.window.canvas.text_size(call.args[1], size)[0] <= width
