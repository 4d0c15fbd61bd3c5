"""A dialog opens beside the units where the window has room, so the table it is about stays
in sight (a fresh user saw the units vanish under the Save dialog, opened over the middle)."""
from __future__ import annotations

import pygame

from game.window.dialogs import clear_spot

from game.core import edits as ed

from tests.apputil import SCENARIOS, make_app, make_blank

SCENARIO = SCENARIOS / "dwarf_horde_vs_goblins.yaml"


def _model_px(d) -> list:
    return [d.table.camera.to_px(m.center) for m in d.doc.board.models()]


def _covered(d) -> int:
    top = d.dialogs.top()
    assert top is not None
    r = pygame.Rect(top.window.get_abs_rect())
    return sum(1 for p in _model_px(d) if r.collidepoint(p))


def test_clear_spot_keeps_the_middle_when_nothing_is_under_it():
    assert clear_spot(pygame.Rect(400, 100, 600, 500), (1400, 880), [(100, 300)]) == (400, 100)


def test_clear_spot_moves_off_the_points():
    pts = [(700, 400), (650, 350)]
    assert clear_spot(pygame.Rect(400, 100, 600, 500), (1400, 880), pts) == (790, 100)
    assert clear_spot(pygame.Rect(400, 100, 600, 500), (1400, 880), pts + [(1000, 300)]) == (10, 100)


def _two_units_in_the_middle(tmp_path):
    """The trial's board: a new table, two 20-model units charged together in its middle."""
    d = make_blank(out_dir=tmp_path / "data", ruleset="t9a")
    for player, y in ((1, 420.0), (2, 340.0)):
        assert d.table.apply(d.doc.editor.place(d.doc.board, ed.BASE_PALETTE[0], (600.0, y), player))
    d.frame()
    return d


def test_save_as_leaves_the_units_in_sight(tmp_path):
    d = _two_units_in_the_middle(tmp_path)
    assert _model_px(d)
    d.key(pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    d.frame()
    assert _covered(d) == 0


def test_a_dialog_covers_no_more_units_than_in_the_middle(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)  # units across the whole table: the fewest covered
    d.key(pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    r = pygame.Rect(d.dialogs.top().window.get_abs_rect())
    sw = d.window.size()[0]
    middle = r.move((sw - r.w) // 2 - r.x, 0)
    assert _covered(d) <= sum(1 for p in _model_px(d) if middle.collidepoint(p))


def test_the_demo_save_dialog_leaves_the_units_in_sight(tmp_path):
    d = _two_units_in_the_middle(tmp_path)
    d.action("demo_recorder")
    d.recorder.set_text("caption", "One.")
    d.recorder.run("add")
    d.recorder.run("save")
    d.frame()
    assert _covered(d) == 0
