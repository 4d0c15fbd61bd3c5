"""wh40k results do not depend on where the board lies (conformance README: "any rules result
that depends on where the board lies or which way it faces is a bug"): random boards (mixed
bases, clumps), the seed-003 worked example over 12 placements, and every public wh40k case,
turned and moved, give the same engaged counts and the same role for every model."""
from __future__ import annotations

import dataclasses

import math
from pathlib import Path

import yaml
from hypothesis import given, settings, strategies as st

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import board_from_dict, load_scenario
from wh40k_brute import random_board

RS = load_ruleset("wh40k")
HERE = Path(__file__).resolve().parent
WORKED = HERE / "fixtures" / "wh40k_fight_phase.yaml"
CASES = sorted((HERE / "fixtures" / "wh40k_cases").glob("*.yaml"))


def turned(board, deg: float, pivot, shift):
    """``board`` turned ``deg`` clockwise about ``pivot`` and moved by ``shift`` (mm), with its
    objectives; the table grown so every model stays on it."""
    a = math.radians(deg)
    ca, sa = math.cos(a), math.sin(a)

    def rot(p):
        x, y = p[0] - pivot[0], p[1] - pivot[1]
        return (pivot[0] + x * ca - y * sa + shift[0], pivot[1] + x * sa + y * ca + shift[1])

    context = dict(board.context)
    if context.get("objectives"):
        context["objectives"] = [rot(o) for o in context["objectives"]]
    return dataclasses.replace(board, units=tuple(u.rotated(deg, pivot).translated(*shift) for u in board.units),
                               context=context)


def roles(board) -> dict:
    res = analyse(board, RS)
    out = {k: (r.role, r.attacks, tuple(sorted(r.targets))) for k, r in res.models.items()}
    seq = [(e["unit"], e["fight"], tuple(e.get("moved") or ()), tuple(e.get("kills") or ()))
           for e in res.to_json().get("fight_sequence") or []]
    strikes = [tuple(sorted(s["models"])) for s in res.to_json()["strike_order"]]
    return {"models": out, "moved": tuple(sorted(res.moves)), "sequence": seq, "strikes": strikes,
            "status": res.to_json().get("move_status")}


def centred(board, size=3000.0):
    """The board moved to the middle of a big table (room to turn it anywhere)."""
    xs = [m.center for m in board.models()]
    cx, cy = sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
    return dataclasses.replace(turned(board, 0.0, (0, 0), (size / 2 - cx, size / 2 - cy)), table=(size, size))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from([(True, False), (True, True), (False, True)]),
       st.floats(0, 360), st.floats(-200, 200), st.floats(-200, 200))
def test_random_boards_turned_and_moved(seed, kind, deg, dx, dy):
    b = centred(random_board(seed, mixed=kind[0], clump=kind[1]))
    assert roles(turned(b, deg, (1500, 1500), (dx, dy))) == roles(b), f"seed {seed} {kind} turned {deg}"


def test_worked_example_over_twelve_placements():
    b = centred(load_scenario(WORKED))
    want = roles(b)
    for k in range(12):
        deg = 30.0 * k + 11.0
        got = roles(turned(b, deg, (1500 + 7 * k, 1500 - 5 * k), (13.0 * k - 70, 9.0 * k - 50)))
        assert got == want, f"placement {k} ({deg} degrees)"
    # the same on its own step boards: the Fight step with the player's order given
    fb = dataclasses.replace(b, context={**b.context, "step": "fight", "fight_order": ["monster", "assault_squad"]})
    want = roles(fb)
    for k in range(12):
        assert roles(turned(fb, 30.0 * k + 4.0, (1500, 1500), (5.0 * k, -3.0 * k))) == want, k


def test_public_cases_turned_and_moved():
    assert CASES
    for path in CASES:
        data = yaml.safe_load(path.read_text())
        data.pop("expect", None)
        b = centred(board_from_dict(data))
        want = roles(b)
        for deg, shift in ((90.0, (0, 0)), (217.0, (31.5, -12.25)), (333.0, (-80.0, 44.0))):
            assert roles(turned(b, deg, (1500, 1500), shift)) == want, f"{path.name} turned {deg}"
