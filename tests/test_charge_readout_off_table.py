"""A click charge's readout and status line: the readout goes when the pointer leaves the
table's area for the legend, a panel or the toolbar (not only the window), and the status
line says when the charge went further than the charger's Movement (a fact, not a ruling)."""
from __future__ import annotations

from dataclasses import replace

from game.core import manoeuvre as mv

from tests.apputil import SCENARIOS, make_app

SCENARIO = SCENARIOS / "t9a_misaligned_no_cap.yaml"


def readouts(d) -> list:
    return [o for o in d.table.options.overlays if o[0] == "drag_readout"]


def charged(tmp_path, back_mm: float):
    """The goblins (Movement 4) set ``back_mm`` back, then charged into the dwarfs by two clicks."""
    d = make_app(SCENARIO, copy_to=tmp_path)
    gob = d.doc.board.unit("goblins")
    d.put_unit(replace(mv.forward(gob, -back_mm), profile={**gob.profile, "movement": 4}))
    d.action("tool:charge")
    d.click(d.doc.board.unit("goblins").center())
    d.click(d.doc.board.unit("dwarfs").center())
    d.frame()
    return d


def test_the_readout_goes_when_the_pointer_moves_onto_the_legend(tmp_path):
    d = charged(tmp_path, 60)
    assert readouts(d)
    l, t, w, h = d.table.layout().table
    d.move_mouse((l + w + 40, t + 40))  # beside the table: the legend panel
    d.frame()
    assert not readouts(d)


def test_the_readout_stays_while_the_pointer_moves_on_the_table(tmp_path):
    d = charged(tmp_path, 60)
    d.move_mouse(d.table.camera.to_px(d.doc.board.unit("dwarfs").center()))
    d.frame()
    assert readouts(d)


def test_a_charge_past_the_movement_says_so(tmp_path):
    d = charged(tmp_path, 120)
    msg = d.status.message
    assert "charged the" in msg
    assert "further than its Movement of 4.0\"" in msg, msg


def test_a_charge_within_the_movement_says_nothing_of_it(tmp_path):
    d = charged(tmp_path, 60)
    assert "charged the" in d.status.message and "further than" not in d.status.message


def test_the_charge_message_has_no_brackets_inside_brackets(tmp_path):
    d = charged(tmp_path, 120)
    assert '(4.7" (' not in d.status.message
    assert 'keeping its angle: 4.7" (120.0 mm).' in d.status.message
