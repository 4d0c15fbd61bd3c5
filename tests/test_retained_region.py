"""The retained base layer takes a unit off by drawing again only the box it covered
(game.window.retained: RetainedScene._draw_region): when a drag picks a unit up, and when an
enemy starts changing mid-drag. The base must then be, pixel for pixel, the base drawn whole
without those units with every label where it was (no ghost of the picked-up unit, no
neighbour missing, no label moved); after the drop, once settled, the window shows exactly a
full draw_scene. Headless window, synthetic events, a fake clock."""
import dataclasses

import numpy as np
import pygame

from apputil import make_app
from game.core.board import Board, Unit
from game.core.scenario import dump_scenario
from game.render.pygame_canvas import PygameCanvas
from game.render.placer import Placements
from game.render.scene import draw_scene
from game.window import base_regions, retained as rt


def _board() -> Board:
    """Three combats side by side, close enough that labels and trays crowd each other, and a
    piece of terrain among them."""
    units = []
    for i in range(3):
        x = 200 + i * 190
        for side, facing in ((0, 0.0), (1, 180.0)):
            units.append(Unit(id=f"u{i}_{side}", player=side + 1, kind="ranked", base=(20, 20), files=8, count=24,
                              front=(float(x), 400.0), facing_deg=facing, name=f"Unit {i}.{side}",
                              profile={"attacks": 1 + side, "initiative": 3 - side}))
    return Board(units=units, ruleset="whfb8", table=(900.0, 700.0), title="three combats",
                 terrain=[{"name": "wood", "kind": "impassable", "points": [[80, 560], [200, 560], [200, 660], [80, 660]]}])


def _app(tmp_path):
    f = tmp_path / "three.yaml"
    f.write_text(dump_scenario(_board()))
    d = make_app(f, gui=False)
    d.frame(3)
    return d


def _same(a: pygame.Surface, b: pygame.Surface) -> int:
    """How many pixels differ."""
    return int(np.any(pygame.surfarray.array3d(a) != pygame.surfarray.array3d(b), axis=2).sum())


def full_redraw(d) -> pygame.Surface:
    """The frame drawn whole by draw_scene (no retained layers)."""
    surf = pygame.Surface(d.window.screen.get_size())
    draw_scene(PygameCanvas(surf), d.doc.board, d.doc.analysis, d.table.camera,
               options=dataclasses.replace(d.table.options, layer="all"), models=d.doc.live.models)
    return surf


def base_without_live(d) -> pygame.Surface:
    """The base layer drawn whole, without the units drawn live, each label, badge and marker
    where the last whole drawing of the base placed it; then the legend panel of every unit."""
    r = d.table.retained
    board, analysis, models = d.doc.board, d.doc.analysis, d.doc.live.models
    keep = {u.id for u in board.units} - r.moving
    b, a, ms = rt._sub(board, analysis, models, keep)
    o = d.table.options
    surf = pygame.Surface(d.window.screen.get_size())
    canvas = PygameCanvas(surf)
    again = Placements(reuse=r.placements.seen)
    draw_scene(canvas, b, a, d.table.camera, models=ms,
               options=dataclasses.replace(o, layer="table", hover=None, hover_px=None, selection=(), overlays=[],
                                           banner="", warning="", placements=again))
    assert not again.missed  # every label of the kept units had a place
    draw_scene(canvas, board, analysis, d.table.camera, options=dataclasses.replace(o, layer="panel"), models=models)
    return surf


def test_picking_a_unit_up_redraws_only_its_region_and_the_base_shows_every_other_unit_once(tmp_path):
    d = _app(tmp_path)
    r = d.table.retained
    before = full_redraw(d)
    assert _same(d.window.screen, before) == 0
    redraws = r.redraws
    u = d.doc.board.unit("u1_0")
    a = d.table.camera.to_px(u.center())
    d.move_mouse(a)
    d.press(a)
    for i in range(1, 7):  # back, away from its enemy (the physics follows from the second frame)
        d.move_mouse((a[0] + 4 * i, a[1] + 9 * i), (1, 0, 0))
        assert d.table.busy()
        assert r.redraws == redraws, "the base is not drawn whole while the unit is held"
        assert _same(r.base, base_without_live(d)) == 0, i
    assert "u1_0" in r.moving and d.doc.board.unit("u1_0").center()[1] > u.center()[1] + 10
    assert r.partial >= 1
    # the picked-up unit is not on the base where it stood (no ghost): the reference says so too
    px = tuple(int(v) for v in d.table.camera.to_px(u.center()))
    assert r.base.get_at(px) != before.get_at(px)
    d.release(d.table.camera.to_px(d.doc.board.unit("u1_0").center()))
    d.frame(4)  # settles: the live units are folded into a base drawn whole, labels placed anew
    assert not r.moving
    assert _same(d.window.screen, full_redraw(d)) == 0


