"""Random wh40k pile-in boards for the brute-force comparison (bench/bench_wh40k_optimal.py and
tests/test_wh40k_optimal_many.py): 4-12 charging models on mixed round bases (25/32/40/60 mm)
and sometimes ovals, loose, in a clump, or crowded round one enemy model, some of them already
in base contact, against 1-4 enemy models. Seeded ``random.Random``; plain Python."""
from __future__ import annotations

import math
import random

from game.core.scenario import board_from_dict

ROUND_MM = (25.0, 32.0, 40.0, 60.0)
OVALS_MM = ((60.0, 35.0), (75.0, 42.0))


def _half(base) -> float:
    """The radius of the circle holding a base (round diameter or oval [w, d])."""
    return base / 2 if not isinstance(base, tuple) else max(base) / 2


def crowd_board(seed: int, n: int, kind: str, ovals: bool = False):
    """A board of ``n`` movers (4-12): ``kind`` is ``loose``, ``clump`` or ``crowd`` (all round
    one enemy model, 1-3" from it). A quarter of the boards put one or two movers in base
    contact with an enemy model. ``ovals``: one or two movers get an oval base."""
    rng = random.Random(seed)
    placed: list[tuple[tuple[float, float], float]] = []
    enemies = []
    x = 700.0
    for _ in range(1 if kind == "crowd" else rng.randint(1, 4)):
        b = rng.choice(ROUND_MM)
        r = b / 2
        p = (x + r, 450 + rng.uniform(-12, 12))
        if all(math.dist(p, q) >= r + rq + 0.5 for q, rq in placed):
            enemies.append((p, b))
            placed.append((p, r))
        x += 2 * r + rng.uniform(1, 30)
    one = rng.random() < 0.35
    size = rng.choice(ROUND_MM[:3])
    bases: list = [size if one else rng.choice(ROUND_MM) for _ in range(n)]
    if ovals:
        for k in rng.sample(range(n), min(n, rng.randint(1, 2))):
            bases[k] = rng.choice(OVALS_MM)
    contact = rng.random() < 0.25
    movers: list = []
    for k, base in enumerate(bases):
        r = _half(base)
        for _try in range(400):
            if contact and k < 2 and not isinstance(base, tuple):
                (ex, ey), eb = rng.choice(enemies)
                a = rng.uniform(0.15 * math.pi, 0.85 * math.pi)  # the side facing the chargers
                d = eb / 2 + r + 0.1
                p = (ex + d * math.cos(a), ey + d * math.sin(a))
            elif kind == "crowd":
                (ex, ey), eb = enemies[0]
                a = rng.uniform(0, 2 * math.pi)
                d = eb / 2 + r + rng.uniform(27, 76)
                p = (ex + d * math.cos(a), ey + d * math.sin(a))
            elif kind == "clump" and movers:
                (cx, cy), cb = rng.choice(movers)
                a = rng.uniform(0, 2 * math.pi)
                d = _half(cb) + r + rng.uniform(0.3, 4)
                p = (cx + d * math.cos(a), cy + d * math.sin(a))
                if p[1] < 450 + 30 + r + 12:
                    continue
            else:
                p = (rng.uniform(660, x + 40), rng.uniform(450 + 30 + r + 14, 450 + 30 + r + 110))
            if all(math.dist(p, q) >= r + rq + 0.5 for q, rq in placed):
                movers.append((p, base))
                placed.append((p, r))
                break

    def model(p, base):
        out: dict = {"at": [round(p[0], 2), round(p[1], 2)]}
        out["base"] = {"oval": list(base)} if isinstance(base, tuple) else base
        return out

    return board_from_dict({"ruleset": "wh40k", "table": {"width": 1600, "height": 1000},
                            "context": {"step": "pile_in", "active_player": 1, "charged": ["mob"]},
                            "units": [{"id": "mob", "player": 1, "base": 32, "models": [model(*m) for m in movers]},
                                      {"id": "foe", "player": 2, "base": 32, "models": [model(*e) for e in enemies]}]})


def board_spec(i: int) -> tuple[int, str, bool]:
    """The ``i``-th board of a sweep: (movers, kind, ovals), cycling through every kind."""
    kinds = ("loose", "clump", "crowd")
    return 4 + (i * 7) % 9, kinds[i % 3], i % 5 == 4
