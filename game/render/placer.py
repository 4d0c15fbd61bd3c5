"""Where things are on the table in px: the boxes one drawing of the scene has taken
(:class:`Placer`: every label, badge and marker registers its box, the next one takes the
first free spot) and the boxes of the units as drawn (:class:`UnitBoxes`), which labels keep off.
"""
from __future__ import annotations

from typing import Iterable, Optional, Sequence

from game.core.analysis import Analysis
from game.core.board import Board, Unit, unit_of

from game.render.canvas import overlap_area
from game.render.gridindex import GridIndex
from game.render.transform import View

Point = tuple[float, float]
Box = tuple[float, float, float, float]


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
        self._avoid: tuple = (None, None)  # (the last ``avoid`` list, its index)

    def add(self, box: Box, soft: bool = False) -> None:
        (self.soft if soft else self.taken).append(box)
        (self._soft_ix if soft else self._taken_ix).add(box)

    def off_area(self, box: Box) -> float:
        x0, y0, x1, y1 = self.area
        return max(0.0, x0 - box[0]) + max(0.0, box[2] - x1) + max(0.0, y0 - box[1]) + max(0.0, box[3] - y1)

    def _avoid_index(self, avoid: Iterable[Box]) -> GridIndex:
        if self._avoid[0] is avoid:  # the same list as last time (the painter's unit boxes)
            return self._avoid[1]
        ix = GridIndex(avoid)
        if isinstance(avoid, list):
            self._avoid = (avoid, ix)
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
        """The first box scoring 0, else the lowest scoring one moved inside the area."""
        avoid = avoid if isinstance(avoid, list) else list(avoid)
        scores = []
        for b in boxes:
            sc = self.score(b, avoid)
            if sc <= 0:
                return b
            scores.append(sc)
        i = min(range(len(scores)), key=lambda k: (scores[k], k))
        return self.inside(boxes[i])


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
        self.trays: dict[str, Box] = {u.id: self.px_bbox(u) for u in board.units if _has_shapes(u)}
        self._drawn: Optional[dict[str, Box]] = None
        self._avoid: Optional[list[Box]] = None

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
            boxes = [b for uid, b in self.trays.items() if self.board.unit(uid).is_ranked and uid not in self.moved]
            for dm in models or []:
                if not dm.unit.is_ranked or dm.slot_from is not None or dm.unit.id in self.moved:
                    x0, y0, x1, y1 = dm.shape.bbox()
                    p0, p1 = v.to_px((x0, y0)), v.to_px((x1, y1))
                    boxes.append((p0[0], p0[1], p1[0], p1[1]))
            self._avoid = boxes
        return self._avoid


def moved_units(analysis: Optional[Analysis]) -> set[str]:
    """Ids of the units with a model a rule moved in ``analysis`` (None: none)."""
    return {unit_of(m) for m in (analysis.moves if analysis is not None else {})}


def _has_shapes(u: Unit) -> bool:
    try:
        return bool(u.models()) or u.is_ranked
    except Exception:
        return False
