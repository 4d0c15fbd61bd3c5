#!/usr/bin/env python3
"""Time a Warhammer 40,000 pile-in: 20 charging models against 10, with and without the pymunk
path planner. Prints the median (and min/max) of several runs in milliseconds.

    .venv/bin/python bench/bench_pile_in.py [--runs N] [--seed S]

The board is built from a seeded ``random.Random``: 20 models on 32 mm bases in a loose
blob 1-4" from a line of 10 enemies on 25 mm bases. Timing covers ``analyse`` (both
players' pile-ins, roles and the fight sequence).
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.core.analysis import analyse  # noqa: E402
from game.core.ruleset import load_ruleset  # noqa: E402
from game.core.scenario import board_from_dict  # noqa: E402


def make_board(seed: int):
    rng = random.Random(seed)
    enemies = [[400 + i * 34 + rng.uniform(-3, 3), 300 + rng.uniform(-6, 6)] for i in range(10)]
    placed = [(tuple(e), 12.5) for e in enemies]
    mine = []
    while len(mine) < 20:
        p = (rng.uniform(380, 740), rng.uniform(345, 420))
        if all(math.dist(p, q) >= 16 + r + 1 for q, r in placed):
            mine.append([round(p[0], 2), round(p[1], 2)])
            placed.append((p, 16))
    return board_from_dict({"ruleset": "wh40k", "context": {"step": "pile_in", "active_player": 1, "charged": ["mob"]},
                            "units": [{"id": "mob", "player": 1, "base": 32, "models": mine},
                                      {"id": "line", "player": 2, "base": 25, "models": enemies}]})


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    rs = load_ruleset("wh40k")
    board = make_board(args.seed)
    try:
        from game.physics.planner import plan_paths
    except ImportError:
        plan_paths = None
    for name, planner in (("pure (straight lines)", None), ("pymunk planner", plan_paths)):
        if name.startswith("pymunk") and planner is None:
            print(f"{name:22}: pymunk not installed")
            continue
        times, res = [], None
        for _ in range(args.runs):
            t0 = time.perf_counter()
            res = analyse(board, rs, planner=planner)
            times.append((time.perf_counter() - t0) * 1000)
        moved = len(res.moves)
        engaged = sum(1 for m, r in res.models.items() if m.startswith("mob.") and r.role == "attack")
        bent = sum(1 for p in res.moves.values() if len(p) > 2)
        print(f"{name:22}: median {statistics.median(times):7.1f} ms  (min {min(times):.1f}, max {max(times):.1f}, "
              f"{args.runs} runs)  models moved (both sides) {moved}, mob engaged {engaged}/20, paths bent around bases {bent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
