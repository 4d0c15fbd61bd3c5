"""Models as a figure draws them: at their analysed place (after a rule-mandated move), in the
combat slot they fill, or where they stand; plus small px helpers shared by the painters.

Re-exported by :mod:`game.render.scene` (``drawn_models``, ``model_at``, ``DrawnModel``...).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from game.core.analysis import Analysis
from game.core import geometry as g
from game.core.board import Board, Unit, base_shape, unit_of
from game.core.parts import CombatSlots, OffTable
from game.render.gridindex import GridIndex

Point = tuple[float, float]


@dataclass
class DrawnModel:
    """A model as drawn: id, unit, base shape (table mm, at its analysed position), role."""

    id: str
    unit: Unit
    shape: g.Shape
    role: str
    slot_from: Optional[Point] = None  # where it stands in its unit, when drawn in a combat slot


class DrawnList(list[DrawnModel]):
    """The window's drawn models of a board (a list of :class:`DrawnModel`) with ``by_unit``:
    unit id -> that unit's drawn models, one list object per unit that stays the same while
    the unit and its results do (so an unchanged unit is recognised by identity: the legend
    and hit tests keep their work per unit); built by :mod:`game.window.retained`."""

    by_unit: dict[str, list[DrawnModel]]
    marks: dict  # unit id -> what its results draw on its bases beyond the roles (retained.result_marks)


def slot_moves(board: Board, analysis: Optional[Analysis], shapes: dict) -> dict:
    """``{model id: (from, to)}`` (mm) of models allocated to a combat slot away from where they
    stand (a :class:`~game.core.parts.CombatSlots` part): drawn standing in the slot, unless it already touches the enemy
    unit or the slot's place is taken by another base. The bases near a slot are found through
    a :class:`~game.render.gridindex.GridIndex` (two 10,000-model units: every base against
    every slot took minutes)."""
    out: dict = {}
    part = analysis.part(CombatSlots) if analysis is not None else None
    slots = part.slots if part is not None else ()
    if not slots:
        return out
    ids = list(shapes)
    boxes = [shapes[m].bbox() for m in ids]
    sizes = sorted(max(b[2] - b[0], b[3] - b[1]) for b in boxes) or [1.0]
    cell = max(1.0, 2.0 * sizes[len(sizes) // 2])
    stand = GridIndex(boxes, cell_px=cell)  # every base where it stands
    placed = GridIndex(cell_px=cell)  # bases moved into their slots so far
    placed_shapes: list = []
    for s in slots:
        f, owner, at = s.filled_by, s.model, s.at
        if not f or f not in shapes or at is None or f in out:
            continue
        c = shapes[f].center
        if g.dist(c, tuple(at)) < 1.0:
            continue
        enemy = unit_of(owner or "")  # a model already touching the enemy unit stays put
        if any(unit_of(ids[i]) == enemy and g.gap_mm(shapes[f], shapes[ids[i]]) < 0.5
               for i in stand.near_ids(_grown(shapes[f].bbox(), 0.5))):
            continue
        to = (float(at[0]), float(at[1]))
        moved = _moved(shapes[f], c, to)  # a slot another base stands on: the model stays, the slot is marked
        box = moved.bbox()
        if any(ids[i] != f and ids[i] not in out and g.gap_mm(moved, shapes[ids[i]]) < -0.5
               for i in stand.near_ids(box)) or any(g.gap_mm(moved, placed_shapes[i]) < -0.5
                                                   for i in placed.near_ids(box)):
            continue
        out[f] = (c, to)
        placed.add(box)
        placed_shapes.append(moved)
    return out


def _grown(box: tuple, by_mm: float) -> tuple:
    return (box[0] - by_mm, box[1] - by_mm, box[2] + by_mm, box[3] + by_mm)


def drawn_models(board: Board, analysis: Optional[Analysis]) -> list[DrawnModel]:
    """Every model as the figure draws it: analysed models at their ``at`` position (after any
    rule-mandated move; a model allocated to a combat slot in that slot, see
    :func:`slot_moves`), plus board models the analysis does not mention (role ``none``),
    except the vacated start of a move. One convention in every view: a moved model is drawn
    where it ends (its ``at``), its start is the dashed outline, also when the board itself is
    not moved (a preview); models of an :class:`~game.core.parts.OffTable` part (embarked,
    destroyed) are not drawn."""
    out: list[DrawnModel] = []
    units = {u.id: u for u in board.units}
    board_models = {}
    for u in board.units:
        try:
            for m in u.models():
                board_models[m.id] = (u, m)
        except Exception:
            continue
    amodels = analysis.models if analysis is not None else {}
    moves = analysis.moves if analysis is not None else {}
    part = analysis.part(OffTable) if analysis is not None else None
    off = part.why if part is not None else {}  # embarked or destroyed: not drawn at all
    for mid, r in amodels.items():
        unit = units.get(unit_of(mid))
        if unit is None or mid in off:
            continue
        at: Optional[Point] = (float(r.at[0]), float(r.at[1])) if r.at is not None else None
        known = board_models.get(mid)
        if known is not None and (at is None or g.dist(at, known[1].center) < 1e-6):
            shape = known[1].shape
        elif at is not None:
            shape = _shape_at(unit, known[1] if known is not None else None, at)
        else:
            continue
        out.append(DrawnModel(mid, unit, shape, r.role))
    starts = [tuple(p[0]) for p in moves.values() if p]
    for mid, (u, m) in board_models.items():
        if mid in amodels or mid in off:
            continue
        if any(g.dist(m.center, s) < 0.5 for s in starts):
            continue
        out.append(DrawnModel(mid, u, m.shape, "none"))
    sm = slot_moves(board, analysis, {dm.id: dm.shape for dm in out})
    for dm in out:
        if dm.id in sm:
            dm.shape = _moved(dm.shape, *sm[dm.id])
            dm.slot_from = sm[dm.id][0]
    return out


def _shape_at(u: Unit, m: Any, at: Point) -> g.Shape:
    if u.is_ranked:
        return g.rect(at, u.base_w, u.base_d, u.facing_deg)
    if m is not None:  # its own base, moved so the model's centre is ``at``
        if isinstance(m.shape, g.Circle):
            return m.shape.moved(at)
        return m.shape.translated(at[0] - m.center[0], at[1] - m.center[1])
    return base_shape(u.base, at, u.facing_deg)


def _moved(s: g.Shape, frm: Point, to: Point) -> g.Shape:
    return s.translated(to[0] - frm[0], to[1] - frm[1])


def _contains(dm: DrawnModel, p_mm: Point) -> bool:
    s = dm.shape
    if isinstance(s, g.Circle):
        return g.dist(p_mm, s.center) <= s.radius_mm
    return g.point_in_poly(p_mm, s.points)


class HitIndex:
    """Drawn models' base boxes in a uniform grid (table mm, cells twice the median base), so
    a point is tested against the few bases of its cell only; a base over many cells is
    always a candidate. Built once per list of drawn models (:func:`model_at` keeps the last
    few)."""

    __slots__ = ("models", "n", "cell", "cells", "big")

    def __init__(self, models: Sequence[DrawnModel]) -> None:
        self.models, self.n = models, len(models)
        boxes = [dm.shape.bbox() for dm in models]
        sizes = sorted(max(b[2] - b[0], b[3] - b[1]) for b in boxes) or [1.0]
        self.cell = max(1.0, 2.0 * sizes[len(sizes) // 2])
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.big: list[int] = []
        c = self.cell
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            a, b, e, f = math.floor(x0 / c), math.floor(y0 / c), math.floor(x1 / c), math.floor(y1 / c)
            if (e - a + 1) * (f - b + 1) > 64:
                self.big.append(i)
                continue
            for cx in range(a, e + 1):
                for cy in range(b, f + 1):
                    self.cells.setdefault((cx, cy), []).append(i)

    def at(self, p_mm: Point) -> Optional[DrawnModel]:
        """The drawn model whose base contains ``p_mm`` (the last drawn of them), or None."""
        here = self.cells.get((math.floor(p_mm[0] / self.cell), math.floor(p_mm[1] / self.cell)), [])
        for i in sorted(set(here) | set(self.big), reverse=True) if self.big else reversed(here):
            if _contains(self.models[i], p_mm):
                return self.models[i]
        return None


_INDEXES: list[HitIndex] = []  # the last few lists of drawn models indexed (newest last)


def model_at(models: Sequence[DrawnModel], p_mm: Point) -> Optional[DrawnModel]:
    """The drawn model whose base contains table point ``p_mm`` (last drawn wins). A long list
    is looked up through its :class:`HitIndex` (built on the first look-up of that list)."""
    if len(models) < 64:
        for dm in reversed(models):
            if _contains(dm, p_mm):
                return dm
        return None
    by_unit = models.by_unit if isinstance(models, DrawnList) else None
    if by_unit is not None and sum(map(len, by_unit.values())) == len(models):
        return _unit_at(by_unit, p_mm)
    idx = next((x for x in _INDEXES if x.models is models and x.n == len(models)), None)
    if idx is None:
        idx = HitIndex(models)
        _INDEXES.append(idx)
        del _INDEXES[:-4]
    return idx.at(p_mm)


_UNITS: dict[str, tuple] = {}  # unit id -> (its list of drawn models, their box mm, its HitIndex or None)


def _unit_at(by_unit: dict, p_mm: Point) -> Optional[DrawnModel]:
    """:func:`model_at` over the window's drawn models, one list per unit (the same object
    while the unit and its results stay the same; the lists in drawing order): the units
    from the last drawn, each skipped when its box does not hold the point, else looked up
    through its own index, kept while the unit's list is the same. A drop that changed one
    unit indexes that unit again, not the whole table."""
    for uid in reversed(by_unit):
        lst = by_unit[uid]
        hit = _UNITS.get(uid)
        if hit is None or hit[0] is not lst:
            if not lst:
                continue
            bs = [dm.shape.bbox() for dm in lst]
            box = (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs))
            hit = _UNITS[uid] = (lst, box, HitIndex(lst) if len(lst) >= 64 else None)
            if len(_UNITS) > 4 * len(by_unit) + 64:  # units long gone
                for k in [k for k in _UNITS if k not in by_unit]:
                    del _UNITS[k]
        box = hit[1]
        if not (box[0] <= p_mm[0] <= box[2] and box[1] <= p_mm[1] <= box[3]):
            continue
        if hit[2] is not None:
            dm = hit[2].at(p_mm)
        else:
            dm = next((d for d in reversed(lst) if _contains(d, p_mm)), None)
        if dm is not None:
            return dm
    return None


def font_px(px: float, supersample: int = 1) -> int:
    """A font size ``px`` (canvas px) rounded to whole px at the final size (at least 6)."""
    ss = max(1, int(supersample))
    return max(6, int(round(px / ss))) * ss


def circle_pts(center: Point, radius: float, n: int = 24) -> list[Point]:
    """A circle (px) as an ``n``-gon, for hatching."""
    return [(center[0] + radius * math.cos(2 * math.pi * i / n), center[1] + radius * math.sin(2 * math.pi * i / n))
            for i in range(n)]
