"""Old name of the figure pipeline: everything lives in :mod:`game.view.figure` now (one
pipeline for PNG and SVG); this module re-exports it for callers that import from here."""
from __future__ import annotations

from .figure import (MAX_PIXELS, MAX_SIDE_PX, MM_PER_INCH, Figure, FigureError, FigureOptions,  # noqa: F401
                     FigureSpec, build_figure, default_size, draw_figure, engaged_bbox, figure_box, parse_size,
                     png_bytes, render_figure, render_png_surface, scene_options, svg_text, write_figure)
