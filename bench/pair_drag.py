#!/usr/bin/env python3
"""The one-big-combat drag of ``bench_analysis.py`` on two trees, stepped frame by frame in
turn: robust to a loaded machine.

    python bench/pair_drag.py --before /work/before27 [--after .] [--ruleset tow] [--frames 100] [--replays 3]

Two worker processes (one per tree, ``BENCH_ROOT`` as in ``compare.py``) replay the same drag
(``big_combat(2000)``, the middle unit sliding along its enemies' front, a new position each
frame, every cache emptied before each replay); the driver asks them for one frame each in
turn (before, after, after, before, ...), so both see the same load from frame to frame, and
keeps each frame's smallest CPU time (``time.process_time``) over the replays. Prints each
tree's median, mean and 95th percentile of those, and the ratio of the medians. On this shared
2-core machine one ``compare.py`` run of ``bench_analysis.py`` swings by 30-60% between
rounds; these ratios repeat within a few per cent.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()


def worker(rid: str) -> None:
    """Read ``reset`` / ``step`` lines; answer ``ok`` / the frame's CPU ms."""
    import gc
    sys.path.insert(0, str(HERE.parent))
    from common import big_combat, rng  # (BENCH_ROOT: the tree measured)
    from game.core import lru
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    rs = load_ruleset(rid)
    s: dict = {}
    for line in sys.stdin:
        if line.strip() == "reset":
            lru.clear_all()
            b = big_combat(2000, ruleset=rid)
            s.update(board=b, r=rng(), index=len(b.units) // 2, x=0.0)
            analyse(b, rs)
            s["u0"] = b.units[s["index"]]
            gc.collect()
            print("ok", flush=True)
            continue
        r = s["r"]
        s["x"] = max(-30.0, min(30.0, s["x"] + r.uniform(-1.5, 1.5)))
        s["board"].units[s["index"]] = s["u0"].translated(s["x"], r.uniform(-0.3, 0.3))
        t = time.process_time()
        analyse(s["board"], rs)
        print((time.process_time() - t) * 1000, flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", default=str(HERE.parents[1]))
    ap.add_argument("--ruleset", default="tow")
    ap.add_argument("--frames", type=int, default=100)
    ap.add_argument("--replays", type=int, default=3)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a.ruleset)
        return 0
    roots = [Path(a.before).resolve(), Path(a.after).resolve()]
    ws = [subprocess.Popen([sys.executable, str(HERE), "--worker", "--before", "-", "--ruleset", a.ruleset],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root,
                           env={**os.environ, "BENCH_ROOT": str(root)}) for root in roots]

    def ask(w: subprocess.Popen, cmd: str) -> str:
        assert w.stdin is not None and w.stdout is not None
        w.stdin.write(cmd + "\n")
        w.stdin.flush()
        return w.stdout.readline().strip()

    best = [[float("inf")] * a.frames for _ in ws]
    for rep in range(a.replays):
        for w in ws:
            ask(w, "reset")
        for i in range(a.frames):
            for k in ((0, 1) if (i + rep) % 2 == 0 else (1, 0)):
                best[k][i] = min(best[k][i], float(ask(ws[k], "step")))
    for w in ws:
        assert w.stdin is not None
        w.stdin.close()
        w.wait()
    for name, root, b in zip(("before", "after"), roots, best):
        s = sorted(b)
        print(f"{name:6s} {root.name:10s} [{a.ruleset}] per-frame min of {a.replays}: median {statistics.median(s):.2f} ms, "
              f"mean {sum(s) / len(s):.2f}, p95 {s[int(len(s) * 0.95)]:.2f}")
    print(f"FIGURE paired drag one big combat of 2000 models [{a.ruleset}] after/before: "
          f"x{statistics.median(best[1]) / statistics.median(best[0]):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
