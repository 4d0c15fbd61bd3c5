"""The part types the Warhammer 40,000 fight phase publishes beyond the core vocabulary
(:mod:`game.core.parts`: it also gives :class:`~game.core.parts.FightSequence`,
:class:`~game.core.parts.Locked`, :class:`~game.core.parts.OffTable`,
:class:`~game.core.parts.MovesPreview` and :class:`~game.core.parts.MoveReach`). These are
JSON only (docs/ARCHITECTURE.md "Analysis parts"):

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

from dataclasses import dataclass
from typing import ClassVar

from game.core.parts import DataPart


@dataclass(frozen=True)
class PileInTargets(DataPart):
    key: ClassVar[str] = "pile_in_targets"


@dataclass(frozen=True)
class MoveTargets(DataPart):
    key: ClassVar[str] = "move_targets"


@dataclass(frozen=True)
class Consolidation(DataPart):
    key: ClassVar[str] = "consolidation"


@dataclass(frozen=True)
class SelectedToFight(DataPart):
    key: ClassVar[str] = "selected_to_fight"


@dataclass(frozen=True)
class StepCaption(DataPart):
    key: ClassVar[str] = "step_caption"


@dataclass(frozen=True)
class DestroyedModels(DataPart):
    key: ClassVar[str] = "destroyed_models"


@dataclass(frozen=True)
class MoveStatus(DataPart):
    key: ClassVar[str] = "move_status"
