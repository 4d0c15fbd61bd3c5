"""The 40k move-status bound's search, made cheaper, answers as before.

``room_to_end`` sets aside the circles none of whose points can pass (every point beyond the
move from the start or beyond the reach from the enemy) before it tries the candidates: the
answer is the one trying every candidate gives (the reference below is the search without that
step), on random boards with bases touching, boxed in and tangent. ``Table.gap_matrix`` keeps
its answers by the bases and centres it is given: asking again does not compute again, and
the kept answer is the fresh one (and a copy the caller may change)."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.scenario import board_from_dict
from game.engines.engagement_range import table as table_mod
from game.engines.engagement_range.optimality import room_to_end
from game.engines.engagement_range.table import Table


def _every_candidate(start, r_mm, move_mm, enemy, reach_mm, standing, tol_mm) -> bool:
    """room_to_end trying every candidate (no circle set aside)."""
    sx, sy = float(start[0]), float(start[1])
    (ex, ey), _ = enemy
    near = [(float(c[0]), float(c[1]), R + r_mm - tol_mm) for c, R in standing
            if math.hypot(c[0] - sx, c[1] - sy) < move_mm + R + r_mm]
    circles = [(sx, sy, move_mm), (float(ex), float(ey), reach_mm)] + near
    eps = 1e-6

    def ok(x, y):
        if math.hypot(x - sx, y - sy) > move_mm + eps or math.hypot(x - ex, y - ey) > reach_mm + eps:
            return False
        return all(math.hypot(x - cx, y - cy) >= rho - eps for cx, cy, rho in near)

    d = math.hypot(ex - sx, ey - sy)
    if d <= reach_mm and ok(sx, sy):
        return True
    if d > reach_mm and d - reach_mm <= move_mm + eps:
        t = (d - reach_mm + 1e-7) / d
        if ok(sx + (ex - sx) * t, sy + (ey - sy) * t):
            return True
    pts = [p for cx, cy, rho in circles for p in ((cx - rho, cy), (cx + rho, cy))]
    for i, (x1, y1, r1) in enumerate(circles):
        for x2, y2, r2 in circles[i + 1:]:
            dx, dy = x2 - x1, y2 - y1
            dd = math.hypot(dx, dy)
            if dd < 1e-12 or dd > r1 + r2 or dd < abs(r1 - r2):
                continue
            a = (r1 * r1 - r2 * r2 + dd * dd) / (2 * dd)
            h = math.sqrt(max(0.0, r1 * r1 - a * a))
            mx, my = x1 + a * dx / dd, y1 + a * dy / dd
            pts += [(mx - h * dy / dd, my + h * dx / dd), (mx + h * dy / dd, my - h * dx / dd)]
    return any(ok(x, y) for x, y in pts)


@settings(max_examples=400, deadline=None)
@given(seed=st.integers(0, 10 ** 9), crowd=st.integers(0, 16), grid=st.booleans())
def test_room_to_end_answers_as_trying_every_candidate(seed, crowd, grid):
    rng = np.random.default_rng(seed)
    r = float(rng.choice([12.5, 16.0, 20.0]))
    start = (float(rng.uniform(0, 200)), float(rng.uniform(0, 200)))
    er = float(rng.choice([12.5, 16.0, 25.0]))
    enemy = ((start[0] + float(rng.uniform(-130, 130)), start[1] + float(rng.uniform(-130, 130))), er)
    standing = [enemy]
    for _ in range(crowd):
        c = (start[0] + float(rng.uniform(-120, 120)), start[1] + float(rng.uniform(-120, 120)))
        if grid:  # bases on a grid: touching and tangent circles
            c = (round(c[0] / 16) * 16.0, round(c[1] / 16) * 16.0)
        standing.append((c, float(rng.choice([12.5, 16.0, 25.0]))))
    args = (start, r, 76.2, enemy, er + r + 25.4, standing, 0.1)
    assert room_to_end(*args) == _every_candidate(*args)


def test_room_to_end_boxed_in_and_open():
    foe = ((0.0, 0.0), 12.5)
    reach = 12.5 + 16 + 25.4
    ring = [((math.cos(a) * 37.5, math.sin(a) * 37.5), 12.5) for a in [k * math.pi / 5 for k in range(10)]]
    for start in ((0.0, 100.0), (70.0, 70.0), (-90.0, 10.0)):
        for standing in ([foe], [foe] + ring, [foe] + ring[:7]):
            args = (start, 16.0, 76.2, foe, reach, standing, 0.1)
            assert room_to_end(*args) == _every_candidate(*args)


def _table() -> Table:
    return Table(board_from_dict({"ruleset": "wh40k", "table": {"width": 1200, "height": 800}, "units": [
        {"id": "a", "player": 1, "base": 32, "models": [[100, 100], [140, 100], [180, 110]]},
        {"id": "b", "player": 2, "base": {"oval": [90, 52]}, "models": [[150, 170]]},
        {"id": "c", "player": 2, "base": [25, 50], "models": [[260, 120], [290, 120]]}]}))


def test_gap_matrix_is_kept_and_equals_a_fresh_one(monkeypatch):
    t = _table()
    mine = t.models_of("a")
    foes = t.models_of("b") + t.models_of("c")
    fresh = t._gap_matrix(mine, foes)
    calls = []
    real = Table._gap_matrix
    monkeypatch.setattr(Table, "_gap_matrix", lambda self, a, b: calls.append(1) or real(self, a, b))
    monkeypatch.setattr(table_mod, "_GAP_MATRICES", {})
    first = t.gap_matrix(mine, foes)
    first[0, 0] = -99.0  # the caller's copy
    again = _table().gap_matrix(_table().models_of("a"), _table().models_of("b") + _table().models_of("c"))
    assert len(calls) == 1
    assert np.array_equal(again, fresh)
    # a base moved: computed afresh
    t.pieces[foes[0].id].shape = table_mod.moved_shape(foes[0].shape, (150.0, 171.0))
    moved = t.gap_matrix(mine, t.models_of("b") + t.models_of("c"))
    assert len(calls) == 2 and not np.array_equal(moved, fresh)
