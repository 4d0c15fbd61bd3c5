#!/usr/bin/env python3
"""Hostile inputs end clean: each file through ``analyse --json`` and ``render -o x.png`` in a
child process under ``prlimit --as=2147483648`` (2 GB of address space), with its wall time,
CPU time, exit status and last stderr line. Clean means: exit 0 (answered) or 2 (one line
naming the file; a budget that ran out says so), no traceback, within 15 s.

    python bench/hostile_inputs.py [--only NAME]

Inputs (written fresh into a temporary folder): a file over 8 MiB; a million-value file;
YAML nested 100,000 deep; an alias bomb ("billion laughs"); a 7 MB title; NaN and infinite
coordinates; 1,001 units; a t9a table of 201 units strewn over each other; models beyond the
limits per unit and per file; and the documented limits of every strategy
(:mod:`bench_limits`: t9a's two skirmish units of 10,000 bases among them), lowered ones included.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_limits as lim  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
UNIT = "  - {{id: u{i}, player: {p}, base: [20, 20], files: 5, models: 10, front: [{x}, {y}], facing: {f}}}\n"


def strewn_t9a(rng: random.Random, n: int = 201) -> str:
    out = ["ruleset: t9a\ntable: {width: 1200, height: 800}\nunits:\n"]
    for i in range(n):
        out.append(UNIT.format(i=i, p=1 + i % 2, x=round(rng.uniform(300, 900), 2), y=round(rng.uniform(200, 600), 2),
                               f=round(rng.uniform(0, 360), 1)))
    return "".join(out)


def inputs(rng: random.Random) -> dict[str, str | bytes]:
    two = ("ruleset: whfb8\nunits:\n" + UNIT.format(i=0, p=1, x=600, y=400, f=0) +
           UNIT.format(i=1, p=2, x=600, y=400, f=180))
    laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi")) + two
    out: dict[str, str | bytes] = {
        "over_8_MiB": two + "# " + "x" * (8 * 1024 * 1024) + "\n",
        "million_values": two + "notes: [" + ",".join("1" for _ in range(1_100_000)) + "]\n",
        "nested_100k": two + "notes: " + "[" * 100_000 + "]" * 100_000 + "\n",
        "alias_bomb": laughs,
        "title_7MB": 'title: "' + "w" * 7_000_000 + '"\n' + two,
        "nan_front": two.replace("front: [600, 400], facing: 0", "front: [.nan, 400], facing: 0"),
        "inf_facing": two.replace("facing: 180", "facing: .inf"),
        "units_1001": "ruleset: whfb8\ntable: {width: 10000, height: 10000}\nunits:\n" + "".join(
            UNIT.format(i=i, p=1 + i % 2, x=100 + (i % 40) * 200, y=100 + (i // 40) * 300, f=0) for i in range(1001)),
        "models_10001": "ruleset: whfb8\nunits:\n  - {id: a, player: 1, base: [20, 20], files: 100, models: 10001, "
                        "front: [600, 400], facing: 0}\n",
        "t9a_201_strewn": strewn_t9a(rng),
        "binary_junk": bytes(rng.randrange(256) for _ in range(100_000)),
    }
    for board, rs, make in lim.cases():  # t9a's skirmishers of 10,000 bases and each ruleset's own limits too
        out[f"limit_{board}_{rs}"] = make(rs, rng)  # type: ignore[operator]
    return out


def run(cmd: list[str]) -> tuple[int, float, float, str]:
    """(exit status, wall s, CPU s, last stderr line) of ``cmd`` under a 2 GB address-space cap."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(["prlimit", "--as=2147483648", "--", *cmd], cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"), timeout=300)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    err = p.stderr.strip().splitlines()
    last = "TRACEBACK " + err[-1] if "Traceback" in p.stderr else (err[-1] if err else "")
    return p.returncode, wall, cpu, last[:160]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    rng = random.Random()
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        for name, text in inputs(rng).items():
            if args.only and args.only not in name:
                continue
            f = Path(d, f"{name}.yaml")
            if isinstance(text, bytes):
                f.write_bytes(text)
            else:
                f.write_text(text)
            for cmd in ("analyse", "render"):
                extra = ["--json"] if cmd == "analyse" else ["-o", str(Path(d, f"{name}.png"))]
                rc, wall, cpu, last = run([sys.executable, str(ROOT / "main.py"), cmd, str(f), *extra])
                clean = rc in (0, 2) and not last.startswith("TRACEBACK") and wall <= 15.0
                bad += not clean
                print(f"FIGURE {name}/{cmd}: exit {rc}, {wall:.1f} s wall, {cpu:.1f} s CPU "
                      f"{'clean' if clean else 'NOT CLEAN'}" + (f"  [{last}]" if rc else ""), flush=True)
    print(f"FIGURE hostile inputs not clean: {bad}")


if __name__ == "__main__":
    main()
