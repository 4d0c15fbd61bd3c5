#!/usr/bin/env python3
"""The documented limits (docs/SCENARIO_FORMAT.md, "Limits"), answered or refused: whole
``analyse --json`` and ``render`` processes on boards at the limits, CPU seconds of the child
(resource.getrusage RUSAGE_CHILDREN), its peak resident memory (ru_maxrss), exit status and
the last line it printed on stderr.

    python bench/bench_limits.py [--only NAME] [--budget 30] [--keep DIR]

Boards (new offsets on every run, so nothing is replayed from a cache):

* ``ranked2x10k``: two ranked units of 10,000 models (100 files), front to front;
* ``skirm2x10k``: two skirmish units of 10,000 models (100 x 100 grids), front to front;
* ``units1000``: 1,000 units of 20 models in 500 separate combats (ranked, or skirmish for wh40k).

Each for every strategy (whfb8 for rank-and-file, slots, wh40k). The budget is the commands'
default (30 s CPU, 3072 MB above start) unless ``--budget`` says otherwise.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ranked_2x10k(ruleset: str, rng: random.Random) -> str:
    dx, dy = rng.uniform(0, 50), rng.uniform(0, 50)
    return (f"ruleset: {ruleset}\ntable: {{width: 5000, height: 5000}}\nunits:\n"
            f"  - {{id: a, player: 1, base: [20, 20], files: 100, models: 10000, front: [{2500 + dx}, {2500 + dy}],"
            f" facing: 0, profile: {{attacks: 1, initiative: 3}}}}\n"
            f"  - {{id: b, player: 2, base: [20, 20], files: 100, models: 10000, front: [{2500 + dx}, {2500 + dy}],"
            f" facing: 180, profile: {{attacks: 1, initiative: 2}}}}\n")


def _grid(x0: float, y0: float, n: int, cols: int, step: float, down: bool) -> str:
    pts = []
    for j in range(n):
        r, c = divmod(j, cols)
        pts.append(f"[{x0 + c * step:.2f}, {y0 + (r if down else -r) * step:.2f}]")
    return "[" + ", ".join(pts) + "]"


def skirm_2x10k(ruleset: str, rng: random.Random) -> str:
    base = 32 if ruleset == "wh40k" else 25
    step = base + 1.0
    dx, dy = rng.uniform(0, 50), rng.uniform(0, 50)
    x0, y0 = 500 + dx, 4000 + dy
    gap = base + 0.5  # the two front lines 0.5 mm apart
    a = _grid(x0, y0, 10000, 100, step, down=True)
    b = _grid(x0, y0 - gap, 10000, 100, step, down=False)
    return (f"ruleset: {ruleset}\ntable: {{width: 8000, height: 8000}}\n"
            + ("context: {step: pile_in, active_player: 1, charged: [a]}\n" if ruleset == "wh40k" else "")
            + f"units:\n  - {{id: a, player: 1, base: {base}, profile: {{attacks: 1, initiative: 3}}, models: {a}}}\n"
            f"  - {{id: b, player: 2, base: {base}, profile: {{attacks: 1, initiative: 2}}, models: {b}}}\n")


def units_1000(ruleset: str, rng: random.Random) -> str:
    dx, dy = rng.uniform(0, 20), rng.uniform(0, 20)
    lines = [f"ruleset: {ruleset}\ntable: {{width: 10000, height: 10000}}\n"]
    if ruleset == "wh40k":
        lines.append("context: {step: pile_in, active_player: 1, charged: [" +
                     ", ".join(f"a{i}" for i in range(500)) + "]}\n")
    lines.append("units:\n")
    for i in range(500):
        col, row = i % 25, i // 25
        x, y = 200 + col * 380 + dx, 300 + row * 480 + dy
        if ruleset == "wh40k":
            lines.append(f"  - {{id: a{i}, player: 1, base: 32, profile: {{attacks: 1}}, "
                         f"models: {_grid(x, y + 33.5, 20, 5, 33, True)}}}\n")
            lines.append(f"  - {{id: b{i}, player: 2, base: 32, profile: {{attacks: 1}}, "
                         f"models: {_grid(x, y, 20, 5, 33, False)}}}\n")
        else:
            for side, facing in ((0, 0), (1, 180)):
                lines.append(f"  - {{id: {'ab'[side]}{i}, player: {side + 1}, base: [20, 20], files: 5, models: 20, "
                             f"front: [{x:.2f}, {y:.2f}], facing: {facing}, "
                             f"profile: {{attacks: 1, initiative: {3 - side}}}}}\n")
    return "".join(lines)


BOARDS = {"ranked2x10k": ranked_2x10k, "skirm2x10k": skirm_2x10k, "units1000": units_1000}
RULESETS = ("whfb8", "slots", "wh40k")


def child(cmd: list[str]) -> tuple[int, float, float, str]:
    """(exit status, CPU seconds, peak RSS MB, last stderr line) of one child process."""
    wrapper = ("import resource,subprocess,sys;p=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,"
               "stderr=subprocess.PIPE,text=True);r=resource.getrusage(resource.RUSAGE_CHILDREN);"
               "print(p.returncode, r.ru_utime+r.ru_stime, r.ru_maxrss);"
               "print((p.stderr.strip().splitlines() or [''])[-1][:200])")
    out = subprocess.run([sys.executable, "-c", wrapper] + cmd, cwd=ROOT, capture_output=True, text=True,
                         env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"))
    first, *rest = out.stdout.strip().splitlines()
    rc, cpu, rss = first.split()
    return int(rc), float(cpu), int(rss) / 1024, (rest[0] if rest else "")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="substring of NAME (board/ruleset/command) to run")
    ap.add_argument("--budget", default="30")
    ap.add_argument("--keep", default="", help="write the boards into this folder and keep them")
    args = ap.parse_args()
    rng = random.Random()
    main_py = str(ROOT / "main.py")
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(args.keep or tmp)
        d.mkdir(parents=True, exist_ok=True)
        for board, make in BOARDS.items():
            for rs in RULESETS:
                for cmd in ("analyse", "render"):
                    name = f"{board}/{rs}/{cmd}"
                    if args.only and args.only not in name:
                        continue
                    f = d / f"{board}_{rs}.yaml"
                    f.write_text(make(rs, rng))
                    extra = ["--json"] if cmd == "analyse" else ["-o", str(d / f"{board}_{rs}.png")]
                    rc, cpu, mb, err = child([sys.executable, main_py, cmd, str(f), *extra,
                                              "--time-budget", args.budget])
                    print(f"FIGURE {name}: exit {rc}, {cpu:.1f} s CPU, peak {mb:.0f} MB" + (f"  [{err}]" if rc else ""),
                          flush=True)


if __name__ == "__main__":
    main()
