"""A combat round step by step (game/core/combat_round.py): CPU medians of play_round.

Each run shifts the table by a fresh random offset, so no analysis is a cache replay.
Cases: the bundled keep-contact scene (whfb8: casualties on the Goblins' rear rank, the Dwarfs
close up), the tow round (stepped-forward models), and a big table of separate combats (every
unit loses a few models at each strike step). Prints medians of CPU time (time.process_time).

    python bench/bench_round.py [--runs 7]
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time

from common import ROOT, big_table  # noqa: F401  (common puts the project on sys.path)

from game.core.combat_round import play_round
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario


def shifted(board, rng):
    dx, dy = rng.uniform(-50, 50), rng.uniform(-50, 50)
    return dataclasses.replace(board, units=[u.translated(dx, dy) for u in board.units])


def median_ms(board, rs, casualties, runs: int, rng) -> float:
    ts = []
    for _ in range(runs):
        b = shifted(board, rng)
        t = time.process_time()
        play_round(b, rs, casualties)
        ts.append(time.process_time() - t)
    return statistics.median(ts) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random()
    scen = ROOT / "assets" / "scenarios"
    keep = load_scenario(scen / "whfb8_keep_contact.yaml")
    print(f"whfb8 keep contact (2 strike steps, close up): "
          f"{median_ms(keep, load_ruleset('whfb8'), {'Initiative 3': {'dwarfs': 1}, 'Initiative 2': {'goblins': 3}}, args.runs, rng):.1f} ms")
    tow = load_scenario(scen / "tow_round.yaml")
    print(f"tow round (stepped forward): "
          f"{median_ms(tow, load_ruleset('tow'), {1: {'marauders': 3}, 2: {'swordsmen': 2}}, args.runs, rng):.1f} ms")
    for n in (1000, 4000):
        big = big_table(n)
        spec = {1: {u.id: 3 for u in big.units if u.player == 2}, 2: {u.id: 3 for u in big.units if u.player == 1}}
        print(f"{n} models, {len(big.units) // 2} combats, 3 casualties per unit per step: "
              f"{median_ms(big, load_ruleset('whfb8'), spec, max(3, args.runs // 2), rng):.0f} ms")


if __name__ == "__main__":
    main()
