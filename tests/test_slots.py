"""Golden tests for the combat-slot allocation ruleset (``slots``; seed 004).

Boards are built inline. Where exact numbers matter the random share is pinned by a ruleset
copy whose ``share_min_pct == share_max_pct``; the shipped ruleset is used for the seed tests.
"""
from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset, with_values
from game.engines.combat_slots import numbers as N, rings as S
from game.core.scenario import board_from_dict, load_scenario


def rs_with(**values):
    """The shipped ``slots`` ruleset with some parameter values replaced."""
    return with_values(load_ruleset("slots"), **values)


def fixed(pct=70, **more):
    return rs_with(share_min_pct=pct, share_max_pct=pct, **more)


def run(data: dict, rs=None) -> dict:
    board = board_from_dict(copy.deepcopy(data))
    return analyse(board, rs or load_ruleset("slots")).to_json()


def unit(uid, player, files, models, front, facing, base=(20, 20), **kw):
    d = {"id": uid, "player": player, "base": list(base), "files": files, "models": models,
         "front": list(front), "facing": facing}
    d.update(kw)
    return d


def board(*units, seed=1, **context):
    return {"ruleset": "slots", "seed": seed, "context": context, "units": list(units)}


def attackers(res, uid):
    return sorted(m for m, i in res["models"].items() if m.startswith(uid + ".") and i["role"] == "attack")


# A 20-model block (5 x 4) facing north, front edge at y=400, x 550..650.
def orcs(models=20, **kw):
    return unit("orcs", 1, 5, models, (600, 400), 0, profile={"attacks": 1}, **kw)


def front_foe(uid="gobs", files=5, models=10, player=2, **kw):
    """A unit facing south whose front touches the orcs' front."""
    return unit(uid, player, files, models, (600, 400), 180, **kw)


def flank_foe(uid="wolves", models=8, **kw):
    """Four files of 20x40 bases facing west, touching the orcs' right flank (x=650, y 400..480)."""
    return unit(uid, 2, 4, models, (650, 440), 270, base=(20, 40), **kw)


# ----- the conformance picture -----------------------------------------------------------
SPIDER = board(
    unit("goblins", 1, 4, 12, (600, 400), 0, profile={"size": "regular"}),
    unit("spider", 2, 1, 1, (600, 400), 180, base=(50, 50), profile={"size": "large"}),
    seed=11, charged=["spider"])


@pytest.mark.parametrize("seed", range(0, 40, 7))
def test_large_model_offers_eight_slots_and_a_lone_model_fights_whole(seed):
    data = dict(SPIDER, seed=seed)
    res = run(data)
    al = res["allocation"]
    assert al["spider"]["actual"] == 1 and al["spider"]["final"] == 1 and al["spider"]["whole"]
    assert al["goblins"]["final"] >= 9          # 60% of 12 rounded up, plus the bonus
    assert al["goblins"]["actual"] == 8
    around = [s for s in res["slots"] if s["model"] == "spider.r1f1"]
    assert len(around) == 8 and all(s["filled_by"] and s["size"] == "regular" for s in around)
    assert Counter(s["side"] for s in around) == {"front": 2, "right": 2, "rear": 2, "left": 2}
    # the spider takes the room of two regular slots: the fronts of the two middle goblins,
    # neighbours along the same side (shown as one large slot)
    (big,) = [s for s in res["slots"] if s["filled_by"] == "spider.r1f1"]
    assert big["size"] == "large" and big["side"] == "front"
    assert [big["model"]] + big["also"] == ["goblins.r1f2", "goblins.r1f3"]
    assert res["models"]["spider.r1f1"]["targets"] == ["goblins.r1f2", "goblins.r1f3"]
    assert len(attackers(res, "goblins")) == 8


def test_slot_centres_lie_just_outside_the_spider():
    res = run(SPIDER)
    for s in res["slots"]:
        if s["model"] != "spider.r1f1":
            continue
        x, y = s["at"]
        # spider base x 575..625, y 350..400; slots 12.5 mm outside, in the middle of a half side
        assert round(max(575 - x, x - 625, 350 - y, y - 400), 6) == 12.5
        assert (round(x - 600, 6) in (-37.5, -12.5, 12.5, 37.5)) and (round(y - 375, 6) in (-37.5, -12.5, 12.5, 37.5))


