"""wh40k Fight step order (Fights First alternation, remaining combats, back to Fights First,
overrun fights) and Consolidation Moves modes (seeds/003)."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core import geometry as g
from game.core.analyse import analyse
from game.core.parts import Removed
from game.core.ruleset import load_ruleset
from game.engines.engagement_range import engine as wh40k
from game.engines.engagement_range.table import moved_shape
from game.engines.engagement_range import steps as fight_steps
from game.core.scenario import board_from_dict, load_scenario

ROOT = Path(__file__).resolve().parents[1]
RS = load_ruleset("wh40k")
ER, MOVE = 25.4, 76.2


def board(units, **context):
    return board_from_dict({"ruleset": "wh40k", "units": units, "context": context})


def pair(uid_a, uid_b, x, *, gap=0.0):
    """Two single-model units facing each other (32 mm bases), ``gap`` mm apart."""
    return [{"id": uid_a, "player": 1, "base": 32, "models": [[x, 400]]},
            {"id": uid_b, "player": 2, "base": 32, "models": [[x, 400 - 32 - gap]]}]


def order(res):
    return [(e["unit"], e["fight"], e["fights_first"]) for e in res.to_json()["fight_sequence"]]


def test_fights_first_alternate_from_the_active_player_then_remaining_combats():
    units = pair("r1", "b1", 100) + pair("r2", "b2", 300) + pair("r3", "b3", 500)
    b = board(units, step="fight", active_player=1, charged=["r1", "r2"], fights_first=["b2"])
    res = analyse(b, RS)
    # r1 (FF), b2 (FF), r2 (FF); Blue has no FF left and moved the sequence on, so Blue starts
    # the remaining combats: b1, then r3, then b3
    assert order(res) == [("r1", "normal", True), ("b2", "normal", True), ("r2", "normal", True),
                          ("b1", "normal", False), ("r3", "normal", False), ("b3", "normal", False)]
    assert [s.label for s in res.strike_order][:2] == ["r1, Fights First", "b2, Fights First"]
    assert list(res.strike_order[0].models) == ["r1.m1"]
    assert [s.step for s in res.strike_order] == [1, 2, 3, 4, 5, 6]


def test_the_player_whose_turn_it_is_starts():
    units = pair("r1", "b1", 100) + pair("r2", "b2", 300)
    b = board(units, step="fight", active_player=2, fights_first=["r1", "b1"])
    assert [u for u, *_ in order(analyse(b, RS))] == ["b1", "r1", "b2", "r2"]


def test_no_fights_first_means_remaining_combats_start_with_the_active_player():
    units = pair("r1", "b1", 100) + pair("r2", "b2", 300)
    b = board(units, step="fight", active_player=2)
    res = analyse(b, RS)
    assert [u for u, *_ in order(res)] == ["b1", "r1", "b2", "r2"]
    assert all(not ff for *_, ff in order(res))


def test_unengaged_units_are_not_eligible_unless_charged():
    units = pair("r1", "b1", 100, gap=40) + pair("r2", "b2", 300)
    res = analyse(board(units, step="fight", active_player=1), RS)
    assert [u for u, *_ in order(res)] == ["r2", "b2"]
    assert res.models["r1.m1"].role == "none" and res.models["r2.m1"].role == "attack"


def test_back_to_fights_first_when_one_becomes_eligible():
    # r1 destroys the transport in the remaining combats; its Fights First passengers come out
    # engaged with r2, so the sequence returns to Fights First before r2 and b2 fight.
    units = [
        {"id": "r1", "player": 1, "base": 32, "models": [[100, 400]]},
        {"id": "transport", "player": 2, "base": 60, "models": [[100, 354]]},
        {"id": "r2", "player": 1, "base": 32, "models": [[400, 400]]},
        {"id": "b2", "player": 2, "base": 32, "models": [[400, 368]]},
        {"id": "passengers", "player": 2, "base": 32, "embarked_in": "transport", "models": [[440, 400]]},
    ]
    b = board(units, step="fight", active_player=1, fights_first=["passengers"], destroys={"r1": ["transport"]})
    seq = analyse(b, RS).to_json()["fight_sequence"]
    assert [(e["unit"], e["step"]) for e in seq] == [
        ("r1", "remaining"), ("passengers", "fights_first"), ("r2", "remaining"), ("b2", "remaining")]
    assert seq[0]["destroys"] == ["transport"]


def test_worked_example_overrun_fight():
    b = load_scenario(ROOT / "assets" / "scenarios" / "wh40k_fight_phase.yaml")
    res = analyse(b, RS)  # step pile_in: both pile in, then the predicted fight sequence
    assert "monster.m1" in res.moves and res.models["monster.m1"].role == "attack"
    assert all(not m.startswith("passengers.") for m in res.moves)  # still embarked
    assert res.models["passengers.m1"].role == "none"
    assert order(res) == [("monster", "normal", True), ("assault_squad", "overrun", True),
                          ("passengers", "normal", False)]
    assert res.strike_order[1].label == "assault_squad, Fights First, overrun fight"
    seq = res.to_json()["fight_sequence"]
    assert seq[0]["destroys"] == ["transport"] and len(seq[1]["kills"]) == 2
    assert seq[1]["overrun_because"] == "engaged at the start of the Fight step" and seq[1]["moved"]


def test_worked_example_steps_follow_seed_003():
    """The numbered text of seeds/003, step by step."""
    b = load_scenario(ROOT / "assets" / "scenarios" / "wh40k_fight_phase.yaml")
    steps = fight_steps.fight_phase_steps(b, RS)
    caps = [c for c, _, _ in steps]
    assert len(steps) == 10, caps
    # start: both charged, so both are Fights First and eligible to pile in, the Monster unengaged
    assert caps[0].startswith("Start of the Fight phase") and "Monster (A) even though unengaged" in caps[0]
    # pile-in 1: Red moves, each model up to 3"; the Monster ends engaged with the Transport
    _, b1, a1 = steps[1]
    assert caps[1].startswith("Pile In, player 1") and "monster.m1" in a1.moves
    assert all(wh40k.path_length(pth) <= MOVE + 1e-6 for pth in a1.moves.values())
    assert a1.models["monster.m1"].targets == ["transport.m1"]
    # pile-in 2: the Transport is in base contact, so it is not moved
    assert caps[2].startswith("Pile In, player 2") and "Transport is in base contact with enemy models, so it is not moved" in caps[2] and not steps[2][2].moves
    # fight 1: the Monster's normal fight destroys the Transport
    assert "Monster (A) makes a normal fight" in caps[3] and "destroying Transport" in caps[3]
    # fight 2: emergency disembark, unengaged afterwards; the Transport is gone from the board
    _, b4, a4 = steps[4]
    assert "emergency disembark" in caps[4] and "unengaged" in caps[4]
    assert {u.id for u in b4.units} == {"monster", "assault_squad", "passengers"}
    assert not any(r.role == "attack" for m, r in a4.models.items() if m.startswith("passengers."))
    # fight 3: Blue has no Fights First unit; the squad (unengaged, engaged at the start of the
    # step) makes an overrun fight: a pile-in (under moves) to engage the passengers ...
    _, b5, a5 = steps[5]
    assert "Assault squad (B)" in caps[5] and "overrun fight" in caps[5] and "pile-in" in caps[5]
    assert a5.moves and all(m.startswith("assault_squad.") for m in a5.moves)
    assert all(wh40k.path_length(pth) <= MOVE + 1e-6 for pth in a5.moves.values())
    assert any(r.role == "attack" for m, r in a5.models.items() if m.startswith("assault_squad."))
    # ... then fights, destroying two models: crossed out where they stood (as the Transport was)
    _, b6, a6 = steps[6]
    assert "destroying 2 models of Passengers (removed)" in caps[6]
    assert len(b6.unit("passengers").models()) == 5 and len(a6.to_json()["destroyed_models"]) == 2
    assert set(a6.to_json()["destroyed_models"]) <= set(a6.part(Removed).models)
    assert len(steps[7][1].unit("passengers").models()) == 3  # gone from the next step on
    # fight 4: the passengers fight back, inflicting no damage
    assert "Passengers makes a normal fight" in caps[7] and "no casualties" in caps[7]
    assert any(r.role == "attack" for m, r in steps[7][2].models.items() if m.startswith("passengers."))
    # consolidation: Red first; the Monster has no enemy within 3" but objective C: it moves onto it
    _, b8, a8 = steps[8]
    assert a8.to_json()["consolidation"] == {"monster": "objective", "assault_squad": "ongoing"}
    assert "monster.m1" in a8.moves
    marker = g.Circle((400, 300), 20)
    start = b.unit("monster").models()[0].shape
    end = moved_shape(start, a8.models["monster.m1"].at)
    assert g.gap_mm(end, marker) <= 3 * 25.4 and g.gap_mm(end, marker) < g.gap_mm(
        moved_shape(start, a1.models["monster.m1"].at), marker)
    assert steps[9][2].to_json()["consolidation"] == {"passengers": "ongoing"}


def test_engaging_consolidation_selects_newly_engaged_units_to_fight():
    # red fought (its enemy died) and is 2" from blue, which has not fought: red's engaging
    # consolidation engages blue, so blue is selected to fight
    units = [{"id": "red", "player": 1, "base": 32, "models": [[400, 400], [440, 400]]},
             {"id": "blue", "player": 2, "base": 32, "models": [[400, 400 - 32 - 50], [440, 400 - 32 - 50]]}]
    b = board(units, step="consolidate", active_player=1, fought=["red"])
    res = analyse(b, RS)
    assert res.to_json()["consolidation"]["red"] == "engaging"
    assert res.to_json()["selected_to_fight"] == [{"unit": "blue", "player": 2, "by": "red"}]

    # in the step-through: red destroys b1, then consolidates into b2, which must fight
    units = [{"id": "red", "player": 1, "base": 32, "models": [[400, 400]]},
             {"id": "b1", "player": 2, "base": 32, "models": [[400, 368]]},
             {"id": "b2", "player": 2, "base": 32, "models": [[482, 400]]}]
    steps = fight_steps.fight_phase_steps(board(units, active_player=1, charged=["red"], destroys={"red": ["b1"]}), RS)
    caps = [c for c, _, _ in steps]
    i = next(i for i, c in enumerate(caps) if c.startswith("Consolidate, player 1"))
    assert "red (Engaging Consolidation into b2)" in caps[i]
    assert caps[i + 1].startswith("2nd selection: b2 was newly engaged by red's Engaging Consolidation")
    _, _, a = steps[i + 1]
    assert a.models["b2.m1"].role == "attack"
    assert [e["unit"] for e in a.to_json()["fight_sequence"]] == ["red", "b2"]


# ----- consolidation -------------------------------------------------------------------------------
def _gap(res, b, a_id, b_id):
    sa = {m.id: m.shape for m in b.models()}
    return g.gap_mm(moved_shape(sa[a_id], res.models[a_id].at), moved_shape(sa[b_id], res.models[b_id].at))


def test_ongoing_consolidation():
    units = [{"id": "red", "player": 1, "base": 32, "models": [[400, 400], [440, 420], [380, 450]]},
             {"id": "blue", "player": 2, "base": 32, "models": [[400, 368], [450, 370]]}]
    b = board(units, step="consolidate", active_player=1)
    res = analyse(b, RS)
    assert res.to_json()["consolidation"]["red"] == "ongoing"
    assert "red.m1" not in res.moves                 # base contact stays
    assert res.to_json()["move_reach_mm"] == pytest.approx(76.2)
    assert _gap(res, b, "red.m2", "blue.m2") <= ER   # started engaged, still engaged
    for mid, path in res.moves.items():
        assert wh40k.path_length(path) <= MOVE + 1e-6


def test_engaging_consolidation_ends_engaged():
    units = [{"id": "red", "player": 1, "base": 32, "models": [[400, 400], [440, 400]]},
             {"id": "blue", "player": 2, "base": 32, "models": [[400, 400 - 32 - 60], [440, 400 - 32 - 60]]}]
    b = board(units, step="consolidate", active_player=1, fought=["red"])
    res = analyse(b, RS)
    assert res.to_json()["consolidation"]["red"] == "engaging"
    assert min(_gap(res, b, r, x) for r in ("red.m1", "red.m2") for x in ("blue.m1", "blue.m2")) <= ER


def test_objective_consolidation_moves_into_range():
    # no enemy within 3", an objective within 3" of the closest model; the far models move in,
    # and every model heads onto the marker (ending closer, within range)
    units = [{"id": "red", "player": 1, "base": 32, "models": [[400, 400], [450, 430], [350, 440]]},
             {"id": "blue", "player": 2, "base": 32, "models": [[900, 400]]}]
    b = board(units, step="consolidate", active_player=1, fought=["red"], objectives=[[400, 290]])
    res = analyse(b, RS)
    assert res.to_json()["consolidation"] == {"red": "objective"}
    marker = g.Circle((400, 290), 20)
    for mid in ("red.m1", "red.m2", "red.m3"):
        shape = g.Circle(tuple(res.models[mid].at), 16)
        assert g.gap_mm(shape, marker) <= 3 * 25.4 + 1e-6, mid
    assert "red.m3" in res.moves and "red.m2" in res.moves
    for mid, path in res.moves.items():
        assert wh40k.path_length(path) <= 3 * 25.4 + 1e-6
        assert g.dist(path[-1], (400, 290)) < g.dist(path[0], (400, 290))


def test_no_consolidation_without_enemy_or_objective_nearby():
    units = [{"id": "red", "player": 1, "base": 32, "models": [[400, 400]]},
             {"id": "blue", "player": 2, "base": 32, "models": [[900, 400]]}]
    res = analyse(board(units, step="consolidate", active_player=1, fought=["red"]), RS)
    assert res.to_json()["consolidation"] == {"red": "none"} and res.moves == {}
