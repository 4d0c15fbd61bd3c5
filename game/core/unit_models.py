"""A unit's models: :class:`Model` (one model on the table), :class:`Models` (a ranked unit's
models made from arrays when first read), :class:`SlotTemplate` (a formation's occupied slots,
wherever it stands) and :class:`UnitGeom` (a unit's models as arrays). Built by
:class:`game.core.board.Unit`; all values (treat as immutable).

Lengths in table mm; facings in degrees clockwise from north.
"""
from __future__ import annotations

import copy
from itertools import repeat
from operator import attrgetter
from typing import Any, Callable, Iterator, Optional, Sequence

from game.core import geometry as g
from game.core.arrays import ops

class Model:
    """One model on the table (treat as immutable).

    ``id`` is ``<unit>.<slot>`` (``dwarfs.r2f7``, ``intercessors.m3``); ``rank``/``file`` are
    1-based for ranked units and ``None`` for skirmishers; ``center`` in table mm; ``shape``
    the base outline (:class:`geometry.Poly` or :class:`geometry.Circle`). A unit builds its
    models from arrays (:meth:`Unit.geom`) and each base outline only when first asked for
    (``make_shape(center)``), so an analysis that never looks at a base never builds it.
    """

    __slots__ = ("id", "unit_id", "slot", "rank", "file", "center", "facing_deg", "_shape", "_make")

    def __init__(self, id: str, unit_id: str, slot: str, rank: Optional[int], file: Optional[int],
                 center: g.Point, facing_deg: float, shape: Optional[g.Shape] = None,
                 make_shape: Optional[Callable[[g.Point], g.Shape]] = None) -> None:
        if shape is None and make_shape is None:
            raise ValueError("a Model needs a shape or a make_shape")
        self.id = id
        self.unit_id = unit_id
        self.slot = slot
        self.rank = rank
        self.file = file
        self.center = center
        self.facing_deg = facing_deg
        self._shape = shape
        self._make = make_shape

    @property
    def shape(self) -> g.Shape:
        s = self._shape
        if s is None:
            assert self._make is not None  # the constructor asks for one of the two
            s = self._shape = self._make(self.center)
        return s

    def _key(self) -> tuple:
        return (self.id, self.unit_id, self.slot, self.rank, self.file, self.center, self.facing_deg, self.shape)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Model) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.id, self.center, self.facing_deg))

    def __repr__(self) -> str:
        return f"Model({self.id!r}, center={self.center!r}, facing_deg={self.facing_deg!r})"


class Models(list):
    """A ranked unit's models in slot order (what :meth:`Unit.models` gives it): a read-only
    list whose :class:`Model` objects are made only when it is first read as a list of models
    (iterated, indexed, compared, copied); ``ids`` (model ids, the formation's shared list) and
    :attr:`centers` (table mm) are the columns an analysis reads without making a model
    (:func:`ids_of`, :func:`centers_of`). ``len`` and truth never make them. Do not mutate."""

    __slots__ = ("ids", "_geom", "_uid", "_facing", "_centers", "_filled")

    def __init__(self, geom: "UnitGeom", uid: str, facing: float) -> None:
        super().__init__()
        self.ids: list[str] = geom.ids
        self._geom = geom  # (its ``base``: each model's (width, depth), for the base outlines)
        self._uid = uid
        self._facing = facing
        self._centers: Optional[list[g.Point]] = None
        self._filled = False

    @property
    def centers(self) -> list[g.Point]:
        """Each model's centre (table mm), in slot order (the same tuples as the models' ``center``)."""
        c = self._centers
        if c is None:
            c = self._centers = ops.rows(self._geom.centers)
        return c

    def _fill(self) -> "Models":
        if not self._filled:
            t, base = self._geom.template, self._geom.base
            assert t is not None and base is not None  # (a ranked unit's geometry)
            make = _corners_maker(base[0], base[1], self._facing)
            # one map over the formation's columns (no per-model tuple unpacking)
            list.extend(self, map(Model, self.ids, repeat(self._uid), t.names, t.ranks, t.files_, self.centers,
                                  repeat(self._facing), repeat(None), repeat(make)))
            self._filled = True
        return self

    def __len__(self) -> int:
        return len(self.ids)

    def __bool__(self) -> bool:
        return bool(self.ids)

    def __iter__(self) -> Iterator[Model]:
        return list.__iter__(self._fill())

    def __reversed__(self) -> Iterator[Model]:
        return list.__reversed__(self._fill())

    def __getitem__(self, i: Any) -> Any:
        return list.__getitem__(self._fill(), i)

    def __contains__(self, x: object) -> bool:
        return list.__contains__(self._fill(), x)

    def __eq__(self, other: object) -> bool:
        return list.__eq__(self._fill(), _filled(other))

    def __ne__(self, other: object) -> bool:
        return list.__ne__(self._fill(), _filled(other))

    def __lt__(self, other: Any) -> bool:
        return list.__lt__(self._fill(), _filled(other))

    def __le__(self, other: Any) -> bool:
        return list.__le__(self._fill(), _filled(other))

    def __gt__(self, other: Any) -> bool:
        return list.__gt__(self._fill(), _filled(other))

    def __ge__(self, other: Any) -> bool:
        return list.__ge__(self._fill(), _filled(other))

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: Any) -> Any:
        return list(self) + list(other)

    def __radd__(self, other: Any) -> Any:
        return list(other) + list(self)

    def __mul__(self, n: Any) -> Any:
        return list(self) * n

    __rmul__ = __mul__

    def index(self, *a: Any) -> int:
        return list.index(self._fill(), *a)

    def count(self, x: Any) -> int:
        return list.count(self._fill(), x)

    def copy(self) -> list[Model]:
        return list(self)

    def __copy__(self) -> list[Model]:
        return list(self)

    def __deepcopy__(self, memo: dict) -> list[Model]:
        return copy.deepcopy(list(self), memo)

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (list, (list(self),))

    def __repr__(self) -> str:
        return list.__repr__(self._fill())


