"""The contact kernel: which units may touch (a sort-and-sweep over bounding boxes) and which
models of two engaged units touch (array tests on their bases), in table mm.

* :func:`unit_box` - the bounding box of a unit's boundary (ranked: the tray; skirmish: the bases).
* :func:`sweep_pairs` - pairs of units whose boxes come within ``tol``: sorted by left edge and
  swept once, O(n log n + pairs) instead of testing every pair.
* :func:`model_contacts` - the model pairs of two units whose bases are within ``tol`` (and
  :func:`contacts_and_corners`: also which of them touch only at a corner). Only the
  bases near the other unit take part (a box test on arrays); two ranked units square to each
  other (facings a multiple of 90 degrees apart) are decided there exactly, the bases being
  rectangles aligned in one frame (gap = hypot of the per-axis gaps); any other pair gets the
  exact separating-axis test of :func:`geometry.within` on the few candidates left.

The rule implemented is the one every ruleset states for base contact: two bases touch when
their edge-to-edge gap is at most the ruleset's ``contact_tolerance_mm``.
"""
from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np

from game.core import geometry as g
from game.core.board import Model, Unit, UnitGeom

Box = tuple[float, float, float, float]


def unit_box(u: Unit, key: Optional[tuple] = None) -> Box:
    """(min_x, min_y, max_x, max_y) of ``u``'s boundary in table mm ((0, 0, 0, 0) if empty)."""
    if u.kind == "ranked":
        return u.tray().bbox()
    geom = u.geom(key)
    if not len(geom.ids):
        return (0.0, 0.0, 0.0, 0.0)
    lo = (geom.centers - geom.half).min(axis=0)
    hi = (geom.centers + geom.half).max(axis=0)
    return (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))


def sweep_pairs(boxes: Sequence[Box], tol: float) -> list[tuple[int, int]]:
    """Index pairs (i < j) of ``boxes`` whose gap on both axes is at most ``tol``.

    A superset of the pairs within ``tol`` of each other (the exact test follows); sorted
    by (i, j)."""
    order = sorted(range(len(boxes)), key=lambda i: boxes[i][0])
    active: list[int] = []
    out = []
    for i in order:
        x0, y0, x1, y1 = boxes[i]
        keep = []
        for j in active:
            bj = boxes[j]
            if bj[2] + tol < x0:
                continue  # ends left of everything still to come
            keep.append(j)
            if bj[1] - tol <= y1 and y0 - tol <= bj[3]:
                out.append((i, j) if i < j else (j, i))
        keep.append(i)
        active = keep
    out.sort()
    return out


def _square(a: float, b: float) -> bool:
    """True when facings ``a`` and ``b`` (degrees) differ by a multiple of 90 (to 1e-7 deg)."""
    r = (a - b) % 90.0
    return r < 1e-7 or r > 90.0 - 1e-7


def _arrays(u: Unit, ms: list[Model]) -> UnitGeom:
    """``u``'s arrays matching the model list ``ms`` (its own models, or a list in which some
    models stand elsewhere, e.g. an incomplete rank moved to a flank)."""
    geom = u.geom()
    if ms is u.models():
        return geom
    if geom.rect:
        centers = np.array([m.center for m in ms], dtype=float).reshape(-1, 2)
        half = np.broadcast_to(geom.half[:1], centers.shape) if len(geom.ids) else np.zeros_like(centers)
        return UnitGeom([m.id for m in ms], centers, half, True, geom.base, geom.facing_deg, geom.template)
    boxes = np.array([m.shape.bbox() for m in ms], dtype=float).reshape(-1, 4)
    return UnitGeom([m.id for m in ms], (boxes[:, 2:] + boxes[:, :2]) / 2, (boxes[:, 2:] - boxes[:, :2]) / 2,
                    False, None, u.facing_deg)


_ROTATIONS: dict[tuple, np.ndarray] = {}  # (facing, its sign) -> its rotation (read-only; a few facings in use)


def _rotation(facing_deg: float) -> np.ndarray:
    """The matrix taking table offsets to (across, -back) of a unit at ``facing_deg``."""
    key = (facing_deg, math.copysign(1.0, facing_deg))  # (-0.0 and 0.0 kept apart: the same floats as before)
    rot = _ROTATIONS.get(key)
    if rot is None:
        if len(_ROTATIONS) > 256:
            _ROTATIONS.clear()
        rx, ry = g.right(facing_deg)
        rot = _ROTATIONS[key] = np.array([[rx, -ry], [ry, rx]])
        rot.flags.writeable = False
    return rot


