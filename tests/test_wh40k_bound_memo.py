"""The 40k move-status bound (``engaged_bound``) is kept behind the solver's memo: analysing the
same pose again does not compute it again, and a kept bound is exactly the cold one while a
unit is dragged about."""
from __future__ import annotations

import json
from pathlib import Path

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.engines.engagement_range import memo, moves

ROOT = Path(__file__).resolve().parents[1]
RS = load_ruleset("wh40k")


def _counting(monkeypatch) -> list:
    calls: list = []
    real = memo.engaged_bound

    def counted(*a, **kw):
        calls.append(a[1])
        return real(*a, **kw)

    monkeypatch.setattr(memo, "engaged_bound", counted)
    monkeypatch.setattr(moves, "engaged_bound", counted, raising=False)
    return calls


def test_a_repeated_pose_does_not_compute_the_bound_again(monkeypatch):
    board = load_scenario(ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml")
    calls = _counting(monkeypatch)
    memo._SOLVED.clear()  # another test may have solved this very board: start cold
    memo._BOUNDS.clear()
    analyse(board, RS)
    assert calls, "the pile-in computes a bound"
    calls.clear()
    analyse(board.copy(), RS)
    assert calls == []


def test_kept_bounds_equal_cold_ones_along_a_drag():
    board = load_scenario(ROOT / "assets" / "scenarios" / "wh40k_fight_phase.yaml")
    uid = board.units[0].id
    for k in range(6):
        b = board.copy()
        b = b.with_unit(b.unit(uid).translated(7.0 * (k % 3), -5.0 * (k // 3)))
        warm = json.dumps(analyse(b, RS).to_json(), sort_keys=True)
        memo._SOLVED.clear()
        memo._BOUNDS.clear()
        cold = json.dumps(analyse(b, RS).to_json(), sort_keys=True)
        assert warm == cold
