"""A figure out: :func:`build_figure` (one panel, or the compare figure when ``spec.compare``),
:func:`render_figure` ``(board, analysis, spec) -> bytes``, :func:`write_figure` (format by
the output suffix, written atomically) and :func:`save_png` (the window's quick figure).

The drawing itself is :mod:`game.render.figure` (one panel) and
:mod:`game.figures.figure_compare` (two rulesets); this module sits above both: it analyses a
board handed without its analysis and looks up the ruleset's display name the title shows
(``FigureOptions.ruleset_name``), so the renderer loads and analyses nothing.
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Optional

from game.core.analyse import analyse
from game.core.analysis import Analysis
from game.core.atomic import write_atomic
from game.core.board import Board
from game.core.ruleset import load_ruleset, ruleset_name
from game.core.work import doing

from game.render.figure import (Figure, FigureError, FigureOptions, default_size, draw_figure, figure_box, png_bytes, right_legend_fits,
                                render_png_surface, svg_text, target_for)
from game.render.figure_fit import build_fitted, check_scene_legend
from game.render.glyphs import board_texts, glyph_problem
from game.render.insets import inset_figure
from game.render.figure_panels import Panel, PanelFigure, figure_layout, key_wanted, legend_fits
from game.render.options import LEGEND_SHARE, SceneOptions
from game.render.svg_canvas import SvgCanvas

from game.figures.figure_compare import build_compare


def legend_below(board: Board, analysis: Analysis, fo: FigureOptions, size: tuple[int, int]) -> Optional[PanelFigure]:
    """The one-panel figure a figure of ``size`` px is drawn as: with the caption key in the print
    style (:func:`game.render.figure_panels.key_wanted`), or the legend below in columns when asked
    for (``legend_at`` ``below``) or when its legend would not fit on the right within the legend
    share (``legend_at`` None, screen style); None: the legend sits on the right."""
    if not fo.legend or fo.legend_at == "right":
        return None
    key = key_wanted(fo)
    if not key and fo.legend_at is None and right_legend_fits(board, analysis, fo, size):
        return None
    figure_box(board, analysis, fo)
    title = fo.title if fo.title is not None else (board.title or "")
    pf = PanelFigure([Panel(board, analysis, marks=fo.marks)], title=title,
                     sentences=[f"Rules: {fo.ruleset_name or ruleset_name(analysis.ruleset or board.ruleset)}"])
    if fo.legend_at is None and not key:  # below only when it fits there within the share; else the right, widened
        lay = figure_layout(SvgCanvas(size[0], size[1]), pf, replace(fo, legend_at="below"))
        if not legend_fits(lay) or lay["legend_room"] > size[1] * LEGEND_SHARE + 0.5:
            return None
    return pf


def build_figure(board: Board, analysis: Optional[Analysis], spec: Optional[FigureOptions] = None) -> Figure:
    """Render ``board`` (analysed as ``analysis``; None: analysed under ``board.ruleset``) to
    a :class:`Figure`. With ``spec.compare`` the board is analysed under both rulesets.
    Raises :class:`FigureError` and ``RulesetError``."""
    fo = spec or FigureOptions()
    fo.validate()
    problem = glyph_problem(board_texts(board) + [("title", fo.title or ""), ("caption", fo.marks.caption or "")]
                            + [("note", t) for _, t in fo.marks.notes]
                            + [("mark's words", m.says) for m in fo.marks.points])
    if problem:
        raise FigureError(problem)
    svg = (fo.format or "png") == "svg"
    if fo.compare:
        return build_compare(board, fo, svg)
    if analysis is None:
        analysis = analyse(board, load_ruleset(board.ruleset))
    fo = named(fo, analysis.ruleset or board.ruleset)
    with doing("drawing the figure", "the table has too many models or labels to draw"):
        return _draw(board, analysis, fo, svg)


def named(fo: FigureOptions, ruleset_id: str) -> FigureOptions:
    """``fo`` with the display name of ruleset ``ruleset_id`` for the title bar (kept when the
    caller gave one)."""
    return fo if fo.ruleset_name else replace(fo, ruleset_name=ruleset_name(ruleset_id))


def _draw(board: Board, analysis: Analysis, fo: FigureOptions, svg: bool) -> Figure:
    """The figure of an analysed board (see :func:`build_figure`)."""
    size = fo.pixel_size() or default_size(board, fo, analysis)
    inset_fo = replace(fo, legend_at="key" if key_wanted(fo) else (fo.legend_at or "below"))
    pf = inset_figure(board, analysis, inset_fo, size)
    if pf is not None:  # combats far apart: each in its own panel, at one scale
        return build_fitted(pf, inset_fo)
    pf = legend_below(board, analysis, fo, size)
    if pf is not None:
        return build_fitted(pf, replace(fo, legend_at="key" if key_wanted(fo) else "below"))
    figure_box(board, analysis, fo)  # the extent check, for explicit sizes too
    check_scene_legend(board, analysis, fo, size)  # a print size: the legend panel whole, or refused
    if svg:
        text, errors = svg_text(board, analysis, fo, size)
        return Figure(text.encode("utf-8"), errors, size)
    if fo.format == "pdf":
        t = target_for("pdf", size, fo, title=board.title or "")
        _, errors = draw_figure(t.canvas, board, analysis, fo, k=t.k)
        return Figure(t.finish(), errors, size)
    surf, errors = render_png_surface(board, analysis, fo, size)
    return Figure(png_bytes(surf, fo.dpi), errors, size)


def render_figure(board: Board, analysis: Optional[Analysis] = None, spec: Optional[FigureOptions] = None) -> bytes:
    """The figure as PNG, SVG or PDF bytes (``spec.format``; see :func:`build_figure`)."""
    return build_figure(board, analysis, spec).data


def format_for(path: str | os.PathLike) -> str:
    """``svg`` for a ``.svg`` path, ``pdf`` for a ``.pdf``, else ``png``."""
    suffix = Path(path).suffix.lower()
    return {".svg": "svg", ".pdf": "pdf"}.get(suffix, "png")


def write_figure(board: Board, analysis: Optional[Analysis], out: str | os.PathLike, spec: Optional[FigureOptions] = None) -> list[str]:
    """Render and write ``out`` atomically (format from its suffix). Returns drawing errors.
    Raises :class:`FigureError`, ``RulesetError``, ``OSError``."""
    fo = replace(spec or FigureOptions(), format=format_for(out))
    fig = build_figure(board, analysis, fo)
    write_atomic(out, fig.data)
    return fig.errors


def save_png(board: Board, analysis: Optional[Analysis], path: str | os.PathLike, *, width: Optional[int] = None,
             height: Optional[int] = None, scale_px_per_mm: Optional[float] = None,
             options: Optional[SceneOptions] = None, supersample: int = 2) -> list[str]:
    """The window's quick figure: ``path`` (PNG) of ``width`` x ``height`` px, or sized from the
    units at ``scale_px_per_mm`` (1.4 px/mm default); ``options`` supplies legend and title.
    Same pipeline as :func:`write_figure`."""
    o = options or SceneOptions()
    fo = FigureOptions(size=f"{width}x{height}" if width and height else None, legend=o.legend, title=o.title,
                       scale_px_per_mm=scale_px_per_mm, supersample=supersample, counts=True, style="screen")
    return write_figure(board, analysis, path, fo)
