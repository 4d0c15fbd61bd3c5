"""The bases of an enemy unit as boxes, for The Old World's gaps (:mod:`.tow_gaps`): their
bounding boxes as columns (kept by the identity of the model list, so a unit standing still is
not boxed again next frame; a ranked unit's own models boxed from its centres), whether every
base is a square-on rectangle (its box is its outline), and the box lower bounds of a model's
gaps to them with the exact gap to the nearest. Pure: the array work in the kernels
:func:`game.core.arrays.twin` chooses (numpy, or plain Python with the same bits).
"""
from __future__ import annotations

import math
from typing import Any, Optional

from game.core import geometry as g
from game.core.arrays import twin
from game.core.unit_models import ids_of
from game.core.lru import LRU

_K = twin("game.engines.rank_and_file.gap_arrays")
_BOXES = LRU(256)  # id(model list) -> (the list, its boxes' x0, y0, x1, y1 columns)
#: mm: far above the float error of a box bound, far below any distance that matters
EPS_MM = 1e-6


def boxes(ems: list, unit: Any = None) -> Any:
    """The bases' bounding boxes of the model list ``ems`` as the kernels' cols (x0, y0, x1, y1; numpy: a (4, n) array),
    each ``em.shape.bbox()``. ``unit``: the ranked unit whose own models ``ems`` are (as its
    pose gives them): the boxes come from its arrays without building a shape (see
    :func:`rect_boxes`)."""
    hit = _BOXES.get(id(ems))
    if hit is None or hit[0] is not ems:
        arr = rect_boxes(unit, ems)
        if arr is None:
            arr = _K.bbox_cols([em.shape.bbox() for em in ems])
        hit = _BOXES.put(id(ems), (ems, arr))
    return hit[1]


def rect_boxes(unit: Any, ems: list) -> Optional[Any]:
    """The cols of the boxes of a ranked unit's own models from its centres: a base's corners are
    its centre plus four fixed offsets (:func:`game.core.board._corners_maker`), and a float
    sum is monotonic, so ``min(x + a_i) == x + min(a_i)``: the same numbers as each shape's
    ``bbox()``. None when ``ems`` are not ``unit``'s own models (moved ones, a skirmish unit)."""
    if unit is None or not unit.is_ranked:
        return None
    key = unit.pose_key()
    if ems is not unit.models(key) or not len(ems):
        return None
    w, d = unit.base_w, unit.base_d
    rx, ry = g.right(unit.facing_deg)
    fx, fy = g.forward(unit.facing_deg)
    offs = [(rx * a - fx * b, ry * a - fy * b) for a, b in ((-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2))]
    c = unit.geom(key).centers
    ox, oy = [o[0] for o in offs], [o[1] for o in offs]
    return _K.centre_cols(c, (min(ox), min(oy)), (max(ox), max(oy)))


_KINDS = LRU(256)  # id(model list) -> (the list, its unit, (box_like of every base or None, {model id: index}))


def _offsets(unit: Any) -> list[tuple[float, float]]:
    """The four corner offsets of a ranked unit's bases from their centres, computed as
    :func:`game.core.board._corners_maker` does (the same floats)."""
    w, d = unit.base_w, unit.base_d
    rx, ry = g.right(unit.facing_deg)
    fx, fy = g.forward(unit.facing_deg)
    return [(rx * a - fx * b, ry * a - fy * b) for a, b in ((-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2))]


def _codes(es: list[float], r: float) -> Optional[list[int]]:
    """:func:`geometry.box_like`'s corner code of each of four coordinates ``centre + es[i]``
    (0: within 1e-9 mm of the smallest, else 1: within 1e-9 of the largest, else -1) for any
    centre whose sums round by at most ``r`` (mm) in a difference; None when a coordinate lies
    too near the 1e-9 mm threshold for that to hold (between 0.5e-9 and 2e-9 from it, plus ``r``)."""
    lo, hi = min(es), max(es)
    out = []
    for e in es:
        a, b = e - lo, hi - e
        if a + r < 0.5e-9:
            out.append(0)
        elif a - r <= 2e-9:
            return None
        elif b + r < 0.5e-9:
            out.append(1)
        elif b - r > 2e-9:
            out.append(-1)
        else:
            return None
    return out


def unit_box_like(unit: Any, ems: list) -> Optional[bool]:
    """:func:`geometry.box_like` of every base of a ranked unit's own models at once (``ems``
    as its pose gives them; the same for all: each outline is its centre plus the same four
    offsets), from the offsets alone: the sums round by at most ``r`` (a few ulps of the
    largest coordinate), far below the 1e-9 mm test's margins, so each corner's code is the
    same whatever the centre. None when ``ems`` are not ``unit``'s own models, or an offset
    lies too near a margin (each shape is read then)."""
    got = kind_of(unit, ems)
    return None if got is None else got[0]


def kind_of(unit: Any, ems: list) -> Optional[tuple[Optional[bool], dict]]:
    """``(unit_box_like(unit, ems), {model id: its index in ems})`` for a ranked unit's own
    models (kept per list), else None."""
    if unit is None or not unit.is_ranked or not len(ems):
        return None
    hit = _KINDS.get(id(ems))
    if hit is not None and hit[0] is ems and hit[1] is unit:
        return hit[2]
    key = unit.pose_key()
    if ems is not unit.models(key):
        return None
    offs = _offsets(unit)
    big = _K.max_abs(unit.geom(key).centers) + max(abs(v) for o in offs for v in o)
    r = 4 * math.ulp(big)
    cx, cy = _codes([o[0] for o in offs], r), _codes([o[1] for o in offs], r)
    verdict = None if cx is None or cy is None else (
        -1 not in cx and -1 not in cy and set(zip(cx, cy)) == {(0, 0), (0, 1), (1, 0), (1, 1)})
    t = unit.geom(key).template  # (its own models: in its formation's slot order, whose index is kept)
    out = (verdict, t.index(unit.id) if t is not None else {mid: i for i, mid in enumerate(ids_of(ems))})
    _KINDS.put(id(ems), (ems, unit, out))
    return out


def lower(m: Any, ems: list, bx: Any = None) -> Any:
    """Box lower bounds (mm) of the gaps from model ``m`` to each base of ``ems`` (shape (n,));
    ``bx``: their :func:`boxes` when the caller has them."""
    return _K.lower(boxes(ems) if bx is None else bx, m.shape.bbox())


def exact(m: Any, ems: list, low: Any, limit: Optional[float]) -> float:
    """The gap from ``m`` to the nearest base of ``ems`` (``low``: :func:`lower`); once one is
    within ``limit``, that one (inf when ``ems`` is empty)."""
    if not len(ems):
        return math.inf
    i = _K.argmin(low)  # the first of the stable order below; mostly the only one needed
    best = g.gap_mm(m.shape, ems[i].shape)
    if (limit is not None and best <= limit) or _K.count_below(low, best) == int(low[i] < best):
        return best  # what the loop would return: no other box is nearer than this exact gap
    for i in _K.stable_order(low)[1:]:
        if low[i] >= best:
            break
        best = min(best, g.gap_mm(m.shape, ems[i].shape))
        if limit is not None and best <= limit:
            break
    return best