def model_contacts(ua: Unit, ms_a: list[Model], ub: Unit, ms_b: list[Model], tol: float) -> list[tuple[int, int]]:
    """Index pairs (i into ``ms_a``, j into ``ms_b``) of bases within ``tol`` mm, sorted."""
    return contacts_and_corners(ua, ms_a, ub, ms_b, tol)[0]


def contacts_and_corners(ua: Unit, ms_a: list[Model], ub: Unit, ms_b: list[Model],
                         tol: float) -> tuple[list[tuple[int, int]], list[bool]]:
    """:func:`model_contacts` and, for each pair, whether the two bases touch only at a corner
    (:func:`game.core.geometry.corner_touch`: no stretch of edge longer than ``tol`` mm along
    the other's edge). Two square-on rectangle sets answer from the same interval arrays
    (overlap at most ``tol`` on both axes)."""
    if not ms_a or not ms_b:
        return [], []
    A, B = _arrays(ua, ms_a), _arrays(ub, ms_b)
    # the bases of each unit near the other unit's bases (box of all of them, grown by tol)
    low_a, high_a, lo_a, hi_a = A.boxes()  # (kept on a unit's cached geometry)
    low_b, high_b, lo_b, hi_b = B.boxes()
    lo_b, hi_b, lo_a, hi_a = lo_b - tol, hi_b + tol, lo_a - tol, hi_a + tol
    near_a = (high_a >= lo_b) & (low_a <= hi_b)
    near_b = (high_b >= lo_a) & (low_b <= hi_a)
    ia = np.nonzero(near_a[:, 0] & near_a[:, 1])[0]
    ib = np.nonzero(near_b[:, 0] & near_b[:, 1])[0]
    if not len(ia) or not len(ib):
        return [], []
    ca, cb = A.centers[ia], B.centers[ib]
    if A.rect and B.rect and _square(A.facing_deg, B.facing_deg):
        # both sets of rectangles are axis-aligned in A's frame: exact gaps from intervals
        rot = _rotation(A.facing_deg)  # table -> (across, -back): columns right, forward
        la, lb = ca @ rot, cb @ rot
        wa, da = A.base
        wb, db = B.base
        turned = abs(((B.facing_deg - A.facing_deg) % 180.0) - 90.0) < 1e-6
        ha = (wa / 2, da / 2)
        hb = (db / 2, wb / 2) if turned else (wb / 2, db / 2)
        # per pair and axis: the gap between the intervals (negative: their overlap), then at
        # least 0 (both axes in one array: each element the same operations as one axis at a
        # time), then gx * gx + gy * gy
        gap = np.abs(la[:, None, :] - lb[None, :, :])
        gap -= np.array((ha[0] + hb[0], ha[1] + hb[1]))
        corner = (gap[:, :, 0] >= -tol) & (gap[:, :, 1] >= -tol)  # (no axis overlapping by more than tol)
        np.maximum(gap, 0.0, out=gap)
        gap *= gap
        pi, pj = np.nonzero(gap[:, :, 0] + gap[:, :, 1] <= tol * tol)
        # (row-major: already sorted)
        return list(zip(ia[pi].tolist(), ib[pj].tolist())), corner[pi, pj].tolist()
    # general case: box test on arrays, then the exact separating-axis test
    ha, hb = A.half[ia], B.half[ib]
    gx = np.maximum(np.abs(ca[:, None, 0] - cb[None, :, 0]) - (ha[:, None, 0] + hb[None, :, 0]), 0.0)
    gy = np.maximum(np.abs(ca[:, None, 1] - cb[None, :, 1]) - (ha[:, None, 1] + hb[None, :, 1]), 0.0)
    pi, pj = np.nonzero(gx * gx + gy * gy <= tol * tol)
    out = []
    for i, j in zip(ia[pi].tolist(), ib[pj].tolist()):
        if g.within(ms_a[i].shape, ms_b[j].shape, tol):
            out.append((i, j))
    out.sort()
    return out, [g.corner_touch(ms_a[i].shape, ms_b[j].shape, tol) for i, j in out]


def boxes_gap(a: Box, b: Box) -> float:
    """Lower bound of the gap between two boundaries from their boxes (mm)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return math.hypot(dx, dy)
