#!/usr/bin/env python3
"""The command line as a user runs it: whole processes, CPU time of the child
(resource.getrusage RUSAGE_CHILDREN) and its peak memory (ru_maxrss).

    python bench/bench_cli.py [--runs 5]

* ``main.py analyse FILE --json`` on a 2000-model scenario against the same command on a
  tiny (two-unit) scenario: the ratio is the cost of the table itself over start-up;
* ``main.py render FILE -o out.png`` on an 8000-model scenario: peak resident memory.

Targets (issue 14): analyse --json at 2000 models <= 1.3x a tiny file; render 8000 models <= 300 MB.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, big_table

from game.core.scenario import save_scenario


def child_run(cmd: list[str]) -> tuple[float, float]:
    """(CPU seconds, peak RSS MB) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # a fresh intermediate so ru_maxrss is this command's own peak, not an earlier child's
    wrapper = ("import resource,subprocess,sys;subprocess.run(sys.argv[1:],check=True,stdout=subprocess.DEVNULL);"
               "r=resource.getrusage(resource.RUSAGE_CHILDREN);print(r.ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", wrapper] + cmd, cwd=ROOT, check=True, capture_output=True, text=True,
                         env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return cpu, int(out.stdout.strip().splitlines()[-1]) / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    main_py = str(ROOT / "main.py")
    with tempfile.TemporaryDirectory() as d:
        tiny, big, huge = Path(d, "tiny.yaml"), Path(d, "big.yaml"), Path(d, "huge.yaml")
        save_scenario(big_table(20, per_unit=10, files=5), tiny)
        save_scenario(big_table(2000), big)
        save_scenario(big_table(8000), huge)
        times = {}
        for name, f in (("tiny", tiny), ("2000", big)):
            runs = [child_run([sys.executable, main_py, "analyse", str(f), "--json"])[0] for _ in range(args.runs)]
            times[name] = statistics.median(runs) * 1000
        print(f"FIGURE analyse --json whole process: 2000 models {times['2000']:.0f} ms CPU, tiny (20 models) "
              f"{times['tiny']:.0f} ms: x{times['2000'] / times['tiny']:.2f} (target <= 1.3)")
        cpu, mb = child_run([sys.executable, main_py, "render", str(huge), "-o", str(Path(d, "huge.png"))])
        print(f"FIGURE render 8000 models: peak {mb:.0f} MB resident, {cpu * 1000:.0f} ms CPU (target <= 300 MB)")


if __name__ == "__main__":
    main()
