#!/usr/bin/env python3
"""wh40k per-pose analysis CPU, in process: one model of a unit is moved towards its nearest
enemy model in ten steps and back, a new board each pose (the unit dragged: the worked example's
Monster, one charging model of the 20 v 10 and 100 v 50 pile-in boards of bench_pile_in.py), and
each pose is analysed whole (``analyse``); ``horde`` analyses the built-in rank-and-file board
under wh40k, moved a little each run. Prints the CPU median (``time.process_time``) per board.
The memo of the move solver works as in a drag: units the pose does not touch are not solved
again.

    python bench/bench_wh40k_pose.py [--boards worked,20v10,100v50,horde] [--poses 20]

Run it in two trees in turn (before / after) on a shared machine: the medians move with load.
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import bench_pile_in as B  # noqa: E402
from game.core.analyse import analyse  # noqa: E402
from game.core.ruleset import load_ruleset  # noqa: E402
from game.core.scenario import load_scenario  # noqa: E402


def board_of(name: str):
    """(board, dragged unit id or None for the moved horde board)."""
    if name == "worked":
        return load_scenario(ROOT / "assets" / "scenarios" / "wh40k_fight_phase.yaml"), "monster"
    if name == "horde":
        b = load_scenario(B.RANKED)
        b.ruleset = "wh40k"
        return b, None
    movers, enemies = {"20v10": (20, 10), "100v50": (100, 50)}[name]
    return B.make_board(11, movers, enemies), "mob"


def poses(board, uid, n: int):
    """``n`` boards: the first model of ``uid`` stepped towards its nearest enemy and back."""
    if uid is None:
        for k in range(n):
            yield B.shifted(board, k + 1)
        return
    u = board.unit(uid)
    m = u.models()[0]
    foe = min((x for v in board.units if v.player != u.player for x in v.models()),
              key=lambda f: math.dist(f.center, m.center))
    d = math.dist(foe.center, m.center)
    for k in range(n):
        f = (k % 10) / 10 * (d - 20) / d
        v = board.unit(uid)
        c, base = v.placed[0]
        moved = ((c[0] + (foe.center[0] - c[0]) * f + 0.013 * k, c[1] + (foe.center[1] - c[1]) * f), base)
        yield board.with_unit(dataclasses.replace(v, placed=[moved] + list(v.placed[1:])))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", default="worked,20v10,100v50,horde")
    ap.add_argument("--poses", type=int, default=20)
    args = ap.parse_args()
    rs = load_ruleset("wh40k")
    for name in args.boards.split(","):
        board, uid = board_of(name)
        analyse(board.copy(), rs)  # the memo as a drag finds it
        n = args.poses if name in ("worked", "20v10") else max(5, args.poses // 4)
        ts = []
        for b in poses(board, uid, n):
            t0 = time.process_time()
            analyse(b, rs)
            ts.append((time.process_time() - t0) * 1000)
        print(f"{name:7} per-pose analysis CPU median {statistics.median(ts):7.1f} ms (min {min(ts):.1f}, n={len(ts)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
