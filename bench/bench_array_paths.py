"""Analysis CPU time on the two array paths of :mod:`game.core.arrays`: numpy (the desktop) and
plain Python (the live page), on every bundled rank-and-file and slots scenario and on a few
bigger boards.

    python bench/bench_array_paths.py [--runs 7] [--paths numpy pure] [--quick]

Each path runs in a subprocess of its own (the path is chosen at import: ``MELEE_PURE_PYTHON=1``
for plain Python). Every run analyses a new board: the scenario turned by a fresh angle about the table's middle
and shifted (seeded by the run number, so a before/after comparison with ``BENCH_ROOT``, see
bench/compare.py, sees the same inputs), its units new objects, so no cache of a previous run
answers. Printed:
one ``FIGURE`` line per path and case, the median CPU milliseconds of a whole ``analyse`` and its
``to_json()`` (results are worked out when read: the JSON reads them all).
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def cases(quick: bool) -> list[tuple[str, object]]:
    """``(name, board)`` of each case: the bundled scenarios (not wh40k's), then bigger boards."""
    import common
    from bench_gap_search import entangled
    from game.core.scenario import load_scenario

    out: list[tuple[str, object]] = []
    for p in sorted((common.ROOT / "assets" / "scenarios").glob("*.yaml")):
        board = load_scenario(p)
        if not board.ruleset.startswith("wh40k"):
            out.append((p.stem, board))
    if not quick:
        out += [("whfb8 one combat of 4000 models", common.big_combat(4000, ruleset="whfb8")),
                ("tow one combat of 2000 models", common.big_combat(2000, ruleset="tow")),
                ("tow 2000 models on a table", common.big_table(2000, ruleset="tow")),
                ("t9a 40 entangled units on 300 mm", entangled(40, 7, 300.0))]
    return out


def turned(board, deg: float, dx: float, dy: float):
    """A copy of ``board`` with every unit turned ``deg`` about the table's middle, then moved by
    ``(dx, dy)`` mm: a board never analysed before (a board only moved would be served by the
    rank-and-file engine's reuse of combats seen moved, :mod:`game.engines.rank_and_file.congruent`)."""
    import copy

    mid = (board.table[0] / 2, board.table[1] / 2)
    b = copy.copy(board)
    b.units = [u.rotated(deg, mid).translated(dx, dy) for u in board.units]
    return b


def measure(runs: int, quick: bool) -> None:
    """Print a FIGURE line per case for the path this process chose."""
    import common
    from game.core.analyse import analyse
    from game.core.arrays import USING_NUMPY
    from game.core.ruleset import load_ruleset

    path = "numpy" if USING_NUMPY else "pure"
    for name, board in cases(quick):
        rs = load_ruleset(board.ruleset)  # type: ignore[attr-defined]
        analyse(common.shifted(board, 0.5, 0.25), rs).to_json()  # (imports and rulesets loaded before timing)
        times = []
        for run in range(runs):
            r = random.Random(1000 + run)
            fresh = turned(board, r.uniform(0.0, 360.0), r.uniform(-40.0, 40.0), r.uniform(-40.0, 40.0))
            times.append(common.cpu_ms(lambda: analyse(fresh, rs).to_json()))  # (every result worked out)
        med, _p95, worst = common.stats(times)
        print(f"FIGURE {path:5s} {name + ':':41s} median {med:8.1f} ms CPU (max {worst:.1f}, {runs} boards)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--paths", nargs="+", default=["numpy", "pure"], choices=["numpy", "pure"])
    ap.add_argument("--quick", action="store_true", help="the bundled scenarios only")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        measure(args.runs, args.quick)
        return
    for path in args.paths:
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        env.pop("MELEE_PURE_PYTHON", None)
        if path == "pure":
            env["MELEE_PURE_PYTHON"] = "1"
        cmd = [sys.executable, str(HERE / "bench_array_paths.py"), "--child", "--runs", str(args.runs)]
        subprocess.run(cmd + (["--quick"] if args.quick else []), env=env, check=True)


if __name__ == "__main__":
    main()
