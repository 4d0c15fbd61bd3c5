"""A drag that ends flush is saved flush (driven headless), and ``snap_to_contact`` closes
small gaps and overlaps only, for trays and for skirmish models."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.core.scenario import load_scenario  # noqa: E402
from apputil import drag, key, make_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


# -- a drag that ends flush is saved flush ----------------------------------------------------
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
        b2 = b2.with_unit(new)
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
