"""An independent brute force for wh40k Pile-in Moves (seeds/003: "units will pile in to
maximise the number of models that are engaged"), for the tests. Round bases of any sizes
(mixed in one unit), one target unit; plain Python (math only), sharing no code with the engine.

Every model that may move tries every end around every enemy model (touching, half and almost
full Engagement Range, every 5 degrees) reached by a straight slide of at most the pile-in
distance past every standing base, ending closer to the target. All combinations (or staying)
are searched for the most engaged models, with the bases kept ``clearance`` apart and an order
in which the models can move one after another (no slide crosses a base still to move or an end
already taken). ``upper_bound`` counts the models that could end engaged on their own: when the
search meets it, the optimum is proven.
"""
from __future__ import annotations

import math
import random

from game.core.scenario import board_from_dict

ANGLES = 72


def random_board(seed: int, *, mixed: bool = True, clump: bool = False):
    """A target unit of 1-4 models (bases 25-50 mm) and a charging unit of 2-7 round models
    (mixed 25/32/40/50 mm bases when ``mixed``), 0.5-4" behind them, loose or in a ``clump``
    (bases nearly touching). Seeded ``random.Random``; the board sits mid-table."""
    rng = random.Random(seed)
    placed: list[tuple[tuple[float, float], float]] = []
    enemies = []
    x = 600.0
    er = rng.choice([12.5, 16, 20, 25])
    for _ in range(rng.randint(1, 4)):
        r = er if not mixed or rng.random() < 0.6 else rng.choice([12.5, 16, 20, 25])
        p = (x + r + rng.uniform(-5, 5), 400 + rng.uniform(-12, 12))
        if all(math.dist(p, q) >= r + rq + 0.5 for q, rq in placed):
            enemies.append((p, r))
            placed.append((p, r))
        x += 2 * r + rng.uniform(1, 30)
    radii = [rng.choice([12.5, 16, 20, 25]) if mixed else 16.0 for _ in range(rng.randint(2, 7))]
    movers = []
    for r in radii:
        for _try in range(200):
            if clump and movers:
                (cx, cy), cr = rng.choice(movers)
                a = rng.uniform(0, 2 * math.pi)
                d = cr + r + rng.uniform(0.3, 4)
                p = (cx + d * math.cos(a), cy + d * math.sin(a))
                if p[1] < 400 + 25 + r + 8:
                    continue
            else:
                p = (rng.uniform(560, x + 40), rng.uniform(400 + 25 + r + 12, 400 + 25 + r + 110))
            if all(math.dist(p, q) >= r + rq + 0.5 for q, rq in placed):
                movers.append((p, r))
                placed.append((p, r))
                break

    def unit(uid, player, models):
        return {"id": uid, "player": player, "base": 2 * models[0][1],
                "models": [{"at": [round(p[0], 2), round(p[1], 2)], "base": round(2 * r, 2)} for p, r in models]}

    return board_from_dict({"ruleset": "wh40k", "table": {"width": 1600, "height": 1000},
                            "context": {"step": "pile_in", "active_player": 1, "charged": ["mob"]},
                            "units": [unit("mob", 1, movers), unit("foe", 2, enemies)]})


def discs(board, uid):
    """[(model id, (x, y), radius)] of the round models of ``uid``."""
    u = board.unit(uid)
    return [(m.id, m.shape.center, m.shape.radius_mm) for m in u.models()]


def _seg_point(p, a, b) -> float:
    ab = (b[0] - a[0], b[1] - a[1])
    L2 = ab[0] ** 2 + ab[1] ** 2
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / L2))
    return math.dist(p, (a[0] + ab[0] * t, a[1] + ab[1] * t))


