"""The table under the units, each a function of the scene's :class:`~game.render.painter.Paint`
``p``: the cloth and its 6-inch grid, terrain (hatched, named), objectives (named) and the
scale bar.
"""
from __future__ import annotations

import math

from game.core import geometry as g

from game.render.hatching import hatch_segments
from game.render.drawn import drawn_models
from game.render.labels import terrain_label
from game.render.painter import Paint
from game.render.palette import lw

Point = tuple[float, float]


# -- table ---------------------------------------------------------------------------------
def table(p: Paint) -> None:
    p.c.tag = "table"
    p.c.fill(p.pal["background"])
    w, h = p.b.table
    p.c.polygon(p.v.pts([(0, 0), (w, 0), (w, h), (0, h)]), fill=p.pal["table"],
                outline=p.pal["table_edge"], width=p.u(lw("medium")))
    step = 6 * g.MM_PER_INCH  # a faint 6-inch grid helps judge distances
    if p.pal.get("grid") is not None and step * p.v.scale >= 40 * p.fs:
        # only the lines on the canvas: a table of 1e308 mm costs what the screen shows
        (x0, y0), (x1, y1) = p.v.to_mm((0, 0)), p.v.to_mm((p.c.width, p.c.height))
        for lo_mm, hi_mm, size, vertical in ((min(x0, x1), max(x0, x1), w, True),
                                             (min(y0, y1), max(y0, y1), h, False)):
            k = max(1, math.floor(max(lo_mm, 0.0) / step))
            end = min(hi_mm, size)
            n = 0
            while k * step < end and n < 400:
                a = k * step
                seg = [(a, max(0.0, min(y0, y1))), (a, min(h, max(y0, y1)))] if vertical else \
                    [(max(0.0, min(x0, x1)), a), (min(w, max(x0, x1)), a)]
                p.c.line(p.v.pts(seg), p.pal["grid"], p.u(lw("thin")))
                k, n = k + 1, n + 1


def terrain(p: Paint, t: dict) -> None:
    p.c.tag = f"terrain:{t.get('name', '')}"
    pts = p.v.pts(t["points"])
    p.c.polygon(pts, fill=p.pal["terrain"], outline=p.pal["terrain_edge"], width=p.u(lw("medium")))
    for a, b in hatch_segments(pts, p.u(9)):
        p.c.line([a, b], p.pal["terrain_hatch"], p.u(lw("hair")))
    terrain_label(p, t, pts)


#: radius (mm) of an objective's outer ring (a cropped figure shows an objective whole)
OBJECTIVE_MM = 20.0


def objective(p: Paint, i: int, pt: Point) -> None:
    """Objective ``i`` at ``pt`` (mm): two rings and its name ("Objective", or "Objective C" when
    the context's ``objective_names`` names it), placed clear of every base."""
    p.c.tag = f"objective:{i}"
    c = p.v.to_px(pt)
    r = max(p.u(6), OBJECTIVE_MM * p.v.scale)
    p.c.circle(c, r, fill=p.pal["objective"], outline=p.pal["objective_edge"], width=p.u(lw("medium")))
    p.c.circle(c, r * 0.45, fill=None, outline=p.pal["objective_edge"], width=p.u(lw("medium")))
    size = p.size(11)
    names = (p.b.context or {}).get("objective_names") or []
    word = f"Objective {names[i]}" if i < len(names) and names[i] else "Objective"
    tw, th = p.c.text_size(word, size)
    p.placer.add((c[0] - r, c[1] - r, c[0] + r, c[1] + r), soft=True)
    gap, pad = p.u(2), p.u(1.5)
    spots = [(c[0] - tw / 2, c[1] + r + gap), (c[0] - tw / 2, c[1] - r - gap - th), (c[0] + r + gap, c[1] - th / 2),
             (c[0] - r - gap - tw, c[1] - th / 2)]
    boxes = [(x - pad, y - pad, x + tw + pad, y + th + pad) for x, y in spots]
    models = p.models or (drawn_models(p.b, p.a) if p.a is not None else [])
    avoid = []
    for dm in models:  # the label keeps off every base (a model may stand on the objective)
        x0, y0, x1, y1 = dm.shape.bbox()
        p0, p1 = p.v.to_px((x0, y0)), p.v.to_px((x1, y1))
        avoid.append((p0[0], p0[1], p1[0], p1[1]))
    b = p.placer.best(boxes, avoid)
    p.placer.add(b)
    p.c.text((b[0] + pad, b[1] + pad), word, size, p.pal["label"], anchor="topleft",
             background=p.pal["label_bg"])


def scale_bar(p: Paint) -> None:
    """A bar of a whole number of inches (at least 70 units) in the bottom-left corner, its words
    right of it, or above it where the picture is too narrow for them beside it."""
    p.c.tag = "scale_bar"
    tl, tt, tw, th = p.lay.table
    inches = 1
    while inches * g.MM_PER_INCH * p.v.scale < 70 * p.fs and inches < 48:
        inches *= 2
    L = inches * g.MM_PER_INCH * p.v.scale
    x0, y0 = tl + 14 * p.fs, tt + th - 14 * p.fs
    p.c.line([(x0, y0), (x0 + L, y0)], p.pal["scale_bar"], p.u(lw("bold")))
    for x in (x0, x0 + L):
        p.c.line([(x, y0 - 5 * p.fs), (x, y0 + 1)], p.pal["scale_bar"], p.u(lw("medium")))
    text = f'{inches}" = {inches * g.MM_PER_INCH:.1f} mm'
    size = p.size(11)
    tw_, th_ = p.c.text_size(text, size)
    if x0 + L + 8 * p.fs + tw_ <= tl + tw - 4 * p.fs:  # the words right of the bar
        p.placer.add((x0 - p.u(2), y0 - th_, x0 + L + p.u(10) + tw_, y0 + th_ / 2 + p.u(2)))
        pos = (x0 + L + 8 * p.fs, y0)
    else:  # a narrow picture (an inset): the words above the bar
        ty = y0 - 8 * p.fs - th_ / 2
        p.placer.add((x0 - p.u(2), ty - th_ / 2 - p.u(2), x0 + max(L, tw_) + p.u(2), y0 + p.u(2)))
        pos = (x0, ty)
    p.c.text(pos, text, size, p.pal["scale_bar"], anchor="left", background=p.pal["label_bg"])
