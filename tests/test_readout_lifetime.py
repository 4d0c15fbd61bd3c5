"""The drag readout and the model tooltip live exactly as long as what they describe: a click
charge's readout goes with the user's next key or click, or when the pointer leaves the window
(so it is gone after the Export dialog closes); the tooltip goes when the pointer leaves the
window and never shows for where the pointer stood when the window opened."""
from __future__ import annotations

import pygame

from game.core import manoeuvre as mv

from tests.apputil import SCENARIOS, make_app

SCENARIO = SCENARIOS / "t9a_misaligned_no_cap.yaml"


def readouts(d) -> list:
    return [o for o in d.table.options.overlays if o[0] == "drag_readout"]


def charged(tmp_path):
    """A window where the goblins have just charged the dwarfs by two clicks."""
    d = make_app(SCENARIO, copy_to=tmp_path)
    d.put_unit(mv.forward(d.doc.board.unit("goblins"), -60))
    d.action("tool:charge")
    d.click(d.doc.board.unit("goblins").center())
    d.click(d.doc.board.unit("dwarfs").center())
    d.frame()
    assert readouts(d)  # the charge's readout, right after it
    return d


def test_the_charge_readout_goes_when_the_pointer_leaves_the_window(tmp_path):
    d = charged(tmp_path)
    d.post(pygame.event.Event(pygame.WINDOWLEAVE))
    d.frame()
    assert not readouts(d)


def test_the_charge_readout_goes_with_the_next_click_even_on_a_button(tmp_path):
    d = charged(tmp_path)
    d.button("help")  # a toolbar button takes the click; the table never sees it
    d.frame()
    assert d.help.is_open()
    assert not readouts(d)


def test_the_charge_readout_is_gone_after_the_export_dialog_closes(tmp_path):
    d = charged(tmp_path)
    d.key(pygame.K_e, pygame.KMOD_CTRL)
    assert d.dialogs.top() is not None
    d.key(pygame.K_ESCAPE)  # out of the file name field
    d.key(pygame.K_ESCAPE)  # the dialog closes
    d.frame()
    assert d.dialogs.top() is None
    assert not readouts(d)


def test_the_tooltip_goes_when_the_pointer_leaves_the_window(tmp_path):
    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", copy_to=tmp_path)
    d.move_mouse(d.table.camera.to_px(d.doc.board.unit("night_goblins").center()))
    d.frame()
    assert d.table.hover is not None
    d.post(pygame.event.Event(pygame.WINDOWLEAVE))
    d.frame()
    assert d.table.hover is None and d.table.options.hover_px is None


def test_no_tooltip_before_the_pointer_moves_in_the_window(tmp_path):
    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", copy_to=tmp_path)
    # where the window believes the pointer is before any mouse event: over a model
    d.window.mouse_px = d.table.camera.to_px(d.doc.board.unit("night_goblins").center())
    d.window.invalidate()
    d.frame(2)
    assert d.table.hover is None
