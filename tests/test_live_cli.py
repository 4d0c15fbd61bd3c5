"""``python main.py live FILE -o DIR`` and ``serve DIR``: the folder (page, scenario, wheels, the
Pyodide runtime, fonts; at most 25 MB; no address outside the folder), the page's first picture
equal to ``render -o x.svg``, the project's wheel free of the window, and the server's address."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.request
import zipfile

from tests.live_support import ROOT, build, need_runtime

SLOTS = ROOT / "assets" / "scenarios" / "slots_large_model.yaml"


def test_live_folder(tmp_path):
    need_runtime()
    folder = build(SLOTS, tmp_path / "page")
    names = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    assert {"index.html", "scenario.yaml", "live.json", "fonts.json", "pyodide/pyodide.asm.wasm",
            "pyodide/python_stdlib.zip", "pyodide/pyodide.js"} <= names
    assert (folder / "scenario.yaml").read_bytes() == SLOTS.read_bytes()
    assert sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) <= 25 * 1024 * 1024
    page = (folder / "index.html").read_text(encoding="utf-8")
    svg = tmp_path / "x.svg"
    assert subprocess.run([sys.executable, "main.py", "render", str(SLOTS), "-o", str(svg)], cwd=ROOT).returncode == 0
    static = svg.read_text(encoding="utf-8")
    assert static[static.index("<svg"):] in page  # the first picture is the static figure, ids and layers kept
    assert 'id="model-' in page and "inkscape:groupmode" in page
    # nothing fetched from elsewhere: every src/href/url is a path inside the folder
    refs = re.findall(r'(?:src|href)="([^"]+)"|url\(([^)]+)\)', page)
    assert all(not re.match(r"[a-z]+:", a or b) or (a or b).startswith("http://www.w3.org") for a, b in refs), refs
    wheels = sorted((folder / "wheels").glob("*.whl"))
    assert [w.name.split("-")[0] for w in wheels] == ["PyYAML", "melee_lens"]
    inside = zipfile.ZipFile(wheels[1]).namelist()
    assert "game/live/session.py" in inside and "game/_data/rulesets/slots.yaml" in inside
    assert not [n for n in inside if n.startswith(("game/window/", "game/physics/", "game/cli/"))]


def test_live_without_the_runtime_says_what_to_run(tmp_path):
    env = dict(os.environ, MELEE_PYODIDE_DIR=str(tmp_path / "none"))
    r = subprocess.run([sys.executable, "main.py", "live", str(SLOTS), "-o", str(tmp_path / "page")], cwd=ROOT,
                       capture_output=True, text=True, env=env)
    assert r.returncode == 1 and "npm ci" in r.stderr and r.stderr.count("\n") == 1


def test_serve_prints_the_address_and_serves_the_folder(tmp_path):
    (tmp_path / "index.html").write_text("<!DOCTYPE html><p>hello</p>", encoding="utf-8")
    (tmp_path / "x.wasm").write_bytes(b"\0asm")
    p = subprocess.Popen([sys.executable, "main.py", "serve", str(tmp_path), "--port", "0"], cwd=ROOT,
                         stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None
        line = p.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, line
        with urllib.request.urlopen(url.group(0), timeout=30) as r:
            assert b"hello" in r.read()
        with urllib.request.urlopen(url.group(0) + "x.wasm", timeout=30) as r:
            assert r.headers["Content-Type"] == "application/wasm"
    finally:
        p.terminate()
        p.wait(timeout=30)


def test_serve_refuses_a_folder_without_a_page(tmp_path):
    r = subprocess.run([sys.executable, "main.py", "serve", str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and "index.html" in r.stderr


def test_the_page_imports_nothing_it_cannot_load():
    """The page's Python (the session, the rules core, the slots engine, the SVG drawing) runs with
    numpy, Pillow, pygame, pymunk, fontTools and the rest refused, text measured from the table."""
    code = (
        "import sys\n"
        "class No:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('numpy', 'scipy', 'shapely', 'pygame', 'pymunk', 'PIL', 'fontTools',\n"
        "                                  'reportlab', 'pygame_gui', 'tqdm', 'ruamel', 'platformdirs'):\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, No())\n"
        "import json, game\n"
        "from game.live.session import start\n"
        "s = start(sys.argv[1])\n"
        "print(json.loads(s.picture())['svg'])\n"
    )
    from game.render.text_metrics import pil_font
    from game.render.font_table import build_table
    from game.render.glyphs import covered
    import json
    import tempfile

    from game.core.scenario import load_scenario
    from game.live.bundle import page_chars
    from game.live.frame import first_frame, static_svg
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset

    board = load_scenario(SLOTS)
    an = analyse(board, load_ruleset(board.ruleset))
    frame = first_frame(board, an)
    with tempfile.TemporaryDirectory() as d:
        fonts = os.path.join(d, "fonts.json")
        with open(fonts, "w", encoding="utf-8") as f:
            json.dump(build_table(page_chars(SLOTS.read_text(encoding="utf-8")), pil_font, covered()), f)
        cfg = json.dumps({"scenario": str(SLOTS), "fonts": fonts, "size_px": list(frame.size_px),
                          "box_mm": list(frame.box_mm), "rulesets": ["slots"]})
        r = subprocess.run([sys.executable, "-c", code, cfg], cwd=ROOT, capture_output=True, text=True,
                           env=dict(os.environ, MELEE_PURE_PYTHON="1"))
    assert r.returncode == 0, r.stderr[-1500:]
    assert r.stdout == static_svg(board, an) + "\n"
