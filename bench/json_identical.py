#!/usr/bin/env python3
"""Is the rank-and-file analysis the same, byte for byte, in two trees?

    python bench/json_identical.py --before /tmp/tree_before [--after .]

For every bundled scenario, golden and fixture (``assets/``, ``tests/``, ``/work/shared``'s
conformance cases when present) under every rank-and-file ruleset (its own and each of
``whfb8``, ``t9a``, ``tow``, ``tow_2024``), and for the benchmark tables (2000 models in separate
combats, also with their units shuffled, and in one big combat, a drag of 30 frames in the big combat), each tree runs
``analyse`` and writes ``json.dumps(result.to_json(), indent=1)`` (the bytes ``analyse --json``
prints); this script compares the two sets of bytes case by case and prints how many cases
match and which differ. Exit 1 when any differ. Nothing is timed.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULESETS = ("whfb8", "t9a", "tow", "tow_2024")


def digests(root: Path) -> dict[str, str]:
    """Case name -> sha256 of the JSON bytes (or the error), computed by ``root``'s code."""
    sys.path.insert(0, str(root))
    os.chdir(root)
    sys.path.insert(0, str(HERE))
    from common import big_combat, big_table, rng, with_unit
    import game
    assert Path(game.__file__).resolve().parent.parent == root, (game.__file__, root)
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.core.scenario import load_scenario

    out: dict[str, str] = {}

    def put(name: str, board, rid: str) -> None:
        try:
            text = json.dumps(analyse(board, load_ruleset(rid)).to_json(), indent=1, allow_nan=False)
        except Exception as exc:  # noqa: BLE001 (an error is a result to compare too)
            text = f"ERROR {type(exc).__name__}: {exc}"
        out[f"{name} | {rid}"] = hashlib.sha256(text.encode()).hexdigest()

    files = sorted(str(p.relative_to(root)) for d in ("assets", "tests") for p in (root / d).rglob("*.yaml"))
    shared = Path("/work/shared/conformance/cases")
    files += sorted(str(p) for p in shared.rglob("*.yaml")) if shared.is_dir() else []
    for f in files:
        try:
            board = load_scenario(f)
        except Exception:  # noqa: BLE001 (not a scenario: a demo, a ruleset, a bad-input case)
            continue
        # a file is named by its name and content (it may have moved between trees; copies are one case)
        name = f"{Path(f).name} [{hashlib.sha256(Path(f).read_bytes()).hexdigest()[:12]}]"
        for rid in sorted({board.ruleset, *RULESETS} & set(RULESETS)):
            b = dataclasses.replace(load_scenario(f), ruleset=rid)
            put(name, b, rid)
    for rid in RULESETS:
        put("bench table 2000", big_table(2000, ruleset=rid), rid)
        mixed = big_table(2000, ruleset=rid)  # the combats' units interleaved in the file
        units = list(mixed.units)
        rng().shuffle(units)
        mixed = dataclasses.replace(mixed, units=units)
        put("bench table 2000, units shuffled", mixed, rid)
        board = big_combat(2000, ruleset=rid)
        put("bench one big combat 2000", board, rid)
        r = rng()
        i = len(board.units) // 2
        u0 = board.units[i]
        x = 0.0
        for k in range(30):
            x = max(-30.0, min(30.0, x + r.uniform(-1.5, 1.5)))
            board = with_unit(board, u0.translated(x, r.uniform(-0.3, 0.3)))
            put(f"bench big combat drag frame {k}", board, rid)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before")
    ap.add_argument("--after", default=str(HERE.parent))
    ap.add_argument("--one", help=argparse.SUPPRESS)  # internal: print one tree's digests as JSON
    a = ap.parse_args()
    if a.one:
        json.dump(digests(Path(a.one).resolve()), sys.stdout)
        return 0
    if not a.before:
        ap.error("--before is required")
    got = {}
    for name, root in (("before", a.before), ("after", a.after)):
        p = subprocess.run([sys.executable, __file__, "--one", str(Path(root).resolve())], capture_output=True,
                           text=True, env={**os.environ, "SDL_VIDEODRIVER": "dummy", "BENCH_ROOT": str(Path(root).resolve())})
        if p.returncode:
            print(f"{name}: failed\n{p.stderr}", file=sys.stderr)
            return 2
        got[name] = json.loads(p.stdout)
    b, c = got["before"], got["after"]
    both = b.keys() & c.keys()
    diff = sorted(k for k in both if b[k] != c[k])
    print(f"{len(both) - len(diff)} of {len(both)} cases in both trees byte-identical "
          f"({len(b)} before, {len(c)} after; cases in one tree only, e.g. files added or moved, are not compared)")
    for k in diff:
        print(f"  differs: {k}")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