# ----- small units ----------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3])
def test_units_of_three_or_fewer_are_allocated_whole(n):
    for seed in range(6):
        # the orcs charge their front: the share is of their own n, and 60% of 3 would be 2
        res = run(board(orcs(), front_foe(files=3, models=n), seed=seed, charged=["orcs"]), fixed(60))
        a = res["allocation"]["gobs"]
        assert a["total"] == n and a["bonus"] == 0
        assert a["whole"] and a["base"] == n and a["final"] == n and a["actual"] == n


def test_a_unit_of_four_is_not_allocated_whole():
    res = run(board(orcs(), front_foe(files=4, models=4), charged=["gobs"]), fixed(60))
    a = res["allocation"]["gobs"]
    # frontal: 60% of the defender's 20 = 12, capped at its own 4 models; no bonus (fewer models)
    assert not a["whole"] and a["base"] == 4 and a["bonus"] == 0
    res = run(board(orcs(models=5), front_foe(files=4, models=4), charged=["gobs"]), fixed(60))
    a = res["allocation"]["gobs"]
    assert a["total"] == 5 and a["base"] == 3      # ceil(0.6 * 5) = 3 < 4 models


# ----- frontal versus flank -------------------------------------------------------------
def test_frontal_attack_uses_the_defenders_count_and_the_bigger_unit_gets_the_bonus():
    # gobs (10) charge the front of orcs (20): the share is of the defender's 20
    res = run(board(orcs(), front_foe(models=10), charged=["gobs"]), fixed(70))
    o, gb = res["allocation"]["orcs"], res["allocation"]["gobs"]
    assert o["direction"] == gb["direction"] == "frontal"
    assert o["attacker"] == "gobs" and o["total"] == gb["total"] == 20
    assert (o["base"], o["bonus"], o["final"]) == (14, 1, 15)      # 70% of 20, +1: more models
    assert (gb["base"], gb["bonus"], gb["final"]) == (10, 0, 10)   # capped at its own 10
    # the other way round: orcs charge gobs' front -> the share is of gobs' 10
    res = run(board(orcs(), front_foe(models=10), charged=["orcs"]), fixed(70))
    o, gb = res["allocation"]["orcs"], res["allocation"]["gobs"]
    assert o["total"] == gb["total"] == 10
    assert (o["base"], o["bonus"], o["final"]) == (7, 1, 8)
    assert (gb["base"], gb["bonus"], gb["final"]) == (7, 0, 7)


def test_frontal_tie_gives_no_bonus():
    res = run(board(orcs(models=10), front_foe(models=10), charged=["gobs"]), fixed(70))
    assert res["allocation"]["orcs"]["bonus"] == 0 and res["allocation"]["gobs"]["bonus"] == 0
    assert res["allocation"]["orcs"]["final"] == res["allocation"]["gobs"]["final"] == 7


def test_flank_attack_uses_the_attackers_count_and_the_attacker_gets_the_bonus():
    res = run(board(orcs(), flank_foe(models=8), charged=["wolves"]), fixed(70))
    o, w = res["allocation"]["orcs"], res["allocation"]["wolves"]
    assert o["direction"] == w["direction"] == "flank"
    assert o["total"] == w["total"] == 8
    assert (w["base"], w["bonus"], w["final"]) == (6, 1, 7)        # ceil(5.6) + 1, fewer models still
    assert (o["base"], o["bonus"], o["final"]) == (6, 0, 6)        # the bigger unit gets nothing
    assert o["actual"] == 6 and w["actual"] == 7


def test_rear_attack_is_not_frontal():
    # gobs touching the orcs' rear edge (y = 480), facing north
    res = run(board(orcs(), unit("gobs", 2, 5, 10, (600, 480), 0), charged=["gobs"]), fixed(70))
    assert res["allocation"]["orcs"]["direction"] == "rear"
    assert res["allocation"]["gobs"]["total"] == 10 and res["allocation"]["gobs"]["bonus"] == 1


# ----- who attacks without a charge -------------------------------------------------------
def test_without_a_charge_the_flanker_attacks():
    res = run(board(orcs(), flank_foe()))
    a = res["allocation"]["orcs"]
    assert a["attacker"] == "wolves" and a["attacker_because"] == "flanker"


