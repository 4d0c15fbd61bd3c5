"""Property tests for the combat-slot ruleset (``slots``): on random two-unit fights,

* actual <= final <= the unit's models, and base/bonus/final agree with the formulas;
* actual <= the free slots around the enemy, and a unit's ``attack`` models are exactly the
  ones filling a slot (one slot each, every slot filled at most once, large fillers in large
  slots, targets the model beside the slot);
* the analysis is a pure function of the board (same input, same output).
"""
from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings, strategies as st

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import board_from_dict

RS = load_ruleset("slots")


@st.composite
def fights(draw):
    size_a = draw(st.sampled_from(["regular", "large"]))
    size_b = draw(st.sampled_from(["regular", "large"]))
    base_a = 50 if size_a == "large" else 20
    base_b = 50 if size_b == "large" else 20
    files_a = draw(st.integers(1, 6))
    files_b = draw(st.integers(1, 6))
    n_a = draw(st.integers(1, 24))
    n_b = draw(st.integers(1, 24))
    a = {"id": "a", "player": 1, "base": [base_a, base_a], "files": files_a, "models": n_a,
         "front": [600, 400], "facing": 0, "profile": {"size": size_a, "attacks": draw(st.integers(1, 3))}}
    placement = draw(st.sampled_from(["front", "flank", "rear"]))
    ranks_a = math.ceil(n_a / files_a)
    if placement == "front":
        off = draw(st.integers(-2, 2)) * 5
        b_front, b_facing = [600 + off, 400], 180
    elif placement == "flank":
        b_front, b_facing = [600 + files_a * base_a / 2, 400 + ranks_a * base_a / 2], 270
    else:
        b_front, b_facing = [600, 400 + ranks_a * base_a], 0
    b = {"id": "b", "player": 2, "base": [base_b, base_b], "files": files_b, "models": n_b,
         "front": b_front, "facing": b_facing, "profile": {"size": size_b}}
    # casualties: drop a few slots from each unit
    for u, n, f in ((a, n_a, files_a), (b, n_b, files_b)):
        ranks = math.ceil(n / f)
        k = draw(st.integers(0, min(3, n - 1)))
        slots = draw(st.lists(st.tuples(st.integers(1, ranks), st.integers(1, f)), max_size=k, unique=True))
        u["empty"] = [f"r{r}f{c}" for r, c in slots]
    ctx = {}
    who = draw(st.sampled_from(["a", "b", None]))
    if who:
        ctx["charged"] = [who]
    winner = draw(st.sampled_from(["a", "b", None]))
    if winner:
        ctx["round_winner"] = winner
    return {"ruleset": "slots", "seed": draw(st.integers(0, 10_000)), "context": ctx, "units": [a, b]}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fights())
def test_allocation_invariants(data):
    board = board_from_dict(data)
    res = analyse(board, RS).to_json()
    assert res == analyse(board_from_dict(data), RS).to_json()
    own = {u.id: len(u.models()) for u in board.units}
    assert set(res["allocation"]) == {"a", "b"}          # every drawn placement touches
    filled_by = [s["filled_by"] for s in res["slots"] if s["filled_by"]]
    assert len(filled_by) == len(set(filled_by))
    slot_of = {s["filled_by"]: s for s in res["slots"] if s["filled_by"]}
    for uid, a in res["allocation"].items():
        other = "b" if uid == "a" else "a"
        assert 0 <= a["actual"] <= a["final"] <= own[uid]
        assert a["models"] == own[uid]
        assert 60 <= a["share"] <= 85
        if own[uid] <= 3:
            assert a["base"] == own[uid]
        else:
            assert a["base"] == min(own[uid], math.ceil(a["share"] * a["total"] / 100))
        assert a["total"] in (own[uid], own[other])
        assert a["final"] == min(own[uid], a["base"] + a["bonus"])
        room = 2 if board.unit(uid).profile["size"] == "large" else 1
        assert a["actual"] <= a["free_slots"] // room
        fighters = [m for m, i in res["models"].items() if m.startswith(uid + ".") and i["role"] == "attack"]
        assert len(fighters) == a["actual"]
        for m in fighters:
            s = slot_of[m]
            assert res["models"][m]["targets"] == [s["model"]] + s.get("also", [])
            assert s["model"].startswith(other + ".")
            assert s["size"] == board.unit(uid).profile["size"]
    for m, i in res["models"].items():
        assert i["role"] in ("attack", "none")
        if i["role"] == "none":
            assert i["attacks"] == 0 and m not in slot_of
