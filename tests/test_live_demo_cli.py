"""``python main.py live DEMO.yaml -o DIR``: a demo file gives a page of its steps (each step's
board written for the page's Python, each drawn in the page); a bad demo is one line naming file
and line (exit 2); ``-o`` a folder holding other files is refused (exit 2) and left untouched."""
from __future__ import annotations

import json
import subprocess
import sys

from game.core.demo import build_steps, load_demo
from game.core.scenario import load_scenario
from tests.live_support import ROOT, build, need_runtime

DEMO = ROOT / "assets" / "demos" / "tow_combat_round.yaml"


def _live(*args: str):
    return subprocess.run([sys.executable, "main.py", "live", *args], cwd=ROOT, capture_output=True, text=True)


def test_a_demo_gives_a_page_of_its_steps(tmp_path):
    need_runtime()
    import game  # noqa: F401 - engine discovery

    folder = build(DEMO, tmp_path / "page")
    built = build_steps(load_demo(DEMO))
    cfg = json.loads((folder / "live.json").read_text(encoding="utf-8"))
    assert cfg["demo"] and [s["caption"] for s in cfg["steps"]] == [st.caption for st in built]
    for entry, st in zip(cfg["steps"], built):
        b = load_scenario(folder / entry["scenario"])
        assert [(u.id, tuple(u.front), u.facing_deg, len(u.models())) for u in b.units] == \
               [(u.id, tuple(u.front), u.facing_deg, len(u.models())) for u in st.board.units]
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert page.count('"caption":') >= len(built) and 'id="stepbar"' in page


def test_a_bad_demo_is_one_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: x\nsteps:\n  - caption: a\n    actions:\n      - load: nowhere.yaml\n", encoding="utf-8")
    r = _live(str(bad), "-o", str(tmp_path / "page"))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "bad.yaml:5" in r.stderr, r.stderr


def test_a_folder_holding_other_files_is_refused(tmp_path):
    mine = tmp_path / "mine"
    (mine / "wheels").mkdir(parents=True)
    (mine / "wheels" / "keep.txt").write_text("mine", encoding="utf-8")
    r = _live(str(ROOT / "assets" / "scenarios" / "slots_flank.yaml"), "-o", str(mine))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "other files" in r.stderr, r.stderr
    assert (mine / "wheels" / "keep.txt").read_text(encoding="utf-8") == "mine"
