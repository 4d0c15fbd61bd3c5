"""A combat round step by step (game/core/combat_round.py): strike steps analysed on what is
left, casualties from the back rank (whfb8, t9a, tow) or as marked (slots), equal Initiative
removed after both sides strike, tow's stepped-forward models, closing up, slots recalculation."""
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from game.core.board import Unit
from game.core.combat_round import Round, RoundError, express, play_round
from game.core.ruleset import load_ruleset
from game.core.scenario import board_from_dict, load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCEN = ROOT / "assets" / "scenarios"


def units_of(ids):
    return sorted({m.split(".", 1)[0] for m in ids})


def test_whfb8_models_killed_by_faster_enemies_do_not_strike_back():
    """Seed 002, Strike Order: Elves (I5) strike first; six Orcs fall and come off the back,
    so at Initiative 2 the Orcs strike with what is left: 4 in front, only 2 supporting."""
    board = load_scenario(SCEN / "whfb8_initiative.yaml")
    steps = play_round(board, load_ruleset("whfb8"),
                       {"Initiative 5": {"orcs": ["r1f1", "r1f2", "r1f3", "r1f4", "r2f1", "r2f2"]},
                        "Initiative 2": {"spearmen": 2}})
    assert [s.kind for s in steps] == ["strike", "remove", "strike", "remove", "end"]
    i5, rm, i2, rm2, end = steps
    assert i5.label == "Initiative 5" and units_of(i5.striking) == ["spearmen"] and len(i5.striking) == 10
    assert len(i5.fallen) == 6
    # from the back rank: rank 3 goes, then two of rank 2; the front rank stays full
    assert sorted(rm.removed) == sorted([f"orcs.r3f{f}" for f in range(1, 5)] + ["orcs.r2f1", "orcs.r2f4"])
    assert len(rm.board.unit("orcs").models()) == 6
    assert i2.label == "Initiative 2" and units_of(i2.striking) == ["orcs"]
    assert len(i2.striking) == 6                       # 8 before the casualties
    assert {m for m in i2.striking if ".r2" in m} == {"orcs.r2f2", "orcs.r2f3"}
    assert len(rm2.board.unit("spearmen").models()) == 13
    assert "Orc Boyz lost 6" in end.caption and "Dark Elf Spearmen lost 2" in end.caption


def test_equal_initiative_both_sides_strike_before_casualties_are_removed():
    """Seed 002, Equal Initiative: one step for both units; the marked models still strike."""
    board = load_scenario(ROOT / "tests" / "golden" / "whfb8_equal_initiative.yaml")
    rs = load_ruleset("whfb8")
    r = Round(board, rs)
    assert units_of(r.strike().striking) == ["skinks"]          # Initiative 4 first
    st = r.strike()
    assert st.label == "Initiative 3" and units_of(st.striking) == ["beastmen", "humans"]
    victims = ["humans.r1f1", "beastmen.r1f1"]
    spec = {}
    for m in victims:
        u, slot = m.split(".", 1)
        spec.setdefault(u, []).append(slot)
    r.mark(spec)
    assert set(victims) <= set(st.striking)          # they strike at this step all the same
    assert "still strike" in st.caption
    rm = r.resolve()
    assert rm.kind == "remove" and len(rm.removed) == 2
    assert r.strike() is None                         # nobody left with a lower Initiative


def test_closing_up_during_a_round_seed_000():
    """Seed 000: casualties on the Goblins' rear rank separate the units; the Dwarfs, who
    charged that rear, move straight forward into contact."""
    board = load_scenario(SCEN / "whfb8_keep_contact.yaml")
    steps = play_round(board, load_ruleset("whfb8"), {"Initiative 3": {"dwarfs": 1}, "Initiative 2": {"goblins": 3}})
    rm = [s for s in steps if s.kind == "remove"][-1]
    assert rm.moves and units_of(rm.moves) == ["dwarfs"]
    path = next(iter(rm.moves.values()))
    assert path[0][1] - path[-1][1] == pytest.approx(20.0, abs=1e-6)   # one rank depth, straight forward
    assert "moves 20 mm straight forward to regain contact" in rm.caption
    assert rm.analysis.moves == rm.moves or set(rm.moves) <= set(rm.analysis.moves)
    assert any(r.role == "attack" for k, r in rm.analysis.models.items() if k.startswith("dwarfs."))


