"""The part types the Warhammer 40,000 fight phase publishes beyond the core vocabulary
(:mod:`game.core.parts`: it also gives :class:`~game.core.parts.FightSequence`,
:class:`~game.core.parts.Locked`, :class:`~game.core.parts.OffTable`,
:class:`~game.core.parts.MovesPreview` and :class:`~game.core.parts.MoveReach`). These are
JSON only (docs/ARCHITECTURE.md "Analysis parts"), typed records (frozen; no plain dicts):

* :class:`PileInTargets` ``pile_in_targets`` / :class:`MoveTargets` ``move_targets``:
  ``{unit: [enemy unit ids]}`` the unit moves towards (step ``pile_in`` / ``consolidate``);
* :class:`Consolidation` ``consolidation``: ``{unit: ongoing|engaging|objective|none}``;
* :class:`SelectedToFight` ``selected_to_fight``: ``[{unit, player, by}]`` units an engaging
  consolidation newly engaged, which must be selected to fight;
* :class:`StepCaption` ``step_caption`` (a step of the step-through: its caption);
* :class:`DestroyedModels` ``destroyed_models``: model ids a fight step removed;
* :class:`MoveStatus` ``move_status``: ``{unit: {status: optimal|best found, engaged, bound}}``
  per unit that piled in or consolidated (:mod:`.optimality`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Optional

from game.core.record import Record, record
from game.core.parts import Entry, Part


@record
class UnitTargets(Part):
    """Unit id -> the enemy unit ids it moves towards (a tuple each); JSON ``{unit: [ids]}``."""

    json_only: ClassVar[bool] = True
    targets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, targets: Mapping[str, Any]) -> "UnitTargets":
        return cls({u: tuple(str(x) for x in t) for u, t in targets.items()})

    def value(self) -> Any:
        return {u: list(t) for u, t in self.targets.items()}


@record
class PileInTargets(UnitTargets):
    key: ClassVar[str] = "pile_in_targets"


@record
class MoveTargets(UnitTargets):
    key: ClassVar[str] = "move_targets"


@record
class Consolidation(Part):
    """Unit id -> its consolidation mode (``ongoing`` | ``engaging`` | ``objective`` | ``none``)."""

    key: ClassVar[str] = "consolidation"
    json_only: ClassVar[bool] = True
    modes: Mapping[str, str] = field(default_factory=dict)

    def value(self) -> Any:
        return dict(self.modes)


@record
class NewlyEngaged(Entry):
    """An enemy ``unit`` (of ``player``) that the engaging consolidation of unit ``by`` newly
    engaged: it must be selected to fight."""

    unit: str
    player: int
    by: str


@record
class SelectedToFight(Part):
    """The :class:`NewlyEngaged` units of a consolidation step; JSON ``[{unit, player, by}]``."""

    key: ClassVar[str] = "selected_to_fight"
    json_only: ClassVar[bool] = True
    entries: tuple[NewlyEngaged, ...] = ()

    @classmethod
    def of(cls, entries: Any) -> "SelectedToFight":
        return cls(tuple(NewlyEngaged.of(e) for e in entries))


@record
class StepCaption(Part):
    """The caption of a step of the step-through (words)."""

    key: ClassVar[str] = "step_caption"
    json_only: ClassVar[bool] = True
    text: str = ""


@record
class DestroyedModels(Part):
    """Model ids a fight step removed."""

    key: ClassVar[str] = "destroyed_models"
    json_only: ClassVar[bool] = True
    models: tuple[str, ...] = ()

    def value(self) -> Any:
        return list(self.models)


@record
class MoveQuality(Entry):
    """How good a unit's pile-in or consolidation is: ``status`` ``optimal`` (the engaged
    count reached the upper ``bound``) or ``best found``, ``engaged`` models."""

    status: str
    engaged: Any = None
    bound: Optional[Any] = None

    def to_json(self) -> dict:
        return {"status": self.status, "engaged": self.engaged, "bound": self.bound}


@record
class MoveStatus(Part):
    """Unit id -> :class:`MoveQuality`; JSON ``{unit: {status, engaged, bound}}``."""

    key: ClassVar[str] = "move_status"
    json_only: ClassVar[bool] = True
    by_unit: Mapping[str, MoveQuality] = field(default_factory=dict)

    @classmethod
    def of(cls, by_unit: Mapping[str, Any]) -> "MoveStatus":
        return cls({u: MoveQuality.of(q) for u, q in by_unit.items()})
