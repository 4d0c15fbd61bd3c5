"""Never cut, never squeeze (issue 40): a figure holds everything it shows at the size asked
(text at least 6 pt, nothing off the page, the picture at least a third of the page) or the
command refuses with exit 2 and one line naming what does not fit and the smallest size that
would; an optional block of the key left out for room is one warning line."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from game.core.scenario import load_scenario
from game.render.figure import FigureError, FigureOptions
from game.figures.figure_file import build_figure

ROOT = Path(__file__).resolve().parents[1]
FIGHT = "assets/scenarios/wh40k_fight_phase.yaml"


def _run(*args):
    return subprocess.run([sys.executable, str(ROOT / "main.py"), "render", *args], capture_output=True, text=True,
                          cwd=ROOT, env={"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin"}, timeout=120)


def test_a_tiny_size_is_refused_with_exit_2_naming_what_and_the_smallest_size(tmp_path):
    out = tmp_path / "f.png"
    r = _run("assets/scenarios/whfb8_rear_gap.yaml", "-o", str(out), "--size", "10x10mm", "--crop")
    assert r.returncode == 2 and not out.exists()
    line = r.stderr.strip()
    assert "\n" not in line and "does not fit 10x10mm" in line
    w, h = map(float, re.search(r"smallest size that holds it is (\d+)x(\d+)mm", line).groups())
    r2 = _run("assets/scenarios/whfb8_rear_gap.yaml", "-o", str(out), "--size", f"{w:g}x{h:g}mm", "--crop")
    assert r2.returncode == 0, r2.stderr  # the size named does hold it


def test_a_key_too_long_for_a_small_figure_is_refused_not_cut():
    b = load_scenario(ROOT / FIGHT)
    with pytest.raises(FigureError, match=r"the key does not fit 90x60mm.*smallest size that holds it is \d+x\d+mm"):
        build_figure(b, None, FigureOptions(size="90x60mm", crop=True, format="svg"))


def test_an_optional_block_left_out_for_room_is_said_in_one_line():
    b = load_scenario(ROOT / FIGHT)
    fig = build_figure(b, None, FigureOptions(size="180x120mm", crop=True, format="svg", sections=True))
    assert [e for e in fig.errors if e.startswith("left out of the key for room")], fig.errors
    text = fig.data.decode()
    assert "Fight sequence" not in text or "Strike order" not in text


def test_what_fits_at_the_asked_size_prints_every_text_at_6_pt_or_more():
    b = load_scenario(ROOT / "assets/scenarios/tow_round.yaml")
    svg = build_figure(b, None, FigureOptions(size="120x80mm", dpi=200, crop=True, format="svg")).data.decode()
    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
    assert sizes and min(sizes) * 72 / 200 >= 6.0


def test_a_legend_panel_cut_at_a_print_size_is_refused_too():
    b = load_scenario(ROOT / "tests/golden/whfb8_rear_gap.yaml")
    with pytest.raises(FigureError, match=r"the legend does not fit 90x60mm; the smallest size that holds it is \d+x\d+mm"):
        build_figure(b, None, FigureOptions(size="90x60mm", dpi=120, crop=True, style="screen", format="svg"))
    build_figure(b, None, FigureOptions(size="109x73mm", dpi=120, crop=True, style="screen", format="svg"))
