"""While a unit is dragged in the window (the retained layers: base, still layer, live units),
its label stays with it and the gap arrows that join it to an enemy stay drawn: dragging the
Dwarfs of ``whfb8_rear_gap.yaml`` (charged in the rear across the gap of their incomplete last
rank) never puts their label on the Goblins' front rank nor drops the arrows the legend counts."""
from __future__ import annotations

import pygame
import pytest

from game.render import gap_marks, labels
from game.render.placer import Placer

from tests.apputil import SCENARIOS, make_app

GAP = SCENARIOS / "whfb8_rear_gap.yaml"
INK = (20, 20, 20)  # the gap arrows' colour (palette "gap_link")


def box_px(d, uid: str) -> tuple[float, float, float, float]:
    """The px box of unit ``uid``'s bases as drawn."""
    pts = [d.table.camera.to_px(p) for dm in d.table.shown()[2] if dm.unit.id == uid
           for p in getattr(dm.shape, "points", ())]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(0.0, w) * max(0.0, h)


def arrow_inked(d) -> list[bool]:
    """For each gap arrow of the analysis shown: is its middle drawn in the arrows' ink on screen?"""
    board, analysis, models = d.table.shown()
    ends = {m for link in analysis.gap_links for m in link[:2]}
    shapes = {dm.id: dm.shape for dm in models if dm.id in ends}
    out = []
    for _a, _b, s, e in gap_marks.arrows(board, analysis, shapes):
        ps, pe = d.table.camera.to_px(s), d.table.camera.to_px(e)
        mid = (int((ps[0] + pe[0]) / 2), int((ps[1] + pe[1]) / 2))
        near = [d.window.screen.get_at((mid[0] + dx, mid[1] + dy))[:3] for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        out.append(any(max(abs(c - k) for c, k in zip(px, INK)) < 40 for px in near))
    return out


@pytest.fixture()
def dragging(tmp_path, monkeypatch):
    """The window on the rear-gap scenario, the Dwarfs picked up and moved a little, every
    label box the Dwarfs' label took recorded."""
    placed: list = []
    real = labels.unit_label

    def spy(p, u, i):
        got: list = []
        add = Placer.add

        def recording(self, box, soft=False):
            got.append(box)
            return add(self, box, soft)

        monkeypatch.setattr(Placer, "add", recording)
        try:
            real(p, u, i)
        finally:
            monkeypatch.setattr(Placer, "add", add)
        if u.id == "dwarfs" and got:
            placed.append(got[0])

    monkeypatch.setattr(labels, "unit_label", spy)
    d = make_app(GAP, copy_to=tmp_path, size=(1400, 880))
    d.frame(5)
    assert all(arrow_inked(d)) and len(arrow_inked(d)) == 3  # before the drag: three arrows drawn
    a = d.table.camera.to_px(d.doc.board.unit("dwarfs").center())
    d.move_mouse(a)
    d.press(a)
    for i in range(1, 4):
        d.move_mouse((a[0] + 2 * i, a[1]), (1, 0, 0))
    d.frame(10)  # held still mid-drag
    d.key(pygame.K_EQUALS)  # zoomed in and out: the base is drawn again whole, the Dwarfs in it
    d.key(pygame.K_MINUS)
    d.frame(3)
    d.move_mouse((a[0] + 8, a[1]), (1, 0, 0))  # and moved on a little: only the Dwarfs change
    d.frame(3)
    assert d.table.busy()
    return d, placed


def test_the_gap_arrows_stay_drawn_while_the_unit_is_held(dragging):
    d, _ = dragging
    inked = arrow_inked(d)
    assert len(inked) == 3 and all(inked), inked  # the legend counts three: three are drawn


def test_the_label_stays_with_the_dragged_unit(dragging):
    d, placed = dragging
    goblins = box_px(d, "goblins")
    assert placed
    assert all(overlap(b, goblins) == 0 for b in placed), (placed, goblins)
