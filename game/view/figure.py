"""Figures: the scene drawn on an off-screen pygame Surface and saved as PNG.

No window and no display are needed: only ``pygame.font`` is initialised. Figures are drawn at
``supersample`` times the size and smoothly scaled down, which anti-aliases the base edges.
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional

from game.core.board import Board

from .canvas import Canvas, PygameCanvas
from .scene import SceneOptions, draw_scene, layout, units_bbox
from .transform import View


def _pygame():
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    return pygame


class _MeasureCanvas(Canvas):
    """Records calls like :class:`Canvas` but measures text with the real fonts."""

    def __init__(self, width: int, height: int):
        super().__init__(width, height)
        _pygame()
        self._pg = PygameCanvas.__new__(PygameCanvas)
        self._pg.pg, self._pg.font_path, self._pg._fonts = _pygame(), None, {}

    def text_size(self, string: str, size: int, bold: bool = False) -> tuple[int, int]:
        return self._pg.text_size(string, size, bold)


MAX_FIGURE_PX = 12_000_000   # a figure sized automatically holds at most this many pixels
MAX_DRAW_PX = 40_000_000     # the supersampled drawing surface at most this many (160 MB)


def supersample_for(width: int, height: int, supersample: int) -> int:
    """The supersampling factor (1..``supersample``) that keeps the drawing surface within
    :data:`MAX_DRAW_PX`, so memory stays bounded however big the figure."""
    k = max(1, int(supersample))
    while k > 1 and width * height * k * k > MAX_DRAW_PX:
        k -= 1
    return k


def cap_size(w: float, h: float) -> tuple[int, int]:
    """(w, h) px scaled down, keeping the aspect, to at most :data:`MAX_FIGURE_PX` pixels."""
    area = w * h
    if area <= MAX_FIGURE_PX:
        return int(w), int(h)
    k = (MAX_FIGURE_PX / area) ** 0.5
    return int(w * k), int(h * k)


def legend_height(board: Board, analysis: Any, width: int, options: SceneOptions) -> int:
    """Pixel height the legend panel's text needs (a dry run of the drawing)."""
    c = _MeasureCanvas(width, 20000)
    view = View(1.0, (0.0, 0.0))
    draw_scene(c, board, analysis, view, options=replace(options, hover=None, banner=""))
    ys = [call.args[0][1] + c.text_size(call.args[1], call.get("size", 14))[1] for call in c.find("text", "legend")]
    return int(max(ys, default=0)) + 16


def figure_size(board: Board, options: SceneOptions, scale_px_per_mm: float, margin_mm: float = 60.0,
                analysis: Any = None) -> tuple[int, int]:
    """Canvas size (px) that shows the units at ``scale_px_per_mm`` with the panels around them
    (at least 960 x 600, and tall enough for the whole legend)."""
    x0, y0, x1, y1 = units_bbox(board, margin_mm=margin_mm)
    w = (x1 - x0) * scale_px_per_mm
    h = (y1 - y0) * scale_px_per_mm
    title = board.title if options.title is None else options.title
    lay = layout(10000, 10000, legend=options.legend, title=bool(title), status=bool(options.status),
                 panel_width=options.panel_width, font_scale=options.font_scale)
    extra_w = 10000 - lay.table[2]
    extra_h = 10000 - lay.table[3]
    W = int(max(960 if options.legend else 640, w + extra_w + 24))
    H = int(max(600 if options.legend else 400, h + extra_h + 24))
    if options.legend:
        H = max(H, legend_height(board, analysis, W, options))
    return cap_size(W, H)


def render_surface(board: Board, analysis: Any, width: int, height: int, *, options: Optional[SceneOptions] = None,
                   view: Optional[View] = None, supersample: int = 2, margin_mm: float = 60.0):
    """Draw the figure on a new ``width`` x ``height`` Surface and return ``(surface, errors)``.

    ``view`` None fits the units (plus ``margin_mm``) into the table area of the layout.
    """
    pg = _pygame()
    from .canvas import PygameCanvas

    o = options or SceneOptions()
    k = supersample_for(width, height, supersample)
    big = replace(o, font_scale=o.font_scale * k, panel_width=o.panel_width)
    W, H = width * k, height * k
    if view is None:
        title = board.title if o.title is None else o.title
        lay = layout(W, H, legend=big.legend, title=bool(title), status=bool(big.status),
                     panel_width=big.panel_width, font_scale=big.font_scale)
        view = View.fit(units_bbox(board, margin_mm=margin_mm), lay.table, margin_px=12 * k)
    else:
        view = View(view.scale * k, (view.offset_px[0] * k, view.offset_px[1] * k))
    surf = pg.Surface((W, H))
    errors = draw_scene(PygameCanvas(surf), board, analysis, view, options=big)
    if k > 1:
        surf = pg.transform.smoothscale(surf, (width, height))
    return surf, errors


def save_png(board: Board, analysis: Any, path: str | os.PathLike, *, width: Optional[int] = None,
             height: Optional[int] = None, scale_px_per_mm: Optional[float] = None,
             options: Optional[SceneOptions] = None, supersample: int = 2) -> list[str]:
    """Render a figure to ``path`` (PNG). Size: ``width``/``height`` px, or derived from
    ``scale_px_per_mm`` (default 1.4 px/mm when neither is given). Returns drawing errors."""
    pg = _pygame()
    o = options or SceneOptions()
    if width is None or height is None:
        fw, fh = figure_size(board, o, scale_px_per_mm or 1.4, analysis=analysis)
        width, height = width or fw, height or fh
    view = None
    if scale_px_per_mm and (width is not None):
        title = board.title if o.title is None else o.title
        lay = layout(width, height, legend=o.legend, title=bool(title), status=bool(o.status),
                     panel_width=o.panel_width, font_scale=o.font_scale)
        x0, y0, x1, y1 = units_bbox(board)
        l, t, w, h = lay.table
        view = View(scale_px_per_mm, (l + w / 2 - (x0 + x1) / 2 * scale_px_per_mm,
                                      t + h / 2 - (y0 + y1) / 2 * scale_px_per_mm))
    surf, errors = render_surface(board, analysis, int(width), int(height), options=o, view=view, supersample=supersample)
    p = Path(path)
    if p.parent and not p.parent.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.tmp.png")
    pg.image.save(surf, str(tmp))
    os.replace(tmp, p)
    return errors
