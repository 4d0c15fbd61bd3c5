"""Median CPU time (time.process_time) to render the whole bundled book (assets/book.yaml),
and wall time per figure.

    python bench/bench_render_book.py [--runs 5] [--book assets/book.yaml]

Prints numbers only; speed is never asserted in tests.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parents[1]).resolve()
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--book", default=str(ROOT / "assets" / "book.yaml"))
    args = ap.parse_args()
    from game.figures.book import render_book

    totals: list[float] = []
    per: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as d:
        render_book(args.book, d, progress=False)  # warm-up: imports, fonts, model caches
        for _ in range(args.runs):
            t0 = time.process_time()
            for name, dt, _ in render_book(args.book, d, progress=False):
                per.setdefault(name, []).append(dt)
            totals.append(time.process_time() - t0)
    print(f"FIGURE render-book ({len(per)} figures), CPU median of {args.runs} runs: {statistics.median(totals):.2f} s "
          f"(min {min(totals):.2f}, max {max(totals):.2f})")
    for name, ts in sorted(per.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"  {statistics.median(ts) * 1000:8.1f} ms  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
