"""The board: units and their models on the table (the single source of truth).

A :class:`Board` is what a scenario file describes (see ``shared/spec/scenario-format.md``).
Units are either *ranked* (rank-and-file on a movement tray: ``files``, ``models``,
``last_rank``, ``empty``, ``front``, ``facing``) or *skirmish* (models placed one by one).
:meth:`Unit.models` derives each model's id, slot and base shape from the unit's pose.

Lengths in table mm; facings in degrees clockwise from north.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from itertools import repeat
from contextlib import contextmanager
from operator import attrgetter
from typing import Any, Callable, Iterator, Optional, Sequence


from game.core import geometry as g
from game.core.arrays import ops
from game.core.lru import LRU


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


def unit_of(model_id: str) -> str:
    """The unit id of a model id ``<unit>.<slot>`` (``dwarfs.r2f7`` -> ``dwarfs``; unit ids hold
    no dot). A :class:`Model` carries it as ``unit_id``; results key models by id only."""
    return model_id.split(".", 1)[0]


def slot_name(rank: int, file: int) -> str:
    return f"r{rank}f{file}"


def parse_slot(slot: str) -> tuple[int, int]:
    """``'r2f7'`` -> ``(2, 7)``; raises ValueError on anything else."""
    if not slot.startswith("r") or "f" not in slot:
        raise ValueError(f"not a slot name: {slot!r}")
    r, f = slot[1:].split("f", 1)
    return int(r), int(f)


def empty_slots(u: Unit) -> list[tuple[int, int]]:
    """(rank, file) of the places a ranked unit's ``empty`` list leaves open inside its tray."""
    if not u.is_ranked:
        return []
    out = []
    for sname in u.empty or []:
        try:
            rank, file = parse_slot(sname)
        except ValueError:
            continue
        if 1 <= rank <= u.ranks and 1 <= file <= u.files:
            out.append((rank, file))
    return out


_HELD: Optional[dict[int, tuple[Any, tuple]]] = None  # poses_held: id(unit) -> (unit, its pose key)
_HELD_TRAYS: Optional[dict[int, tuple[Any, Any]]] = None  # poses_held: id(unit) -> (unit, its tray)
#: poses_held: (id(unit), "models" | "geom") -> (unit, its pose key, its models or geometry)
_HELD_ROWS: Optional[dict[tuple[int, str], tuple[Any, tuple, Any]]] = None


@contextmanager
def poses_held() -> Iterator[None]:
    """While the block runs, each unit's :meth:`Unit.pose_key`, :meth:`Unit.tray`,
    :meth:`Unit.models` and :meth:`Unit.geom` are worked out (or looked up) once and kept (by
    the unit object): for code that reads a board without changing it (an analysis, a frame
    drawn), which asks the same units their key many times. Nested blocks share the outer one.
    A unit changed in place inside the block would keep its old key: do not edit units in it."""
    global _HELD, _HELD_TRAYS, _HELD_ROWS
    if _HELD is not None:
        yield
        return
    _HELD, _HELD_TRAYS, _HELD_ROWS = {}, {}, {}
    try:
        yield
    finally:
        _HELD = _HELD_TRAYS = _HELD_ROWS = None


_MODEL_CACHE = LRU(128)       # pose_key -> list[Model]
_GEOM_CACHE = LRU(128)        # pose_key -> UnitGeom


def reserve_caches(n_units: int) -> None:
    """Size the model caches for a board of ``n_units`` units: every unit's models stay cached
    plus a short history of a dragged unit's poses. A long drag makes a new pose every frame,
    so a cache sized for thousands of poses would hold hundreds of thousands of objects that
    the garbage collector scans again and again (pauses growing to a quarter of a second)."""
    size = max(128, 2 * n_units + 32)
    _MODEL_CACHE.size = _GEOM_CACHE.size = size
    _TRAY_CACHE.size = max(256, 2 * size)
_TEMPLATE_CACHE = LRU(512)    # formation key -> SlotTemplate
_TRAY_CACHE = LRU(256)        # (front, facing, width, depth) -> the tray's Poly


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


