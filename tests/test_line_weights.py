"""One line-weight scale (docs/FIGURES.md): every stroke of every figure of the bundled book and
of every marked demo step -- base outlines, frames, arrows, links, moves, dividing marks,
rings, crosses, legend swatches -- is one of the weights hair / thin / medium / bold or the
casing under one of them (``game.render.palette.lw``), as a length that scales with the dpi."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.palette import lw, stroke_units

ROOT = Path(__file__).resolve().parents[1]
DPI = 125  # one design unit = one px


def _strokes(canvas) -> list[tuple[str, str, float]]:
    """(tag, call, width px) of every stroke drawn (lines, arrows, outlines)."""
    out = []
    for c in canvas.calls:
        if c.name in ("line", "arrow"):
            w = c.args[2] if len(c.args) > 2 else c.get("width", 1 if c.name == "line" else 2)
        elif c.name in ("polygon", "circle") and c.get("outline") is not None:
            w = c.get("width", 1)
        else:
            continue
        out.append((c.get("tag") or "", c.name, float(w)))
    return out


def _off_scale(canvas, fs: float = 1.0) -> list[str]:
    ok = stroke_units()
    return sorted({f"{t.split(':')[0]} {n} {w / fs:.2f}" for t, n, w in _strokes(canvas)
                   if not any(abs(w / fs - x) < 1e-6 for x in ok)})


def _book():
    from game.figures.book import load_book

    _, figs = load_book(ROOT / "assets" / "book.yaml")
    return [pytest.param(f, id=f.output) for f in figs]


def _svg_off_scale(svg: str) -> list[str]:
    ok = stroke_units()
    ws = {float(w) for w in re.findall(r'stroke-width="([0-9.]+)"', svg)}
    return sorted(f"{w:.2f}" for w in ws if not any(abs(w - x) < 0.011 for x in ok))


@pytest.mark.parametrize("fig", _book())
def test_every_stroke_of_a_book_figure_is_on_the_line_weight_scale(fig):
    """Each figure as its SVG file (one px per design unit at 125 dpi), compare and
    multi-panel figures included."""
    from game.figures.book import panel_figure_of
    from game.figures.figure_file import build_figure
    from game.render.figure_panels import build_panel_figure

    fo = replace(fig.options, dpi=DPI, format="svg")
    assert fo.scale() == 1.0
    if fig.panels:
        data = build_panel_figure(panel_figure_of(fig), fo).data
    else:
        data = build_figure(load_scenario(fig.scenario), None, fo).data
    svg = data.decode("utf-8")
    assert "stroke-width" in svg
    assert _svg_off_scale(svg) == [], fig.output


def test_strokes_of_demo_steps_are_on_the_scale_too():
    """Rings, crosses, callouts and the caption band of marked steps."""
    from game.core.demo import build_steps, load_demo
    from game.render.demo_frames import step_marks
    from game.render.figure import FigureOptions, draw_figure
    from game.render.svg_canvas import SvgCanvas

    fo = FigureOptions(size="180x120mm", dpi=DPI)
    seen = 0
    for path in sorted((ROOT / "assets" / "demos").glob("*.yaml")):
        for st in build_steps(load_demo(path)):
            if not (st.marks.notes or st.marks.highlight or st.marks.fallen or st.marks.dim):
                continue
            c = SvgCanvas(*fo.pixel_size(), record=True)
            draw_figure(c, st.board, st.analysis, fo, marks=step_marks(st))
            assert _off_scale(c) == [], (path.name, st.caption)
            seen += 1
    assert seen >= 5


def test_the_scale_is_four_weights_and_their_casings():
    assert [lw(w) for w in ("hair", "thin", "medium", "bold")] == [0.8, 1.0, 2.0, 3.5]
    assert lw("medium", casing=True) == pytest.approx(3.6)
