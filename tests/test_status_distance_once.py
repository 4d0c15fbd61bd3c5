"""The status line names each distance once: a charge's message gives its distance and does
not repeat it as "Moved ... since selected" (that total is added only when earlier moves of
the same selection add to it)."""
from __future__ import annotations

from dataclasses import replace

from game.core import manoeuvre as mv

from tests.apputil import SCENARIOS, make_app

SCENARIO = SCENARIOS / "t9a_misaligned_no_cap.yaml"


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


def test_a_charge_message_gives_its_distance_once(tmp_path):
    d = charged(tmp_path, 120)
    msg = d.status.message
    assert 'keeping its angle: 4.7" (120.0 mm).' in msg, msg
    assert msg.count('4.7" (120.0 mm)') == 1, msg
    assert "since selected" not in msg, msg
    assert "further than its Movement" in msg  # the fact about the reach stays


def test_the_two_moved_figures_say_which_is_which(tmp_path):
    """The readout's figure is this move; the status line's selection summary is the total
    since the unit was selected: each says so, so two different figures do not clash."""
    d = charged(tmp_path, 120)
    lines = [o for o in d.table.options.overlays if o[0] == "drag_readout"][0][3].lines()
    assert lines[0].startswith("moved ") and lines[0].endswith(" this move"), lines
    d.table.select("goblins")
    assert '" (120.0 mm) since selected' in d.status_line(), d.status_line()
