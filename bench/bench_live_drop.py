#!/usr/bin/env python3
"""The live page's drop -> picture (the exact analysis and SVG on release) in the pinned Pyodide
under Node, per bundled scenario (every one but the 40k ones, whose engine needs shapely).

    python bench/bench_live_drop.py [--runs 15] [--only slots]

Builds each live folder (``game.live.bundle.build``) into a temporary folder, then runs
``bench/live_drop.mjs``: one Pyodide, each scenario's session started as the page starts it, and
``runs`` drops of a random unit by a fresh random offset (a new seed every run of the bench).
Prints the median and worst wall ms per scenario (the page is single-threaded: wall is what the
reader waits), or why the scenario is not live in the page. Needs ``npm ci`` and Node.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: F401,E402 (puts the measured tree on sys.path)
import game  # noqa: F401,E402 - engine discovery
from game.core.scenario import load_scenario  # noqa: E402
from game.live.bundle import build, runtime_dir  # noqa: E402

ROOT = common.ROOT


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--only", default="", help="scenario names containing this")
    args = ap.parse_args()
    node = shutil.which("node")
    if node is None:
        print("needs Node.js", file=sys.stderr)
        return 1
    names = [p for p in sorted((ROOT / "assets" / "scenarios").glob("*.yaml"))
             if not p.name.startswith("wh40k") and args.only in p.name]
    with tempfile.TemporaryDirectory(prefix="live-drop-") as tmp:
        folders = []
        for p in names:
            out = Path(tmp) / p.stem
            build(p, out, load_scenario(p))
            folders.append(str(out))
        r = subprocess.run([node, str(Path(__file__).with_name("live_drop.mjs")), str(runtime_dir()), str(args.runs),
                            str(random.SystemRandom().randrange(1 << 30)), *folders], capture_output=True, text=True)
        if r.returncode:
            print(r.stderr[-2000:], file=sys.stderr)
            return 1
        for line in r.stdout.splitlines():
            row = json.loads(line)
            name = Path(row["folder"]).name
            if row["live"]:
                print(f"{name:40s} drop->picture median {row['median_ms']:7.1f} ms  worst {row['max_ms']:7.1f} ms  ({row['runs']} drops)")
            else:
                print(f"{name:40s} not live: {row['why'][:90]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
