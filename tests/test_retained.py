"""Retained drawing shows what a full redraw shows: while a unit is dragged (unchanged units
from the kept layer, the dragged unit and its enemies drawn live) and once the drag has ended.
Headless window, synthetic events, a fake clock."""
import dataclasses

import pygame

from apputil import SCENARIOS, make_app
from game.render.pygame_canvas import PygameCanvas
from game.render.scene import draw_scene


def full_redraw(d) -> pygame.Surface:
    """The same frame drawn whole by draw_scene (no retained layers)."""
    surf = pygame.Surface(d.window.screen.get_size())
    draw_scene(PygameCanvas(surf), d.doc.board, d.doc.analysis, d.table.camera,
               options=dataclasses.replace(d.table.options, layer="all"), models=d.doc.live.models)
    return surf


def differing_share(a: pygame.Surface, b: pygame.Surface) -> float:
    import numpy as np

    pa, pb = pygame.surfarray.array3d(a), pygame.surfarray.array3d(b)
    return float(np.any(np.abs(pa.astype(int) - pb.astype(int)) > 8, axis=2).mean())


def test_retained_frames_match_a_full_redraw_during_and_after_a_drag():
    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", gui=False)
    gob = d.doc.board.unit("goblins")
    c = gob.center()
    a, b = d.table.camera.to_px(c), d.table.camera.to_px((c[0] + 30, c[1] - 40))
    d.move_mouse(a)
    d.press(a)
    for i in range(1, 9):
        d.move_mouse((a[0] + (b[0] - a[0]) * i / 8, a[1] + (b[1] - a[1]) * i / 8), (1, 0, 0))
    assert d.table.busy()
    shown, full = d.window.screen.copy(), full_redraw(d)
    # every base of every unit is the colour a full redraw gives it (the dragged unit live)
    for dm in d.doc.live.models:
        p = tuple(int(v) for v in d.table.camera.to_px(dm.shape.center))
        if shown.get_rect().collidepoint(p):
            assert shown.get_at(p) == full.get_at(p), dm.id
    assert differing_share(shown, full) < 0.01  # labels of live units may sit elsewhere
    d.release(b)
    d.frame(4)  # the picture settles: the live units go back into the kept layer
    assert differing_share(d.window.screen, full_redraw(d)) < 0.0005  # the same picture


def test_a_new_board_zoom_and_pan_redraw_the_kept_layer():
    """Found by QA under Xvfb: after New the old units stayed drawn (and a placed unit was
    invisible) because a changed view/table key did not redraw the kept layer."""
    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", gui=False)
    d.frame(3)
    for action in ("zoom:1", "pan:60:0", "new"):
        d.action(action)
        d.frame(3)
        assert differing_share(d.window.screen, full_redraw(d)) < 0.0005, action
    assert not d.doc.board.units
