"""The pure-Python array path (game.core.arrays): the same ``analyse --json`` bytes as numpy.

Runs the slots golden and bundled scenarios in a subprocess where numpy cannot be imported (a
``sys.meta_path`` finder refuses it) and compares with the numpy answer. rank_and_file still
imports numpy in gap_index and tow_gaps, so its cases run only with MELEE_PURE_PYTHON=1 (by
bench/pure_path_json.py), not yet with numpy blocked."""
from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BLOCK = (
    "import sys, runpy\n"
    "class _No:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in ('numpy', 'scipy'):\n"
    "            raise ImportError('numpy blocked')\n"
    "sys.meta_path.insert(0, _No())\n"
    "sys.argv = ['main.py'] + sys.argv[1:]\n"
    "runpy.run_path('main.py', run_name='__main__')\n"
)
CASES = [p for p in sorted((ROOT / "tests" / "golden").glob("*.yaml")) + sorted((ROOT / "assets" / "scenarios").glob("*.yaml"))
         if p.name.startswith("slots")][:8]


def _analyse(path: pathlib.Path, blocked: bool) -> bytes:
    cmd = [sys.executable, "-c", BLOCK] if blocked else [sys.executable, "main.py"]
    r = subprocess.run(cmd + ["analyse", str(path), "--json"], capture_output=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr.decode()[-400:]
    return r.stdout


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_same_json_without_numpy(path):
    assert _analyse(path, True) == _analyse(path, False)


def test_only_arrays_np_imports_numpy_in_core_and_slots():
    for folder in ("game/core", "game/engines/combat_slots"):
        for p in (ROOT / folder).glob("*.py"):
            if p.name != "arrays_np.py":
                assert "import numpy" not in p.read_text() and "scipy" not in p.read_text().replace("scipy's", ""), p
