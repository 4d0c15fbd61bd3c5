"""Where things are on the table in px: the boxes one drawing of the scene has taken
(:class:`Placer`: every label, badge and marker registers its box, the next one takes the
first free spot) and the boxes of the units as drawn (:class:`UnitBoxes`), which labels keep off.
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Optional, Sequence

try:
    import numpy as np
    HAVE_NUMPY = True
except ImportError:  # a browser page (python main.py live): the plain loop scores every candidate, same answer
    HAVE_NUMPY = False

from game.core.analysis import Analysis
from game.core.board import Board, Unit, unit_of

from game.render.canvas import overlap_area
from game.render.gridindex import GridIndex
from game.render.label_near import BaseIndex
from game.render.transform import View

Point = tuple[float, float]
Box = tuple[float, float, float, float]


class Placements:
    """Where drawings of the scene placed their labels, badges and markers, so a part of the
    picture drawn again puts each where it was (:class:`game.window.retained.RetainedScene`
    redraws the region a unit left and keeps the other labels in place).

    ``seen``: (canvas tag, candidate px boxes) -> the box :meth:`Placer.best` chose, for every
    choice of the drawings given these placements; with ``reuse`` (an earlier drawing's
    ``seen``), a choice among the same candidates under the same tag returns the box chosen
    then, and one not found there counts in ``missed`` (then placed as usual)."""

    def __init__(self, reuse: Optional[dict] = None):
        self.reuse = reuse
        self.seen: dict = {}
        self.missed = 0
        self.canvas: Any = None  # the canvas being drawn (its tag names the choice)


#: How many ``avoid`` lists a placer keeps indexed (a layer may alternate between two or three:
#: every drawn base, and those plus the start outlines)
AVOID_KEPT = 4


class Placer:
    """Boxes ``(x0, y0, x1, y1)`` px already taken on the table, and where the next goes.
    Boxes are kept in grid indexes (:class:`~game.render.gridindex.GridIndex`), so scoring a spot
    looks only at the boxes near it, however many units the table holds."""

    def __init__(self, area: Box):
        self.area = area
        self.taken: list[Box] = []   # labels, badges, markers: nothing may overlap these
        self.soft: list[Box] = []    # units and links: avoided when possible
        self._taken_ix = GridIndex()
        self._soft_ix = GridIndex()
        self._avoid: list[tuple] = []  # (an ``avoid`` list, its index), the last AVOID_KEPT used
        self._arrays: dict[str, tuple] = {}  # "taken" / "soft" / "avoid" -> (list, its length then, (n, 4) array)
        self.memo: Optional[Placements] = None  # choices noted and reused (see Placements)

    def add(self, box: Box, soft: bool = False) -> None:
        (self.soft if soft else self.taken).append(box)
        (self._soft_ix if soft else self._taken_ix).add(box)

    def off_area(self, box: Box) -> float:
        x0, y0, x1, y1 = self.area
        return max(0.0, x0 - box[0]) + max(0.0, box[2] - x1) + max(0.0, y0 - box[1]) + max(0.0, box[3] - y1)

    def _avoid_index(self, avoid: Iterable[Box]) -> GridIndex:
        for kept, ix in self._avoid:
            if kept is avoid:  # a list indexed before (the painter's unit boxes, a layer's bases)
                return ix
        ix = GridIndex(avoid)
        if isinstance(avoid, list):
            self._avoid = [(avoid, ix), *self._avoid[:AVOID_KEPT - 1]]
        return ix

    def score(self, box: Box, avoid: Iterable[Box] = ()) -> float:
        hard = sum(overlap_area(box, b) for b in self._taken_ix.near(box))
        soft = sum(overlap_area(box, b) for b in self._soft_ix.near(box))
        soft += sum(overlap_area(box, b) for b in self._avoid_index(avoid).near(box))
        return hard * 1e4 + soft + self.off_area(box) * 1e6

    def inside(self, box: Box) -> Box:
        """``box`` shifted into the area (if it is larger, its top-left corner stays in)."""
        x0, y0, x1, y1 = self.area
        w, h = box[2] - box[0], box[3] - box[1]
        nx = min(max(box[0], x0), max(x0, x1 - w))
        ny = min(max(box[1], y0), max(y0, y1 - h))
        return (nx, ny, nx + w, ny + h)

    def best(self, boxes: Sequence[Box], avoid: Iterable[Box] = ()) -> Box:
        """The first box scoring 0, else the lowest scoring one moved inside the area (with
        :attr:`memo`: the box an earlier drawing chose among the same candidates)."""
        memo = self.memo
        if memo is None:
            return self._best(boxes, avoid)
        key = (getattr(memo.canvas, "tag", ""), tuple(boxes))
        if memo.reuse is not None:
            hit = memo.reuse.get(key)
            if hit is not None:
                memo.seen[key] = hit
                return hit
            memo.missed += 1
        b = memo.seen[key] = self._best(boxes, avoid)
        return b

    def _best(self, boxes: Sequence[Box], avoid: Iterable[Box]) -> Box:
        avoid = avoid if isinstance(avoid, list) else list(avoid)
        scores = []
        for k, b in enumerate(boxes):
            if k == VECTOR_FROM and len(boxes) > 2 * VECTOR_FROM and HAVE_NUMPY:
                # the first few were not free: score all the rest at once
                i = self._best_index(boxes, avoid)
                if i is not None:
                    return boxes[i] if i >= 0 else self.inside(boxes[-1 - i])
            sc = self.score(b, avoid)
            if sc <= 0:
                return b
            scores.append(sc)
        i = min(range(len(scores)), key=lambda k: (scores[k], k))
        return self.inside(boxes[i])


    def _stored(self, which: str, boxes: list[Box]) -> Optional[np.ndarray]:
        """``boxes`` (a list only ever appended to, or the avoid list) as an (n, 4) array,
        built again only when the list grew or is another list; None when a box is not finite."""
        hit = self._arrays.get(which)
        if hit is not None and hit[0] is boxes and hit[1] == len(boxes):
            return hit[2]
        arr = np.array(boxes, dtype=float).reshape(-1, 4) if boxes else np.zeros((0, 4))
        if not np.isfinite(arr).all():
            return None
        self._arrays[which] = (boxes, len(boxes), arr)
        return arr

    def _best_index(self, boxes: Sequence[Box], avoid: list[Box]) -> Optional[int]:
        """What :meth:`best` picks, worked out for every candidate at once: ``k`` for
        ``boxes[k]`` as it is (the first scoring 0), ``-1 - k`` for ``boxes[k]`` moved inside,
        None when the candidates or boxes are not all finite (the plain loop decides).

        A score is 0 exactly when every overlap and the part off the area are 0, whatever
        order they are added in, so the first free candidate is the plain loop's. Otherwise the
        few candidates whose score (added up in another order: a relative error of at most
        about 1e-13) lies within 1e-9 of the lowest are scored again by :meth:`score`, in the
        plain loop's order, and the lowest of those (the first on a tie) is the plain loop's."""
        cand = np.array(boxes, dtype=float).reshape(-1, 4)
        if not np.isfinite(cand).all():
            return None
        stored = [self._stored("taken", self.taken), self._stored("soft", self.soft), self._stored("avoid", avoid)]
        cx0, cy0, cx1, cy1 = (cand[:, i:i + 1] for i in range(4))
        # only the stored boxes near the candidates (grid look-ups over their joint box): a box
        # meeting none of them adds 0 to every sum, and the sums decide only through "is it 0"
        # and "within 1e-9 of the lowest", both kept by leaving out zeros (a table of 500
        # units: every label against every box was quadratic)
        union = (float(cand[:, 0].min()), float(cand[:, 1].min()), float(cand[:, 2].max()), float(cand[:, 3].max()))
        indexes = (self._taken_ix, self._soft_ix, self._avoid_index(avoid))
        sums = []
        for arr, ix in zip(stored, indexes):
            if arr is None:
                return None
            if len(ix) == len(arr):
                arr = arr[np.asarray(ix.near_ids(union), dtype=np.intp)].reshape(-1, 4)
            w = np.minimum(cx1, arr[:, 2]) - np.maximum(cx0, arr[:, 0])
            h = np.minimum(cy1, arr[:, 3]) - np.maximum(cy0, arr[:, 1])
            sums.append(np.where((w > 0) & (h > 0), w * h, 0.0).sum(axis=1))
        x0, y0, x1, y1 = self.area
        off = (np.maximum(0.0, x0 - cand[:, 0]) + np.maximum(0.0, cand[:, 2] - x1) + np.maximum(0.0, y0 - cand[:, 1])
               + np.maximum(0.0, cand[:, 3] - y1))
        approx = sums[0] * 1e4 + (sums[1] + sums[2]) + off * 1e6
        free = np.flatnonzero(approx <= 0)
        if len(free):
            return int(free[0])
        low = float(approx.min())
        if not math.isfinite(low):
            return None
        near = np.flatnonzero(approx <= low * (1 + 1e-9))
        scores = [(self.score(boxes[int(k)], avoid), int(k)) for k in near]
        return -1 - min(scores)[1]


VECTOR_FROM = 6  # :meth:`Placer.best` scores the first ones one by one, then (of many) all at once (numpy)


def link_box(a: Point, b: Point, width: float) -> Box:
    """The px box of a straight link from ``a`` to ``b`` ``width`` px wide."""
    return (min(a[0], b[0]) - width, min(a[1], b[1]) - width, max(a[0], b[0]) + width, max(a[1], b[1]) + width)


def first_free(placer: Placer, boxes: Sequence[Box]) -> Optional[Box]:
    """The first of ``boxes`` free of every taken box and inside the area (None if none is)."""
    for b in boxes:
        if placer.score(b) <= 0:
            return b
    return None


class UnitBoxes:
    """Px boxes ``(x0, y0, x1, y1)`` of the units of ``board`` through ``view``: each unit's
    tray (or bases) where the board holds it, and as drawn once the scene knows its drawn models
    (a rule's move puts bases elsewhere; ``moved``: ids of units a rule moved)."""

    def __init__(self, board: Board, view: View, moved: set[str]):
        self.board, self.view, self.moved = board, view, moved
        self._trays: Optional[dict[str, Box]] = None
        self._drawn: Optional[dict[str, Box]] = None
        self._avoid: Optional[list[Box]] = None
        self._bases: Optional[BaseIndex] = None

    @property
    def trays(self) -> dict[str, Box]:
        """Unit id -> the px box of the unit where the board holds it (worked out on first use:
        a drawing that places no label needs none)."""
        if self._trays is None:
            self._trays = {u.id: self.px_bbox(u) for u in self.board.units if _has_shapes(u)}
        return self._trays

    def px_bbox(self, u: Unit) -> Box:
        """The px box of unit ``u`` where the board holds it (its tray, or its bases)."""
        shapes = [u.tray()] if u.is_ranked else [m.shape for m in u.models()]
        xs, ys = [], []
        for s in shapes:
            b = s.bbox()
            xs += [b[0], b[2]]
            ys += [b[1], b[3]]
        p0 = self.view.to_px((min(xs), min(ys)))
        p1 = self.view.to_px((max(xs), max(ys)))
        return (p0[0], p0[1], p1[0], p1[1])

    def drawn_box(self, uid: str, models: Sequence) -> Optional[Box]:
        """Px box of a unit as drawn: its bases where the figure draws them (``models``, the
        drawn models; after a rule's move), plus its tray when none of its models moved. Built
        once, on the first call."""
        if self._drawn is None:
            v = self.view
            out: dict = {}
            if v.scale > 0:
                # px = offset + mm * scale never decreases as mm grows (rounding included), so
                # the px box of the bases is the px of their mm box: two conversions per unit
                mm: dict = {}
                for dm in models or []:
                    x0, y0, x1, y1 = dm.shape.bbox()
                    q = mm.get(dm.unit.id)
                    if q is None:
                        mm[dm.unit.id] = [x0, y0, x1, y1]
                        continue
                    if x0 < q[0]:
                        q[0] = x0
                    if y0 < q[1]:
                        q[1] = y0
                    if x1 > q[2]:
                        q[2] = x1
                    if y1 > q[3]:
                        q[3] = y1
                for key, q in mm.items():
                    p0, p1 = v.to_px((q[0], q[1])), v.to_px((q[2], q[3]))
                    out[key] = [p0[0], p0[1], p1[0], p1[1]]
            else:
                for dm in models or []:
                    x0, y0, x1, y1 = dm.shape.bbox()
                    p0, p1 = v.to_px((x0, y0)), v.to_px((x1, y1))
                    q = out.setdefault(dm.unit.id, [p0[0], p0[1], p1[0], p1[1]])
                    q[0], q[1], q[2], q[3] = min(q[0], p0[0]), min(q[1], p0[1]), max(q[2], p1[0]), max(q[3], p1[1])
            for key, tb in self.trays.items():
                if key not in self.moved or key not in out:
                    q = out.setdefault(key, list(tb))
                    q[0], q[1], q[2], q[3] = min(q[0], tb[0]), min(q[1], tb[1]), max(q[2], tb[2]), max(q[3], tb[3])
            self._drawn = {k: (v_[0], v_[1], v_[2], v_[3]) for k, v_ in out.items()}
        return self._drawn.get(uid)

    def avoid(self, models: Sequence) -> list[Box]:
        """Px boxes labels keep off: each ranked unit's tray and each other drawn base (the
        same list on every call, so the placer indexes it once)."""
        if self._avoid is None:
            v = self.view
            first: dict[str, Unit] = {}
            for u in self.board.units:
                first.setdefault(u.id, u)  # (as board.unit(uid): the first unit of that id)
            boxes = [b for uid, b in self.trays.items() if first[uid].is_ranked and uid not in self.moved]
            for dm in models or []:
                if not dm.unit.is_ranked or dm.slot_from is not None or dm.unit.id in self.moved:
                    x0, y0, x1, y1 = dm.shape.bbox()
                    p0, p1 = v.to_px((x0, y0)), v.to_px((x1, y1))
                    boxes.append((p0[0], p0[1], p1[0], p1[1]))
            self._avoid = boxes
        return self._avoid


    def base_index(self, models: Sequence) -> BaseIndex:
        """The px box of each drawn base (``models``, the drawn models) by unit id, indexed for
        asking which unit a label's spot is nearest (built once, on the first call)."""
        if self._bases is None:
            v = self.view
            out: dict[str, list[Box]] = {}
            for dm in models or []:
                x0, y0, x1, y1 = dm.shape.bbox()
                a, b = v.to_px((x0, y0)), v.to_px((x1, y1))
                out.setdefault(dm.unit.id, []).append((min(a[0], b[0]), min(a[1], b[1]),
                                                       max(a[0], b[0]), max(a[1], b[1])))
            self._bases = BaseIndex(out)
        return self._bases


def moved_units(analysis: Optional[Analysis]) -> set[str]:
    """Ids of the units with a model a rule moved in ``analysis`` (None: none)."""
    return {unit_of(m) for m in (analysis.moves if analysis is not None else {})}


def _has_shapes(u: Unit) -> bool:
    try:
        return bool(u.models()) or u.is_ranked
    except Exception:
        return False
