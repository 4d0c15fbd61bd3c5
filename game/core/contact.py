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

from game.core import geometry as g
from game.core.arrays import ops
from game.core.board import Unit
from game.core.unit_models import Model, UnitGeom

Box = tuple[float, float, float, float]


def unit_box(u: Unit, key: Optional[tuple] = None) -> Box:
    """(min_x, min_y, max_x, max_y) of ``u``'s boundary in table mm ((0, 0, 0, 0) if empty)."""
    if u.is_ranked:
        return u.tray().bbox()
    geom = u.geom(key)
    if not len(geom.ids):
        return (0.0, 0.0, 0.0, 0.0)
    _low, _high, lo, hi = geom.boxes()
    return (lo[0], lo[1], hi[0], hi[1])


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
        centers = ops.points(m.center for m in ms)
        half = ops.first_repeated(geom.half, len(ms))
        return UnitGeom([m.id for m in ms], centers, half, True, geom.base, geom.facing_deg, geom.template)
    centers, half = ops.from_bboxes(m.shape.bbox() for m in ms)
    return UnitGeom([m.id for m in ms], centers, half, False, None, u.facing_deg)


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
    if lo_a is None or lo_b is None:
        return [], []
    ia = ops.near(low_a, high_a, lo_b, hi_b, tol)
    ib = ops.near(low_b, high_b, lo_a, hi_a, tol)
    if not ops.count(ia) or not ops.count(ib):
        return [], []
    ca, cb = ops.take(A.centers, ia), ops.take(B.centers, ib)
    if A.rect and B.rect and _square(A.facing_deg, B.facing_deg):
        # both sets of rectangles are axis-aligned in A's frame: exact gaps from intervals
        rx, ry = g.right(A.facing_deg)  # table -> (across, -back): right, forward
        wa, da = A.base
        wb, db = B.base
        turned = abs(((B.facing_deg - A.facing_deg) % 180.0) - 90.0) < 1e-6
        ha = (wa / 2, da / 2)
        hb = (db / 2, wb / 2) if turned else (wb / 2, db / 2)
        # per pair and axis: the gap between the intervals (negative: their overlap), then at
        # least 0, then gx * gx + gy * gy (row-major: already sorted)
        return ops.square_pairs(ca, cb, rx, ry, (ha[0] + hb[0], ha[1] + hb[1]), tol, ia, ib)
    # general case: box test on arrays, then the exact separating-axis test
    ha, hb = ops.take(A.half, ia), ops.take(B.half, ib)
    out = []
    for i, j in ops.box_near_pairs(ca, ha, cb, hb, tol, ia, ib):
        if g.within(ms_a[i].shape, ms_b[j].shape, tol):
            out.append((i, j))
    out.sort()
    return out, [g.corner_touch(ms_a[i].shape, ms_b[j].shape, tol) for i, j in out]


def boxes_gap(a: Box, b: Box) -> float:
    """Lower bound of the gap between two boundaries from their boxes (mm)."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return math.hypot(dx, dy)
