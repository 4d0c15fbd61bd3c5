"""Multi-panel figures: lettered panels at one scale, aligned, one legend; compare figures
as two such panels with the rulesets' short names; book entries with panels."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from game.core.scenario import load_scenario
from game.render.figure import FigureOptions
from game.figures.figure_file import build_figure

ROOT = Path(__file__).resolve().parents[1]
BUILT_IN = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
SVG = "{http://www.w3.org/2000/svg}"
BAR = re.compile(r'^\d+" = [\d.]+ mm$')


def _texts(data: bytes) -> list[str]:
    return [t.text or "" for t in ET.fromstring(data).iter(f"{SVG}text")]


def test_compare_of_the_built_in_board_has_two_scale_bars_that_read_the_same():
    fo = FigureOptions(size="180x120mm", format="svg", compare=("whfb8", "tow"))
    data = build_figure(load_scenario(BUILT_IN), None, fo).data
    bars = [t for t in _texts(data) if BAR.match(t)]
    assert len(bars) == 2 and bars[0] == bars[1], bars
    texts = " ".join(_texts(data))
    assert "a) Warhammer Fantasy Battle, 8th edition" in texts and "b) Warhammer: The Old World" in texts
    assert "Warhammer Fantasy Battle, 8th edition" not in " ".join(t for t in _texts(data) if "under" in t)


def test_panels_share_one_scale_and_align(tmp_path):
    from game.figures.book import load_book, panel_figure_of
    from game.render.figure_panels import figure_layout
    from game.render.svg_canvas import SvgCanvas

    _, figs = load_book(ROOT / "assets" / "book.yaml")
    fig = next(f for f in figs if f.panels and len(f.panels) == 3)
    pf = panel_figure_of(fig)
    size = fig.options.pixel_size()
    lay = figure_layout(SvgCanvas(*size), pf, fig.options)
    assert len({round(v.scale, 9) for v in lay["views"]}) == 1  # one scale for every panel
    assert len({round(s[1], 6) for s in lay["scenes"]}) == 1    # a row: the pictures start level
    assert len({round(s[3], 6) for s in lay["scenes"]}) == 1
    # the scale is the largest at which every panel's box fits its picture
    from game.render.figure_panels import _fit_scale

    fits = [_fit_scale(b, s[2], s[3], 12 * fig.options.scale()) for b, s in zip(lay["boxes"], lay["scenes"])]
    assert lay["scale"] == pytest.approx(min(fits)) and max(fits) > min(fits)


def test_three_panel_book_entry_renders_lettered_with_verdicts(tmp_path):
    from game.figures.book import render_book

    out = tmp_path / "book"
    res = render_book(ROOT / "assets" / "book.yaml", out, progress=False,
                      only=lambda f: bool(f.panels) and len(f.panels) == 3)
    assert len(res) == 1 and res[0][2] == []
    png = out / res[0][0]
    assert png.read_bytes().startswith(b"\x89PNG")
    from game.figures.book import load_book, panel_figure_of
    from game.render.figure_panels import build_panel_figure
    from dataclasses import replace

    _, figs = load_book(ROOT / "assets" / "book.yaml")
    fig = next(f for f in figs if f.panels and len(f.panels) == 3)
    data = build_panel_figure(panel_figure_of(fig), replace(fig.options, format="svg")).data
    texts = _texts(data)
    root = ET.fromstring(data)
    heads = [next(g.iter(f"{SVG}text")).text for g in root.iter(f"{SVG}g") if g.get("class") == "panel-caption"]
    # the arrows carry the letters a-e across the figure: the panels are titled, not lettered (one meaning per letter)
    assert [p.caption.startswith(h) for h, p in zip(heads, fig.panels)] == [True] * 3  # (wrapped: the first line)
    assert not any(h[:3] in ("a) ", "b) ", "c) ") for h in heads)
    assert texts.count("legal") == 2 and texts.count("illegal") == 0  # the one blocked contact is crossed, not the panel
    assert root.find(f".//{SVG}g[@id='c-pointmark-0-cross']") is not None or b"pointmark" in data
    assert texts.count("Fights") == 1  # one caption key for the figure (print style)
    bars = [t for t in texts if BAR.match(t)]
    assert len(bars) == 3 and len(set(bars)) == 1


def test_merged_legend_lists_rows_once_and_letters_sections_that_differ():
    from game.render.figure_panels import merge_legends
    from game.render.legend import LegendItem as L

    a = [L("heading", "Legend"), L("row", "Fights (3)", swatch="role:attack"), L("row", "Player 1: Dwarfs", swatch="player:1"),
         L("heading", "Strike order"), L("para", "1. Agility 3: goblins (10)")]
    b = [L("heading", "Legend"), L("row", "Fights (5)", swatch="role:attack"), L("row", "Player 1: Elves", swatch="player:1"),
         L("heading", "Strike order"), L("para", "1. Agility 2: elves (4)")]
    out = merge_legends([a, b], ["a", "b"])
    rows = [x.text for x in out if x.kind == "row"]
    assert rows == ["Fights", "Player 1: Dwarfs, Elves"]
    paras = [x.text for x in out if x.kind == "para"]
    assert paras == ["a) 1. Agility 3: goblins (10)", "b) 1. Agility 2: elves (4)"]
    same = merge_legends([a, a], ["a", "b"])
    assert [x.text for x in same if x.kind == "para"] == ["1. Agility 3: goblins (10)"]


def test_legend_below_a_single_figure(tmp_path):
    fo = FigureOptions(size="180x120mm", format="svg", legend_at="below")
    data = build_figure(load_scenario(BUILT_IN), None, fo).data
    root = ET.fromstring(data)
    legend_y = [float(t.get("y")) for g in root.iter(f"{SVG}g") if g.get("class") == "legend" for t in g.iter(f"{SVG}text")]
    table_y = [float(t.get("y")) for g in root.iter(f"{SVG}g") if g.get("class") == "label" for t in g.iter(f"{SVG}text")]
    assert legend_y and table_y and min(legend_y) > max(table_y)  # the legend sits under the picture


def test_book_rejects_bad_panels(tmp_path):
    from game.figures.book import BookError, load_book

    book = tmp_path / "b.yaml"
    book.write_text("figures:\n  - output: x.png\n    panels:\n      - {scenario: a.yaml, verdict: maybe}\n")
    with pytest.raises(BookError) as e:
        load_book(book)
    assert "panels[0].verdict" in str(e.value) and ":4:" in str(e.value)
    book.write_text("figures:\n  - output: x.png\n    panels:\n      - {demo: d.yaml}\n")
    with pytest.raises(BookError) as e:
        load_book(book)
    assert "panels[0].step" in str(e.value)


def test_gap_arrows_run_along_the_engaged_facing_between_the_facing_edges():
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.render.drawn import drawn_models
    from game.render.gap_marks import arrows

    b = load_scenario(ROOT / "tests" / "golden" / "t9a_gap_in_front_rank.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    shapes = {dm.id: dm.shape for dm in drawn_models(b, a)}
    arr = arrows(b, a, shapes)
    assert arr
    for src, dst, s, e in arr:
        assert abs(s[0] - e[0]) < 1e-6  # the dwarfs face north: the arrow is vertical, not centre to centre
        sb, db = shapes[src].bbox(), shapes[dst].bbox()
        assert min(abs(s[1] - sb[1]), abs(s[1] - sb[3])) < 1e-6  # starts on its base's edge
        assert min(abs(e[1] - db[1]), abs(e[1] - db[3])) < 1e-6  # ends on the enemy's edge
        # and not through the middle of the front marker
        u = b.unit(src.split(".", 1)[0])
        assert abs(s[0] - u.front[0]) > min(u.base_w, u.base_d) * 0.13


def test_a_demo_step_panel_draws_the_step_board_its_callouts_and_lists_its_notes(tmp_path):
    """The ``demo:`` + ``step:`` panel kind, rendered: each panel is that step's board and
    analysis (step 7 of the t9a demo: a marker in the gap; step 8: the marker moved away, so
    the left file fights across the gap), the step's numbered callout drawn by its model and
    its note listed once, in the figure's legend (no caption band repeating it)."""
    from game.figures.book import load_book, panel_figure_of, write_panel_figure
    from game.render.figure_panels import draw_panels, panel_size
    from game.render.svg_canvas import SvgCanvas

    _, figs = load_book(ROOT / "assets" / "book.yaml")
    fig = next(f for f in figs if f.output == "panels/t9a_marker_in_the_gap_steps.png")
    assert [p.step for p in fig.panels] == [7, 8] and all(p.demo for p in fig.panels)
    pf = panel_figure_of(fig)
    left = {m for p in pf.panels[:1] for m, r in p.analysis.models.items() if r.attacks}
    right = {m for p in pf.panels[1:] for m, r in p.analysis.models.items() if r.attacks}
    assert "dwarfs.r1f1" not in left and "dwarfs.r1f1" in right  # the step's own analysis
    c = SvgCanvas(*(fig.options.pixel_size() or panel_size(pf, fig.options)), record=True)
    subs: list = []
    assert draw_panels(c, pf, fig.options, record=subs) == []
    callouts = [x for x in subs[0].calls if (x.get("tag") or "").startswith("callout:")]
    assert callouts and all(x.get("tag").endswith(":marker.m1") for x in callouts)
    texts = [x.args[1] for x in c.calls if x.name == "text"]
    assert "Notes:" in texts and any("Another unit in the gap" in t and t.startswith("left:") for t in texts)  # in the key
    assert not any("(1) Another unit in the gap" in t for t in texts)  # not repeated in a band
    out = tmp_path / "steps.png"
    assert write_panel_figure(fig, out) == []
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
