"""Compact legends: no legend of a bundled book figure takes more than the legend share
(``LEGEND_SHARE`` of the figure's width on the right, of its height below); a legend too long
for the right goes below in columns; explanation lines that say the same of several units are
merged; every line of it is drawn inside the figure."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.drawers import LegendItem
from game.render.options import LEGEND_SHARE

ROOT = Path(__file__).resolve().parents[1]


def _drawn(fig):
    """The recorded canvas of a book figure as the pipeline draws it, and where its legend sits."""
    from game.figures.book import panel_figure_of
    from game.render.figure import draw_figure
    from game.figures.figure_compare import compare_panels
    from game.figures.figure_file import legend_below
    from game.render.figure_panels import draw_panels, key_wanted, panel_size
    from game.render.svg_canvas import SvgCanvas

    fo = fig.options
    if fig.panels:
        pf = panel_figure_of(fig)
    elif fo.compare:
        if fo.compare_mode == "overlay":
            return None, None
        pf = compare_panels(load_scenario(fig.scenario), fo)
    else:
        b = load_scenario(fig.scenario)
        a = analyse(b, load_ruleset(b.ruleset))
        size = fo.pixel_size()
        pf = legend_below(b, a, fo, size)
        if pf is None:
            c = SvgCanvas(*size, record=True)
            draw_figure(c, b, a, fo)
            return c, "right"
        fo = replace(fo, legend_at="key" if key_wanted(fo) else "below")  # as figure_file._draw draws it
    c = SvgCanvas(*(fo.pixel_size() or panel_size(pf, fo)), record=True)
    draw_panels(c, pf, fo)
    return c, None


def _book():
    from game.figures.book import load_book

    _, figs = load_book(ROOT / "assets" / "book.yaml")
    return [pytest.param(f, id=f.output) for f in figs if f.options.legend and f.options.pixel_size()]


@pytest.mark.parametrize("fig", _book())
def test_no_legend_takes_more_than_its_share_of_the_figure(fig):
    from figcheck import text_boxes

    c, _ = _drawn(fig)
    if c is None:
        return
    W, H = c.width, c.height
    boxes = [b for t, b in text_boxes(c) if t == "legend"]
    for x in c.calls:
        if x.get("tag") == "legend" and x.name == "polygon":
            xs, ys = [p[0] for p in x.args[0]], [p[1] for p in x.args[0]]
            boxes.append((min(xs), min(ys), max(xs), max(ys)))
    assert boxes, fig.output
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    assert x0 >= -0.5 and y0 >= -0.5 and x1 <= W + 0.5 and y1 <= H + 0.5, (fig.output, "a legend line is cut")
    right = x0 > W * 0.5  # on the right: its share of the width; below: of the height
    share = (x1 - x0) / W if right else (y1 - y0) / H
    assert share <= LEGEND_SHARE + 0.01, (fig.output, round(share, 3))


def test_a_legend_too_long_for_the_right_goes_below():
    from game.figures.book import load_book

    _, figs = load_book(ROOT / "assets" / "book.yaml")
    fig = next(f for f in figs if f.output == "golden/tow_martial_prowess_flank.png")
    c, place = _drawn(fig)
    assert place is None  # below (the panel layout), not the right-hand panel
    legend_y = [b[1] for t, b in __import__("figcheck").text_boxes(c) if t == "legend"]
    assert min(legend_y) > c.height * (1 - LEGEND_SHARE) - 1


def test_explanations_that_say_the_same_of_several_units_are_merged():
    from game.render.legend import compact

    items = [LegendItem("para", "1. Initiative 6: a (5)"), LegendItem("para", "2. Initiative 6: a (5)"),
             LegendItem("para", "a: I6 (+4 for charging; Charging Units)", dim=True),
             LegendItem("para", "b: I6 (+4 for charging; Charging Units)", dim=True),
             LegendItem("para", "c: I5 (Strike First)", dim=True)]
    out = compact(items)
    assert [i.text for i in out] == ["1. Initiative 6: a (5)", "2. Initiative 6: a (5)",
                                     "a, b: I6 (+4 for charging; Charging Units)", "c: I5 (Strike First)"]