def test_a_unit_that_starts_changing_mid_drag_is_taken_off_by_region_too(tmp_path):
    d = _app(tmp_path)
    r = d.table.retained
    redraws = r.redraws
    u = d.doc.board.unit("u0_0")
    a = d.table.camera.to_px(u.center())
    d.move_mouse(a)
    d.press(a)
    for i in range(1, 15):  # along the enemy's front, until it meets the next combat's unit u1_1
        d.move_mouse((a[0] + 5 * i, a[1]), (1, 0, 0))
        if 2 <= i <= 10:
            assert "u0_0" in r.moving and "u1_1" not in r.moving
        assert _same(r.base, base_without_live(d)) == 0, i
    assert "u1_1" in r.moving  # its edge model now fights two units: a dividing mark, drawn live
    assert r.partial >= 2 and r.redraws == redraws
    d.release(d.table.camera.to_px(d.doc.board.unit("u0_0").center()))
    d.frame(4)
    assert not r.moving and r.redraws == redraws + 1
    assert _same(d.window.screen, full_redraw(d)) == 0


def test_two_units_far_apart_are_taken_off_in_two_small_boxes(tmp_path):
    """A group drag picks up units far apart: each one's box is drawn again, not one box
    across the table between them (and the base shows every other unit once)."""
    d = _app(tmp_path)
    r = d.table.retained
    t = d.table
    t.select("u0_0")
    t.toggle_in_selection("u2_0")
    a = t.camera.to_px(d.doc.board.unit("u0_0").center())
    d.move_mouse(a)
    d.press(a)
    real = PygameCanvas.push_clip
    drawn: list = []
    try:
        PygameCanvas.push_clip = lambda self, rect: (drawn.append(tuple(rect)), real(self, rect))[1]
        for i in range(1, 6):
            boxes = r.regions.regions({"u0_0", "u2_0"})
            partial = r.partial
            drawn.clear()
            d.move_mouse((a[0], a[1] + 8 * i), (1, 0, 0))
            assert _same(r.base, base_without_live(d)) == 0, i
            if r.partial > partial:  # the frame they were taken off: in their two boxes
                assert len(boxes) == 2 and not boxes[0].colliderect(boxes[1])
                assert sorted(drawn) == sorted(tuple(b) for b in boxes)
                break
    finally:
        PygameCanvas.push_clip = real
    assert {"u0_0", "u2_0"} <= r.moving and r.partial == 1


def test_a_region_touching_a_drawing_of_unknown_owner_falls_back_to_a_whole_base(tmp_path):
    d = _app(tmp_path)
    r = d.table.retained
    r.regions.unknown.append(pygame.Rect(0, 0, 4000, 4000))  # as if something untagged lay everywhere
    redraws = r.redraws
    a = d.table.camera.to_px(d.doc.board.unit("u1_0").center())
    d.move_mouse(a)
    d.press(a)
    for i in range(1, 4):
        d.move_mouse((a[0] + 2 * i, a[1] + 9 * i), (1, 0, 0))
    assert r.redraws == redraws + 1 and r.partial == 0
    assert _same(r.base, base_without_live(d)) == 0


def test_owners_of_tags():
    assert base_regions.owners("model:u1_0.r1f2") == ("u1_0",)
    assert base_regions.owners("gap:a.r1f1|b.r2f1") == ("a", "b")
    assert base_regions.owners("gapletter:A:b.r1f1|c.r1f2") == ("b", "c")
    assert base_regions.owners("slot:a.r1f1:3") == ("a",)
    assert base_regions.owners("terrain:wood") == ()
    assert base_regions.owners("") is None
    assert base_regions.owners("legend") is None
