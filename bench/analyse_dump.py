#!/usr/bin/env python3
"""The ``analyse --json`` bytes of every golden, conformance case and bundled scenario, dumped
before a change and compared after it.

    python bench/analyse_dump.py --dump OUT.json        # before the change
    python bench/analyse_dump.py --compare OUT.json     # after it: exit 1 when any case differs

Cases: every scenario under ``tests/golden``, ``assets/scenarios`` and
``/work/shared/conformance/cases`` (when present), each under its own ruleset and, when that
ruleset is a rank-and-file one, under ``t9a`` too (the gap search runs there). A case's value is
the sha256 of ``json.dumps(result.to_json(), indent=1, allow_nan=False)`` (what ``analyse
--json`` prints), or of the error. Nothing is timed.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import common  # noqa: F401,E402 (puts the measured tree on sys.path)
from game.core.analyse import analyse  # noqa: E402
from game.core.ruleset import load_ruleset  # noqa: E402
from game.core.scenario import load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path("/work/shared/conformance/cases")


def files() -> list[Path]:
    """Every scenario file the dump covers (sorted, per folder)."""
    out: list[Path] = []
    for d in (ROOT / "tests" / "golden", ROOT / "assets" / "scenarios", SHARED):
        if d.is_dir():
            out += sorted(d.rglob("*.yaml"))
    return out


def digests() -> dict[str, str]:
    """Case name (file relative to its folder's parent, ``|`` ruleset id) -> sha256 of the JSON."""
    out: dict[str, str] = {}
    for f in files():
        try:
            board = load_scenario(str(f))
        except Exception:  # noqa: BLE001 (not a scenario: a demo or a bad-input case)
            continue
        rids = [board.ruleset]
        if board.ruleset != "t9a" and load_ruleset(board.ruleset).strategy == load_ruleset("t9a").strategy:
            rids.append("t9a")
        for rid in rids:
            b = dataclasses.replace(load_scenario(str(f)), ruleset=rid)
            try:
                text = json.dumps(analyse(b, load_ruleset(rid)).to_json(), indent=1, allow_nan=False)
            except Exception as exc:  # noqa: BLE001 (an error is a result to compare too)
                text = f"ERROR {type(exc).__name__}: {exc}"
            name = f"{f.parent.name}/{f.name} | {rid}"
            out[name] = hashlib.sha256(text.encode()).hexdigest()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--dump")
    g.add_argument("--compare")
    a = ap.parse_args()
    got = digests()
    if a.dump:
        Path(a.dump).write_text(json.dumps(got, indent=1, sort_keys=True))
        print(f"{len(got)} cases dumped to {a.dump}")
        return 0
    old = json.loads(Path(a.compare).read_text())
    both = old.keys() & got.keys()
    diff = sorted(k for k in both if old[k] != got[k])
    print(f"{len(both) - len(diff)} of {len(both)} cases byte-identical ({len(old)} before, {len(got)} now)")
    for k in diff:
        print(f"  differs: {k}")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
