"""Unit templates per ruleset (game/core/templates.py, rulesets/templates/*.yaml)."""
from __future__ import annotations

import pytest

from game.core.analyse import analyse
from game.core.board import Board
from game.core.registry import strategy_of
from game.core.ruleset import available, load_ruleset
from game.core.scenario import board_from_dict, board_to_dict
from game.core.templates import TemplateError, load_templates, parse_templates, template_file, template_unit


@pytest.mark.parametrize("rid", available())
def test_every_ruleset_has_templates_that_make_valid_units(rid):
    ts = load_templates(rid)
    assert ts, f"no templates for {rid}"
    rs = load_ruleset(rid)
    ints = [f.key for f in strategy_of(rs).profile_fields(rs) if f.kind == "int" and not f.key.startswith("extra:")]
    b = Board(units=[], ruleset=rid)
    for i, t in enumerate(ts):
        u = template_unit(b, t, (200.0 + 300 * (i % 3), 200.0 + 300 * (i // 3)), player=1 + i % 2)
        b = b.with_units([*b.units, u])
        for k in ints:
            if k in ("wounds", "height", "movement"):
                continue
            assert k in u.profile or "parts" in u.profile, (rid, t.name, k)
    again = board_from_dict(board_to_dict(b))            # every unit passes the scenario checks
    assert [u.id for u in again.units] == [u.id for u in b.units]
    assert len({u.id for u in b.units}) == len(b.units)
    analyse(again, rs)


def test_a_ruleset_without_a_file_uses_its_parents():
    assert template_file("tow_2024").name == "tow.yaml"
    assert template_file("t9a").name == "t9a.yaml"


def test_template_unit_is_named_and_keyed():
    t = next(t for t in load_templates("tow") if t.name == "Spearmen")
    b = Board(units=[], ruleset="tow")
    u = template_unit(b, t, (300, 300), player=2)
    assert u.id == "p2_spearmen_1" and u.name == "Spearmen 1"
    assert u.extra["weapon"] == "thrusting_spear" and u.facing_deg == 180
    b = b.with_units([*b.units, u])
    assert template_unit(b, t, (600, 300), player=2).id == "p2_spearmen_2"


def test_a_bad_template_names_file_line_and_field(tmp_path):
    p = tmp_path / "x.yaml"
    p.write_text("templates:\n  - {label: A, base: [20, 20], models: 0}\n")
    with pytest.raises(TemplateError) as e:
        parse_templates(p)
    assert str(e.value).startswith(f"{p}:2:") and "templates[0].models" in str(e.value)
    p.write_text("templates:\n  - {label: A, base: [20, 20], models: 5, colour: red}\n")
    with pytest.raises(TemplateError) as e:
        parse_templates(p)
    assert "templates[0].colour" in str(e.value)