def test_without_a_charge_or_flank_the_active_player_then_player_one_attacks():
    res = run(board(orcs(), front_foe(), active_player=2))
    assert res["allocation"]["orcs"]["attacker"] == "gobs"
    assert res["allocation"]["orcs"]["attacker_because"] == "active_player"
    res = run(board(orcs(), front_foe()))
    assert res["allocation"]["orcs"]["attacker"] == "orcs"
    assert res["allocation"]["orcs"]["attacker_because"] == "player_1"


def test_unknown_round_winner_is_ignored_with_a_note():
    res = run(board(orcs(), front_foe(), round_winner="nobody", charged=["gobs"]))
    assert res["allocation"]["orcs"]["attacker"] == "gobs"
    assert any("round_winner" in n for n in res.get("notes", []))


# ----- combat slots -----------------------------------------------------------------------
def _slots_per_model(res, uid):
    c = Counter(s["model"] for s in res["slots"] if s["model"].startswith(uid + "."))
    return c


def test_friendly_neighbours_take_slots():
    res = run(board(orcs(), front_foe(), charged=["gobs"]))
    per = _slots_per_model(res, "orcs")
    assert per["orcs.r1f1"] == 2 and per["orcs.r1f5"] == 2          # corners: front + outer side
    assert per["orcs.r1f3"] == 1                                    # front rank middle: the front only
    assert per["orcs.r2f1"] == 1                                    # side file: the outer side only
    assert per["orcs.r4f3"] == 1                                    # rear rank: the rear only
    assert "orcs.r2f3" not in per                                   # inside the block: no slot at all
    assert sum(per.values()) == 5 + 5 + 4 + 4
    assert res["allocation"]["gobs"]["free_slots"] == 18


def test_casualty_gap_opens_slots_inside_the_formation():
    res = run(board(orcs(empty=["r2f3"]), front_foe(), charged=["gobs"]))
    per = _slots_per_model(res, "orcs")
    # the four neighbours of the empty slot each gain the side facing it
    assert per["orcs.r1f3"] == 2 and per["orcs.r3f3"] == 1 and per["orcs.r2f2"] == 1 and per["orcs.r2f4"] == 1


def test_models_only_touching_at_a_corner_leave_the_side_free():
    ring = S.model_ring(board_from_dict(board(orcs())).units[0].models()[0], 4)
    assert [s.side for s in ring] == ["front", "right", "rear", "left"]
    a = board_from_dict(board(unit("a", 1, 1, 1, (600, 400), 0), unit("b", 1, 1, 1, (620, 380), 0)))
    ma, mb = a.units[0].models()[0], a.units[1].models()[0]
    ring = S.model_ring(ma, 4)
    S.block_by_friends(ring, S._Grid([(mb.id, mb.shape)], 50), 0.5)
    assert not any(s.blocked for s in ring)
    c = board_from_dict(board(unit("a", 1, 1, 1, (600, 400), 0), unit("b", 1, 1, 1, (620, 400), 0)))
    ring = S.model_ring(c.units[0].models()[0], 4)
    mb = c.units[1].models()[0]
    S.block_by_friends(ring, S._Grid([(mb.id, mb.shape)], 50), 0.5)
    assert [s.side for s in ring if s.blocked] == ["right"]


def test_a_lone_regular_model_hosts_four_regular_or_two_large_enemies():
    lone = unit("hero", 1, 1, 1, (600, 400), 0)
    # the hero charges, so the share is of the defenders' count and they send plenty
    res = run(board(lone, front_foe(models=10), charged=["hero"]), fixed(85))
    assert res["allocation"]["gobs"]["final"] == 10 and res["allocation"]["gobs"]["actual"] == 4
    big = unit("trolls", 2, 3, 6, (600, 400), 180, base=(40, 40), profile={"size": "large"})
    res = run(board(lone, big, charged=["hero"]), fixed(85))
    t = res["allocation"]["trolls"]
    assert t["final"] >= 2 and t["actual"] == 2
    large = [s for s in res["slots"] if s["model"] == "hero.r1f1"]
    assert [s["size"] for s in large] == ["large", "large"]
    assert {s["side"] for s in large} in ({"front/right", "rear/left"}, {"right/rear", "left/front"})


def test_large_enemies_take_a_whole_side_of_a_large_model():
    spider = unit("spider", 1, 1, 1, (600, 400), 0, base=(50, 50), profile={"size": "large"})
    trolls = unit("trolls", 2, 3, 6, (600, 400), 180, base=(40, 40), profile={"size": "large"})
    res = run(board(spider, trolls, charged=["spider"]), fixed(85))
    assert res["allocation"]["trolls"]["final"] == 6 and res["allocation"]["trolls"]["actual"] == 4
    around = [s for s in res["slots"] if s["model"] == "spider.r1f1"]
    assert sorted(s["side"] for s in around) == ["front", "left", "rear", "right"]
    assert all(s["size"] == "large" and s["filled_by"] for s in around)


