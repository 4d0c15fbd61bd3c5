"""The still layer of the retained drawing (game.window.retained: RetainedScene._draw_live):
mid-drag, the live units that stood still since the last frame are drawn once into a copy of
the base, and only the live units that changed are drawn over it each frame. Every frame must
show what drawing all live units anew over the base shows: each base in the colour of its
role now (an enemy whose roles change while kept there is drawn again), at most a few px
apart where two live units touch. Headless window, synthetic events, a fake clock."""
import dataclasses

import numpy as np
import pygame

from test_retained_region import _app, full_redraw

from game.render.pygame_canvas import PygameCanvas
from game.render.scene import draw_scene
from game.window import retained as rt


def all_live_anew(d) -> pygame.Surface:
    """The frame as drawn without a still layer: the base, every live unit drawn over it in one
    drawing, then the top layer."""
    r = d.table.retained
    board, analysis, models = d.doc.board, d.doc.analysis, d.doc.live.models
    surf = r.base.copy()
    canvas = PygameCanvas(surf)
    b, a, ms = rt._sub(board, analysis, models, r.moving)
    o = d.table.options
    draw_scene(canvas, b, a, d.table.camera, options=dataclasses.replace(o, layer="units"), models=ms)
    draw_scene(canvas, board, analysis, d.table.camera, options=dataclasses.replace(o, layer="top"), models=models)
    return surf


def _differing(a: pygame.Surface, b: pygame.Surface) -> int:
    return int(np.any(pygame.surfarray.array3d(a) != pygame.surfarray.array3d(b), axis=2).sum())


def _bases_agree(d, shown: pygame.Surface, ref: pygame.Surface) -> list[str]:
    """The live models whose base centre differs in colour between the two pictures."""
    r = d.table.retained
    bad = []
    for dm in d.doc.live.models:
        if dm.unit.id in r.moving:
            p = tuple(int(v) for v in d.table.camera.to_px(dm.shape.center))
            if shown.get_rect().collidepoint(p) and shown.get_at(p) != ref.get_at(p):
                bad.append(dm.id)
    return bad


def _grab(tmp_path, uid: str):
    """The three-combat window with unit ``uid`` picked up: (driver, its retained scene, the px
    where the mouse holds it)."""
    d = _app(tmp_path)
    a = d.table.camera.to_px(d.doc.board.unit(uid).center())
    d.move_mouse(a)
    d.press(a)
    return d, d.table.retained, a


def test_live_units_that_stand_still_are_drawn_once_and_every_frame_shows_them_as_they_are(tmp_path):
    d, r, a = _grab(tmp_path, "u0_0")
    roles_seen, kept_changed = set(), 0
    # along the enemy's front until it meets u1_1 (a dividing mark there), and back: the enemies
    # change now and then while the dragged unit changes every frame
    for i in list(range(1, 25)) + list(range(24, -8, -2)):
        kept = dict(r.still_sigs)
        d.move_mouse((a[0] + 4 * i, a[1]), (1, 0, 0))
        roles_seen.add(tuple(sorted(d.doc.live.roles("u0_1").items())))
        kept_changed += any(r.last_sigs.get(uid) != s for uid, s in kept.items())
        shown, ref = d.window.screen.copy(), all_live_anew(d)
        assert not _bases_agree(d, shown, ref), i
        assert _differing(shown, ref) < 400, i  # (where the live units' drawings touch)
    assert len(roles_seen) >= 2 and kept_changed >= 2  # units kept in the still layer changed
    assert r.still_reused >= 10 and r.still_builds >= 3
    d.release(d.table.camera.to_px(d.doc.board.unit("u0_0").center()))
    d.frame(4)  # settled: no live unit, no still layer in the picture
    assert not r.moving
    assert _differing(d.window.screen, full_redraw(d)) == 0


def test_the_legend_drawn_again_alone_reaches_the_still_layer(tmp_path):
    """The legend panel is redrawn on the base alone when its items change: a frame over the
    still layer shows the new panel (copied in), not the one the still layer was made with."""
    d, r, a = _grab(tmp_path, "u0_0")
    for i in range(1, 20):  # until it presses against u1_1 too: both enemies kept still
        d.move_mouse((a[0] + 4 * i, a[1]), (1, 0, 0))
    assert r.still_key is not None and {"u0_1", "u1_1"} <= r.still_sigs.keys()
    lay = rt.scene_layout(PygameCanvas(d.window.screen), d.doc.board, d.table.options,
                          rt.ruleset_of(d.doc.analysis))
    x, y, w, h = (int(v) for v in lay.panel)
    panel = pygame.Rect(x + 2, y + 2, w - 4, h - 4)
    r.still.fill((255, 0, 0), panel)  # (as if the still layer held an older panel)
    r.base_legend = object()  # the legend's items differ: the panel is drawn again on the base
    reused = r.still_reused
    d.move_mouse((a[0] + 4 * 20, a[1]), (1, 0, 0))
    assert r.still_reused == reused + 1  # drawn over the same still layer
    shown = d.window.screen.subsurface(panel).copy()
    assert _differing(shown, r.base.subsurface(panel).copy()) == 0


