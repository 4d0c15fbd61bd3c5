"""Never cut, never squeeze: a figure holds everything it shows at the size asked, or is refused.

:func:`fit_problem` measures a panel figure's layout (:func:`game.render.figure_panels.figure_layout`,
with the shipped font's metrics, nothing drawn) and names the first thing that does not fit: the
caption key (or legend) in its share of the page, a picture narrower or lower than a third of
the page, a title, panel caption or unit label wider than its room. Text is never shrunk under
6 pt (:data:`game.render.figure.MIN_PRINT_PT`), so what does not fit is refused, not squeezed.

:func:`build_fitted` is how every panel figure is built (one-panel print figures, compare and
book figures): a figure that does not fit raises :class:`~game.render.figure.FigureError` with one
line naming what does not fit and the smallest size of the same shape that would
(``the key does not fit 90x60mm; the smallest size that holds it is 145x97mm``: text never
shrinks under 6 pt), which the
command line prints with exit 2 and the window's Export shows in its dialog; an optional block of
the key (strike order, notes) dropped for room is one warning line in ``Figure.errors``. A figure whose texts hold characters no font of the figure has is
refused the same way (:mod:`game.render.glyphs`).
"""
from __future__ import annotations

import math
from typing import Optional

from game.core.analysis import Analysis
from game.core.board import Board
from game.core.geometry import MM_PER_INCH

from game.render.canvas import Canvas
from game.render.drawn import font_px
from game.render.figure import (MAX_PIXELS, MAX_SIDE_PX, Figure, FigureError, FigureOptions, parse_size,
                                right_legend_fits)
from game.render.figure_panels import PanelFigure, build_panel_figure, figure_layout, legend_fits, panel_size
from game.render.glyphs import board_texts, glyph_problem
from game.render.labels import unit_caption
from game.render.svg_canvas import SvgCanvas

PICTURE_MIN_SHARE = 1 / 3   # a picture narrower (or lower) than this share of the page is refused
GROW_STEPS = 40             # sizes tried, 10 % larger each, for the smallest size that fits


def fit_problem(canvas: Canvas, pf: PanelFigure, fo: FigureOptions) -> tuple[Optional[str], dict]:
    """``(what does not fit or None, the layout)`` of ``pf`` drawn on ``canvas`` (px) with ``fo``."""
    lay = figure_layout(canvas, pf, fo)
    W, H = canvas.width, canvas.height
    fs, m = lay["fs"], lay["m"]
    if lay["items"] and not legend_fits(lay):
        return ("the key" if lay["legend_at"] == "key" else "the legend"), lay
    for text, size, bold in lay["lines"]:
        if canvas.text_size(text, size, bold)[0] > W - 2 * m + 0.5:
            return "the title", lay
    gx, gy, gw, gh = lay["grid"]
    if gw < W * PICTURE_MIN_SHARE or gh < H * PICTURE_MIN_SHARE:
        return "the picture", lay
    for i, hl in enumerate(lay["headers"]):
        cw = lay["cells"][i][2]
        if any(canvas.text_size(ln, lay["head_size"], True)[0] > cw + 0.5 for ln in hl):
            return "a panel caption", lay
    if fo.labels:
        size = font_px(13 * fs)
        for i, p in enumerate(pf.panels):
            room = lay["scenes"][i][2] - 12 * fs
            for j, u in enumerate(p.board.units):
                name = unit_caption(u, j, ids=fo.ids, letters=fo.letters)
                if canvas.text_size(name, size, True)[0] > room:
                    return f"the label {name!r}", lay
    return None, lay


def _size_text(w: float, h: float, unit: str) -> str:
    return f"{w:g}x{h:g}{'mm' if unit == 'mm' else ''}"


def _px(w: float, h: float, unit: str, dpi: int) -> tuple[int, int]:
    if unit == "mm":
        return int(round(w / MM_PER_INCH * dpi)), int(round(h / MM_PER_INCH * dpi))
    return int(round(w)), int(round(h))


def smallest_fit(pf: PanelFigure, fo: FigureOptions) -> Optional[str]:
    """The smallest size of ``fo.size``'s shape (10 % steps, whole mm or px) at which ``pf`` fits
    with nothing dropped, or None when none within the pixel caps does."""
    w, h, unit = parse_size(str(fo.size))
    for k in range(1, GROW_STEPS + 1):
        f = 1.1 ** k
        sw, sh = float(math.ceil(w * f)), float(math.ceil(h * f))
        px = _px(sw, sh, unit, fo.dpi)
        if max(px) > MAX_SIDE_PX or px[0] * px[1] > MAX_PIXELS:
            return None
        problem, lay = fit_problem(SvgCanvas(*px), pf, fo)
        if problem is None and not lay["dropped"]:
            return _size_text(sw, sh, unit)
    return None


def build_fitted(pf: PanelFigure, fo: FigureOptions) -> Figure:
    """:func:`~game.render.figure_panels.build_panel_figure` after the fit check (see the module
    doc), for a figure of a print size (mm); a px size is a screen image, drawn as before (its key
    may give way to a legend panel whose text shrinks). Raises :class:`FigureError` when something
    does not fit."""
    texts = [("title", pf.title)] + [("sentence", t) for t in pf.sentences]
    for p in pf.panels:
        texts += board_texts(p.board) + [("panel caption", p.caption)] + [("note", t) for _, t in p.marks.notes]
        texts += [("mark's words", m.says) for m in p.marks.points]
    gone = glyph_problem(texts)
    if gone:
        raise FigureError(gone)
    size = fo.pixel_size() or panel_size(pf, fo)
    if fo.svg_size_attrs() is None:  # a px size is a screen image: its legend may shrink (no print size, no pt)
        return build_panel_figure(pf, fo)
    problem, lay = fit_problem(SvgCanvas(*size), pf, fo)
    asked = fo.size or f"{size[0]}x{size[1]}"
    if problem is not None:
        better = smallest_fit(pf, fo) if fo.size else None
        tail = f"; the smallest size that holds it is {better}" if better else "; no size within the pixel caps holds it"
        raise FigureError(f"{problem} does not fit {asked}{tail}")
    fig = build_panel_figure(pf, fo)
    if lay["dropped"]:
        better = smallest_fit(pf, fo) if fo.size else None
        fig.errors.append(f"left out of the key for room at {asked}: {', '.join(lay['dropped']).lower()}"
                          + (f" (it all fits at {better})" if better else ""))
    return fig


def check_scene_legend(board: Board, analysis: Optional[Analysis], fo: FigureOptions, size: tuple[int, int]) -> None:
    """A one-panel figure of a print size whose legend panel sits on the right (the screen style,
    ``--legend right``): refused (:class:`FigureError`, the smallest size that would) when its
    legend does not fit the panel, widened to its most, at 80 % text or more, rather than cut."""
    if fo.svg_size_attrs() is None or not fo.legend or right_legend_fits(board, analysis, fo, size, widen=True):
        return
    w, h, unit = parse_size(str(fo.size))
    better = None
    for k in range(1, GROW_STEPS + 1):
        f = 1.1 ** k
        sw, sh = float(math.ceil(w * f)), float(math.ceil(h * f))
        px = _px(sw, sh, unit, fo.dpi)
        if max(px) > MAX_SIDE_PX or px[0] * px[1] > MAX_PIXELS:
            break
        if right_legend_fits(board, analysis, fo, px, widen=True):
            better = _size_text(sw, sh, unit)
            break
    tail = f"; the smallest size that holds it is {better}" if better else "; no size within the pixel caps holds it"
    raise FigureError(f"the legend does not fit {fo.size}{tail}")