def test_side_counts_and_slot_groups():
    assert S.side_counts(4) == [1, 1, 1, 1] and S.side_counts(8) == [2, 2, 2, 2]
    assert S.side_counts(6) == [2, 2, 1, 1]
    ring4 = list(range(4))
    assert S.slot_groups(ring4, 2, 4) == [(0, 1), (1, 2), (2, 3), (3, 0)]     # corners
    assert S.slot_groups(list(range(8)), 2, 8) == [(0, 1), (2, 3), (4, 5), (6, 7)]  # whole sides


# ----- roles ---------------------------------------------------------------------------
def test_allocated_models_attack_their_slots_model_and_the_rest_do_not():
    res = run(board(orcs(), flank_foe(profile={"attacks": 2}), charged=["wolves"]), fixed(70))
    filled = {s["filled_by"]: s["model"] for s in res["slots"] if s["filled_by"]}
    for mid, info in res["models"].items():
        if info["role"] == "attack":
            assert info["targets"] == [filled[mid]]
            assert info["attacks"] == (2 if mid.startswith("wolves.") else 1)
            assert "Combat slots" in info["why"] and "Allocated" in info["why"]
        else:
            assert info["role"] == "none" and info["attacks"] == 0 and mid not in filled
            assert info["why"]
        assert info["role"] != "support"
    assert len(attackers(res, "wolves")) == res["allocation"]["wolves"]["actual"]


def test_units_out_of_contact_fight_nobody():
    res = run(board(orcs(), unit("gobs", 2, 5, 10, (600, 380), 180), charged=["gobs"]))
    assert res["allocation"] == {} and res["slots"] == []
    assert all(i["role"] == "none" for i in res["models"].values())


# ----- recalculation ---------------------------------------------------------------------
def test_recalculation_after_casualties():
    before = run(board(orcs(), flank_foe(models=8), charged=["wolves"]), fixed(70))
    after = run(board(orcs(), flank_foe(models=4), charged=["wolves"]), fixed(70))
    # flank: the share is of the attacker's count, so wolf losses shrink both sides
    assert before["allocation"]["orcs"]["final"] == 6 and after["allocation"]["orcs"]["final"] == 3
    assert before["allocation"]["wolves"]["final"] == 7 and after["allocation"]["wolves"]["final"] == 4
    # casualties as empty slots count the same way
    emptied = run(board(orcs(), flank_foe(models=8, empty=["r2f1", "r2f2", "r2f3", "r2f4"]),
                        charged=["wolves"]), fixed(70))
    assert emptied["allocation"] == after["allocation"]


def test_recalculation_with_a_round_winner():
    base = board(orcs(), flank_foe(models=8), charged=["wolves"])
    first = run(base, fixed(70))
    assert first["allocation"]["wolves"]["bonus"] == 1 and first["allocation"]["orcs"]["bonus"] == 0
    won = dict(base, context={"charged": ["wolves"], "round_winner": "orcs"})
    second = run(won, fixed(70))
    o, w = second["allocation"]["orcs"], second["allocation"]["wolves"]
    # the orcs now count as attacker; they meet the wolves' front, so it is frontal:
    # the share is of the defender's (wolves') 8 and the bonus goes to the bigger unit, the orcs
    assert o["attacker"] == "orcs" and o["attacker_because"] == "round_winner"
    assert o["direction"] == "frontal" and o["total"] == 8
    assert (o["bonus"], w["bonus"]) == (1, 0)
    assert (o["final"], w["final"]) == (7, 6)


