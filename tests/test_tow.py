"""The Old World (``tow``): the policy's rules one by one, its cases turned and moved, the
2024 switch, the parameter checks and the comparison with 8th edition.

The golden boards are ``tests/golden/tow_*.yaml`` (copies of the public conformance cases plus
examples from the rules summary); here every one of them is also analysed after turning and
moving the whole table, which must change nothing.
"""
from __future__ import annotations
import dataclasses

import math
from pathlib import Path

import pytest
import yaml

from expect import compare as compare_expect
from game.core.analyse import analyse
from game.core.board import Board
from game.core.compare import compare
from game.core.ruleset import RulesetError, load_ruleset, with_values
from game.engines.rank_and_file import tow as tp
from game.engines.rank_and_file import tow_rules as tr
from game.core.scenario import board_from_dict

GOLDEN = Path(__file__).parent / "golden"
TOW_CASES = sorted(GOLDEN.glob("tow_*.yaml"))


def _case(path: Path) -> tuple[dict, dict]:
    data = yaml.safe_load(path.read_text())
    expect = data.pop("expect", {}) or {}
    for k in [k for k in data if k.startswith("expect_")]:
        data.pop(k)
    return data, expect


def _params(**over) -> tp.Params:
    rs = load_ruleset("tow")
    return tp.Params(with_values(rs, **over) if over else rs)


# ----- turned and moved ------------------------------------------------------------------------
@pytest.mark.parametrize("deg,pivot,shift", [(90, (0, 0), (0, 0)), (33.5, (600, 400), (120, -75)),
                                             (180, (250, 900), (-40, 300)), (271, (-100, 50), (800, 10))])
@pytest.mark.parametrize("path", TOW_CASES, ids=[p.stem for p in TOW_CASES])
def test_tow_cases_hold_when_the_table_is_turned_and_moved(path, deg, pivot, shift):
    data, expect = _case(path)
    board = board_from_dict(data)
    board = dataclasses.replace(board, units=[u.rotated(deg, pivot).translated(*shift) for u in board.units])
    res = analyse(board).to_json()
    assert not compare_expect(res, expect), compare_expect(res, expect)


PUBLIC_TOW_CASES = ("tow_charge_initiative.yaml", "tow_corner_two_fighting_ranks.yaml", "tow_fighting_rank_encircles.yaml",
                    "tow_horde_rank_bonus.yaml", "tow_press_of_battle.yaml", "tow_rear_charge_depleted.yaml",
                    "tow_spears_three_ranks.yaml", "tow_strike_last_charge.yaml")


def test_there_is_a_golden_copy_of_every_public_tow_case():
    """Every public tow case has its copy in tests/golden (a clone without ../shared checks the
    list kept here; with ../shared beside it, the list and the copies are checked against it)."""
    for name in PUBLIC_TOW_CASES:
        assert (GOLDEN / name).exists(), f"tests/golden/{name} is missing"
    shared = Path(__file__).resolve().parents[2] / "shared" / "conformance" / "cases"
    if shared.exists():
        assert {c.name for c in shared.glob("tow_*.yaml")} <= set(PUBLIC_TOW_CASES), "PUBLIC_TOW_CASES is out of date"
        for case in shared.glob("tow_*.yaml"):
            assert (GOLDEN / case.name).read_text() == case.read_text(), f"tests/golden/{case.name} is out of date"


# ----- pure rules ------------------------------------------------------------------------------
def test_charge_bonus_counts_full_inches_capped_by_arc_and_none_when_disordered():
    p = _params()
    assert tr.charge_bonus(2.9, "front", p) == 2
    assert tr.charge_bonus(5, "front", p) == 3
    assert tr.charge_bonus(6, "rear", p) == 4 and tr.charge_bonus(6, "left", p) == 4
    assert tr.charge_bonus(6, "front", p, disordered=True) == 0
    assert tr.charge_bonus(None, "front", p) == 0


def test_strike_first_and_last_apply_before_modifiers_and_initiative_never_exceeds_ten():
    p = _params()
    assert tr.initiative(5, p, strike_last=True, charge=3) == 4          # tow.md 5.4: I1 + 3
    assert tr.initiative(3, p, strike_first=True) == 10
    assert tr.initiative(3, p, strike_first=True, strike_last=True) == 3  # they cancel
    assert tr.initiative(8, p, charge=3) == 10                            # capped
    assert tr.initiative(4, p, spear=1) == 5


