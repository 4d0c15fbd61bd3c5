"""The demo recorder opens beside the legend, not over it: the legend says what the colours of
the step being recorded mean (a fresh user found the legend hidden behind the recorder)."""
from __future__ import annotations

import pygame

from game.core import edits as ed

from tests.apputil import make_blank


def test_the_recorder_leaves_the_legend_and_the_units_in_sight(tmp_path):
    d = make_blank(out_dir=tmp_path / "data", ruleset="t9a")
    for player, y in ((1, 420.0), (2, 340.0)):
        assert d.table.apply(d.doc.editor.place(d.doc.board, ed.BASE_PALETTE[0], (600.0, y), player))
    d.frame()
    d.action("demo_recorder")
    d.frame()
    assert d.recorder.alive()
    rec = pygame.Rect(d.recorder.window.get_abs_rect())
    lay = d.table.layout()
    legend = pygame.Rect(*(int(v) for v in lay.panel))
    assert legend.w > 0 and not rec.colliderect(legend)
    pts = [d.table.camera.to_px(m.center) for m in d.doc.board.models()]
    assert not any(rec.collidepoint(p) for p in pts)
