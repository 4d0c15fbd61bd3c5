"""The live page's Python recomputes rank-and-file boards (whfb8, t9a, tow, tow_2024) with numpy,
scipy, Pillow, pygame and the rest refused, as in the browser: every bundled rank-and-file
scenario opens live, with the roles CPython's analysis gives, and a unit dragged there is
analysed again (no browser needed: the session in a subprocess)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANK_AND_FILE = ("whfb8", "t9a", "tow", "tow_2024")
BLOCKED = ("numpy", "scipy", "shapely", "pygame", "pymunk", "PIL", "fontTools", "reportlab", "pygame_gui", "tqdm",
           "ruamel", "platformdirs")
CODE = (
    "import sys, json\n"
    f"BLOCKED = {BLOCKED!r}\n"
    "class No:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in BLOCKED:\n"
    "            raise ImportError(name)\n"
    "sys.meta_path.insert(0, No())\n"
    "import game\n"
    "from game.live.session import start\n"
    "out = []\n"
    "for cfg in json.loads(sys.stdin.read()):\n"
    "    s = start(json.dumps(cfg))\n"
    "    first = json.loads(s.picture())\n"
    "    uid = s.board.units[0].id\n"
    "    s.begin(uid); s.drag(-14.0, 9.0, False)\n"
    "    dropped = json.loads(s.drop())\n"
    "    out.append({'first': [first['live'], first.get('roles'), first['why']],\n"
    "                'dropped': [dropped['live'], dropped.get('roles')], 'scenario': s.scenario()})\n"
    "print(json.dumps(out))\n"
)


def _ruleset(path: Path) -> str:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return str(data.get("ruleset", "")) if isinstance(data, dict) else ""


def _cases() -> list[tuple[Path, str]]:
    """Each bundled rank-and-file scenario under its own ruleset, the tow ones also under tow_2024."""
    out = []
    for p in sorted((ROOT / "assets" / "scenarios").glob("*.yaml")):
        rid = _ruleset(p)
        if rid in RANK_AND_FILE:
            out.append((p, rid))
            if rid == "tow":
                out.append((p, "tow_2024"))
    return out


def _roles(board) -> dict:
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset

    return {mid: r.role for mid, r in analyse(board, load_ruleset(board.ruleset)).models.items()}


def test_rank_and_file_boards_are_live_without_numpy():
    from game.core.scenario import load_scenario
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.live.bundle import page_chars
    from game.live.frame import first_frame
    from game.render.text_metrics import pil_font
    from game.render.font_table import build_table
    from game.render.glyphs import covered

    cases = _cases()
    assert {rid for _p, rid in cases} == set(RANK_AND_FILE)
    with tempfile.TemporaryDirectory() as d:
        cfgs, boards = [], []
        for n, (path, rid) in enumerate(cases):
            text = path.read_text(encoding="utf-8")
            if rid != _ruleset(path):
                text = text.replace(f"ruleset: {_ruleset(path)}", f"ruleset: {rid}", 1)
            scenario = os.path.join(d, f"s{n}.yaml")
            Path(scenario).write_text(text, encoding="utf-8")
            board = load_scenario(scenario)
            assert board.ruleset == rid
            frame = first_frame(board, analyse(board, load_ruleset(rid)))
            fonts = os.path.join(d, f"f{n}.json")
            Path(fonts).write_text(json.dumps(build_table(page_chars(text), pil_font, covered())), encoding="utf-8")
            cfgs.append({"scenario": scenario, "fonts": fonts, "size_px": list(frame.size_px),
                         "box_mm": list(frame.box_mm), "rulesets": [rid]})
            boards.append(board)
        r = subprocess.run([sys.executable, "-c", CODE], input=json.dumps(cfgs), cwd=ROOT, capture_output=True,
                           text=True, env=dict(os.environ, MELEE_PURE_PYTHON="1"))
        assert r.returncode == 0, r.stderr[-1500:]
        got = json.loads(r.stdout)
        for n, ((path, rid), board, g) in enumerate(zip(cases, boards, got)):
            live, roles, why = g["first"]
            assert live and why == "", (path.name, rid, why)
            assert roles == _roles(board), (path.name, rid)
            dragged = os.path.join(d, f"dragged{n}.yaml")
            Path(dragged).write_text(g["scenario"], encoding="utf-8")
            assert g["dropped"][0] and g["dropped"][1] == _roles(load_scenario(dragged)), (path.name, rid)