def test_rank_bonus_by_troop_type_horde_combat_order_and_disruption():
    p = _params()
    reg, heavy, cav = p.troop_types["regular_infantry"], p.troop_types["heavy_infantry"], p.troop_types["heavy_cavalry"]
    kw = dict(horde=False, in_combat_order=True, disrupted=False, horde_bonus=1)
    assert tr.rank_bonus([10, 10, 10, 10], heavy, **kw) == 2
    assert tr.rank_bonus([10, 10, 10, 10], heavy, **{**kw, "horde": True}) == 3
    assert tr.rank_bonus([5, 5, 4], reg, **kw) == 1                     # an incomplete rear rank of 4 < 5
    assert tr.rank_bonus([4, 4, 4], heavy, **kw) == 2
    assert tr.rank_bonus([4, 4, 4], cav, **kw) == 1                     # cavalry: max +1
    assert tr.rank_bonus([10, 10, 10], reg, **{**kw, "disrupted": True}) == 0
    assert tr.rank_bonus([3, 3, 3, 3], reg, **{**kw, "in_combat_order": False}) == 0
    assert tr.rank_bonus([1], p.troop_types["behemoth"], **kw) == 0


def test_combat_order_counts_an_incomplete_last_rank_as_a_rank():
    assert tr.combat_order(5, 5)        # 21 models five wide: five ranks (our reading, Q6)
    assert not tr.combat_order(3, 6)    # a marching column


def test_unit_strength_uses_wounds_for_monsters():
    p = _params()
    assert tr.unit_strength(p.troop_types["behemoth"], 1, 6) == 6
    assert tr.unit_strength(p.troop_types["heavy_cavalry"], 5, None) == 10
    assert tr.unit_strength(p.troop_types["monstrous_infantry"], 3, None) == 9


def test_fight_in_extra_rank_comes_from_the_weapon_or_the_keyword_with_the_charge_limits():
    p = _params()
    w = p.weapons
    assert tr.support_allowed(w["thrusting_spear"], False, charged=False)[0]
    assert not tr.support_allowed(w["thrusting_spear"], False, charged=True)[0]
    assert tr.support_allowed(w["throwing_spear"], False, charged=True)[0]
    assert not tr.support_allowed(w["throwing_spear"], False, charged=False)[0]
    assert not tr.support_allowed(w["halberd"], False, charged=False)[0]
    assert not tr.support_allowed(w["great_weapon"], False, charged=False)[0]
    assert tr.support_allowed(w["hand_weapon"], True, charged=True)[0]   # Giant Rats: the unit's own rule


