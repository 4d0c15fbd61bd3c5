"""Combat-slot allocation as a strategy (``combat_slots``): schema, legend, profile fields.

The engine is :mod:`game.engines.combat_slots.engine`; this module declares what the rest of the
program asks of it: the parameters a ruleset must give (:class:`SlotsParams` plus the combat
round's), the legend's wording (from the ruleset's rule names) and the profile values it reads.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from game.core import schema as sc
from game.core.analysis import Analysis
from game.core.board import Board
from game.core.ruleset import Ruleset
from game.core.strategy import Engine, Legend, ProfileField
from game.core.round_rules import RoundParams, round_steps


@dataclass(frozen=True)
class SlotsParams:
    """Parameters of the combat-slot allocation (percentages whole, lengths mm)."""

    contact_tolerance_mm: float
    share_min_pct: int
    share_max_pct: int
    bonus_models: int
    whole_unit_max_models: int
    slots_regular_model: int
    slots_large_model: int
    large_model_room: int
    default_size: Literal["regular", "large"]
    default_seed: int


def legend(rs: Ruleset) -> Legend:
    return Legend(role_labels={"attack": f"Fights (allocated to the melee, filling a combat slot: "
                                         f"{rs.rule('slots_regular_model')})"}, rows=frozenset())


def _analyse(board: Board, rs: Ruleset) -> Analysis:
    from game.engines.combat_slots.engine import analyse  # imported when first used, not on loading the ruleset

    res = analyse(board, rs)
    res.legend = legend(rs)
    return res


def fields(rs: Ruleset) -> list:
    v = rs.values
    return [ProfileField("size", "Size", kind="choice", default=v.default_size, choices=("regular", "large")),
            ProfileField("parts", "Parts", kind="parts")]


STRATEGY = Engine(name="combat_slots", run=_analyse, legend_of=legend, steps=round_steps,
                  steps_name="Combat round", schema=sc.merge("SlotsParams", [SlotsParams, RoundParams]),
                  fields_of=fields)
