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
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Optional, TypeVar

from game.core import geometry as g
from game.core.arrays import ops
from game.core.bases import BASE_TYPES, Base, base_of
from game.core.lru import LRU
from game.core.unit_models import Model, Models, SlotTemplate, UnitGeom


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

#: the keys under which a unit keeps what it worked out from its own (frozen) fields
_MEMO = ("_m_pose", "_m_tray", "_m_geom", "_m_models", "_m_kept")
T = TypeVar("T")


@dataclass(frozen=True)
class Unit:
    """A unit as the scenario file gives it: a value (setting a field raises
    ``dataclasses.FrozenInstanceError``; :func:`dataclasses.replace` makes a changed copy that
    shares the rest).

    ``base`` a typed :data:`~game.core.bases.Base` (given as the file writes it, it is read as one).
    Ranked: ``base`` is a rectangle (width x depth mm); ``files`` models in a full rank;
    ``count`` models in all; ``last_rank`` in left|center|right; ``empty`` further vacant slots;
    ``front`` the midpoint of rank 1's front edge (table mm); ``facing_deg``.
    Skirmish: ``base`` round, rectangular or oval; ``placed`` a list of ``(center, base_or_None)``
    (a model's own base, or None for the unit's).
    ``extra`` keeps keys this version does not interpret, so a save loses nothing.
    The lists and dicts a unit holds are never changed in place either: a unit works out its
    pose key, tray, models and geometry once and keeps them (not pickled, not compared).
    """

    id: str
    player: int
    kind: str  # "ranked" | "skirmish"
    base: Base
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

    def __post_init__(self) -> None:
        # the file's forms (a diameter, [w, d], {oval: [w, d]}) read as typed bases, once
        if not isinstance(self.base, BASE_TYPES):
            object.__setattr__(self, "base", base_of(self.base))
        if any(b is not None and not isinstance(b, BASE_TYPES) for _p, b in self.placed):
            object.__setattr__(self, "placed", [(p, None if b is None else base_of(b)) for p, b in self.placed])

    def __getstate__(self) -> dict:
        """The fields only (what a unit worked out from them is made again where it is read)."""
        return {k: v for k, v in self.__dict__.items() if k not in _MEMO}

    def kept(self, key: str, make: Callable[["Unit"], T]) -> T:
        """``make(self)``, worked out once per unit and kept with it under ``key`` (a unit never
        changes, so what is read from its fields never goes stale: the cache key is the unit)."""
        memo = self.__dict__.get("_m_kept")
        if memo is None:
            memo = self.__dict__["_m_kept"] = {}
        if key in memo:
            return memo[key]
        got = memo[key] = make(self)
        return got

    @property
    def is_ranked(self) -> bool:
        """A rank-and-file unit on a movement tray (models in slots ``rRfF``); else skirmish
        (models placed one by one). The typed way to ask; views never compare ``kind`` strings."""
        return self.kind == "ranked"

    # ----- ranked geometry -------------------------------------------------------------
    @property
    def base_w(self) -> float:
        """The base's width (mm; a round base's diameter)."""
        return float(self.base.width_mm)

    @property
    def base_d(self) -> float:
        """The base's depth (mm; a round base's diameter)."""
        return float(self.base.depth_mm)

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
        """The movement tray's outline (the unit boundary of a ranked unit; worked out once per
        unit, and shared by units of the same front, facing and size)."""
        hit = self.__dict__.get("_m_tray")
        if hit is None:
            hit = self.__dict__["_m_tray"] = self._tray()
        return hit

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
        """Everything the unit's model positions depend on (hashable; worked out once per unit,
        the same tuple every time)."""
        hit = self.__dict__.get("_m_pose")
        if hit is None:
            hit = self.__dict__["_m_pose"] = self._pose_key()
        return hit

    def _pose_key(self) -> tuple:
        placed = tuple((tuple(p), b) for p, b in self.placed)
        return (self.id, self.kind, self.base, self.files, self.count, self.last_rank, tuple(self.empty),
                tuple(self.front), self.facing_deg, placed)

    def template(self) -> SlotTemplate:
        """The ranked formation's :class:`SlotTemplate` (cached by formation)."""
        key = (self.files, self.count, self.last_rank, tuple(self.empty), self.base_w, self.base_d)
        t = _TEMPLATE_CACHE.get(key)
        if t is None:
            t = _TEMPLATE_CACHE.put(key, SlotTemplate(self.occupied_slots(), self.base_w, self.base_d, self.files))
        return t

    def geom(self, key: Optional[tuple] = None) -> UnitGeom:
        """The unit's models as arrays (:class:`UnitGeom`): worked out once per unit, and shared
        by units of the same :meth:`pose_key` while they stay in a bounded cache. ``key``, when
        given, is this unit's :meth:`pose_key`."""
        hit = self.__dict__.get("_m_geom")
        if hit is None:
            hit = self.__dict__["_m_geom"] = self._geom(key or self.pose_key())
        return hit

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

        Worked out once per unit, and shared by units of the same :meth:`pose_key` while they
        stay in a bounded cache (``key``, when given, is this unit's pose key), so re-analysing
        a board while one unit is dragged rebuilds only that unit's models; ranked models come
        from the unit's arrays (a :class:`Models`: each model made when first read, its base
        outline when first asked for). The returned list must not be mutated.
        """
        hit = self.__dict__.get("_m_models")
        if hit is None:
            hit = self.__dict__["_m_models"] = self._models(key or self.pose_key())
        return hit

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
        """This unit moved by (dx, dy) mm (a new unit sharing the fields a move leaves alone)."""
        if self.is_ranked:
            return replace(self, front=(self.front[0] + dx, self.front[1] + dy))
        return replace(self, placed=[((p[0] + dx, p[1] + dy), b) for p, b in self.placed])

    def rotated(self, deg: float, pivot: g.Point) -> "Unit":
        """This unit turned ``deg`` clockwise about ``pivot`` (table mm), as a new unit."""
        a = math.radians(deg)
        ca, sa = math.cos(a), math.sin(a)

        def rot(p: g.Point) -> g.Point:
            x, y = p[0] - pivot[0], p[1] - pivot[1]
            # clockwise on screen (y down) is the usual counter-clockwise formula
            return (pivot[0] + x * ca - y * sa, pivot[1] + x * sa + y * ca)

        facing = (self.facing_deg + deg) % 360
        if self.is_ranked:
            return replace(self, facing_deg=facing, front=rot(self.front))
        return replace(self, facing_deg=facing, placed=[(rot(p), b) for p, b in self.placed])


def base_shape(base: Any, center: g.Point, facing_deg: float) -> g.Shape:
    """The outline of ``base`` (a :data:`~game.core.bases.Base`, or a form :func:`base_of` reads)
    about ``center`` (table mm) at ``facing_deg``."""
    return base_of(base).shape(center, facing_deg)


@dataclass(frozen=True)
class Board:
    """Everything on the table: ``units`` (a tuple, in file order), plus title, ruleset id,
    seed, table size (mm), phase ``context`` and optional ``terrain`` (impassable polygons).
    A value: setting a field raises ``dataclasses.FrozenInstanceError``; an edit is a new
    board (:meth:`with_unit`, :meth:`with_units`, :func:`dataclasses.replace`) that shares the
    units it leaves alone, so a unit's identity says it is unchanged. Any iterable of units
    given is kept as a tuple."""

    units: tuple[Unit, ...]
    ruleset: str
    title: str = ""
    seed: Optional[int] = None
    table: tuple[float, float] = (1200.0, 800.0)
    context: dict = field(default_factory=dict)
    terrain: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    source: str = ""

    def __post_init__(self) -> None:
        if type(self.units) is not tuple:
            object.__setattr__(self, "units", tuple(self.units))

    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def models(self) -> list[Model]:
        """All models of all units, unit by unit."""
        return [m for u in self.units for m in u.models()]

    def with_unit(self, unit: Unit) -> "Board":
        """This board with ``unit`` in place of the unit of its id (the others shared)."""
        return replace(self, units=tuple(unit if u.id == unit.id else u for u in self.units))

    def with_units(self, units: Iterable[Unit]) -> "Board":
        """This board holding ``units`` (in that order) instead of its own; the rest shared."""
        return replace(self, units=tuple(units))

    def without(self, unit_ids: Iterable[str]) -> "Board":
        """This board without the units of ``unit_ids`` (the others shared, in order)."""
        drop = set(unit_ids)
        return replace(self, units=tuple(u for u in self.units if u.id not in drop))

    def copy(self) -> "Board":
        """A deep copy (units, context, terrain and extra copied too)."""
        return copy.deepcopy(self)
