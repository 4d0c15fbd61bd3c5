"""Sanity checks of a board that do not stop it loading: overlapping bases.

A scenario whose bases overlap still loads (a user may be halfway through setting a combat
up); the window and the command line warn and draw the overlaps instead of refusing.
"""
from __future__ import annotations

from . import geometry as g
from .board import Board, Model


def overlapping_bases(board: Board, tol_mm: float = 0.5, limit: int = 200) -> list[tuple[str, str, float]]:
    """Pairs of models whose bases overlap by more than ``tol_mm``: ``(id_a, id_b, depth_mm)``.

    Models of one ranked unit never overlap (slots stand edge to edge); skirmish models of one
    unit and models of different units are checked. Stops after ``limit`` pairs.
    """
    out: list[tuple[str, str, float]] = []
    units = board.units
    models = {u.id: u.models() for u in units}
    boxes = {}
    for u in units:
        bb = [m.shape.bbox() for m in models[u.id]] or [(0.0, 0.0, 0.0, 0.0)]
        boxes[u.id] = (min(b[0] for b in bb), min(b[1] for b in bb), max(b[2] for b in bb), max(b[3] for b in bb))

    def check(ms_a: list[Model], ms_b: list[Model], same: bool) -> bool:
        for i, a in enumerate(ms_a):
            ba = a.shape.bbox()
            for b in (ms_b[i + 1:] if same else ms_b):
                if g.bbox_gap(ba, b.shape.bbox()) > 0:
                    continue
                gap = g.gap_mm(a.shape, b.shape)
                if gap < -tol_mm:
                    out.append((a.id, b.id, round(-gap, 2)))
                    if len(out) >= limit:
                        return False
        return True

    for i, ua in enumerate(units):
        if ua.kind != "ranked" and not check(models[ua.id], models[ua.id], True):
            return out
        for ub in units[i + 1:]:
            if g.bbox_gap(boxes[ua.id], boxes[ub.id]) > 0:
                continue
            # only models inside the other unit's bounding box can overlap one of its models
            near_a = [m for m in models[ua.id] if g.bbox_gap(m.shape.bbox(), boxes[ub.id]) <= 0]
            near_b = [m for m in models[ub.id] if g.bbox_gap(m.shape.bbox(), boxes[ua.id]) <= 0]
            if not check(near_a, near_b, False):
                return out
    return out
