"""Hatching of polygons in canvas px: the segments of parallel diagonal lines inside a
polygon (terrain, supporting bases in print, overlapping bases cross-hatched)."""
from __future__ import annotations

import math
from typing import Any, Sequence

Point = tuple[float, float]
HATCH_REACH_PX = 40000.0


def hatch_segments(points: Sequence[Point], spacing: float) -> list[tuple[Point, Point]]:
    """Diagonal hatch lines (45 degrees, ``spacing`` px apart) clipped to a simple polygon.
    Only lines within :data:`HATCH_REACH_PX` of the canvas origin are made (no canvas is that
    large), so a huge polygon (a base of 1e15 mm zoomed in) costs no more than the screen."""
    if len(points) < 3 or not (spacing > 0):
        return []
    vals = [p[0] + p[1] for p in points]
    if not all(math.isfinite(v) for v in vals):
        return []
    lo, hi = max(min(vals), -HATCH_REACH_PX), min(max(vals), 2 * HATCH_REACH_PX)
    out = []
    n = len(points)
    c = lo + spacing / 2
    while c < hi:
        xs = []
        for i in range(n):
            p, q = points[i], points[(i + 1) % n]
            fp, fq = p[0] + p[1] - c, q[0] + q[1] - c
            if (fp < 0) != (fq < 0):
                t = fp / (fp - fq)
                xs.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
        xs.sort()
        for a, b in zip(xs[::2], xs[1::2]):
            out.append((a, b))
        c += spacing
    return out


def cross_hatch(canvas: Any, pts: Sequence[Point], spacing: float, colour: Any, width: float) -> None:
    """Hatch a polygon (canvas px) along both diagonals with lines ``width`` px wide."""
    for a, b in hatch_segments(pts, spacing):
        canvas.line([a, b], colour, width)
    for a, b in hatch_segments([(-x, y) for x, y in pts], spacing):  # mirrored: the other diagonal
        canvas.line([(-a[0], a[1]), (-b[0], b[1])], colour, width)
