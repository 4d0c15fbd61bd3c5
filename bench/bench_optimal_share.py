#!/usr/bin/env python3
"""wh40k ``move_status``: the share of random pile-in boards proven optimal (issue 24, item 3).

    python bench/bench_optimal_share.py [--boards 50] [--seed 0] [--brute]

Boards from ``tests/wh40k_brute.random_board`` (``--boards`` of each kind: mixed or one base
size, loose or in a clump; seeds ``seed`` .. ``seed + boards - 1``). Prints how many the
analysis calls ``optimal`` (the move meets the upper bound of
:mod:`game.engines.engagement_range.optimality`) and, with ``--brute``, how many of the others
the independent brute force (``tests/wh40k_brute.py``) shows to be optimal all the same
(proof missing: the bound is loose there) or short of the optimum.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from game.core.analyse import analyse  # noqa: E402
from game.core.ruleset import load_ruleset  # noqa: E402
from game.engines.engagement_range import engine as wh40k  # noqa: E402
from wh40k_brute import brute_force_engaged, random_board  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--brute", action="store_true")
    args = ap.parse_args()
    rs = load_ruleset("wh40k")
    p = wh40k.Params.of(rs)
    kw = dict(er=p.er_mm, move=p.pile_in_mm, tol=p.tol_mm, clearance=p.clearance_mm)
    total = proven = unproven_opt = short = 0
    gaps = []
    for mixed in (True, False):
        for clump in (False, True):
            n_proven = 0
            for s in range(args.seed, args.seed + args.boards):
                b = random_board(s, mixed=mixed, clump=clump)
                st = analyse(b, rs).to_json().get("move_status", {}).get("mob")
                if st is None:  # no pile-in (e.g. not eligible): nothing to prove
                    continue
                total += 1
                if st["status"] == "optimal":
                    proven += 1
                    n_proven += 1
                    continue
                gaps.append(st["bound"] - st["engaged"])
                if args.brute:
                    best = brute_force_engaged(b, **kw)
                    if st["engaged"] >= best:
                        unproven_opt += 1
                    else:
                        short += 1
            print(f"  mixed={mixed!s:5} clump={clump!s:5}: {n_proven}/{args.boards} proven optimal")
    print(f"proven optimal: {proven}/{total} ({100 * proven / total:.0f}%); not proven: {total - proven}"
          + (f" (of which the brute force finds {unproven_opt} optimal all the same, {short} short)" if args.brute else "")
          + (f"; bound - engaged on those: {sorted(gaps)}" if gaps else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
