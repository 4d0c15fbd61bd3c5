"""wh40k Pile-in Moves maximise the models that end engaged (seeds/003: "pile in to maximise
the number of models that are engaged"): on random small boards (up to 6 movers) the solver
engages as many models as a brute-force search over every assignment of models to end spots."""
from __future__ import annotations

import math
import random

from hypothesis import given, settings, strategies as st

from game.core import geometry as g
from game.core.ruleset import load_ruleset
from game.engines.engagement_range import engine as wh40k
from game.engines.engagement_range.table import moved_shape
from game.engines.engagement_range.solver import MoveSolver
from game.core.scenario import board_from_dict

RS = load_ruleset("wh40k")
P = wh40k.Params.of(RS)
ER, MOVE = P.er_mm, P.pile_in_mm


def random_board(seed: int):
    """1-3 enemy models in a loose line, 2-6 charging models 0.5-4" behind them (round bases)."""
    rng = random.Random(seed)
    placed: list[tuple[tuple[float, float], float]] = []
    enemy_r = rng.choice([12.5, 16, 20])
    enemies = []
    x = 400.0
    for _ in range(rng.randint(1, 3)):
        p = (x + rng.uniform(-5, 5), 300 + rng.uniform(-10, 10))
        enemies.append([round(p[0], 2), round(p[1], 2)])
        placed.append((p, enemy_r))
        x += 2 * enemy_r + rng.uniform(2, 30)
    mine_r = rng.choice([12.5, 16])
    movers = []
    for _ in range(rng.randint(2, 6)):
        for _try in range(60):
            p = (rng.uniform(330, x + 40), rng.uniform(300 + enemy_r + mine_r + 10, 300 + enemy_r + mine_r + 110))
            if all(math.dist(p, q) >= mine_r + r + 0.5 for q, r in placed):
                movers.append([round(p[0], 2), round(p[1], 2)])
                placed.append((p, mine_r))
                break
    return board_from_dict({"ruleset": "wh40k", "context": {"step": "pile_in", "active_player": 1, "charged": ["mob"]},
                            "units": [{"id": "mob", "player": 1, "base": 2 * mine_r, "models": movers},
                                      {"id": "foe", "player": 2, "base": 2 * enemy_r, "models": enemies}]})


def brute_force_engaged(b) -> int:
    """Most models of ``mob`` that can end engaged: every model tries every end spot around
    every enemy model (touching, half and almost full Engagement Range, every 10 degrees),
    within 3" by a straight slide past every standing base, and closer; all combinations of
    spots (or staying) without two bases overlapping are searched, with a simple bound."""
    t = wh40k.Table(b)
    foes = t.models_of("foe")
    mob = t.models_of("mob")
    r = mob[0].shape.radius_mm
    fr = foes[0].shape.radius_mm
    options = []
    for pc in mob:
        c = pc.shape.center
        start_gap = min(g.gap_mm(pc.shape, q.shape) for q in foes)
        if start_gap <= P.tol_mm or start_gap <= ER:
            options.append(["stay-engaged"])
            continue
        opts = []
        for q in foes:
            for gap in (0.3, ER / 2, ER - 0.5):
                for k in range(36):
                    a = 2 * math.pi * k / 36
                    d = r + fr + gap
                    e = (q.shape.center[0] + d * math.cos(a), q.shape.center[1] + d * math.sin(a))
                    if math.dist(e, c) > MOVE - 0.1:
                        continue
                    if any(math.dist(e, f.shape.center) < r + fr + 0.1 for f in foes):
                        continue
                    if min(math.dist(e, f.shape.center) - r - fr for f in foes) >= start_gap - 1.0:
                        continue
                    opts.append(e)
        options.append(opts)
    fixed = sum(1 for o in options if o == ["stay-engaged"])
    movable = [(i, o) for i, o in enumerate(options) if o != ["stay-engaged"]]
    starts = {i: mob[i].shape.center for i, _ in movable}
    standing = [mob[i].shape.center for i, o in enumerate(options) if o == ["stay-engaged"]]
    blockers = [(s, 2 * r) for s in standing] + [(f.shape.center, r + fr) for f in foes]

    def clear(a, e):  # the straight slide passes no standing base
        return all(_seg_point(q, a, e) >= need - 0.05 for q, need in blockers)

    movable = [(i, [e for e in o if all(math.dist(e, s) >= 2 * r + 0.1 for s in standing) and clear(starts[i], e)])
               for i, o in movable]
    best = 0

    def ok(e, chosen):
        return all(math.dist(e, f) >= 2 * r + 0.1 for f in chosen.values())

    def dfs(k, chosen, count):
        nonlocal best
        if count + (len(movable) - k) <= best:
            return
        if k == len(movable):
            best = max(best, count)
            return
        i, opts = movable[k]
        for e in opts:
            if ok(e, chosen):
                chosen[i] = e
                dfs(k + 1, chosen, count + 1)
                del chosen[i]
                if best == len(movable):
                    return
        chosen[i] = starts[i]
        dfs(k + 1, chosen, count)
        del chosen[i]

    dfs(0, {}, 0)
    return fixed + best


def _seg_point(p, a, b) -> float:
    ab = (b[0] - a[0], b[1] - a[1])
    L2 = ab[0] ** 2 + ab[1] ** 2
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / L2))
    return math.dist(p, (a[0] + ab[0] * t, a[1] + ab[1] * t))


def solver_engaged(b) -> int:
    t = wh40k.Table(b)
    paths = MoveSolver(t, "mob", P, max_mm=MOVE, contact_stays=True, targets=["foe"]).solve()
    foes = t.models_of("foe")
    n = 0
    ends = []
    for pc in t.models_of("mob"):
        end = moved_shape(pc.shape, paths[pc.id][-1]) if pc.id in paths else pc.shape
        ends.append(end)
        if pc.id in paths:
            assert wh40k.path_length(paths[pc.id]) <= MOVE + 1e-6
        n += min(g.gap_mm(end, q.shape) for q in foes) <= ER + 1e-6
    for i, a in enumerate(ends):  # never overlapping
        for c in ends[i + 1:]:
            assert g.gap_mm(a, c) >= -1e-6
    return n


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.integers(0, 10 ** 6))
def test_solver_engages_as_many_as_brute_force(seed):
    b = random_board(seed)
    assert solver_engaged(b) >= brute_force_engaged(b), f"seed {seed}"


def test_loose_mob_against_three_engages_everyone():
    # the kind of board: 7 models on 32 mm bases, loose, against 3 on 32 mm bases
    b = board_from_dict({"ruleset": "wh40k", "context": {"step": "pile_in", "active_player": 1, "charged": ["mob"]},
                         "units": [{"id": "mob", "player": 1, "base": 32,
                                    "models": [[380, 370], [420, 365], [460, 372], [500, 368], [400, 420],
                                               [450, 425], [490, 418]]},
                                   {"id": "foe", "player": 2, "base": 32, "models": [[410, 300], [446, 300], [482, 300]]}]})
    assert solver_engaged(b) == brute_force_engaged(b) == 7
