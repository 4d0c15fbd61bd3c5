"""Start-up imports only what it uses (issue 35, item 7).

Each test runs one whole command in a fresh interpreter (``main.py`` through ``runpy``) and
reads the modules it imported:

* the window's first frame on a whfb8 board (``--frames 1``, headless) imports no other rule
  system's engine (no other ruleset is loaded: the toolbar's compare list is made when it is
  opened), nor The Old World's policies, shapely or scipy;
* nor ``xml``, ``email``, ``http``, ``urllib.request`` (``xml.sax.saxutils`` pulls in all
  of them) or ``multiprocessing`` (the analysis worker's pipes, opened only for a big board),
  nor the figure export, the demo recorder's and player's modules or the book;
* a PNG figure (``render -o x.png``) imports neither ``xml`` and the rest nor the PDF back end,
  the book's modules or fontTools (its names are all in the ranges every font face has);
* a small ``analyse --json`` imports none of them either, nor ``difflib`` (only an error
  message's "did you mean" needs it).

Speed itself is measured in ``bench/bench_startup.py``, not here.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WHFB8 = ROOT / "assets" / "scenarios" / "whfb8_initiative.yaml"

#: what xml.sax.saxutils brings in (urllib.parse alone comes with pathlib: not listed)
WEB = ("xml", "email", "http", "urllib.request", "urllib.error", "urllib.response", "ssl", "socket")


def imported(args: list[str], tmp_path: Path) -> list[str]:
    """The modules ``main.py ARGS`` imported by the time it exited (status 0 asserted)."""
    code = ("import json, runpy, sys\n"
            f"sys.argv = ['main.py'] + {args!r}\n"
            "try:\n"
            f"    runpy.run_path({str(ROOT / 'main.py')!r}, run_name='__main__')\n"
            "except SystemExit as e:\n"
            "    assert not e.code, e.code\n"
            "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)))\n")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_DATA_HOME=str(tmp_path / "xdg"))
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    last = [ln for ln in out.stderr.splitlines() if ln.startswith("MODULES ")][-1]
    return json.loads(last[len("MODULES "):])


def under(mods: list[str], names: tuple[str, ...]) -> list[str]:
    """The modules of ``mods`` that are one of ``names`` or inside one of them."""
    return [m for m in mods if any(m == n or m.startswith(n + ".") for n in names)]


def board(tmp_path: Path) -> str:
    p = tmp_path / "small.yaml"
    shutil.copyfile(WHFB8, p)
    return str(p)


def test_a_whfb8_window_first_frame_imports_no_other_engine(tmp_path):
    mods = imported(["--frames", "1", board(tmp_path)], tmp_path)
    assert "game.window.app" in mods and "game.engines.rank_and_file.engine" in mods, "the window ran"
    others = under(mods, ("game.engines.engagement_range", "game.engines.combat_slots", "shapely", "scipy"))
    assert not others, others
    # nor The Old World's policies: no other ruleset is loaded (the compare list is made on opening)
    assert not under(mods, ("game.engines.rank_and_file.tow", "game.engines.rank_and_file.tow_rules"))


def test_a_whfb8_window_first_frame_imports_no_xml_urllib_email(tmp_path):
    mods = imported(["--frames", "1", board(tmp_path)], tmp_path)
    assert "game.window.app" in mods, "the window ran"
    bad = under(mods, WEB + ("multiprocessing", "reportlab", "game.render.pdf_canvas"))
    assert not bad, bad
    # nor what only a command of the window uses: the figure export, the demos (F6), the book
    later = under(mods, ("game.figures.figure_file", "game.window.export", "game.core.demo", "game.window.recorder",
                         "game.window.demo_play", "game.figures.book", "game.render.html_page"))
    assert not later, later


def test_a_png_figure_imports_no_xml_nor_the_pdf_back_end(tmp_path):
    out = tmp_path / "x.png"
    mods = imported(["render", board(tmp_path), "-o", str(out)], tmp_path)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = under(mods, WEB + ("reportlab", "game.render.pdf_canvas", "multiprocessing"))
    assert not bad, bad
    # nor the book (demos, tqdm), nor fontTools: every name is in the ranges every face has
    assert not under(mods, ("game.figures.book", "tqdm", "fontTools")), under(mods, ("game.figures.book", "tqdm", "fontTools"))


def test_a_small_analysis_imports_no_xml_urllib_email_nor_difflib(tmp_path):
    mods = imported(["analyse", board(tmp_path), "--json"], tmp_path)
    assert "game.engines.rank_and_file.engine" in mods, "the analysis ran"
    bad = under(mods, WEB + ("difflib", "multiprocessing", "game.engines.engagement_range", "shapely", "scipy"))
    assert not bad, bad
