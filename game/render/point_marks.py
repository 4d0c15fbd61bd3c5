"""Drawing the marks that point at what a figure is about (:mod:`game.core.point_marks`): a cross
over a model ("cannot support"), a ring round a model, a ring, tick or cross where two models'
bases come closest (the touching corner, the one contact a caption calls legal or illegal).

Shapes, not hue alone, tell them apart (they read in greyscale): a cross is two bold strokes on a
white casing, in the palette's ``illegal`` red; a tick one bold stroke in ``legal`` green; a ring a
bold circle on a casing. Every mark sits on its own canvas tag (``pointmark:<i>:<mark>``) in the
marks' layer. :func:`point_swatch` draws the same glyph as the key's swatch.
"""
from __future__ import annotations

from typing import Any, Sequence

from game.core import geometry as g
from game.core.point_marks import PointMark

from game.render.canvas import Canvas
from game.render.palette import lw
from game.render.transform import View

RING_COLOUR = (20, 20, 20)
CASING = (255, 255, 255)


def _stroke(canvas: Canvas, pts: list, colour: Any, fs: float) -> None:
    canvas.line(pts, CASING, lw("bold", casing=True) * fs)
    canvas.line(pts, colour, lw("bold") * fs)


def cross_glyph(canvas: Canvas, c: tuple, r: float, colour: Any, fs: float) -> None:
    """An X of half-size ``r`` px centred on ``c`` (px)."""
    _stroke(canvas, [(c[0] - r, c[1] - r), (c[0] + r, c[1] + r)], colour, fs)
    _stroke(canvas, [(c[0] - r, c[1] + r), (c[0] + r, c[1] - r)], colour, fs)


def tick_glyph(canvas: Canvas, c: tuple, r: float, colour: Any, fs: float) -> None:
    """A tick of half-size ``r`` px centred on ``c`` (px)."""
    _stroke(canvas, [(c[0] - r, c[1]), (c[0] - r * 0.3, c[1] + r * 0.7), (c[0] + r, c[1] - r * 0.8)], colour, fs)


def ring_glyph(canvas: Canvas, c: tuple, r: float, fs: float) -> None:
    """A bold ring of radius ``r`` px round ``c`` (px) on a white casing."""
    canvas.circle(c, r, outline=CASING, width=lw("bold", casing=True) * fs)
    canvas.circle(c, r, outline=RING_COLOUR, width=lw("bold") * fs)


def contact_point(a: g.Shape, b: g.Shape) -> g.Point:
    """Where two bases come closest (mm): the middle of their closest points."""
    p, q = g.closest_points(a, b)
    return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)


def draw_point_marks(canvas: Canvas, view: View, shapes: dict, marks: Sequence[PointMark], pal: dict,
                     fs: float) -> list[str]:
    """Draw ``marks`` over the models drawn as ``shapes`` (model id -> shape, mm). Returns one
    error line per mark naming a model that is not drawn (never raises)."""
    errors: list[str] = []
    illegal, legal = pal.get("illegal", (200, 30, 35)), pal.get("legal", (0, 130, 60))
    glyph_r = 6 * fs  # a contact's tick or cross: 1.2 mm printed, whatever the scale
    for i, m in enumerate(marks):
        missing = [mid for mid in m.models if mid not in shapes]
        if missing:
            errors.append(f"marks: no model {missing[0]} is drawn")
            continue
        canvas.tag = f"pointmark:{i}:{m.mark}"
        if m.contact:
            a, b = shapes[m.models[0]], shapes[m.models[1]]
            c = view.to_px(contact_point(a, b))
            if m.mark == "ring":
                small = min(min(s.bbox()[2] - s.bbox()[0], s.bbox()[3] - s.bbox()[1]) for s in (a, b))
                ring_glyph(canvas, c, max(small * 0.3 * view.scale, 7 * fs), fs)
            else:
                canvas.circle(c, glyph_r * 1.5, fill=(255, 255, 255), outline=(20, 20, 20), width=lw("thin") * fs)
                (tick_glyph if m.mark == "tick" else cross_glyph)(canvas, c, glyph_r * 0.8,
                                                                  legal if m.mark == "tick" else illegal, fs)
            continue
        for mid in m.models:
            s = shapes[mid]
            bx = s.bbox()
            if m.mark == "ring":
                r = max(bx[2] - bx[0], bx[3] - bx[1]) * 0.5 * 1.05 * view.scale + lw("bold") * fs
                ring_glyph(canvas, view.to_px(s.center), r, fs)
            else:  # a cross over the base, inside its edge
                half = min(bx[2] - bx[0], bx[3] - bx[1]) * 0.32 * view.scale
                cross_glyph(canvas, view.to_px(s.center), max(half, 3 * fs), illegal, fs)
    canvas.tag = ""
    return errors


def point_swatch(p: Any, kind: str, sx: float, sy: float, sw: float, sh: float) -> None:
    """The key's swatch of a mark (``mark:cross``, ``mark:ring``, ``mark:contact_tick``, ...) in
    the px box (sx, sy, sw, sh); ``p`` a :class:`game.render.painter.Paint`."""
    P = p.pal
    c = (sx + sw / 2, sy + sh / 2)
    r = sh * 0.42
    mark = kind.split(":", 1)[1].replace("contact_", "")
    if mark == "ring":
        ring_glyph(p.c, c, r, p.fs)
    elif mark == "tick":
        tick_glyph(p.c, c, r * 0.8, P.get("legal", (0, 130, 60)), p.fs)
    else:
        if not kind.startswith("mark:contact"):  # a crossed base
            p.c.polygon([(c[0] - r, c[1] - r), (c[0] + r, c[1] - r), (c[0] + r, c[1] + r), (c[0] - r, c[1] + r)],
                        fill=P["none"], outline=P["base_edge"], width=p.u(lw("thin")))
        cross_glyph(p.c, c, r * 0.7, P.get("illegal", (200, 30, 35)), p.fs)
