#!/usr/bin/env python3
"""wh40k Pile-in Moves against a brute force (seeds/003: units pile in "to maximise the number
of models that are engaged"): on random boards of 4-12 movers (mixed 25/32/40/60 mm round bases
and ovals, loose, in a clump or crowded round one enemy, some already in base contact;
tests/wh40k_boards.py) the solver's engaged models are compared with an independent brute force
(tests/wh40k_brute.py for round bases, tests/wh40k_brute_shapes.py on boards with an oval). Prints how many boards reach the brute force's optimum, and lists the others.

    python bench/bench_wh40k_optimal.py [--boards N] [--first I] [--nodes K]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("XDG_DATA_HOME", tempfile.mkdtemp(prefix="melee-lens-bench-"))

from game.core import geometry as g  # noqa: E402
from game.core.ruleset import load_ruleset  # noqa: E402
from game.engines.engagement_range import engine as wh40k  # noqa: E402
from game.engines.engagement_range.optimality import engaged_bound  # noqa: E402
from game.engines.engagement_range.solver import MoveSolver  # noqa: E402
from game.engines.engagement_range.table import moved_shape  # noqa: E402
from wh40k_boards import board_spec, crowd_board  # noqa: E402
from wh40k_brute import brute_force_search  # noqa: E402
from wh40k_brute_shapes import brute_force_search_shapes  # noqa: E402

RS = load_ruleset("wh40k")
P = wh40k.Params.of(RS)
KW = dict(er=P.er_mm, move=P.pile_in_mm, tol=P.tol_mm, clearance=P.clearance_mm)


def solver_engaged(board) -> int:
    """Models of ``mob`` within Engagement Range of ``foe`` after the solver's pile-in."""
    t = wh40k.Table(board)
    paths = MoveSolver(t, "mob", P, max_mm=P.pile_in_mm, contact_stays=True, targets=["foe"]).solve()
    foes = t.models_of("foe")
    n = 0
    for pc in t.models_of("mob"):
        end = moved_shape(pc.shape, paths[pc.id][-1]) if pc.id in paths else pc.shape
        n += min(g.gap_mm(end, q.shape) for q in foes) <= P.er_mm + 1e-6
    return n


def compare(i: int, nodes: int) -> dict:
    """One board: its spec, the solver's count and time, the brute force's (or the bound's)."""
    n, kind, ovals = board_spec(i)
    b = crowd_board(i, n, kind, ovals)
    t0 = time.process_time()
    got = solver_engaged(b)
    ms = (time.process_time() - t0) * 1000
    search = brute_force_search_shapes if ovals else brute_force_search
    best, complete = search(b, max_nodes=nodes, **KW)
    how = "brute" if complete else "brute (stopped)"
    bound = engaged_bound(wh40k.Table(b), "mob", ["foe"], P.pile_in_mm, P)
    return dict(i=i, n=n, kind=kind, ovals=ovals, got=got, best=best, complete=complete, how=how, ms=ms, bound=bound)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=300)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--nodes", type=int, default=200000, help="brute-force search nodes at most per board")
    a = ap.parse_args()
    rows = [compare(i, a.nodes) for i in range(a.first, a.first + a.boards)]
    for name, sel in (("round boards", [r for r in rows if not r["ovals"]]), ("boards with ovals", [r for r in rows if r["ovals"]])):
        reached = sum(r["got"] >= r["best"] for r in sel)
        proven = sum(r["complete"] for r in sel)
        at_bound = sum(r["got"] >= r["bound"] for r in sel)
        print(f"{name}: {reached}/{len(sel)} reach the brute force's best ({proven} searches complete); "
              f"{at_bound} meet the engine's upper bound")
    worst = sorted(rows, key=lambda r: -r["ms"])[:3]
    print("slowest solves (ms CPU): " + ", ".join(f"#{r['i']} {r['ms']:.0f}" for r in worst))
    for r in rows:
        if r["got"] < r["best"]:
            print(f"  board {r['i']} ({r['n']} movers, {r['kind']}{', ovals' if r['ovals'] else ''}): "
                  f"solver {r['got']}, {r['how']} {r['best']}")


if __name__ == "__main__":
    main()
