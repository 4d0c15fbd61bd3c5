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

Each for every ruleset (whfb8, t9a, tow and tow_2024 for rank-and-file: t9a's gap search stretches
every base of a skirmish unit; slots, wh40k); the boards over a ruleset's own lower limits are refused
at load. Then the ruleset limits themselves (``AT_LIMITS``): slots with 500 units (250
combats) and with two skirmish units of 5,000; wh40k with 100 units of 20 (2,000 models) and
with four skirmish units of 500 in two combats.

Commands: ``analyse --json``, ``render -o x.png`` and ``window`` (``main.py --frames 1 FILE``
under ``SDL_VIDEODRIVER=dummy``: the window's first frame, then exit). The budget is the
commands' default (30 s CPU, 3072 MB above start) unless ``--budget`` says otherwise (the
window has no budget argument). ``--root`` measures another tree (a "before" copy).
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


def _pairs(ruleset: str, n_pairs: int, rng: random.Random, cols: int = 25) -> str:
    """``n_pairs`` separate combats of two units of 20 (ranked 5 wide front to front, or
    skirmish 32 mm bases for wh40k), laid out on a grid of ``cols`` columns."""
    dx, dy = rng.uniform(0, 20), rng.uniform(0, 20)
    lines = [f"ruleset: {ruleset}\ntable: {{width: 10000, height: 10000}}\n"]
    if ruleset == "wh40k":
        lines.append("context: {step: pile_in, active_player: 1, charged: [" +
                     ", ".join(f"a{i}" for i in range(n_pairs)) + "]}\n")
    lines.append("units:\n")
    for i in range(n_pairs):
        col, row = i % cols, i // cols
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


def units_500(ruleset: str, rng: random.Random) -> str:
    """slots' unit limit: 500 units of 20 in 250 combats."""
    return _pairs(ruleset, 250, rng)


def units_100(ruleset: str, rng: random.Random) -> str:
    """wh40k's unit and model limits: 100 units of 20 (2,000 models) in 50 combats."""
    return _pairs(ruleset, 50, rng, cols=10)


def skirm_2x5k(ruleset: str, rng: random.Random) -> str:
    """slots' skirmish limit: two skirmish units of 5,000 front to front."""
    return _skirm(ruleset, rng, [(5000, 100, True), (5000, 100, False)])


def skirm_4x500(ruleset: str, rng: random.Random) -> str:
    """wh40k's unit-size and model limits: four skirmish units of 500 (2,000 models) in two combats."""
    return _skirm(ruleset, rng, [(500, 25, True), (500, 25, False), (500, 25, True), (500, 25, False)])


def _skirm(ruleset: str, rng: random.Random, units: list[tuple[int, int, bool]]) -> str:
    """Skirmish units ``(models, columns, facing down)`` side by side in pairs, each pair's
    front lines 0.5 mm apart (32 mm bases for wh40k, else 25 mm; 1 mm between bases)."""
    base = 32 if ruleset == "wh40k" else 25
    step = base + 1.0
    dx, dy = rng.uniform(0, 50), rng.uniform(0, 50)
    out = [f"ruleset: {ruleset}\ntable: {{width: 8000, height: 8000}}\n"]
    if ruleset == "wh40k":
        out.append("context: {step: pile_in, active_player: 1, charged: [" +
                   ", ".join(f"u{i}" for i, u in enumerate(units) if u[2]) + "]}\n")
    out.append("units:\n")
    for i, (n, cols, down) in enumerate(units):
        x0 = 500 + dx + (i // 2) * (cols * step + 100)
        y0 = 4000 + dy - (0 if down else base + 0.5)
        out.append(f"  - {{id: u{i}, player: {1 if down else 2}, base: {base}, "
                   f"profile: {{attacks: 1, initiative: {3 if down else 2}}}, models: {_grid(x0, y0, n, cols, step, down)}}}\n")
    return "".join(out)


BOARDS = {"ranked2x10k": ranked_2x10k, "skirm2x10k": skirm_2x10k, "units1000": units_1000}
RULESETS = ("whfb8", "t9a", "tow", "tow_2024", "slots", "wh40k")
#: boards at a ruleset's own (lower) limits: (name, ruleset, maker)
AT_LIMITS = [("units500", "slots", units_500), ("skirm2x5k", "slots", skirm_2x5k),
             ("units100", "wh40k", units_100), ("skirm4x500", "wh40k", skirm_4x500)]
COMMANDS = ("analyse", "render", "window")


def child(cmd: list[str], cwd: Path = ROOT, data: Path | None = None) -> tuple[int, float, float, str]:
    """(exit status, CPU seconds, peak RSS MB, last stderr line) of one child process, run in
    ``cwd`` (its own ``XDG_DATA_HOME`` under ``data`` when given: recovery files, recent list)."""
    wrapper = ("import resource,subprocess,sys;p=subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,"
               "stderr=subprocess.PIPE,text=True);r=resource.getrusage(resource.RUSAGE_CHILDREN);"
               "print(p.returncode, r.ru_utime+r.ru_stime, r.ru_maxrss);"
               "print((p.stderr.strip().splitlines() or [''])[-1][:200])")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    if data is not None:
        env["XDG_DATA_HOME"] = str(data)
    out = subprocess.run([sys.executable, "-c", wrapper] + cmd, cwd=cwd, capture_output=True, text=True, env=env)
    first, *rest = out.stdout.strip().splitlines()
    rc, cpu, rss = first.split()
    return int(rc), float(cpu), int(rss) / 1024, (rest[0] if rest else "")


def cases() -> list[tuple[str, str, object]]:
    """Every (board, ruleset, maker) measured: each board under each ruleset, then AT_LIMITS."""
    return [(b, rs, make) for b, make in BOARDS.items() for rs in RULESETS] + list(AT_LIMITS)


def command(cmd: str, main_py: str, f: Path, out: Path, budget: str) -> list[str]:
    """The child command line of ``cmd`` (analyse, render, window) on file ``f``."""
    if cmd == "window":
        return [sys.executable, main_py, "--frames", "1", str(f)]
    extra = ["--json"] if cmd == "analyse" else ["-o", str(out)]
    return [sys.executable, main_py, cmd, str(f), *extra, "--time-budget", budget]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="substring of NAME (board/ruleset/command) to run")
    ap.add_argument("--budget", default="30")
    ap.add_argument("--keep", default="", help="write the boards into this folder and keep them")
    ap.add_argument("--root", default=str(ROOT), help="the tree whose main.py runs (default: this one)")
    args = ap.parse_args()
    rng = random.Random()
    main_py = str(Path(args.root) / "main.py")
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(args.keep or tmp)
        d.mkdir(parents=True, exist_ok=True)
        for board, rs, make in cases():
            for cmd in COMMANDS:
                name = f"{board}/{rs}/{cmd}"
                if args.only and args.only not in name:
                    continue
                f = d / f"{board}_{rs}.yaml"
                f.write_text(make(rs, rng))  # type: ignore[operator]
                rc, cpu, mb, err = child(command(cmd, main_py, f, d / f"{board}_{rs}.png", args.budget),
                                         cwd=Path(args.root), data=d / "xdg")
                print(f"FIGURE {name}: exit {rc}, {cpu:.1f} s CPU, peak {mb:.0f} MB" + (f"  [{err}]" if rc else ""),
                      flush=True)


if __name__ == "__main__":
    main()
