"""The Old World in the window, driven headless: the unit panel edits what tow reads (troop type,
weapon, Movement, keywords) and every edit changes who fights; compare mode pairs tow with 8th
edition and its tooltips give both rulesets' reasons; the picture outlines fighting ranks and
numbers the fighters that do not touch an enemy apart from those that do."""
from __future__ import annotations

from pathlib import Path

from apputil import make_app

ROOT = Path(__file__).resolve().parents[1]
NARROW = ROOT / "assets" / "scenarios" / "tow_vs_whfb8_narrow_charger.yaml"


def _panel_keys(app) -> set[str]:
    return {f.key for f in app.doc.rules.fields(app.doc.rs)}


def test_the_unit_panel_edits_troop_type_weapon_movement_and_keywords(tmp_path):
    d = make_app(NARROW, copy_to=tmp_path)
    app = d
    assert {"extra:troop_type", "extra:weapon", "movement", "keywords", "initiative", "attacks"} <= _panel_keys(app)
    app.panels.toggle_unit_panel()
    app.table.select("guards")
    d.frame()
    shown = set(app.panels.unit.fields)
    assert {"f:extra:troop_type", "f:extra:weapon", "f:movement", "f:keywords"} <= shown
    assert app.panels.unit.window.get_container().get_rect().h >= 34 * (6 + len(shown)) - 40  # every row fits
    # Movement 0: the end guards are now out of range and stop fighting
    assert app.doc.analysis.models["guards.r1f1"].role == "attack"
    app.table.unit_command("set_profile", "movement", "0", True)
    assert app.doc.analysis.models["guards.r1f1"].role == "none" and "Movement" in app.doc.analysis.models["guards.r1f1"].why
    # the orcs get spears and did not charge: Press of Battle and a supporting rank appear
    app.table.select("orcs")
    app.table.unit_command("set_extra", "weapon", "thrusting_spear")
    assert app.doc.board.unit("orcs").extra["weapon"] == "thrusting_spear"
    app.table.unit_command("set_keywords", "strike_first")
    assert app.doc.board.unit("orcs").keywords == ["strike_first"]
    assert app.doc.analysis.strike_order[0].step == 10
    app.table.unit_command("set_extra", "troop_type", "monstrous_infantry")
    assert app.doc.analysis.to_json().get("rank_bonus", {})["orcs"] == 1  # 5 per rank is plenty for monstrous infantry (3)


def test_compare_mode_pairs_tow_with_8th_edition_and_gives_both_reasons(tmp_path):
    import pygame

    d = make_app(NARROW, copy_to=tmp_path)
    app = d
    d.key(pygame.K_k)
    assert d.doc.live.compare_id == "whfb8"
    lines = app.doc.live.differ_options(app.doc.rs.id)[0]
    assert set(lines) >= {"guards.r1f1", "guards.r1f10"}
    line = lines["guards.r1f10"]
    assert line.startswith("Under whfb8: does not fight (under tow: fights with 1 attack); whfb8: ") and "base contact" in line
    assert "The Fighting Rank" in app.doc.analysis.models["guards.r1f10"].why


def test_fighting_ranks_are_outlined_and_one_attack_fighters_numbered_apart(tmp_path):
    d = make_app(NARROW, copy_to=tmp_path)
    canvas = d.recorded(record_canvas=True)
    tags = {str(c.get("tag", "")) for c in canvas.calls}
    assert sum(1 for t in tags if t and t.startswith("fighting_rank:")) == 2
    assert {t for t in tags if t and t.startswith("one_attack:")} == {"one_attack:guards.r1f1", "one_attack:guards.r1f10"}
    # the fighters in contact all make their unit's usual attacks: no ×N badge (issue 40: badges only where they teach)
    assert not {t for t in tags if t and t.startswith("count:guards.")}
