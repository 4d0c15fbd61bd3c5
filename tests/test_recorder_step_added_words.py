"""The recorder's "step added" message reads naturally: "Step 1 added (the demo has 1
step)", never "Step 1 of 1 added"."""
from __future__ import annotations

from tests.apputil import SCENARIOS, make_app

SCENARIO = SCENARIOS / "dwarf_horde_vs_goblins.yaml"


def test_adding_steps_says_which_and_how_many(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)
    d.action("demo_recorder")
    rec = d.recorder
    rec.set_text("caption", "Two blocks meet.")
    rec.run("add")
    assert d.status.message.startswith("Step 1 added (the demo has 1 step)."), d.status.message
    assert " of 1 " not in d.status.message
    rec.set_text("caption", "Still there.")
    rec.run("add")
    assert d.status.message.startswith("Step 2 added (the demo has 2 steps)."), d.status.message
