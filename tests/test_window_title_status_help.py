"""Window defects found in QA, driven headless (SDL dummy video driver): a scenario without a
title, the distance moved since selection, the F1 help and tooltips, overlapping bases, flush
drags."""
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


# -- 1. a scenario without a title -----------------------------------------------------------
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


# -- 2. the distance moved since selection ------------------------------------------------------
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


# -- 3. the F1 help: Esc closes it; no tooltips over dialogs ------------------------------------
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


# -- 4. overlapping bases ------------------------------------------------------------------------
OVERLAPPING = """ruleset: whfb8
units:
  - {id: a, player: 1, base: [20, 20], files: 5, models: 10, front: [600, 400], facing: 0}
  - {id: b, player: 2, base: [20, 20], files: 5, models: 10, front: [600, 405], facing: 180}
  - {id: c, player: 1, base: 32, models: [[300, 300], [320, 300], [420, 300]]}
"""


def overlap_ids(app):
    return {m for a, b, _ in app.doc.live.overlaps for m in (a, b)}


def marked(canvas):
    return {x.get("tag").split(":", 1)[1] for x in canvas.find(None, "overlap:")}


def test_overlapping_bases_load_with_a_warning_and_marks(tmp_path):
    from game.core.checks import overlapping_bases

    path = tmp_path / "overlap.yaml"
    path.write_text(OVERLAPPING)
    app = make_app(path)
    expected = {m for a, b, _ in overlapping_bases(app.doc.board) for m in (a, b)}
    assert expected == {f"a.r1f{f}" for f in range(1, 6)} | {f"b.r1f{f}" for f in range(1, 6)} | {"c.m1", "c.m2"}
    assert overlap_ids(app) == expected
    c = app.recorded()
    warning = " ".join(x.args[1] for x in c.find("text", "warning"))
    assert warning.startswith("Warning: 6 pairs of bases overlap")
    assert "a (rank 1, file 1) and b (rank 1, file 5) by 5.0 mm" in warning
    assert marked(c) == expected  # exactly the overlapping models are marked
    assert "Base overlaps another base (12 models)" in " ".join(x.args[1] for x in c.find("text", "legend"))


def test_overlap_marks_follow_edits_drags_and_undo(tmp_path):
    path = tmp_path / "overlap.yaml"
    path.write_text(OVERLAPPING)
    app = make_app(path)
    # drag the skirmisher c.m2 clear of c.m1: at the drag's end its overlap is gone
    m2 = app.doc.board.unit("c").models()[1].shape.center
    drag(app, m2, (m2[0] + 40, m2[1] + 60))
    assert not app.table.busy() and "c.m2" not in overlap_ids(app) and "c.m1" not in overlap_ids(app)
    assert marked(app.recorded()) == overlap_ids(app)
    # an edit: move b back (W) out of a
    app.table.select("b")
    key(app, pygame.K_s, pygame.KMOD_SHIFT)  # 1 mm back ...
    key(app, pygame.K_s)                      # ... and 1" more: clear of a
    assert overlap_ids(app) == set()
    c = app.recorded()
    assert not c.find(None, "overlap:") and not c.find(None, "warning")
    assert not any("overlaps another" in x.args[1] for x in c.find("text", "legend"))
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert {f"b.r1f{f}" for f in range(1, 6)} <= overlap_ids(app)
    assert marked(app.recorded()) == overlap_ids(app)


def test_dropping_a_file_with_overlaps_warns_and_a_clean_file_clears_it(tmp_path, battle):
    app = battle
    assert app.doc.live.overlaps == [] and not app.recorded().find(None, "warning")
    path = tmp_path / "overlap.yaml"
    path.write_text(OVERLAPPING)
    pygame.event.post(pygame.event.Event(pygame.DROPFILE, file=str(path)))
    app.frame()
    assert len(app.doc.live.overlaps) == 6 and app.recorded().find("text", "warning")
    pygame.event.post(pygame.event.Event(pygame.DROPFILE, file=str(SCENARIO)))
    app.frame()
    assert app.doc.live.overlaps == [] and not app.recorded().find(None, "overlap:")