@dataclass
class Unit:
    """A unit as the scenario file gives it.

    Ranked: ``base`` is ``(width_mm, depth_mm)``; ``files`` models in a full rank;
    ``count`` models in all; ``last_rank`` in left|center|right; ``empty`` further vacant slots;
    ``front`` the midpoint of rank 1's front edge (table mm); ``facing_deg``.
    Skirmish: ``base`` a diameter (mm) or ``(width, depth)``; ``placed`` a list of
    ``(center, base_or_None)``.
    ``extra`` keeps keys this version does not interpret, so a save loses nothing.
    """

    id: str
    player: int
    kind: str  # "ranked" | "skirmish"
    base: Any
    facing_deg: float = 0.0
    name: str = ""
    profile: dict = field(default_factory=dict)
    keywords: list = field(default_factory=list)
    files: int = 1
    count: int = 0
    last_rank: str = "center"
    empty: list = field(default_factory=list)
    front: g.Point = (0.0, 0.0)
    placed: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    @property
    def is_ranked(self) -> bool:
        """A rank-and-file unit on a movement tray (models in slots ``rRfF``); else skirmish
        (models placed one by one). The typed way to ask; views never compare ``kind`` strings."""
        return self.kind == "ranked"

    # ----- ranked geometry -------------------------------------------------------------
    @property
    def base_w(self) -> float:
        return float(self.base[0]) if isinstance(self.base, (list, tuple)) else float(self.base)

    @property
    def base_d(self) -> float:
        return float(self.base[1]) if isinstance(self.base, (list, tuple)) else float(self.base)

    @property
    def ranks(self) -> int:
        """Number of ranks on the tray: ceil(models / files) (at least 1)."""
        return max(1, math.ceil(self.count / self.files)) if self.is_ranked else 0

    @property
    def width_mm(self) -> float:
        """Frontage of the tray (files x base width)."""
        return self.files * self.base_w

    @property
    def depth_mm(self) -> float:
        """Depth of the tray (ranks x base depth)."""
        return self.ranks * self.base_d

    def occupied_slots(self) -> list[tuple[int, int]]:
        """(rank, file) of every slot holding a model, front rank first, file 1 first."""
        full, rem = divmod(self.count, self.files)
        out = [(r, f) for r in range(1, full + 1) for f in range(1, self.files + 1)]
        if rem:
            start = {"left": 1, "right": self.files - rem + 1}.get(self.last_rank, (self.files - rem) // 2 + 1)
            out += [(full + 1, f) for f in range(start, start + rem)]
        gone = set()
        for s in self.empty:
            try:
                gone.add(parse_slot(s))
            except ValueError:
                pass
        return [rf for rf in out if rf not in gone]

    def slot_center(self, rank: int, file: int) -> g.Point:
        """Table position of the centre of slot (rank, file)."""
        across = (file - 0.5) * self.base_w - self.width_mm / 2
        back = (rank - 0.5) * self.base_d
        return g.to_table(across, back, self.front, self.facing_deg)

    def tray(self) -> g.Poly:
        """The movement tray's outline (the unit boundary of a ranked unit; cached by front,
        facing and size: the same pose gives the same, shared, polygon; inside
        :func:`poses_held` kept by the unit object too)."""
        held = _HELD_TRAYS
        if held is not None:
            hit = held.get(id(self))
            if hit is not None and hit[0] is self:
                return hit[1]
            poly = self._tray()
            held[id(self)] = (self, poly)
            return poly
        return self._tray()

    def _tray(self) -> g.Poly:
        w, d = self.width_mm, self.depth_mm
        key = (tuple(self.front), self.facing_deg, w, d)
        hit = _TRAY_CACHE.get(key)
        if hit is None:
            c = g.to_table(0.0, d / 2, self.front, self.facing_deg)
            hit = _TRAY_CACHE.put(key, g.rect(c, w, d, self.facing_deg))
        return hit

    def center(self) -> g.Point:
        """Centre of the tray (ranked) or mean of model centres (skirmish)."""
        if self.is_ranked:
            return g.to_table(0.0, self.depth_mm / 2, self.front, self.facing_deg)
        pts = [p for p, _ in self.placed] or [(0.0, 0.0)]
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))

    # ----- models ----------------------------------------------------------------------
    def pose_key(self) -> tuple:
        """Everything the unit's model positions depend on (hashable). Inside
        :func:`poses_held` a unit's key is worked out once (the same tuple every time)."""
        held = _HELD
        if held is not None:
            hit = held.get(id(self))
            if hit is not None and hit[0] is self:
                return hit[1]
            key = self._pose_key()
            held[id(self)] = (self, key)
            return key
        return self._pose_key()

    def _pose_key(self) -> tuple:
        base = tuple(self.base) if isinstance(self.base, (list, tuple)) else (
            ("oval",) + tuple(self.base["oval"]) if isinstance(self.base, dict) else self.base)
        placed = tuple((tuple(p), tuple(b) if isinstance(b, (list, tuple)) else
                        (("oval",) + tuple(b["oval"]) if isinstance(b, dict) else b)) for p, b in self.placed)
        return (self.id, self.kind, base, self.files, self.count, self.last_rank, tuple(self.empty),
                tuple(self.front), self.facing_deg, placed)

    def template(self) -> SlotTemplate:
        """The ranked formation's :class:`SlotTemplate` (cached by formation)."""
        key = (self.files, self.count, self.last_rank, tuple(self.empty), self.base_w, self.base_d)
        t = _TEMPLATE_CACHE.get(key)
        if t is None:
            t = _TEMPLATE_CACHE.put(key, SlotTemplate(self.occupied_slots(), self.base_w, self.base_d, self.files))
        return t

    def _held(self, what: str, key: Optional[tuple], make: Callable[[tuple], Any]) -> Any:
        """``make(pose key)`` (``what``: "models" or "geom"); inside :func:`poses_held` kept by
        the unit object, so asking again for the same pose makes no cache look-up."""
        held = _HELD_ROWS
        if held is None:
            return make(key or self.pose_key())
        mine = held.get((id(self), what))
        if mine is not None and mine[0] is self and (key is None or key is mine[1]):
            return mine[2]
        key = key or self.pose_key()
        got = make(key)
        held[(id(self), what)] = (self, key, got)
        return got

    def geom(self, key: Optional[tuple] = None) -> UnitGeom:
        """The unit's models as arrays (:class:`UnitGeom`), cached by :meth:`pose_key` (inside
        :func:`poses_held` kept by the unit object too)."""
        return self._held("geom", key, self._geom)

    def _geom(self, key: tuple) -> UnitGeom:
        hit = _GEOM_CACHE.get(key)
        if hit is not None:
            return hit
        if self.is_ranked:
            t = self.template()
            rx, ry = g.right(self.facing_deg)
            fx, fy = g.forward(self.facing_deg)
            centers = ops.place(t.local, self.front, (rx, ry), (-fx, -fy))
            w, d = self.base_w, self.base_d
            ca, sa = abs(rx), abs(ry)
            half = ops.filled(len(t.slots), ca * w / 2 + sa * d / 2, sa * w / 2 + ca * d / 2)
            geom = UnitGeom(t.ids(self.id), centers, half, True, (w, d), self.facing_deg, t)
        else:
            ms = self.models(key)
            centers, half = ops.from_bboxes(m.shape.bbox() for m in ms)
            geom = UnitGeom([m.id for m in ms], centers, half, False, None, self.facing_deg)
        return _GEOM_CACHE.put(key, geom)

    def models(self, key: Optional[tuple] = None) -> list[Model]:
        """Every model of the unit with its base shape, in slot order.

        Results are cached by :meth:`pose_key` (a bounded LRU), so re-analysing a board while
        one unit is dragged rebuilds only that unit's models; ranked models come from the
        unit's arrays (a :class:`Models`: each model made when first read, its base outline when
        first asked for). The returned list must not be mutated. Inside :func:`poses_held`
        kept by the unit object too.
        """
        return self._held("models", key, self._models)

    def _models(self, key: tuple) -> list[Model]:
        hit = _MODEL_CACHE.get(key)
        if hit is not None:
            return hit
        out: list[Model]
        if self.is_ranked:
            # the models are made when first read (Models): an analysis reads their ids and centres
            out = Models(self.geom(key), self.id, self.facing_deg)
        else:
            out = []
            for i, (c, base) in enumerate(self.placed, start=1):
                c = (float(c[0]), float(c[1]))
                out.append(Model(f"{self.id}.m{i}", self.id, f"m{i}", None, None, c, self.facing_deg,
                                 base_shape(base if base is not None else self.base, c, self.facing_deg)))
        return _MODEL_CACHE.put(key, out)

    # ----- moves (used by the window and demos) -----------------------------------------
    def translated(self, dx: float, dy: float) -> "Unit":
        """A copy moved by (dx, dy) mm."""
        u = copy.deepcopy(self)
        if u.is_ranked:
            u.front = (u.front[0] + dx, u.front[1] + dy)
        else:
            u.placed = [((p[0] + dx, p[1] + dy), b) for p, b in u.placed]
        return u

    def rotated(self, deg: float, pivot: g.Point) -> "Unit":
        """A copy turned ``deg`` clockwise about ``pivot`` (table mm)."""
        u = copy.deepcopy(self)
        a = math.radians(deg)
        ca, sa = math.cos(a), math.sin(a)

        def rot(p: g.Point) -> g.Point:
            x, y = p[0] - pivot[0], p[1] - pivot[1]
            # clockwise on screen (y down) is the usual counter-clockwise formula
            return (pivot[0] + x * ca - y * sa, pivot[1] + x * sa + y * ca)

        u.facing_deg = (u.facing_deg + deg) % 360
        if u.is_ranked:
            u.front = rot(u.front)
        else:
            u.placed = [(rot(p), b) for p, b in u.placed]
        return u