def options(board, *, er: float, move: float, tol: float, clearance: float):
    """(already engaged count, [(model id, start, r, [ends])] for the models that may move)."""
    mob, foe = discs(board, "mob"), discs(board, "foe")

    def gap_to_foe(c, r):
        return min(math.dist(c, q) - r - rq for _, q, rq in foe)

    fixed, movable, standing = 0, [], []
    for mid, c, r in mob:
        g0 = gap_to_foe(c, r)
        if g0 <= er:  # engaged (or in base contact): it stays and counts
            fixed += 1
            standing.append((c, r))
        else:
            movable.append((mid, c, r, g0))
    out = []
    for mid, c, r, g0 in movable:
        ends = []
        for _, q, rq in foe:
            for gp in (clearance + 0.05, er / 2, er - 0.3):
                for k in range(ANGLES):
                    a = 2 * math.pi * k / ANGLES
                    e = (q[0] + (r + rq + gp) * math.cos(a), q[1] + (r + rq + gp) * math.sin(a))
                    if math.dist(e, c) > move - 0.1 or math.dist(e, c) < 2 * tol:
                        continue
                    if any(math.dist(e, f) < r + rf + clearance for _, f, rf in foe):
                        continue
                    if any(math.dist(e, s) < r + rs + clearance for s, rs in standing):
                        continue
                    if gap_to_foe(e, r) > min(er - 0.06, g0 - 2 * tol - 0.01):
                        continue
                    if all(_seg_point(q2, c, e) >= r + r2 - 0.05 for _, q2, r2 in foe) and \
                            all(_seg_point(s, c, e) >= r + rs - 0.05 for s, rs in standing):
                        ends.append(e)
        out.append((mid, c, r, ends))
    return fixed, out


def upper_bound(board, **kw) -> int:
    fixed, movable = options(board, **kw)
    return fixed + sum(1 for *_, ends in movable if ends)


def brute_force_engaged(board, *, er: float, move: float, tol: float, clearance: float) -> int:
    """The most models of ``mob`` that end engaged (see the module doc)."""
    return brute_force_search(board, er=er, move=move, tol=tol, clearance=clearance)[0]


def brute_force_search(board, *, er: float, move: float, tol: float, clearance: float,
                       max_nodes: int = 0) -> tuple[int, bool]:
    """(the most models of ``mob`` found to end engaged, whether the search was complete):
    ``max_nodes`` (0: no limit) stops the search after so many nodes, keeping the best found."""
    fixed, movable = options(board, er=er, move=move, tol=tol, clearance=clearance)
    movable = sorted(movable, key=lambda o: len(o[3]))
    best = [0]
    n = len(movable)
    nodes = [0]

    def orderable(chosen) -> bool:
        # i must go before j when i's slide crosses j's end; after j when it crosses j's start
        ids = list(chosen)
        before = {i: set() for i in ids}
        for i in ids:
            s, e, r = chosen[i]
            for j in ids:
                if i == j:
                    continue
                sj, ej, rj = chosen[j]
                if _seg_point(ej, s, e) < r + rj - 0.05:
                    before[j].add(i)
                if _seg_point(sj, s, e) < r + rj - 0.05:
                    before[i].add(j)
        left = set(ids)
        while left:
            free = [i for i in left if not (before[i] & left)]
            if not free:
                return False
            left -= set(free)
        return True

    def fits(e, r, chosen, k):
        if any(math.dist(e, ce) < r + cr + clearance for _, ce, cr in chosen.values()):
            return False
        # a model that stays (not chosen yet, or staying) keeps its base: checked at the leaf
        return True

    def leaf(chosen) -> bool:
        stay = [(c, r) for mid, c, r, _ in movable if mid not in chosen]
        for _, e, r in chosen.values():
            if any(math.dist(e, c) < r + rc + clearance for c, rc in stay):
                return False
        for _, (s, e, r) in chosen.items():
            if any(_seg_point(c, s, e) < r + rc - 0.05 for c, rc in stay):
                return False
        return orderable(chosen)

    def dfs(k, chosen):
        nodes[0] += 1
        if max_nodes and nodes[0] > max_nodes:
            return
        if len(chosen) + sum(1 for o in movable[k:] if o[3]) <= best[0]:
            return
        if k == n:
            if leaf(chosen):
                best[0] = max(best[0], len(chosen))
            return
        mid, c, r, ends = movable[k]
        for e in ends:
            if fits(e, r, chosen, k):
                chosen[mid] = (c, e, r)
                dfs(k + 1, chosen)
                del chosen[mid]
                if best[0] == sum(1 for o in movable if o[3]):
                    return
        dfs(k + 1, chosen)

    dfs(0, {})
    return fixed + best[0], not max_nodes or nodes[0] <= max_nodes
