"""The window's title bar, status line and help, driven headless (SDL dummy video driver): a
scenario without a title keeps its title bar, the distance moved since selection is counted once,
Esc closes the F1 help first, and no tooltip shows under the help or a panel."""
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
    assert any("no_title.yaml" in t for t in titles)  # the file name stands in for the title
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
