"""A model's base, typed: :class:`RoundBase` (a diameter), :class:`RectBase` (width x depth, the
bases of rank-and-file units) and :class:`OvalBase` (width x depth, skirmish units only).

The scenario file writes a round base as its diameter (``32``), a rectangle as ``[w, d]`` and an
oval as ``{oval: [w, d]}``; :func:`base_of` reads any of these (or a :class:`Base`) and
:meth:`raw` gives the file's form back. Each base draws its own outline at a centre and facing
(:meth:`shape`). Lengths in mm; the width runs across the model's front, the depth front to back.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from game.core import geometry as g


@dataclass(frozen=True)
class RoundBase:
    """A round base of ``diameter_mm``."""

    diameter_mm: float

    @property
    def width_mm(self) -> float:
        return float(self.diameter_mm)

    @property
    def depth_mm(self) -> float:
        return float(self.diameter_mm)

    def shape(self, center: g.Point, facing_deg: float) -> g.Shape:
        """The outline: a circle about ``center`` (table mm); a circle has no facing."""
        return g.Circle(center, float(self.diameter_mm) / 2)

    def raw(self) -> Any:
        """As the scenario file writes it: the diameter."""
        return self.diameter_mm


@dataclass(frozen=True)
class RectBase:
    """A rectangular base ``width_mm`` across its front, ``depth_mm`` front to back."""

    width_mm: float
    depth_mm: float

    def shape(self, center: g.Point, facing_deg: float) -> g.Shape:
        """The outline: a rectangle about ``center`` (table mm) turned to ``facing_deg``."""
        return g.rect(center, float(self.width_mm), float(self.depth_mm), facing_deg)

    def raw(self) -> Any:
        """As the scenario file writes it: ``(width, depth)``."""
        return (self.width_mm, self.depth_mm)


@dataclass(frozen=True)
class OvalBase:
    """An oval base ``width_mm`` across its front, ``depth_mm`` front to back."""

    width_mm: float
    depth_mm: float

    def shape(self, center: g.Point, facing_deg: float) -> g.Shape:
        """The outline: an oval (polygon) about ``center`` (table mm) turned to ``facing_deg``."""
        return g.oval(center, float(self.width_mm), float(self.depth_mm), facing_deg)

    def raw(self) -> Any:
        """As the scenario file writes it: ``{oval: [width, depth]}``."""
        return {"oval": [self.width_mm, self.depth_mm]}


Base = Union[RoundBase, RectBase, OvalBase]
BASE_TYPES = (RoundBase, RectBase, OvalBase)


def base_of(raw: Any) -> Base:
    """``raw`` as a :data:`Base`: a number is a round base's diameter, ``[w, d]`` (or a tuple) a
    rectangle, ``{oval: [w, d]}`` an oval; a :data:`Base` is returned as it is. The numbers are
    kept as given (checked by the loader, not here). Raises ValueError for anything else."""
    if isinstance(raw, BASE_TYPES):
        return raw
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return RoundBase(raw)
    if isinstance(raw, dict) and set(raw) == {"oval"} and len(raw["oval"]) == 2:
        return OvalBase(raw["oval"][0], raw["oval"][1])
    if isinstance(raw, (list, tuple)) and len(raw) == 2:
        return RectBase(raw[0], raw[1])
    raise ValueError(f"not a base (a diameter, [width, depth] or {{oval: [width, depth]}}): {raw!r}")
