"""Write ``analyse --json`` of every bundled, golden, fixture and conformance scenario to a folder.

Usage: python bench/pure_path_json.py OUT_DIR [--pure]   (``--pure``: MELEE_PURE_PYTHON=1)
Scenarios whose ruleset is wh40k are skipped (that engine keeps numpy). Then compare two
folders with ``diff -r``: the numpy and pure-Python paths must give the same bytes."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIRS = [ROOT / "assets" / "scenarios", ROOT / "tests" / "golden", ROOT / "tests" / "fixtures",
        pathlib.Path("/work/shared/conformance/cases")]


def scenarios() -> list[pathlib.Path]:
    """Every scenario file (.yaml) under the folders, wh40k ones left out."""
    out = []
    for d in DIRS:
        for p in sorted(d.rglob("*.yaml")) if d.is_dir() else []:
            text = p.read_text(errors="replace")
            if "wh40k" in text or "ruleset" not in text:
                continue
            out.append(p)
    return out


def main() -> None:
    out_dir = pathlib.Path(sys.argv[1])
    out_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    if "--pure" in sys.argv:
        env["MELEE_PURE_PYTHON"] = "1"
    for p in scenarios():
        r = subprocess.run([sys.executable, str(ROOT / "main.py"), "analyse", str(p), "--json"],
                           capture_output=True, env=env, cwd=ROOT)
        name = "_".join(p.relative_to(p.anchor).parts[-3:])
        (out_dir / (name + ".json")).write_bytes(r.stdout + b"\n--rc %d\n" % r.returncode)


if __name__ == "__main__":
    main()