def _read_only(name: str) -> Callable:
    def mutate(self: Models, *a: Any, **k: Any) -> Any:
        raise TypeError(f"a unit's models are read-only (Models.{name})")
    return mutate


for _name in ("append", "extend", "insert", "pop", "remove", "reverse", "sort", "clear", "__setitem__",
              "__delitem__", "__iadd__", "__imul__"):
    setattr(Models, _name, _read_only(_name))


def _filled(x: Any) -> Any:
    return x._fill() if type(x) is Models else x


_ID = attrgetter("id")
_CENTER = attrgetter("center")


def ids_of(ms: Sequence[Model]) -> list[str]:
    """The ids of models ``ms`` in order: a unit's own :class:`Models` gives its column (the
    formation's shared list, no model made; do not mutate), any other list its models' ids."""
    return ms.ids if type(ms) is Models else list(map(_ID, ms))


def centers_of(ms: Sequence[Model]) -> list[g.Point]:
    """The centres (table mm) of models ``ms`` in order, as :func:`ids_of` (do not mutate)."""
    return ms.centers if type(ms) is Models else list(map(_CENTER, ms))



class SlotTemplate:
    """The occupied slots of a ranked formation, independent of where the unit stands.

    ``slots``: [(rank, file)] front rank first; ``names``: ``r<rank>f<file>``; ``local``: the
    slot centres as points (:mod:`game.core.arrays`) of (across, back) mm from the middle of the front
    edge (across to the unit's right, back away from its front)."""

    __slots__ = ("slots", "names", "local", "ranks", "files_", "_ids", "_index", "_slot_index")

    def __init__(self, slots: list[tuple[int, int]], base_w: float, base_d: float, files: int) -> None:
        self.slots = slots
        self.names = [f"r{r}f{f}" for r, f in slots]
        self.local = ops.slot_local(slots, base_w, base_d, files)
        self.ranks = [r for r, _ in slots]
        self.files_ = [f for _, f in slots]
        self._ids: dict[str, list[str]] = {}
        self._index: dict[str, dict[str, int]] = {}
        self._slot_index: Optional[dict[tuple[int, int], int]] = None

    def index_of_slot(self) -> dict[tuple[int, int], int]:
        """(rank, file) -> its index in slot order (made once; do not mutate)."""
        hit = self._slot_index
        if hit is None:
            hit = self._slot_index = {rf: i for i, rf in enumerate(self.slots)}
        return hit

    def ids(self, unit_id: str) -> list[str]:
        """Model ids ``<unit>.<slot>`` in slot order (the same string objects for every pose of
        a unit, so a dict keyed by them never hashes a new string; do not mutate)."""
        hit = self._ids.get(unit_id)
        if hit is None:
            if len(self._ids) > 64:
                self._ids.clear()
            hit = self._ids[unit_id] = [f"{unit_id}.{n}" for n in self.names]
        return hit

    def index(self, unit_id: str) -> dict[str, int]:
        """Model id -> its index in slot order (:meth:`ids`; do not mutate)."""
        hit = self._index.get(unit_id)
        if hit is None:
            if len(self._index) > 64:
                self._index.clear()
            hit = self._index[unit_id] = {mid: i for i, mid in enumerate(self.ids(unit_id))}
        return hit


class UnitGeom:
    """A unit's models as arrays (built from a :class:`SlotTemplate` and the unit's pose).

    ``ids``: model ids in slot order; ``centers``: (n, 2) table mm; ``half``: (n, 2) half
    extents of each base's bounding box on the table; ``rect``: every base is a rectangle of
    ``base`` (width, depth) mm turned to ``facing_deg`` (ranked units), so two such units
    square to each other touch where their bases' intervals overlap."""

    __slots__ = ("ids", "centers", "half", "rect", "base", "facing_deg", "template", "_boxes")

    def __init__(self, ids: list[str], centers: Any, half: Any, rect: bool, base: Any, facing_deg: float,
                 template: Optional[SlotTemplate] = None) -> None:
        self.ids = ids
        self.centers = centers
        self.half = half
        self.rect = rect
        self.base = base
        self.facing_deg = facing_deg
        self.template = template
        self._boxes: Optional[tuple] = None

    def boxes(self) -> tuple:
        """``(low, high, lo, hi)``: each base's box corners (``centers -/+ half``, (n, 2) mm)
        and the box of them all (two ``(x, y)`` tuples, None when empty); worked out once per geometry (read-only)."""
        b = self._boxes
        if b is None:
            b = self._boxes = ops.boxes(self.centers, self.half)
        return b


def _corners_maker(w: float, d: float, facing_deg: float) -> Callable[[g.Point], g.Poly]:
    """A function: centre -> the rectangle of a (w x d) mm base at ``facing_deg``; corners
    front-left, front-right, back-right, back-left (as :func:`geometry.rect`)."""
    rx, ry = g.right(facing_deg)
    fx, fy = g.forward(facing_deg)
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = [(rx * a - fx * b, ry * a - fy * b) for a, b in
                                              ((-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2))]

    def make(c: g.Point) -> g.Poly:
        x, y = c
        return g.Poly(((x + ax, y + ay), (x + bx, y + by), (x + cx, y + cy), (x + dx, y + dy)))
    return make