def test_keep_off_boxes_are_taken_before_the_drawing_places_its_labels(tmp_path):
    """SceneOptions.keep_off: the labels of live units drawn over the still layer keep clear of
    the labels it placed, as one drawing of them all would."""
    d = _app(tmp_path)
    board, o = d.doc.board, d.table.options
    surf = pygame.Surface(d.window.screen.get_size())
    b, a, ms = rt._sub(board, d.doc.analysis, d.doc.live.models, {"u0_0"})
    first: list = []
    draw_scene(PygameCanvas(surf), b, a, d.table.camera, models=ms,
               options=dataclasses.replace(o, layer="units", placed=first))
    assert first
    again: list = []
    draw_scene(PygameCanvas(surf), b, a, d.table.camera, models=ms,
               options=dataclasses.replace(o, layer="units", placed=again, keep_off=tuple(first)))
    new = again[len(first):]  # (the kept-off boxes come first)
    assert again[:len(first)] == first and new
    label = new[-1]  # (the front marker is registered where it is drawn; the label is placed)
    assert label != first[-1]
    assert all(not (label[0] < k[2] and k[0] < label[2] and label[1] < k[3] and k[1] < label[3]) for k in first)


def test_the_panel_draws_the_legend_items_it_is_given(tmp_path):
    """SceneOptions.legend_items: the retained scene hands the panel the items it built (the
    panel does not build them twice); given the same items the panel is the same picture, and
    it draws what it is given."""
    from game.render.legend import LegendItem, legend_items

    d = _app(tmp_path)
    board, analysis, models, o = d.doc.board, d.doc.analysis, d.doc.live.models, d.table.options
    size = d.window.screen.get_size()

    def panel(**kw) -> pygame.Surface:
        surf = pygame.Surface(size)
        draw_scene(PygameCanvas(surf), board, analysis, d.table.camera, models=models,
                   options=dataclasses.replace(o, layer="panel", **kw))
        return surf

    plain = panel()
    assert _differing(panel(legend_items=legend_items(board, analysis, models, o)), plain) == 0
    assert _differing(panel(legend_items=[LegendItem("heading", "Something else")]), plain) > 0


def test_units_joined_by_a_gap_link_to_a_changed_unit_are_not_kept_still():
    """A gap link is drawn with the units at both its ends (retained._sub keeps a link only when
    both are drawn): a unit standing still but linked, directly or through other still units,
    to a unit that changed is drawn with it, never into the still layer without its link."""
    links = [("a.r1f1", "b.r2f1"), ("b.r1f3", "c.r1f1")]
    assert rt.apart({"b", "c", "d"}, links) == {"d"}  # b is linked to a (changed); c through b
    assert rt.apart({"a", "b", "c", "d"}, links) == {"a", "b", "c", "d"}  # every end still
    assert rt.apart({"c", "d"}, [("d.r1f1", "e.r1f1")]) == {"c"}
    assert rt.apart({"c"}, []) == {"c"}


def test_a_drag_keeps_gap_linked_live_units_together(tmp_path):
    """whfb8_rear_gap: the goblins fight the dwarfs' rear across a gap (gap links). Dragging the
    goblins along, the dwarfs (live, standing still) stay drawn with them, links and all."""
    from apputil import SCENARIOS, make_app

    d = make_app(SCENARIOS / "whfb8_rear_gap.yaml", gui=False)
    d.frame(2)
    r = d.table.retained
    a = d.table.camera.to_px(d.doc.board.unit("goblins").center())
    d.move_mouse(a)
    d.press(a)
    linked = 0
    for i in range(1, 12):
        d.move_mouse((a[0] + 0.6 * i, a[1]), (1, 0, 0))
        for ma, mb in d.doc.analysis.gap_links:
            ua, ub = ma.split(".")[0], mb.split(".")[0]
            if {ua, ub} <= r.moving:
                linked += 1
                assert (ua in r.still_sigs) == (ub in r.still_sigs), i
        shown, ref = d.window.screen.copy(), all_live_anew(d)
        assert not _bases_agree(d, shown, ref), i
    assert linked and {"dwarfs", "goblins"} <= r.moving


def test_labels_drawn_over_the_still_layer_keep_off_its_units(tmp_path):
    """SceneOptions.keep_clear: a unit fought front and rear, dragged along. Once both enemies
    stand still in the still layer, the dragged unit's label must still keep off the rear
    enemy's tray (its first spot, behind the unit, lies on it), as in one drawing of every live
    unit: the frame is pixel for pixel that drawing."""
    from apputil import make_app
    from game.core.board import Board, Unit
    from game.core.scenario import dump_scenario

    def unit(uid, player, y, facing, name):
        return Unit(id=uid, player=player, kind="ranked", base=(20, 20), files=5, count=10, front=(300.0, y),
                    facing_deg=facing, name=name, profile={"attacks": 1, "initiative": 3})

    board = Board(units=[unit("a", 1, 400, 0.0, "Sandwiched Spearmen"), unit("e", 2, 400, 180.0, "Front Foes"),
                         unit("e2", 2, 440, 0.0, "Rear Chargers")], ruleset="whfb8", table=(700.0, 700.0))
    f = tmp_path / "sandwich.yaml"
    f.write_text(dump_scenario(board))
    d = make_app(f, gui=False)
    d.frame(3)
    r = d.table.retained
    a = d.table.camera.to_px(d.doc.board.unit("a").center())
    d.move_mouse(a)
    d.press(a)
    checked = 0
    for i in range(1, 40):
        d.move_mouse((a[0] + 3 * i, a[1]), (1, 0, 0))
        if {"e", "e2"} <= r.still_sigs.keys():
            assert r.still_units  # (the still units' trays, handed to the drawing over it)
            assert _differing(d.window.screen.copy(), all_live_anew(d)) == 0, i
            checked += 1
    assert checked >= 5 and r.still_reused >= 5
