"""The unit panel (F2) in words: the heading names the unit and its kind (the id on its own
"Id (for YAML):" line), the last rank's places read "centre" as every other text does (the
file keeps the format's ``center``), and a strike-order value the engine reads from another
key (Initiative from Agility) shows what the strike order uses, not an empty field."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from tests.apputil import make_app

APART = Path(__file__).resolve().parent / "golden" / "whfb8_apart.yaml"


def panel_for(tmp_path, uid: str, unit_change=None):
    d = make_app(APART, copy_to=tmp_path)
    if unit_change is not None:
        d.put_unit(unit_change(d.doc.board.unit(uid)))
    d.table.select(uid)
    d.action("panel")
    d.frame()
    return d, d.panels.unit


def test_the_heading_names_the_unit_in_words_and_the_id_on_its_own_line(tmp_path):
    d, p = panel_for(tmp_path, "goblins", lambda u: replace(u, name="Red unit"))
    assert p.els["head"].text == "Red unit: rank-and-file"
    assert p.els["id"].text == "Id (for YAML): goblins"
    assert "(ranked)" not in p.els["head"].text + p.els["id"].text


def test_the_last_rank_reads_centre_and_the_file_keeps_center(tmp_path):
    d, p = panel_for(tmp_path, "goblins", lambda u: replace(u, count=13, last_rank="left"))
    dd = p.els["last_rank"]
    assert "centre" in dd.options_list or ("centre", "centre") in dd.options_list, dd.options_list
    assert not any("center" in str(o) for o in dd.options_list)
    d.choose(dd, "centre")
    d.frame()
    assert d.doc.board.unit("goblins").last_rank == "center"  # the scenario format's value
    assert "centre" in d.status.message and "center" not in d.status.message, d.status.message
    assert d.panels.unit.els["last_rank"].selected_option[0] == "centre"


def test_an_unset_initiative_shows_the_agility_the_strike_order_uses(tmp_path):
    def agility_only(u):
        return replace(u, profile={"attacks": 1, "agility": 4})
    d, p = panel_for(tmp_path, "goblins", agility_only)
    assert "initiative" not in d.doc.board.unit("goblins").profile
    assert p.entry("f:initiative").get_text() == "4"
