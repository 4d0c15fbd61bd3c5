"""Unit labels of print figures sit by their own unit: every bundled scenario and every book
figure, rendered as SVG at 180x120 mm cropped (the book at its own sizes), has each unit label
nearer its own unit's models than any other unit's, and no label over the scale bar
(tests/labelcheck.py reads the SVG's ids)."""
from __future__ import annotations

from pathlib import Path

import pytest
from labelcheck import label_problems

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "assets" / "scenarios").glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_each_label_of_a_bundled_scenario_is_nearest_its_own_unit(tmp_path, monkeypatch, path):
    from game.core.scenario import load_scenario
    from game.render.figure import FigureOptions
    from game.figures.figure_file import write_figure

    monkeypatch.chdir(ROOT)
    out = tmp_path / f"{path.stem}.svg"
    write_figure(load_scenario(path), None, out, FigureOptions(size="180x120mm", dpi=200, crop=True))
    assert label_problems(out) == []


def test_each_label_of_every_book_figure_is_nearest_its_own_unit(tmp_path, monkeypatch):
    from test_book_print_ready import _svg_book

    from game.figures.book import render_book

    monkeypatch.chdir(ROOT)
    out = tmp_path / "out"
    render_book(_svg_book(tmp_path), out, progress=False)
    svgs = sorted(out.rglob("*.svg"))
    assert len(svgs) > 60
    failing = {str(p.relative_to(out)): pr for p in svgs for pr in [label_problems(p)] if pr}
    assert failing == {}


def test_the_check_sees_a_label_by_the_wrong_unit_and_one_over_the_scale_bar(tmp_path):
    svg = tmp_path / "f.svg"
    svg.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100">'
        '<g id="scale_bar"><polyline points="0,90 50,90"/><polygon points="55,85 80,85 80,95 55,95"/></g>'
        '<g id="model-a.1"><polygon points="0,0 10,0 10,10 0,10"/></g>'
        '<g id="model-b.1"><polygon points="100,0 110,0 110,10 100,10"/></g>'
        '<g id="label-a"><polygon points="85,0 95,0 95,10 85,10"/><text>A</text></g>'
        '<g id="label-b"><polygon points="60,80 110,80 110,88 60,88"/><text>B</text></g></svg>')
    pr = label_problems(svg)
    assert any("label of a nearer b" in p for p in pr)
    assert any("label of b over the scale bar" in p for p in pr)
