#!/usr/bin/env python3
"""Analysis speed (CPU, time.process_time) on new inputs every run: never a cache replay.

    python bench/bench_analysis.py [--quick]

* full analysis: the whole table shifted by a fresh random offset each run (a translation
  changes no result, but no cached model, pair or combat can be reused), 200 -> 8000 models;
* incremental: one unit dragged along a random walk, a position never seen before on every
  frame, on a table of separate combats and on a table that is one big combat.

* reference: every base contact on the same tables by a numpy grid hash (``gridhash.py``), timed
  on the same shifted boards interleaved with the analysis: the physical floor.

Targets (issue 14): full 2000 models <= 5 ms; incremental <= 1 ms at 2000 models, one big
combat included; full 8000 / full 2000 <= x4.2. Issue 25: full 2000 models <= 5x the grid-hash
reference of the same run; incremental in one big combat of 2000 models <= 2 ms, whfb8 and tow.
Compare trees with ``bench/compare.py`` (before and after in one run).
"""
from __future__ import annotations

import argparse
import dataclasses

from common import big_combat, big_table, cpu_ms, n_models, rng, shifted, stats, with_unit
from gridhash import reference_ms

try:
    from game.core.analyse import analyse
except ImportError:  # a tree from before the split (bench/compare.py)
    from game.core.analysis import analyse  # type: ignore[no-redef]
from game.core.ruleset import load_ruleset


def reprofiled(board, r):
    """A copy of ``board`` whose every unit has new Attacks and Initiative (values never used
    before in this run): no decision made on an earlier table can be taken for this one, even
    moved (a combat seen again moved by one offset may take its earlier decision)."""
    units = [dataclasses.replace(u, profile={**u.profile, "attacks": r.randint(1, 10 ** 6),
                                             "initiative": r.randint(1, 10 ** 6)}) for u in board.units]
    return dataclasses.replace(board, units=units)


def full(models: int, runs: int, rs, r, cold: bool = False) -> tuple[float, float]:
    """(median CPU ms of a full analysis, median of the grid-hash reference), both on the same
    fresh tables, interleaved (each table shifted anew for each of them). ``cold``: every unit's
    profile new on each run too (:func:`reprofiled`), so nothing decided before can be reused."""
    base = big_table(models)
    analyse(base, rs)  # imports, first-use costs
    reference_ms(base, rs.values.contact_tolerance_mm)
    ts, ref = [], []
    for _ in range(runs):
        dx, dy = r.uniform(-50, 50), r.uniform(-50, 50)
        b = shifted(reprofiled(base, r) if cold else base, dx, dy)
        ts.append(cpu_ms(lambda: analyse(b, rs)))
        ref.append(reference_ms(shifted(base, dx + 0.013, dy), rs.values.contact_tolerance_mm))
    return stats(ts)[0], stats(ref)[0]


def drag(board, rs, r, frames: int, index: int = 0) -> tuple[float, float, float]:
    """CPU ms per re-analysis while unit ``index`` slides randomly along its enemy's front
    (new positions each frame, contact kept)."""
    analyse(board, rs)
    u0 = board.units[index]
    x, y = 0.0, 0.0
    ts = []
    for _ in range(frames):
        # slide along the enemy's front, staying in base contact (within the 0.5 mm tolerance)
        x = max(-30.0, min(30.0, x + r.uniform(-1.5, 1.5)))
        y = r.uniform(-0.3, 0.3)
        board = with_unit(board, u0.translated(x, y))
        ts.append(cpu_ms(lambda: analyse(board, rs)))
    return stats(ts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer runs")
    ap.add_argument("--ruleset", default="whfb8")
    ap.add_argument("--big-combat-rulesets", default="whfb8,tow", help="rulesets of the one-big-combat drag figure")
    args = ap.parse_args()
    rs = load_ruleset(args.ruleset)
    r = rng()
    runs = 5 if args.quick else 11
    print(f"[{args.ruleset}] full analysis, new table offset every run (CPU median ms)")
    print("  models   ms    ms/1000 models   grid-hash reference ms   x reference")
    res, refs = {}, {}
    for n in (200, 500, 1000, 2000, 4000, 8000):
        res[n], refs[n] = full(n, runs if n <= 4000 else max(3, runs // 2), rs, r)
        print(f"  {n:6d} {res[n]:7.2f}  {res[n] / n * 1000:6.2f}           {refs[n]:7.2f}             x{res[n] / refs[n]:.1f}")
    print(f"FIGURE full analysis 2000 models: {res[2000]:.2f} ms (target <= 5)")
    print(f"FIGURE full analysis 2000 models / grid-hash reference: x{res[2000] / refs[2000]:.1f} "
          f"(reference {refs[2000]:.2f} ms, same run; target <= x5)")
    print(f"FIGURE growth 8000/2000: x{res[8000] / res[2000]:.2f} (target <= 4.2)")
    cold, cold_ref = full(2000, runs, rs, r, cold=True)
    print(f"FIGURE full analysis 2000 models, nothing reusable (new profiles too) / grid-hash reference: "
          f"x{cold / cold_ref:.1f} ({cold:.2f} ms, reference {cold_ref:.2f} ms, same run; target <= x5)")
    frames = 100 if args.quick else 300
    for name, board in (("separate combats", big_table(2000)), ("one big combat", big_combat(2000))):
        med, p95, mx = drag(board, rs, r, frames, index=len(board.units) // 2)
        print(f"FIGURE incremental 2000 models, {name} ({n_models(board)} models, {len(board.units)} units): "
              f"median {med:.2f} ms, p95 {p95:.2f}, max {mx:.2f} (target median <= 1)")
    for rid in [x for x in args.big_combat_rulesets.split(",") if x]:
        board = big_combat(2000, ruleset=rid)
        med, p95, mx = drag(board, load_ruleset(rid), r, frames, index=len(board.units) // 2)
        print(f"FIGURE incremental one big combat of 2000 models [{rid}]: median {med:.2f} ms, p95 {p95:.2f}, "
              f"max {mx:.2f} (target median <= 2)")
    med, p95, mx = drag(big_combat(8000), rs, r, frames // 2, index=40)
    print(f"  incremental 8000 models, one big combat: median {med:.2f} ms, p95 {p95:.2f}, max {mx:.2f}")


if __name__ == "__main__":
    main()
