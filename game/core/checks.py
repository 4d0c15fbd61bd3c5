"""Sanity checks of a board that do not stop it loading: overlapping bases.

A scenario whose bases overlap still loads (a user may be halfway through setting a combat
up); the window and the command line warn and draw the overlaps instead of refusing.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from game.core import contact
from game.core import geometry as g
from game.core.board import Board, Model


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
            lo = (geom.centers - geom.half).min(axis=0)
            hi = (geom.centers + geom.half).max(axis=0)
            boxes.append((float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])))
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

    def boxes_meet(ga, gb, same: bool) -> Iterable[tuple[int, int]]:
        """(i, j) whose base boxes overlap or touch (i < j within one unit), row by row."""
        for r0 in range(0, len(ga.ids), 256):  # blocks of rows: memory stays bounded
            ca, ha = ga.centers[r0:r0 + 256], ga.half[r0:r0 + 256]
            hit = np.all(np.abs(ca[:, None, :] - gb.centers[None, :, :]) <= ha[:, None, :] + gb.half[None, :, :], axis=2)
            if same:
                hit = np.triu(hit, 1 + r0)
            pi, pj = np.nonzero(hit)
            yield from zip((pi + r0).tolist(), pj.tolist())

    for i, ua in enumerate(units):
        ms_a = models[ua.id]
        if ua.kind != "ranked" and len(ms_a) > 1 and not check(ms_a, ms_a, boxes_meet(geoms[i], geoms[i], True)):
            return out
        for j in partners.get(i, ()):
            if not check(ms_a, models[units[j].id], boxes_meet(geoms[i], geoms[j], False)):
                return out
    return out
