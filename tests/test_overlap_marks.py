"""Overlapping bases, driven headless (SDL dummy video driver): a file whose bases overlap
loads with a warning and marks; the marks follow edits, drags and undo, a dropped file warns
and a clean one clears it, and figures mark overlaps too."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from apputil import drag, key, make_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


@pytest.fixture()
def battle(tmp_path):
    path = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, path)
    return make_app(path)


# -- overlapping bases ----------------------------------------------------------------------------
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
