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
from typing import Any, Optional

from . import geometry as g


@dataclass(frozen=True)
class Model:
    """One model on the table.

    ``id`` is ``<unit>.<slot>`` (``dwarfs.r2f7``, ``intercessors.m3``); ``rank``/``file`` are
    1-based for ranked units and ``None`` for skirmishers; ``center`` in table mm; ``shape``
    the base outline (:class:`geometry.Poly` or :class:`geometry.Circle`).
    """

    id: str
    unit_id: str
    slot: str
    rank: Optional[int]
    file: Optional[int]
    center: g.Point
    facing_deg: float
    shape: g.Shape


def slot_name(rank: int, file: int) -> str:
    return f"r{rank}f{file}"


def parse_slot(slot: str) -> tuple[int, int]:
    """``'r2f7'`` -> ``(2, 7)``; raises ValueError on anything else."""
    if not slot.startswith("r") or "f" not in slot:
        raise ValueError(f"not a slot name: {slot!r}")
    r, f = slot[1:].split("f", 1)
    return int(r), int(f)


_MODEL_CACHE: dict[tuple, list[Model]] = {}


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
        return max(1, math.ceil(self.count / self.files)) if self.kind == "ranked" else 0

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
        """The movement tray's outline (the unit boundary of a ranked unit)."""
        c = g.to_table(0.0, self.depth_mm / 2, self.front, self.facing_deg)
        return g.rect(c, self.width_mm, self.depth_mm, self.facing_deg)

    def center(self) -> g.Point:
        """Centre of the tray (ranked) or mean of model centres (skirmish)."""
        if self.kind == "ranked":
            return g.to_table(0.0, self.depth_mm / 2, self.front, self.facing_deg)
        pts = [p for p, _ in self.placed] or [(0.0, 0.0)]
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))

    # ----- models ----------------------------------------------------------------------
    def pose_key(self) -> tuple:
        """Everything the unit's model positions depend on (hashable)."""
        base = tuple(self.base) if isinstance(self.base, (list, tuple)) else (
            ("oval",) + tuple(self.base["oval"]) if isinstance(self.base, dict) else self.base)
        placed = tuple((tuple(p), tuple(b) if isinstance(b, (list, tuple)) else
                        (("oval",) + tuple(b["oval"]) if isinstance(b, dict) else b)) for p, b in self.placed)
        return (self.id, self.kind, base, self.files, self.count, self.last_rank, tuple(self.empty),
                tuple(self.front), self.facing_deg, placed)

    def models(self) -> list[Model]:
        """Every model of the unit with its base shape, in slot order.

        Results are cached by :meth:`pose_key`, so re-analysing a board while one unit is
        dragged rebuilds only that unit's models. The returned list must not be mutated.
        """
        key = self.pose_key()
        hit = _MODEL_CACHE.get(key)
        if hit is not None:
            return hit
        out = self._build_models()
        if len(_MODEL_CACHE) > 4096:
            _MODEL_CACHE.clear()
        _MODEL_CACHE[key] = out
        return out

    def _build_models(self) -> list[Model]:
        if self.kind == "ranked":
            out = []
            rx, ry = g.right(self.facing_deg)
            fx, fy = g.forward(self.facing_deg)
            w, d = self.base_w, self.base_d
            x0, y0 = self.front
            half_w = self.width_mm / 2
            # corner offsets of one base about its centre: front-left, front-right, back-right, back-left
            corners = [(rx * a - fx * b, ry * a - fy * b) for a, b in
                       ((-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2))]
            for r, f in self.occupied_slots():
                across = (f - 0.5) * w - half_w
                back = (r - 0.5) * d
                c = (x0 + rx * across - fx * back, y0 + ry * across - fy * back)
                shape = g.Poly(tuple((c[0] + ox, c[1] + oy) for ox, oy in corners))
                name = f"r{r}f{f}"
                out.append(Model(f"{self.id}.{name}", self.id, name, r, f, c, self.facing_deg, shape))
            return out
        out = []
        for i, (c, base) in enumerate(self.placed, start=1):
            out.append(Model(f"{self.id}.m{i}", self.id, f"m{i}", None, None, c, self.facing_deg,
                             base_shape(base if base is not None else self.base, c, self.facing_deg)))
        return out

    # ----- moves (used by the window and demos) -----------------------------------------
    def translated(self, dx: float, dy: float) -> "Unit":
        """A copy moved by (dx, dy) mm."""
        u = copy.deepcopy(self)
        if u.kind == "ranked":
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
        if u.kind == "ranked":
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
