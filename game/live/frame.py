"""The live page's picture: the figure ``render -o x.svg`` draws, on a frame kept fixed while the
reader drags, so the table does not zoom under the hand.

:func:`first_frame` takes the figure's size (px) and table box (mm) from the opening board, as
:func:`game.figures.figure_file.build_figure` does; :func:`draw` draws any later board on that
frame with the same pipeline (the print style's one panel with its caption key), so the opening
board's drawing is byte for byte the static figure (``tests/test_live_frame.py``). Every model's
``<g>`` keeps its id (``model-<unit>.<slot>``) and role class.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Optional

from game.core.board import Board
from game.render.figure import FigureOptions, default_size, figure_box
from game.figures.figure_file import build_figure
from game.render.figure_panels import Panel, PanelFigure, build_panel_figure, panel_size
from game.render.html_page import hover_map
from game.render.marks import Marks
from game.core.ruleset import ruleset_name


@dataclass(frozen=True)
class Frame:
    """``size_px`` (width, height) of the SVG's viewBox and ``box_mm`` (x0, y0, x1, y1), the table
    shown; ``fo`` the figure options (the print style, SVG)."""

    size_px: tuple[int, int]
    box_mm: tuple[float, float, float, float]
    fo: FigureOptions


@dataclass
class Drawn:
    """One drawing: ``svg`` (the document text), ``hover`` ``{group id: [[line, bold], ...]}``,
    ``view`` ``(x0_px, y0_px, px_per_mm)``: table mm ``(x, y)`` is at ``(x0 + x * k, y0 + y * k)`` px."""

    svg: str
    hover: dict
    view: tuple[float, float, float]


def options(marks: Optional[dict] = None) -> FigureOptions:
    """The options of ``render FILE -o x.svg`` (every default), with a step's ``marks`` (see
    :func:`marks_of`) when given."""
    fo = FigureOptions(format="svg")
    if marks:
        fo.marks = marks_of(marks)
    return fo


def marks_of(marks: dict) -> Marks:
    """A step's teaching marks as JSON keeps them, ``{dim, highlight, fallen: [model id],
    notes: [[model id, text]]}``, as the figure's :class:`~game.render.marks.Marks` (no caption:
    the page's step bar carries the step's words)."""
    return Marks(dim=list(marks.get("dim") or ()), highlight=list(marks.get("highlight") or ()),
                 notes=[(str(m), str(t)) for m, t in marks.get("notes") or ()], fallen=list(marks.get("fallen") or ()))


def _panel_figure(board: Board, analysis: Any, fo: FigureOptions, box: Optional[tuple]) -> PanelFigure:
    title = fo.title if fo.title is not None else (board.title or "")
    rs = (analysis.ruleset if analysis is not None else None) or board.ruleset
    return PanelFigure([Panel(board, analysis, marks=fo.marks, box_mm=box)], title=title,
                       sentences=[f"Rules: {ruleset_name(rs)}"])


def first_frame(board: Board, analysis: Any, marks: Optional[dict] = None) -> Frame:
    """The frame of the static figure of ``board`` (its size and box as ``render`` picks them),
    with a step's ``marks`` (:func:`marks_of`) drawn on every picture of it."""
    fo = options(marks)
    box = figure_box(board, analysis, fo)
    size = panel_size(_panel_figure(board, analysis, fo, box), fo) if fo.legend else default_size(board, fo, analysis)
    return Frame((int(size[0]), int(size[1])), tuple(float(v) for v in box), fo)  # type: ignore[arg-type]


def static_svg(board: Board, analysis: Any, marks: Optional[dict] = None) -> str:
    """The figure ``render FILE -o x.svg`` writes (the page's first picture), with a step's
    ``marks`` (:func:`marks_of`)."""
    return build_figure(board, analysis, options(marks)).data.decode("utf-8")


def draw(board: Board, analysis: Any, frame: Frame) -> Drawn:
    """``board`` (analysed as ``analysis``) drawn on ``frame``, laid out once (the view is the
    one drawn). A px-sized figure is drawn as :func:`~game.render.figure_fit.build_fitted` draws
    it; its glyph check is left out, as the page's texts (the board's names, the rulesets') were
    all checked when the page was built (:func:`static_svg`) and the font table holds them."""
    w, h = frame.size_px
    fo = replace(frame.fo, size=f"{w}x{h}", legend_at="key")
    pf = _panel_figure(board, analysis, frame.fo, frame.box_mm)
    lay: dict = {}
    fig = build_panel_figure(pf, fo, layout=lay)
    v, scene = lay["views"][0], lay["scenes"][0]
    return Drawn(fig.data.decode("utf-8"), hover_map(board, analysis),
                 (scene[0] + v.offset_px[0], scene[1] + v.offset_px[1], v.scale))
