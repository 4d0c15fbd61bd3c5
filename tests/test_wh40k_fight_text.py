"""The wh40k Fight step as seeds/003 says it: an overrun fight piles in, then fights (its
models are reported where they fight); a fight destroys only units it is engaged with (any
other ``context.destroys`` entry is refused naming the file, line and field, exit 2); who
fights next is the player's choice (``context.fight_order``), with a default that never
depends on the order of the units in the file."""
from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import yaml

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import board_from_dict

ROOT = Path(__file__).resolve().parents[1]
WORKED = ROOT / "tests" / "fixtures" / "wh40k_fight_phase.yaml"
RS = load_ruleset("wh40k")


def worked(**context):
    data = yaml.safe_load(WORKED.read_text())
    data["context"].update(context)
    return data


def test_overrun_fight_reports_models_where_they_fight():
    # at the Fight step the Monster (charged, 2.4" away) and the squad (its transport gone after
    # the Monster's fight) both make overrun fights: pile in, then fight
    data = worked(step="fight", fight_order=["monster", "assault_squad"])
    res = analyse(board_from_dict(data), RS)
    seq = res.to_json()["fight_sequence"]
    assert [(e["unit"], e["fight"]) for e in seq][:2] == [("monster", "overrun"), ("assault_squad", "overrun")]
    m = res.models["monster.m1"]
    assert m.role == "attack" and m.targets == ["transport.m1"]
    assert tuple(m.at) == tuple(res.moves["monster.m1"][-1])  # where it ended its pile-in
    fighters = set(seq[1]["moved"]) & {k for k, r in res.models.items() if r.role == "attack"}
    assert fighters, "the squad's models that piled in and fight are reported fighting"
    for mid in seq[1]["moved"]:
        assert tuple(res.models[mid].at) == tuple(res.moves[mid][-1])
        if res.models[mid].role == "attack":
            assert "outside Engagement Range" not in res.models[mid].why
    # the strike order and the models agree
    assert set(res.strike_order[1].models) == {k for k in seq[1]["moved"] if res.models[k].role == "attack"}
    # the transport is destroyed by the Monster before it is selected: it does not fight
    assert res.models["transport.m1"].role == "none"


def test_destroys_only_units_the_fighter_is_engaged_with(tmp_path):
    f = tmp_path / "far.yaml"
    f.write_text("ruleset: wh40k\ncontext:\n  step: fight\n  active_player: 1\n  destroys:\n"
                 "    monster: [vehicle]\nunits:\n"
                 "  - {id: monster, player: 1, base: 100, models: [[200, 400]]}\n"
                 "  - {id: foe, player: 2, base: 32, models: [[200, 330]]}\n"
                 "  - {id: vehicle, player: 2, base: 60, models: [[1100, 400]]}\n")
    before = f.read_bytes()
    r = subprocess.run([sys.executable, "main.py", "analyse", str(f), "--json"], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and f"{f}:6: context.destroys.monster[0]:" in lines[0], r.stderr
    assert "vehicle" in lines[0] and "Engagement Range" in lines[0]
    assert f.read_bytes() == before
    # the engine itself never removes the far unit
    res = analyse(board_from_dict(yaml.safe_load(before)), RS)
    assert "destroys" not in res.to_json()["fight_sequence"][0]
    assert res.input_errors and res.input_errors[0][0] == ("context", "destroys", "monster", 0)


def test_destroys_of_the_engaged_unit_is_kept():
    data = {"ruleset": "wh40k", "context": {"step": "fight", "active_player": 1, "destroys": {"monster": ["foe"]}},
            "units": [{"id": "monster", "player": 1, "base": 100, "models": [[200, 400]]},
                      {"id": "foe", "player": 2, "base": 32, "models": [[200, 330]]}]}
    res = analyse(board_from_dict(data), RS)
    assert res.to_json()["fight_sequence"][0]["destroys"] == ["foe"] and not res.input_errors


def _pairs(order=None, reverse=False):
    units = []
    for k, x in enumerate((100, 300, 500)):
        units += [{"id": f"r{k + 1}", "player": 1, "base": 32, "models": [[x, 400]]},
                  {"id": f"b{k + 1}", "player": 2, "base": 32, "models": [[x, 368]]}]
    if reverse:
        units = units[::-1]
    ctx = {"step": "fight", "active_player": 1}
    if order:
        ctx["fight_order"] = order
    return board_from_dict({"ruleset": "wh40k", "units": units, "context": ctx})


def seq_of(b):
    return [e["unit"] for e in analyse(b, RS).to_json()["fight_sequence"]]


def test_fight_order_is_the_players_choice():
    assert seq_of(_pairs(["r3", "b2", "r1"])) == ["r3", "b2", "r1", "b1", "r2", "b3"]
    # players still alternate: a listed unit of the other player waits for its player's turn
    assert seq_of(_pairs(["b1", "b3", "r2"]))[:3] == ["r2", "b1", "r1"]


def test_default_choice_does_not_depend_on_file_order():
    assert seq_of(_pairs()) == seq_of(_pairs(reverse=True)) == ["r1", "b1", "r2", "b2", "r3", "b3"]
    data = worked()
    flipped = copy.deepcopy(data)
    flipped["units"] = flipped["units"][::-1]
    a, b = analyse(board_from_dict(data), RS), analyse(board_from_dict(flipped), RS)
    assert [e["unit"] for e in a.to_json()["fight_sequence"]] == [e["unit"] for e in b.to_json()["fight_sequence"]] == \
        ["monster", "assault_squad", "passengers"]


def test_default_prefers_a_normal_fight_then_the_stated_charge_order():
    units = [{"id": "far", "player": 1, "base": 32, "models": [[100, 400]]},
             {"id": "b1", "player": 2, "base": 32, "models": [[100, 330]]},
             {"id": "near", "player": 1, "base": 32, "models": [[400, 400]]},
             {"id": "b2", "player": 2, "base": 32, "models": [[400, 368]]}]
    b = board_from_dict({"ruleset": "wh40k", "units": units,
                         "context": {"step": "fight", "active_player": 1, "charged": ["far", "near"]}})
    # far (charged, unengaged: an overrun fight) waits; near is engaged
    assert seq_of(b)[0] == "near"
    units[0]["models"] = [[100, 368]]  # now both engaged: the charge order the scenario states
    b = board_from_dict({"ruleset": "wh40k", "units": units,
                         "context": {"step": "fight", "active_player": 1, "charged": ["far", "near"]}})
    assert seq_of(b)[0] == "far"
    b = board_from_dict({"ruleset": "wh40k", "units": units,
                         "context": {"step": "fight", "active_player": 1, "charged": ["near", "far"]}})
    assert seq_of(b)[0] == "near"