def test_draw_scene_marks_overlaps_for_figures_too():
    from game.core.analyse import analyse
    from game.core.scenario import parse_scenario
    from game.render.options import SceneOptions
    from game.render.scene import draw_scene, fit_view

    from game.render.canvas import Canvas

    board = parse_scenario(OVERLAPPING, "x.yaml")
    o = SceneOptions(overlaps=["c.m1", "c.m2", "nobody.m9"], warning="Warning: bases overlap")
    c = Canvas(1000, 700)
    assert draw_scene(c, board, analyse(board), fit_view(1000, 700, board, o), options=o) == []
    assert marked(c) == {"c.m1", "c.m2"}  # an unknown id is skipped quietly
    assert [x.args[1] for x in c.find("text", "warning")] == ["Warning: bases overlap"]
    c2 = Canvas(1000, 700)
    draw_scene(c2, board, analyse(board), fit_view(1000, 700, board, SceneOptions()), options=SceneOptions())
    assert not c2.find(None, "overlap:") and not c2.find(None, "warning")


# -- 5. a drag that ends flush is saved flush ----------------------------------------------------
def test_a_drag_against_a_flank_ends_in_exact_contact(tmp_path):
    from game.core import geometry as g

    path = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, path)
    app = make_app(path)
    ng = app.doc.board.unit("night_goblins")
    s = ng.center()
    drag(app, s, (s[0] + 260, s[1]))  # well past the dwarfs' left flank (x = 540)
    u, dw = app.doc.board.unit("night_goblins"), app.doc.board.unit("dwarfs")
    assert abs(g.gap_mm(u.tray(), dw.tray())) <= 1e-6
    assert u.front[0] == pytest.approx(540.0, abs=1e-6) and u.front[1] == pytest.approx(ng.front[1], abs=1e-6)
    # a slide up the flank stays flush too
    drag(app, u.center(), (u.center()[0] + 100, u.center()[1] - 30))
    u = app.doc.board.unit("night_goblins")
    assert abs(g.gap_mm(u.tray(), dw.tray())) <= 1e-6 and u.front[0] == pytest.approx(540.0, abs=1e-6)
    # the saved file holds the flush position; one undo per drag
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert load_scenario(path).unit("night_goblins").front[0] == pytest.approx(540.0, abs=1e-6)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.doc.board.unit("night_goblins").front[0] == pytest.approx(540.0, abs=1e-6)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.doc.board.unit("night_goblins").front == pytest.approx(ng.front)


SNAP = """ruleset: whfb8
units:
  - {id: a, player: 1, base: [20, 20], files: 5, models: 10, front: [600, 400], facing: 0}
  - {id: b, player: 2, base: [20, 20], files: 5, models: 10, front: [%s, %s], facing: 180}
  - {id: c, player: 1, base: 32, models: [[300, 300], [%s, 300]]}
"""


@pytest.mark.parametrize("dy, moved", [(-0.05, True), (0.05, True), (-0.4, True), (0.3, True), (-0.8, False),
                                       (0.0, False)])
def test_snap_to_contact_closes_small_gaps_and_overlaps_only(dy, moved):
    from game.core import geometry as g
    from game.core.scenario import parse_scenario
    from game.physics.trays import clearance_mm, snap_to_contact

    board = parse_scenario(SNAP % (610, 400 + dy, 400), "x.yaml")  # b front to front with a, 10 mm aside
    for direction in [(0.0, 1.0), (0.3, -1.0), (1.0, 0.0)]:  # straight, oblique, along the contact
        new = snap_to_contact(board, ("b", None), [direction], 0.5)
        if not moved:
            assert new is None
            continue
        b2 = board.copy()
        b2.replace_unit(new)
        assert abs(g.gap_mm(new.tray(), board.unit("a").tray())) <= 1e-6
        assert abs(clearance_mm(b2, ("b", None))) <= 1e-6
        assert g.dist(new.front, board.unit("b").front) <= 1.0


def test_snap_to_contact_for_skirmish_models():
    from game.core import geometry as g
    from game.core.scenario import parse_scenario
    from game.physics.trays import snap_to_contact

    board = parse_scenario(SNAP % (610, 380, 332.2), "x.yaml")  # c.m2 0.2 mm from c.m1
    new = snap_to_contact(board, ("c", 1), [(1.0, 0.0)], 0.5)
    ms = new.models()
    assert abs(g.gap_mm(ms[0].shape, ms[1].shape)) <= 1e-6 and ms[0].shape.center == (300.0, 300.0)
    assert snap_to_contact(board, ("c", 1), [(1.0, 0.0)], 0.1) is None  # beyond the reach