def test_tow_stepped_forward_models_cannot_attack():
    """tow.md 3.3: every casualty before a unit strikes costs it a fighting model."""
    board = load_scenario(SCEN / "tow_round.yaml")
    tow = load_ruleset("tow")
    steps = play_round(board, tow, {1: {"marauders": ["r1f2", "r1f3", "r1f4"]}})
    first, rm, second = steps[0], steps[1], steps[2]
    assert first.label == "Initiative 6" and units_of(first.striking) == ["swordsmen"]
    # the ends of the front (first fighting) rank count the losses
    assert set(rm.cannot_attack) == {"marauders.r1f1", "marauders.r1f2", "marauders.r1f5"}
    assert "cannot attack" in rm.caption
    assert second.label == "Initiative 3" and len(second.striking) == 7   # 2 front + 5 Press of Battle
    assert not set(rm.cannot_attack) & set(second.striking)
    r = second.analysis.models["marauders.r1f1"]
    assert r.role == "none" and r.attacks == 0 and "Stepped forward" in r.why
    # under whfb8 the same casualties leave every model able to strike
    steps8 = play_round(board, load_ruleset("whfb8"), {1: {"marauders": ["r1f2", "r1f3", "r1f4"]}})
    assert not any(s.cannot_attack for s in steps8)


def test_slots_round_winner_becomes_the_attacker():
    """Seed 004, Recalculation: after wounds the allocation is worked out again, with the
    round's winner counting as the attacker."""
    data = {"ruleset": "slots", "seed": 3, "context": {"charged": ["spiders"]}, "units": [
        {"id": "goblins", "player": 1, "profile": {"size": "regular"}, "base": [20, 20], "files": 8, "models": 24,
         "front": [600, 420], "facing": 0},
        {"id": "spiders", "player": 2, "profile": {"size": "large"}, "base": [50, 50], "files": 3, "models": 3,
         "front": [600, 420], "facing": 180}]}
    board = board_from_dict(data)
    rs = load_ruleset("slots")
    steps = play_round(board, rs, {1: {"spiders": ["r1f1", "r1f3"], "goblins": 1}})
    assert [s.kind for s in steps] == ["strike", "remove", "recalculate"]
    melee, rm, recalc = steps
    assert melee.label == "Melee"
    assert sorted(rm.removed) == ["goblins.r1f4", "spiders.r1f1", "spiders.r1f3"] or len(rm.removed) == 3
    assert len(rm.board.unit("spiders").models()) == 1
    assert rm.analysis.to_json()["allocation"]["goblins"]["attacker"] == "spiders"    # the charge
    assert recalc.board.context["round_winner"] == "goblins"
    al = recalc.analysis.to_json()["allocation"]["goblins"]
    assert al["attacker"] == "goblins" and al["attacker_because"] == "round_winner"
    assert "won the round" in recalc.caption


@pytest.mark.parametrize("spec,field", [
    ({"orks": 1}, "orks"),
    ({"orcs": ["r9f9"]}, "orcs[0]"),
    ({"orcs": 99}, "orcs"),
    ({"orcs": "lots"}, "orcs"),
])
def test_bad_casualty_lists_name_the_entry(spec, field):
    board = load_scenario(SCEN / "whfb8_initiative.yaml")
    with pytest.raises(RoundError) as e:
        play_round(board, load_ruleset("whfb8"), {"Initiative 5": spec})
    assert e.value.field == f"Initiative 5.{field}"


@settings(max_examples=40, deadline=None)
@given(files=st.integers(1, 8), count=st.integers(1, 40), data=st.data())
def test_express_holds_exactly_the_models_kept(files, count, data):
    u = Unit(id="u", player=1, kind="ranked", base=(20, 20), files=files, count=count,
             last_rank=data.draw(st.sampled_from(["left", "center", "right"])))
    occ = u.occupied_slots()
    keep = set(data.draw(st.lists(st.sampled_from(occ), min_size=1, unique=True)))
    v = express(u, keep)
    assert set(v.occupied_slots()) == keep and v.files == files
    assert v.ranks == max(r for r, _ in keep)      # the tray shrinks to the ranks that hold models