def test_incomplete_rank_counts_the_largest_row_behind_and_stands_in_from_behind():
    slots = {(1, f) for f in range(1, 7)} | {(2, f) for f in range(1, 7)} | {(3, 3)}
    behind = tr.rows_behind(slots, "rear", 3)
    assert tr.assumed_row_models(1, behind.values()) == 6
    subs = tr.stand_ins(slots, "rear", 3, range(1, 7), [3], 5, taken={(3, 3)})
    assert [s for _e, s in subs] == [(2, 2), (2, 4), (2, 1), (2, 5), (2, 6)]
    # a flank file: ranks along it, the next file inward stands in
    slots = {(1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (3, 3)}
    assert tr.assumed_row_models(2, tr.rows_behind(slots, "left", 1).values()) == 3
    assert tr.stand_ins(slots, "left", 1, range(1, 4), [1, 2], 1, taken={(1, 1), (2, 1)}) == [((3, 1), (3, 2))]


# ----- whole boards ----------------------------------------------------------------------------
def _board(name: str) -> Board:
    return board_from_dict(_case(GOLDEN / name)[0])


def _with(rs, **values):
    return with_values(rs, **values)


def test_the_2024_switch_lets_the_whole_fighting_rank_fight_and_drops_press_of_battle():
    old = load_ruleset("tow_2024")   # inherits tow, switches the two v1.5 rules off
    res = analyse(_board("tow_movement_limit.yaml"), old)
    assert {m for m, r in res.models.items() if m.startswith("guards.") and r.role == "attack"} == \
        {f"guards.r1f{i}" for i in range(1, 21)}
    res = analyse(_board("tow_press_of_battle.yaml"), old)
    assert res.models["b.r2f1"].role == "none" and "switched off" in res.models["b.r2f1"].why


def test_changing_a_number_in_the_ruleset_changes_the_result_and_the_sentence():
    rs = load_ruleset("tow")
    res = analyse(_board("tow_charge_initiative.yaml"), _with(rs, charge_initiative_max_front=1))
    assert [s.step for s in res.strike_order] == [4, 3]
    assert "at most +1" in res.to_json()["initiative"]["orcs"]
    res = analyse(_board("tow_fighting_rank_encircles.yaml"), _with(rs, non_contact_attacks=2))
    assert res.models["guards.r1f1"].attacks == 2 and "so 2 attack" in res.models["guards.r1f1"].why


def test_hover_texts_cite_the_rule_by_name():
    res = analyse(_board("tow_spears_three_ranks.yaml"))
    assert "Press of Battle" in res.models["spears_b.r2f1"].why
    assert "Supporting Attacks" in res.models["spears_b.r3f1"].why
    assert "charged" in res.models["spears_a.r2f1"].why
    res = analyse(_board("tow_rear_charge_depleted.yaml"))
    assert "Incomplete Ranks" in res.models["ogres.r2f1"].why
    assert "Disrupted" in res.to_json()["rank_bonus_why"]["ogres"]


def test_fighting_ranks_are_reported_for_drawing():
    res = analyse(_board("tow_spears_three_ranks.yaml"))
    rows = [r for r in res.to_json()["fighting_ranks"] if r["unit"] == "spears_b"]
    assert len(rows) == 1 and rows[0]["facing"] == "front"
    assert rows[0]["second"] == [f"spears_b.r2f{i}" for i in range(1, 6)]
    assert rows[0]["supporters"] == [f"spears_b.r3f{i}" for i in range(1, 6)]


def test_bad_tow_parameters_are_named():
    rs = load_ruleset("tow")
    with pytest.raises(RulesetError, match="fight_range"):
        with_values(rs, fight_range="forever")
    tt = {k: dict(vars(v)) for k, v in rs.values.troop_types.items()}
    del tt["heavy_infantry"]["max_rank_bonus"]
    with pytest.raises(RulesetError, match="troop_types"):
        with_values(rs, troop_types=tt)
    with pytest.raises(RulesetError, match="weapons"):
        with_values(rs, weapons={"hand_weapon": {"fight_in_extra_rank": "sometimes", "strike_last": False,
                                                "initiative_vs_front_chargers": 0}})


def test_unknown_troop_type_or_weapon_is_read_as_the_default_with_a_note():
    board = _board("tow_press_of_battle.yaml")   # the loader refuses these; a board built in code may not
    board.unit("b").extra.update(troop_type="dragon_infantry", weapon="banana")
    res = analyse(board)
    assert any("dragon_infantry" in n for n in res.notes) and any("banana" in n for n in res.notes)
    assert res.models["b.r2f1"].role == "attack"


def test_compare_with_8th_edition_names_the_two_end_guards():
    board = _board("tow_fighting_rank_encircles.yaml")
    _, _, diffs = compare(board, load_ruleset("whfb8"), load_ruleset("tow"))
    by = {d.model: d for d in diffs}
    assert by["guards.r1f1"].a == ("none", 0) and by["guards.r1f1"].b == ("attack", 1)
    assert by["guards.r1f10"].a == ("none", 0) and by["guards.r1f10"].b == ("attack", 1)
    assert by["orcs.r2f3"].a == ("support", 1) and by["orcs.r2f3"].b == ("none", 0)
    assert not any(m.startswith("guards.") for m in by if m not in ("guards.r1f1", "guards.r1f10"))


def test_the_lazy_policy_table_names_exactly_what_tow_registers():
    """``policy.LAZY`` lets a whfb8 command skip this module: it must list every policy the
    module registers (else a tow ruleset would not find one) and nothing else."""
    from game.engines.rank_and_file import policy as pol
    mine = {(slot, name) for slot, by_name in pol._POLICIES.items() for name, p in by_name.items()
            if p.run.__module__ == tp.__name__}
    assert mine == set(pol.LAZY) and set(pol.LAZY.values()) == {tp.__name__}
