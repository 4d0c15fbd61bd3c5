"""Exporting what the window shows as a PNG, SVG or PDF figure, through the figure pipeline of
``render``: :func:`game.render.figure.render_figure` (``board, analysis, spec -> bytes``) for
the whole board or the engaged units, and its drawing routine
(:func:`game.render.figure.draw_figure`) fitted to the part of the table on screen."""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional

from game.core.atomic import refuse_link, write_atomic
from game.core.board import Board

from game.render.figure import FigureError, FigureOptions, default_size, draw_figure, png_bytes, render_png_surface, \
    svg_canvas, target_for
from game.figures.figure_file import format_for, named, render_figure
from game.render.figure_fit import build_fitted
from game.render.figure_panels import Panel, PanelFigure, key_wanted
from game.render.marks import Marks


def figure_bytes(board: Board, analysis: Any, fo: FigureOptions, *, box_mm: Optional[tuple] = None,
                 caption: str = "") -> bytes:
    """The figure of ``board`` / ``analysis`` as PNG, SVG or PDF bytes (``fo.format``), in
    ``fo.style`` (print, unless the user picked screen), fitted to
    ``box_mm`` (x0, y0, x1, y1 mm; None: as ``render`` fits it), with ``caption`` as the
    caption band. A print size (mm) in the print style carries the caption key and is refused
    (FigureError naming what does not fit and the smallest size that would: the Export dialog
    shows it) rather than cut. Raises FigureError for bad options."""
    fo = replace(fo, marks=Marks(caption=caption) if caption else fo.marks)
    fo = named(fo, (analysis.ruleset if analysis is not None else None) or board.ruleset)
    if box_mm is None:
        return render_figure(board, analysis, fo)
    if key_wanted(fo) and fo.svg_size_attrs() is not None:  # a print size: the caption key, the fit check
        title = fo.title if fo.title is not None else (board.title or "")
        pf = PanelFigure([Panel(board, analysis, marks=fo.marks, box_mm=tuple(box_mm))], title=title,
                         sentences=[f"Rules: {fo.ruleset_name}"])
        return build_fitted(pf, replace(fo, legend_at="key")).data
    size = fo.pixel_size() or default_size(board, fo, analysis)
    if fo.format == "svg":
        c = svg_canvas(board, analysis, fo, size)
        draw_figure(c, board, analysis, fo, box_mm=box_mm)
        return c.to_svg(title=fo.title or board.title or "").encode("utf-8")
    if fo.format == "pdf":
        t = target_for("pdf", size, fo, title=fo.title or board.title or "")
        draw_figure(t.canvas, board, analysis, fo, box_mm=box_mm, k=t.k)
        return bytes(t.finish())
    surf, _ = render_png_surface(board, analysis, fo, size, box_mm=box_mm)
    return png_bytes(surf, fo.dpi)


def export_view(board: Board, analysis: Any, fo: FigureOptions, out: str | os.PathLike, *,
                box_mm: Optional[tuple] = None, caption: str = "") -> Path:
    """Write the figure to ``out`` atomically (``.svg``: SVG, ``.pdf``: PDF, else PNG); returns the path.
    Raises FigureError (also for a link onto an existing file: :func:`refuse_link`), OSError."""
    out = Path(out)
    try:
        refuse_link(out)
    except ValueError as exc:
        raise FigureError(str(exc)) from None
    write_atomic(out, figure_bytes(board, analysis, replace(fo, format=format_for(out)), box_mm=box_mm,
                                   caption=caption))
    return out
