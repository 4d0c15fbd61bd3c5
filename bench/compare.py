#!/usr/bin/env python3
"""Run one benchmark against two trees, interleaved, and print each figure side by side.

    python bench/compare.py --before /tmp/before25 [--rounds 2] bench_analysis.py --quick

The benchmark is this tree's script (``bench/<name>``), run with ``BENCH_ROOT`` set to each
tree in turn (before, after, before, after, ...) so both see the same machine load; every
``FIGURE`` line (and every line starting with ``whole book``) is collected and printed per
figure, before and after, round by round. Numbers only: nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(script: str, args: list[str], root: Path) -> list[str]:
    env = {**os.environ, "BENCH_ROOT": str(root), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run([sys.executable, str(HERE / script)] + args, cwd=root, env=env, capture_output=True,
                         text=True)
    if out.returncode:
        return [f"FIGURE (failed: {out.stderr.strip().splitlines()[-1] if out.stderr.strip() else out.returncode})"]
    return [ln.strip() for ln in out.stdout.splitlines() if ln.startswith("FIGURE") or ln.startswith("whole book")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="the tree measured as 'before' (a git worktree)")
    ap.add_argument("--after", default=str(HERE.parent), help="the tree measured as 'after' (default: this one)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("script")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    trees = {"before": Path(a.before).resolve(), "after": Path(a.after).resolve()}
    seen: dict[str, dict[str, list[str]]] = {}
    for k in range(a.rounds):
        for name, root in trees.items():
            for line in run(a.script, a.args, root):
                head, _, rest = line.partition(":")
                seen.setdefault(head, {}).setdefault(name, []).append(rest.strip())
            print(f"round {k + 1}: {name} done", file=sys.stderr)
    for head, by in seen.items():
        print(head)
        for name in trees:
            for i, v in enumerate(by.get(name, [])):
                print(f"  {name:6s} #{i + 1}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