def base_shape(base: Any, center: g.Point, facing_deg: float) -> g.Shape:
    """Base outline: a number is a round base's diameter; ``[w, d]`` a rectangle;
    ``{oval: [w, d]}`` an oval."""
    if isinstance(base, (int, float)):
        return g.Circle(center, float(base) / 2)
    if isinstance(base, dict) and "oval" in base:
        w, d = base["oval"]
        return g.oval(center, float(w), float(d), facing_deg)
    w, d = base
    return g.rect(center, float(w), float(d), facing_deg)


@dataclass
class Board:
    """Everything on the table: ``units`` (in file order), plus title, ruleset id, seed,
    table size (mm), phase ``context`` and optional ``terrain`` (impassable polygons)."""

    units: list[Unit]
    ruleset: str
    title: str = ""
    seed: Optional[int] = None
    table: tuple[float, float] = (1200.0, 800.0)
    context: dict = field(default_factory=dict)
    terrain: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    source: str = ""

    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def models(self) -> list[Model]:
        """All models of all units, unit by unit."""
        return [m for u in self.units for m in u.models()]

    def replace_unit(self, unit: Unit) -> None:
        self.units = [unit if u.id == unit.id else u for u in self.units]

    def copy(self) -> "Board":
        return copy.deepcopy(self)
