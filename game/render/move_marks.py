"""Marks of rule-mandated moves (pile-in, consolidation, closing up): the distance of each
move beside its arrow; a move longer than the analysis' :class:`~game.core.parts.MoveReach` is
drawn as invalid (a red dashed arrow, "too far" beside it). One convention in every view: the
arrow runs from where the model stood (its dashed outline) to where it ends (the model).
The padlock of a model held in place is the :class:`~game.core.parts.Locked` part's drawer
(:mod:`game.render.part_marks`).
"""
from __future__ import annotations

import math
from typing import Any

from game.core import geometry as g
from game.core.parts import MoveReach

INVALID = (200, 0, 0)


def path_mm(path) -> float:
    return sum(math.dist(a, b) for a, b in zip(path, path[1:]))


def draw(p: Any, analysis: Any) -> None:
    """Distance labels (valid / invalid) for every move."""
    if analysis is None:
        return
    r = analysis.part(MoveReach)
    reach = r.mm if r is not None else None
    for mid, path in analysis.moves.items():
        if len(path) < 2:
            continue
        L = path_mm(path)
        bad = reach is not None and L > float(reach) + 0.5
        _label(p, mid, path, L, bad)


def _label(p: Any, mid: str, path, L: float, bad: bool) -> None:
    p.c.tag = f"movelen:{mid}"
    pts = p.v.pts(path)
    if bad:  # redraw the arrow dashed in red over the normal one
        p.c.line(pts, INVALID, p.u(2.5), dashed=True)
    # beside the middle of the longest leg, on its left
    k = max(range(len(pts) - 1), key=lambda i: math.dist(pts[i], pts[i + 1]))
    a, b = pts[k], pts[k + 1]
    d = math.dist(a, b)
    if d < p.u(14):
        return
    nx, ny = -(b[1] - a[1]) / d, (b[0] - a[0]) / d
    text = f"{L / g.INCH_MM:.1f}\"" + (" too far" if bad else "")
    size = p.size(10)
    tw, th = p.c.text_size(text, size)
    off = p.u(4) + th / 2
    cx, cy = (a[0] + b[0]) / 2 + nx * off, (a[1] + b[1]) / 2 + ny * off
    p.c.text((cx, cy), text, size, INVALID if bad else p.pal["move"], anchor="center",
             background=p.pal["label_bg"])
    p.placer.add((cx - tw / 2, cy - th / 2, cx + tw / 2, cy + th / 2), soft=True)
