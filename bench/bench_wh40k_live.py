#!/usr/bin/env python3
"""wh40k live: window drag frames next to whfb8's, and whole-process ``analyse`` ratios.

    python bench/bench_wh40k_live.py [--frames 120] [--runs 5] [--before DIR]

* drag frames (CPU ms, ``time.process_time``, the real window headless, a new position every
  frame): the seed-003 worked example (its assault squad dragged), a 20 v 10 pile-in board (the
  mob dragged) and the whfb8 horde board (a unit dragged), median and 95th percentile;
* whole process (wall ms, ``python main.py analyse FILE --json``, medians of ``--runs``): the
  worked example, the horde board under whfb8 and under wh40k; ratios to whfb8 on the horde board.

``--before DIR`` runs the same measurements on another checkout (e.g. ``git worktree add
/tmp/before main``) interleaved with this one, each round both trees, so both see the same load.
Targets (issue 24): a wh40k drag frame at most 1.5x a whfb8 frame, p95 within 16.7 ms on the
worked example; analyse of the worked example within 1.5x and wh40k on the horde board within
3x of whfb8 on the horde board.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKED = "assets/scenarios/wh40k_fight_phase.yaml"
HORDE = "assets/scenarios/dwarf_horde_vs_goblins.yaml"


def frames_here(frames: int) -> dict:
    """Drag frames in this process on the tree it was started from (see the module doc)."""
    sys.path.insert(0, str(Path.cwd()))
    sys.path.insert(0, str(Path.cwd() / "bench"))
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import bench_pile_in as B  # noqa: E402 - the tree's own window driver and 20 v 10 board
    from game.core.scenario import load_scenario  # noqa: E402

    out = {}
    w = load_scenario(B.WORKED)
    out["worked"] = B.window_drag(w, "assault_squad", frames)
    out["20v10"] = B.window_drag(B.make_board(11, 20, 10), "mob", frames)
    h = load_scenario(B.RANKED)
    out["whfb8 horde"] = B.window_drag(h, h.units[0].id, frames)
    return out


def analyse_ms(root: Path, path: str, ruleset: str = "") -> float:
    cmd = [sys.executable, "main.py", "analyse", path, "--json"] + (["--ruleset", ruleset] if ruleset else [])
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - t0) * 1000


def q(ts: list[float]) -> tuple[float, float]:
    s = sorted(ts)
    return statistics.median(s), s[min(len(s) - 1, int(0.95 * len(s)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--before", default="")
    ap.add_argument("--frames-here", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.frames_here:
        print(json.dumps(frames_here(args.frames_here)))
        return 0
    trees = {"after": ROOT} | ({"before": Path(args.before).resolve()} if args.before else {})
    drag: dict = {t: {} for t in trees}
    wall: dict = {t: {"worked": [], "whfb8 horde": [], "wh40k horde": []} for t in trees}
    rounds = 2
    for _ in range(rounds):
        for name, root in trees.items():
            r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_wh40k_live.py"), "--frames-here",
                                str(args.frames // rounds)], cwd=root, capture_output=True, text=True, check=True)
            for k, v in json.loads(r.stdout.strip().splitlines()[-1]).items():
                drag[name].setdefault(k, []).extend(v)
    for _ in range(args.runs):
        for name, root in trees.items():
            wall[name]["worked"].append(analyse_ms(root, WORKED))
            wall[name]["whfb8 horde"].append(analyse_ms(root, HORDE))
            wall[name]["wh40k horde"].append(analyse_ms(root, HORDE, "wh40k"))
    print("drag frames, CPU ms per frame (median / p95), the real window headless, one run:")
    for name in trees:
        base = q(drag[name]["whfb8 horde"])[0]
        for k, ts in drag[name].items():
            m, p = q(ts)
            print(f"  {name:6} {k:12} median {m:6.1f}  p95 {p:6.1f}  ({len(ts)} frames; {m / base:4.1f}x whfb8)")
    print("whole-process analyse, wall ms (median of %d), one run:" % args.runs)
    for name in trees:
        base = statistics.median(wall[name]["whfb8 horde"])
        for k, ts in wall[name].items():
            m = statistics.median(ts)
            print(f"  {name:6} {k:12} median {m:7.0f}  ({m / base:4.2f}x whfb8 on the horde board)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
