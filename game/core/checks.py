"""Sanity checks of a board that do not stop it loading: overlapping bases.

A scenario whose bases overlap still loads (a user may be halfway through setting a combat
up); the window and the command line warn and draw the overlaps instead of refusing.
"""
from __future__ import annotations

from typing import Iterable

from game.core import contact
from game.core import geometry as g
from game.core.arrays import ops
from game.core.board import Board
from game.core.unit_models import Model, UnitGeom
from game.core.lru import LRU


def overlapping_bases(board: Board, tol_mm: float = 0.5, limit: int = 200) -> list[tuple[str, str, float]]:
    """Pairs of models whose bases overlap by more than ``tol_mm``: ``(id_a, id_b, depth_mm)``.

    Models of one ranked unit never overlap (slots stand edge to edge); skirmish models of one
    unit and models of different units are checked. Stops after ``limit`` pairs. Indexed:
    units are paired by a sort-and-sweep over their boxes and only bases whose boxes meet
    (an array test) get the exact gap, so a big table costs about what its contacts cost.
    """
    out: list[tuple[str, str, float]] = []
    units = board.units
    models = {u.id: u.models() for u in units}
    geoms = [u.geom() for u in units]
    boxes = []
    for geom in geoms:
        if len(geom.ids):
            _low, _high, lo, hi = geom.boxes()
            boxes.append((lo[0], lo[1], hi[0], hi[1]))
        else:
            boxes.append((0.0, 0.0, 0.0, 0.0))
    partners: dict[int, list[int]] = {}
    for i, j in contact.sweep_pairs(boxes, 0.0):
        if len(geoms[i].ids) and len(geoms[j].ids):
            partners.setdefault(i, []).append(j)

    def check(ms_a: list[Model], ms_b: list[Model], pairs: Iterable[tuple[int, int]]) -> bool:
        for i, j in pairs:
            a, b = ms_a[i], ms_b[j]
            gap = g.gap_mm(a.shape, b.shape)
            if gap < -tol_mm:
                out.append((a.id, b.id, round(-gap, 2)))
                if len(out) >= limit:
                    return False
        return True

    def boxes_meet(ga: UnitGeom, gb: UnitGeom, same: bool) -> Iterable[tuple[int, int]]:
        """(i, j) whose base boxes overlap or touch (i < j within one unit), row by row."""
        return ops.box_pairs(ga.centers, ga.half, gb.centers, gb.half, same)

    unique = len(models) == len(units)

    def pair(i: int, j: int) -> bool:
        """``check`` of units ``i`` and ``j`` (``i == j``: a skirmish unit's own models),
        kept by the two units' pose keys: a drop re-checks the pairs of the moved unit only.
        A pair's overlaps are kept only when checked to the end (not cut by ``limit``)."""
        if not unique:  # (two units of one id: models by id are not the units' own)
            return check(models[units[i].id], models[units[j].id], boxes_meet(geoms[i], geoms[j], i == j))
        key = (units[i].pose_key(), units[j].pose_key(), i == j, tol_mm)
        hit = _PAIRS.get(key)
        if hit is not None:
            out.extend(hit[:limit - len(out)])
            return len(out) < limit
        start = len(out)
        ok = check(models[units[i].id], models[units[j].id], boxes_meet(geoms[i], geoms[j], i == j))
        if ok:
            _PAIRS.put(key, tuple(out[start:]))
        return ok

    for i, ua in enumerate(units):
        ms_a = models[ua.id]
        if not ua.is_ranked and len(ms_a) > 1 and not pair(i, i):
            return out
        for j in partners.get(i, ()):
            if not pair(i, j):
                return out
    return out


_PAIRS = LRU(4096)  # (pose key a, pose key b, same unit, tolerance) -> that pair's overlaps, checked to the end
