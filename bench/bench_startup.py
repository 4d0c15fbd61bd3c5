#!/usr/bin/env python3
"""Start-up of the command line as a user runs it: whole processes, wall time.

    python bench/bench_startup.py [--runs 15]

Runs, alternately, ``python -c "import numpy, yaml"`` (the floor: the interpreter and the two
libraries every command needs) and ``python main.py analyse SMALL.yaml --json`` on a small
whfb8 board (two units of 10 models, written afresh and shifted for every run, so no run
replays the previous one's file), and prints the wall-clock medians, the CPU medians of the
children (``resource.getrusage``) and the ratio of the medians.

Target (issue 21): the analyse median is at most 1.5x the floor's. Wall time on a shared
machine is noisy: the two commands alternate so both see the same neighbours.

Bytecode: numpy and yaml are installed with their ``.pyc`` files, and a user's ``python
main.py`` caches ours the same way; this machine sets ``PYTHONDONTWRITEBYTECODE``, which would
make every run compile all of ``game/`` again. So the children run with the cache allowed,
kept in a temporary ``PYTHONPYCACHEPREFIX`` (nothing written in the tree), warmed by the first
pair; ``--no-cache`` measures the compile-every-time case as well.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT, big_table, rng, shifted

from game.core.scenario import save_scenario


def timed(cmd: list[str], env: dict) -> tuple[float, float]:
    """(wall ms, CPU ms) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = (time.perf_counter() - t) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ((after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)) * 1000
    return wall, cpu


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--no-cache", action="store_true", help="children compile every module (no bytecode cache)")
    args = ap.parse_args()
    r = rng(21)
    small = big_table(20, per_unit=10, files=5, ruleset="whfb8")
    floor: list[tuple[float, float]] = []
    cmd: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        if args.no_cache:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        else:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(d, "pycache"))
        for k in range(args.runs + 1):
            f = Path(d, f"small{k}.yaml")
            save_scenario(shifted(small, r.uniform(-50, 50), r.uniform(-50, 50)), f)
            a = timed([sys.executable, "-c", "import numpy, yaml"], env)
            b = timed([sys.executable, str(ROOT / "main.py"), "analyse", str(f), "--json"], env)
            if k:  # the first pair warms the file and bytecode caches
                floor.append(a)
                cmd.append(b)
    fw, fc = statistics.median(x for x, _ in floor), statistics.median(c for _, c in floor)
    cw, cc = statistics.median(x for x, _ in cmd), statistics.median(c for _, c in cmd)
    print(f"runs: {args.runs} pairs, alternating (wall = time.perf_counter, CPU = getrusage of the child); "
          f"bytecode cache: {'off' if args.no_cache else 'on'}")
    print(f"python -c 'import numpy, yaml'        wall median {fw:7.1f} ms   CPU median {fc:7.1f} ms")
    print(f"main.py analyse SMALL_whfb8 --json    wall median {cw:7.1f} ms   CPU median {cc:7.1f} ms")
    print(f"ratio (wall medians) {cw / fw:.2f}x   (CPU medians {cc / fc:.2f}x)   target <= 1.5x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
