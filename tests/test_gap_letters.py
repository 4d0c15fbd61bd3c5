"""One meaning per letter (issue 40): the gap arrows of a figure are lettered once across it, in
reading order (seed 001: a, b, c in the left panel, then d, e); panels are then titled, not
lettered; a letter sits beside its arrow's shaft, off the bases where there is room."""
from __future__ import annotations

import re
from pathlib import Path

from figcheck import model_shapes, text_boxes

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.figures.book import load_book, panel_figure_of
from game.render.figure import FigureOptions
from game.figures.figure_file import legend_below
from game.render.figure_panels import draw_panels, figure_layout, panel_size
from game.render.svg_canvas import SvgCanvas

ROOT = Path(__file__).resolve().parents[1]


def _book_panels():
    _, figs = load_book(ROOT / "assets" / "book.yaml")
    fig = next(f for f in figs if f.panels and len(f.panels) == 3)
    return panel_figure_of(fig, {}), fig.options


def _drawn(pf, fo):
    c = SvgCanvas(*(fo.pixel_size() or panel_size(pf, fo)), record=True)
    subs: list = []
    draw_panels(c, pf, fo, record=subs)
    return c, subs


def test_arrows_lettered_once_across_the_figure_in_reading_order_and_panels_titled():
    pf, fo = _book_panels()
    c, subs = _drawn(pf, fo)
    letters = [[tag.split(":")[1] for tag, _ in text_boxes(s) if tag.startswith("gapletter:")] for s in subs]
    flat = [x for panel in letters for x in panel]
    assert flat == sorted(flat) and len(flat) == len(set(flat)) >= 3  # a, b, ... once each, panel after panel
    heads = figure_layout(SvgCanvas(c.width, c.height), pf, fo)["headers"]
    assert not any(re.match(r"^[a-z]\) ", h[0]) for h in heads if h)  # panels titled, not lettered


def test_letters_sit_beside_the_shaft_not_on_a_base_where_there_is_room():
    b = load_scenario(ROOT / "tests" / "golden" / "whfb8_rear_gap.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    fo = FigureOptions(size="120x80mm", dpi=150, crop=True)
    pf = legend_below(b, a, fo, fo.pixel_size())
    _, (sub,) = _drawn(pf, fo)
    from shapely.geometry import box

    shapes = model_shapes(sub)
    boxes = [bx for tag, bx in text_boxes(sub) if tag.startswith("gapletter:")]
    assert len(boxes) == 3
    for bx in boxes:
        covered = sum(s.intersection(box(*bx)).area for s in shapes.values())
        assert covered <= 0.1 * box(*bx).area, bx


def test_unit_tags_and_arrow_letters_never_share_a_letter():
    b = load_scenario(ROOT / "tests" / "golden" / "whfb8_rear_gap.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    fo = FigureOptions(size="120x80mm", dpi=150, crop=True, letters=True)
    pf = legend_below(b, a, fo, fo.pixel_size())
    _, (sub,) = _drawn(pf, fo)
    arrows = [tag.split(":")[1] for tag, _ in text_boxes(sub) if tag.startswith("gapletter:")]
    tags = [x.args[1].split(":")[0] for x in sub.calls if x.name == "text" and (x.get("tag") or "").startswith("label:")]
    assert tags == ["A", "B"] and len(arrows) == 3
    assert not {t.lower() for t in tags} & {x.lower() for x in arrows}, (tags, arrows)
