#!/usr/bin/env python3
"""Start-up of the command line as a user runs it: whole fresh processes, CPU medians.

    python bench/bench_startup.py [--runs 15] [--root TREE ...] [--only COMMAND ...] [--no-cache]

Each run starts, one after the other, these children of every tree given (``--root``, default
this checkout; give two to compare an old tree with this one, interleaved so both see the same
machine load):

* ``floor``: ``python -c "import numpy, yaml"`` (the interpreter and the two libraries every
  command needs);
* ``window whfb8``: ``python main.py --frames 1 FILE`` on the bundled
  ``whfb8_initiative.yaml`` (the window's first frame, headless: ``SDL_VIDEODRIVER=dummy``);
* ``window wh40k``: the same on the bundled ``wh40k_pile_in.yaml``;
* ``analyse``: ``python main.py analyse FILE --json`` on ``whfb8_initiative.yaml``;
* ``render png``: ``python main.py render FILE -o OUT.png`` on the same.

Every run's scenario is the bundled one shifted by a fresh random offset (a few mm, read and
written with PyYAML here, so the bench imports nothing of the tree it measures): no run replays
the previous one's file. Printed: per tree and command the median CPU time of the child
(``resource.getrusage(RUSAGE_CHILDREN)``, user + system, ms) and the wall median, and each
command's CPU median over the floor's.

Targets: the analyse CPU median at most 1.5x the floor's (issue 21); the window's first frame
at most the CPU it took at commit 01cb43e (issue 35).

Bytecode: numpy and yaml are installed with their ``.pyc`` files and a user's ``python
main.py`` caches ours the same way; this machine sets ``PYTHONDONTWRITEBYTECODE``, which would
make every run compile all of ``game/`` again. So the children run with the cache allowed,
kept in a temporary ``PYTHONPYCACHEPREFIX`` per tree (nothing written in a tree), warmed by a
first run that is not counted; ``--no-cache`` measures the compile-every-time case instead.
Each child gets a temporary ``XDG_DATA_HOME`` of its own (no recovery file of a user is read).

Noise: importing numpy starts OpenBLAS's thread pool, whose threads spin for a while and add
40-60 ms of CPU that depends on the machine's load, not on our code (the floor shows it: CPU
well above wall). ``OPENBLAS_NUM_THREADS=1 python bench/bench_startup.py ...`` measures without
it (CPU = wall); bench/results/i35_startup_after.txt has both.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE_ROOT = Path(__file__).resolve().parents[1]
WHFB8 = "assets/scenarios/whfb8_initiative.yaml"
WH40K = "assets/scenarios/wh40k_pile_in.yaml"


def timed(cmd: list[str], cwd: Path, env: dict) -> tuple[float, float]:
    """(wall ms, CPU ms) of one child process (a failing child raises CalledProcessError)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    wall = (time.perf_counter() - t) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ((after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)) * 1000
    return wall, cpu


def shifted_copy(src: Path, dst: Path, dx_mm: float, dy_mm: float) -> Path:
    """Write ``src`` (a scenario) to ``dst`` with every unit's ``front`` and every placed model
    moved by (dx_mm, dy_mm); the analysis does not change."""
    data = yaml.safe_load(src.read_text())
    for u in data["units"]:
        if "front" in u:
            u["front"] = [u["front"][0] + dx_mm, u["front"][1] + dy_mm]
        if isinstance(u.get("models"), list):
            u["models"] = [[m[0] + dx_mm, m[1] + dy_mm] + list(m[2:]) for m in u["models"]]
    dst.write_text(yaml.safe_dump(data, sort_keys=False))
    return dst


def commands(root: Path, d: Path, k: int, r: random.Random) -> dict[str, list[str]]:
    """The children of run ``k`` for ``root``, their scenarios written afresh in ``d``."""
    py, main = sys.executable, str(root / "main.py")
    dx, dy = r.uniform(-20, 20), r.uniform(-20, 20)
    w8 = shifted_copy(root / WHFB8, d / f"w8_{k}.yaml", dx, dy)
    w40 = shifted_copy(root / WH40K, d / f"w40_{k}.yaml", dx, dy)
    return {
        "floor": [py, "-c", "import numpy, yaml"],
        "window whfb8": [py, main, "--frames", "1", str(w8)],
        "window wh40k": [py, main, "--frames", "1", str(w40)],
        "analyse": [py, main, "analyse", str(w8), "--json"],
        "render png": [py, main, "render", str(w8), "-o", str(d / f"out_{k}.png")],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--root", action="append", help="a tree to measure (repeatable; default this checkout)")
    ap.add_argument("--only", action="append", help="measure only this command (repeatable: 'window whfb8'...)")
    ap.add_argument("--no-cache", action="store_true", help="children compile every module (no bytecode cache)")
    args = ap.parse_args()
    roots = [Path(p).resolve() for p in (args.root or [str(HERE_ROOT)])]
    r = random.Random(35)
    cpu: dict[tuple[Path, str], list[float]] = {}
    wall: dict[tuple[Path, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.runs + 1):
            for i, root in enumerate(roots):
                d = Path(tmp, f"t{i}")
                d.mkdir(exist_ok=True)
                env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                           XDG_DATA_HOME=str(d / f"xdg{k}"))
                if args.no_cache:
                    env["PYTHONDONTWRITEBYTECODE"] = "1"
                else:
                    env.pop("PYTHONDONTWRITEBYTECODE", None)
                    env["PYTHONPYCACHEPREFIX"] = str(d / "pycache")
                for name, cmd in commands(root, d, k, r).items():
                    if args.only and name != "floor" and name not in args.only:
                        continue
                    w, c = timed(cmd, root, env)
                    if k:  # the first run warms the file and bytecode caches
                        cpu.setdefault((root, name), []).append(c)
                        wall.setdefault((root, name), []).append(w)
    print(f"runs: {args.runs} per command, trees interleaved (CPU = getrusage of the child, user + system; "
          f"wall = time.perf_counter); bytecode cache: {'off' if args.no_cache else 'on'}")
    for root in roots:
        print(f"tree {root}")
        floor = statistics.median(cpu[(root, "floor")])
        for name in ("floor", "window whfb8", "window wh40k", "analyse", "render png"):
            if (root, name) not in cpu:
                continue
            c, w = statistics.median(cpu[(root, name)]), statistics.median(wall[(root, name)])
            print(f"  {name:14s} CPU median {c:7.1f} ms   wall median {w:7.1f} ms   CPU / floor {c / floor:5.2f}x")
    if len(roots) == 2:
        a, b = roots
        print(f"ratio of CPU medians, {b.name} / {a.name}:")
        for name in ("window whfb8", "window wh40k", "analyse", "render png"):
            if (a, name) not in cpu:
                continue
            ratio = statistics.median(cpu[(b, name)]) / statistics.median(cpu[(a, name)])
            print(f"  {name:14s} {ratio:5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
