"""Exporting what the window shows as a PNG or SVG figure, through the drawing path of
``render`` (:func:`game.view.publish.draw_figure`): same scene, same marks, same options."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

from game.core.board import Board

from .marks import Marks
from .publish import FigureOptions, default_size, draw_figure, png_bytes, render_png_surface


def export_view(board: Board, analysis: Any, fo: FigureOptions, out: str | os.PathLike, *,
                box_mm: Optional[tuple] = None, caption: str = "") -> Path:
    """Write the figure of ``board`` / ``analysis`` to ``out`` (``.svg``: SVG, else PNG),
    fitted to ``box_mm`` (x0, y0, x1, y1; None: the options decide), with ``caption`` as the
    caption band. Written atomically. Raises FigureError for bad options, OSError."""
    out = Path(out)
    size = fo.pixel_size() or default_size(board, fo, analysis)
    marks = Marks(caption=caption) if caption else None
    if out.suffix.lower() == ".svg":
        from .scene import drawn_models
        from .svg_canvas import SvgCanvas

        classes = {f"model:{dm.id}": dm.role for dm in drawn_models(board, analysis)}
        c = SvgCanvas(size[0], size[1], classes=classes, size_attrs=fo.svg_size_attrs(), record=True)
        draw_figure(c, board, analysis, fo, marks=marks, box_mm=box_mm, split_title=True)
        data = c.to_svg(title=fo.title or board.title or "").encode("utf-8")
    else:
        surf, _ = render_png_surface(board, analysis, fo, size, marks=marks, box_mm=box_mm, split_title=True)
        data = png_bytes(surf, fo.dpi)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, out)
    return out
