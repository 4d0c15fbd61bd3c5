"""The rules engine inside the pinned Pyodide (Node, no browser): the wheels a live folder carries,
unpacked from local files, give ``analyse --json`` byte for byte as CPython does on every golden
and bundled scenario whose engine runs without numpy; the others fail only by a missing import
(the page then says so); and the page's picture of the opening board is the static figure."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.live_support import ROOT, RUNTIME, build, need_node

SCRIPT = ROOT / "tests" / "live" / "pyodide_analyse.mjs"
SCENARIOS = sorted((ROOT / "tests" / "golden").glob("*.yaml")) + sorted((ROOT / "assets" / "scenarios").glob("*.yaml"))


@pytest.fixture(scope="module")
def wheels(tmp_path_factory) -> Path:
    need_node()
    return build(ROOT / "assets" / "scenarios" / "slots_flank.yaml", tmp_path_factory.mktemp("live") / "page") / "wheels"


def _in_pyodide(wheels: Path, *args: str) -> dict:
    r = subprocess.run([need_node(), str(SCRIPT), str(RUNTIME), str(wheels), *args], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-1500:]
    return json.loads(r.stdout)


def _cpython(path: Path) -> str:
    import sys

    r = subprocess.run([sys.executable, "main.py", "analyse", str(path), "--json"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-600:]
    return r.stdout


def test_analyse_json_equals_cpython(wheels):
    got = _in_pyodide(wheels, *map(str, SCENARIOS))
    same, missing = [], []
    for path in SCENARIOS:
        out = got[str(path)]
        if isinstance(out, dict):  # an engine that needs a library the page lacks: that is the only way to fail
            assert out["error"].startswith("ImportError:"), (path.name, out)
            missing.append(path.name)
            continue
        assert out == _cpython(path), path.name
        same.append(path.name)
    assert any(n.startswith("slots") for n in same), same
    assert all(n.startswith("wh40k") for n in missing), missing  # rank-and-file and slots run without numpy
    print(f"\n{len(same)} scenarios byte-identical in Pyodide; not yet live (missing import): {len(missing)}")


def test_page_picture_is_the_static_figure(wheels, tmp_path):
    """The session's first picture, drawn in Pyodide with the font table, equals the SVG
    ``render -o x.svg`` writes, for a slots scenario."""
    scenario = ROOT / "assets" / "scenarios" / "slots_large_model.yaml"
    folder = build(scenario, tmp_path / "page")
    got = _in_pyodide(folder / "wheels", "--picture", str(folder))
    import sys

    svg = tmp_path / "x.svg"
    r = subprocess.run([sys.executable, "main.py", "render", str(scenario), "-o", str(svg)], cwd=ROOT, capture_output=True)
    assert r.returncode == 0, r.stderr[-600:]
    assert got["svg"] == svg.read_text(encoding="utf-8")
