"""The demo recorder speaks names, as every text does: its fields' hints ask for no ids, units
and models typed by name (``Night Goblins``, ``Dwarf Warriors (rank 1, file 2)``) are
recorded by id, "+ selected" and Show fill the fields with names, and a new demo of a
file without a title is named after the file without its extension."""
from __future__ import annotations

import re

from game.core import manoeuvre as mv
from game.window.recorder_panel import FIELDS

from tests.apputil import SCENARIOS, make_app

SCENARIO = SCENARIOS / "dwarf_horde_vs_goblins.yaml"


def test_no_field_hint_asks_for_an_id():
    for _name, _label, hint in FIELDS:
        assert " id" not in hint and not re.search(r"\br\d+f\d+\b", hint), hint


def _names(d):
    b = d.doc.board
    return b.unit("night_goblins").name, b.unit("dwarfs").name


def test_units_and_models_typed_by_name_are_recorded_by_id(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)
    gob, dw = _names(d)
    d.action("demo_recorder")
    rec = d.recorder
    rec.set_text("caption", "Named.")
    rec.set_text("ring", f"{gob}; {dw} (rank 1, file 2)")
    rec.set_text("callouts", f"{dw.upper()} (rank 1, file 3): no room")
    rec.set_text("strike", "1")
    rec.set_text("casualties", f"{gob}: 2")
    rec.run("add")
    assert rec.rec.steps, d.status.message
    st = rec.rec.steps[0]
    assert st.highlight == ["night_goblins", "dwarfs.r1f2"]
    assert st.notes == [("dwarfs.r1f3", "no room")]
    assert st.casualties == {"night_goblins": 2}


def test_ids_typed_as_before_still_work(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)
    d.action("demo_recorder")
    d.recorder.set_text("caption", "Ids.")
    d.recorder.set_text("ring", "night_goblins dwarfs.r1f1")
    d.recorder.run("add")
    assert d.recorder.rec.steps[0].highlight == ["night_goblins", "dwarfs.r1f1"]


def test_plus_selected_and_show_fill_the_fields_with_names(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)
    gob, dw = _names(d)
    d.action("demo_recorder")
    rec = d.recorder
    d.select("night_goblins")
    rec.run("ring_selected")
    assert rec.text("ring") == gob
    rec.set_text("caption", "One.")
    rec.set_text("callouts", "dwarfs.r1f1: first")
    rec.run("add")
    d.put_unit(mv.forward(d.doc.board.unit("night_goblins"), 20))
    rec.rec.index = 0
    rec.run("show")
    assert rec.text("ring") == gob and "night_goblins" not in rec.text("ring")
    assert rec.text("callouts") == f"{dw} (rank 1, file 1): first"


def test_a_new_demo_is_named_after_the_file_without_its_extension(tmp_path):
    p = tmp_path / "t38_seed001.yaml"
    p.write_text("".join(ln for ln in SCENARIO.read_text().splitlines(True) if not ln.startswith("title:")))
    d = make_app(p)
    d.action("demo_recorder")
    assert d.recorder.text("title") == "t38_seed001"


def test_every_field_hint_fits_its_field(tmp_path):
    d = make_app(SCENARIO, copy_to=tmp_path)
    d.action("demo_recorder")
    for name, _label, hint in FIELDS:
        el = d.recorder.els[name]
        assert el.font.size(hint)[0] + 12 <= el.rect.w, (name, hint)
