"""The t9a gap search on entangled boards: 201 ranked units strewn over each other (issue 26).

    python bench/bench_gap_search.py [--runs 3] [--units 201] [--size-mm 150 300 500]

Each run builds a new board (seeded by the run number, so inputs differ between runs but are
the same for a before/after comparison with ``BENCH_ROOT``, see bench/compare.py) on a square
table of the given side, analyses it under t9a and prints the median CPU seconds. Measured
(this machine, heavily shared, CPU time of the whole analysis; boards made by the same
generator with other seeds): 201 units on 150 mm 16.1 -> 5.1 s; on 300 mm 9.5 -> 3.2 s; on
500 mm 4.9 -> 2.1 s; the analyses were identical (JSON hash) before and after. This script's
own 300 mm board: 15.3 s before the last step (boundaries tested first), 8.7 s after.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

import common  # noqa: F401 (puts the measured tree on sys.path)
from game.core.analyse import analyse
from game.core.board import Board, Unit
from game.core.ruleset import load_ruleset


def entangled(n: int, seed: int, size_mm: float) -> Board:
    r = random.Random(seed)
    units = [Unit(id=f"u{i}", player=1 + i % 2, kind="ranked", base=(20.0, 20.0), files=r.choice([3, 4, 5]),
                  count=r.choice([6, 10, 15, 20]),
                  front=(r.uniform(40, size_mm - 40), r.uniform(40, size_mm - 40)),
                  facing_deg=r.choice([0.0, 90.0, 180.0, 270.0, r.uniform(0, 360)]),
                  profile={"attacks": 1, "initiative": 3, "agility": 3, "height": 1}) for i in range(n)]
    return Board(units=units, ruleset="t9a", table=(size_mm, size_mm))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--units", type=int, default=201)
    ap.add_argument("--size-mm", type=float, nargs="+", default=[150.0, 300.0, 500.0])
    args = ap.parse_args()
    rs = load_ruleset("t9a")
    for size in args.size_mm:
        times = []
        for run in range(args.runs):
            board = entangled(args.units, 1000 + run, size)
            t = time.process_time()
            analyse(board, rs)
            times.append(time.process_time() - t)
        print(f"t9a gap search, {args.units} units on {size:g} mm: median {statistics.median(times):.2f} s CPU "
              f"({args.runs} boards)")


if __name__ == "__main__":
    main()