def test_attacker_fills_first_when_units_compete_for_slots():
    """Two goblin units share one spider's 8 slots: a unit that attacks fills before one
    that defends, whatever the file order."""
    spider = unit("spider", 1, 1, 1, (600, 400), 0, base=(50, 50), profile={"size": "large"})
    east = unit("east_gobs", 2, 2, 10, (625, 425), 270)        # on the spider's right flank
    rear = unit("rear_gobs", 2, 2, 10, (600, 450), 0)          # on the spider's rear
    # the spider charged both: both goblin units defend, so file order decides (east first)
    res = run(board(spider, east, rear, charged=["spider"]), fixed(85))
    al = res["allocation"]
    assert al["east_gobs"]["final"] == al["rear_gobs"]["final"] == 10
    assert (al["east_gobs"]["actual"], al["rear_gobs"]["actual"]) == (8, 0)
    # the rear goblins charged too: they attack the spider in the rear and fill first
    res = run(board(spider, east, rear, charged=["spider", "rear_gobs"]), fixed(85))
    al = res["allocation"]
    assert al["rear_gobs"]["attacker"] == "rear_gobs" and al["rear_gobs"]["direction"] == "rear"
    assert (al["east_gobs"]["actual"], al["rear_gobs"]["actual"]) == (0, 8)
    assert all(s["filled_by"].startswith("rear_gobs.") for s in res["slots"] if s["model"] == "spider.r1f1")


def test_frontal_attack_on_a_lone_model_counts_the_lone_model():
    """Read literally, a frontal attack takes the share of the defender's count: goblins
    charging a lone spider's front commit ceil(share x 1) + bonus = 2 models."""
    spider = unit("spider", 1, 1, 1, (600, 400), 0, base=(50, 50), profile={"size": "large"})
    res = run(board(spider, unit("gobs", 2, 4, 12, (600, 400), 180), charged=["gobs"]), fixed(85))
    g = res["allocation"]["gobs"]
    assert (g["direction"], g["total"], g["base"], g["bonus"], g["final"], g["actual"]) == ("frontal", 1, 1, 1, 2, 2)


# ----- seeds ---------------------------------------------------------------------------------
def test_same_seed_same_result_and_seeds_differ():
    data = board(orcs(), flank_foe(), charged=["wolves"], seed=42)
    assert run(data) == run(copy.deepcopy(data))
    finals = {run(dict(data, seed=s))["allocation"]["orcs"]["share"] for s in range(12)}
    assert len(finals) > 1
    assert all(60 <= p <= 85 for p in finals)


def test_missing_seed_uses_the_default_seed():
    data = board(orcs(), flank_foe(), charged=["wolves"])
    data.pop("seed")
    assert run(data) == run(dict(data, seed=0))


def test_shares_do_not_depend_on_engagement():
    apart = board(orcs(), unit("wolves", 2, 4, 8, (700, 440), 270, base=(20, 40)), seed=9)
    b1, b2 = board_from_dict(apart), board_from_dict(board(orcs(), flank_foe(), seed=9))
    rs = load_ruleset("slots")
    assert N.draw_shares(b1, rs) == N.draw_shares(b2, rs)


# ----- placement independence --------------------------------------------------------------
@pytest.mark.parametrize("deg,dx,dy", [(90, 0, 0), (37, 120, -60), (213.5, -40, 75)])
def test_result_does_not_depend_on_where_the_board_lies(deg, dx, dy):
    for data in (SPIDER, board(orcs(), flank_foe(), charged=["wolves"], seed=4)):
        b = board_from_dict(copy.deepcopy(data))
        moved = board_from_dict(copy.deepcopy(data))
        moved = dataclasses.replace(moved, units=[u.rotated(deg, (600, 400)).translated(dx, dy) for u in moved.units])
        rs = load_ruleset("slots")
        r1, r2 = analyse(b, rs).to_json(), analyse(moved, rs).to_json()
        strip = lambda al: {u: {k: v for k, v in a.items()} for u, a in al.items()}
        assert strip(r1["allocation"]) == strip(r2["allocation"])
        roles1 = {m: (i["role"], i["targets"]) for m, i in r1["models"].items()}
        roles2 = {m: (i["role"], i["targets"]) for m, i in r2["models"].items()}
        assert roles1 == roles2


# ----- bundled scenarios ---------------------------------------------------------------------
def test_bundled_scenarios():
    root = Path(__file__).resolve().parents[1] / "assets" / "scenarios"
    res = analyse(load_scenario(root / "slots_large_model.yaml")).to_json()
    assert res["allocation"]["spider"]["actual"] == 1 and res["allocation"]["goblins"]["actual"] == 8
    res = analyse(load_scenario(root / "slots_flank.yaml")).to_json()
    assert res["allocation"]["orcs"]["direction"] == "flank"
    assert res["allocation"]["wolves"]["bonus"] == 1 and res["allocation"]["orcs"]["bonus"] == 0
