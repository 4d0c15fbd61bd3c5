"""Overlapping bases are found (and only those)."""
from game.core.checks import overlapping_bases
from game.core.scenario import parse_scenario

TEXT = """ruleset: whfb8
units:
  - {id: a, player: 1, base: [20, 20], files: 5, models: 10, front: [600, 400], facing: 0}
  - {id: b, player: 2, base: [20, 20], files: 5, models: 10, front: [600, %s], facing: 180}
  - {id: c, player: 1, base: 32, models: [[100, 100], [120, 100], [200, 100]]}
"""


def test_touching_units_do_not_overlap():
    board = parse_scenario(TEXT % "400", "x.yaml")
    assert overlapping_bases(board) == [("c.m1", "c.m2", 12.0)]


def test_overlapping_units_are_reported_with_depth():
    board = parse_scenario(TEXT % "405", "x.yaml")
    pairs = overlapping_bases(board)
    ab = [p for p in pairs if p[0].startswith("a.")]
    assert len(ab) == 5 and all(p[2] == 5.0 for p in ab)
    assert ("a.r1f1", "b.r1f5", 5.0) in ab


def test_analyse_warns_on_stderr_and_still_prints_json(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    path = tmp_path / "ov.yaml"
    path.write_text(TEXT % "405")
    out = subprocess.run([sys.executable, "main.py", "analyse", str(path), "--json"],
                         cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0
    assert "warning:" in out.stderr and "bases overlap" in out.stderr
    assert json.loads(out.stdout)["ruleset"] == "whfb8"
