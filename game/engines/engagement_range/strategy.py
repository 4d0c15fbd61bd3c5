"""Warhammer 40,000 Fight phase as a strategy (``engagement_range``): schema, legend, steps.

The engine is :mod:`game.engines.engagement_range.engine` (pile in, fight selection, consolidate),
imported when a board is first analysed, not when the ruleset loads (a window on another rule
system asks every ruleset whether it can analyse its board, and never imports the solver); this
module declares what the rest of the program asks of it: the parameters a ruleset must give
(:class:`FightPhaseParams`, inches as written in the YAML), the legend rows its analyses
produce (labels from the ruleset's values and rule names) and the Fight phase step-through.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from game.core.strategy import Engine, Legend

NAME = "engagement_range"


@dataclass(frozen=True)
class FightPhaseParams:
    """Parameters of the Fight phase engine (lengths in inches where the name says ``_in``)."""

    engagement_range_in: float
    contact_tolerance_mm: float
    pile_in_in: float
    pile_in_target_radius_in: float
    consolidate_in: float
    consolidate_enemy_radius_in: float
    consolidate_objective_radius_in: float
    objective_range_in: float
    objective_marker_diameter_mm: float
    coherency_in: float
    coherency_big_unit_models: int
    default_attacks: int
    planner_clearance_mm: float
    fights_first_chooser: Literal["active_player", "other_player"]


def inches(value: float) -> str:
    """``1"``, ``2.5"``: a length in inches as a label."""
    return f"{value:g}\""


def legend(rs) -> Legend:
    v = rs.values
    return Legend(role_labels={"attack": f"Fights: engaged, within {inches(v.engagement_range_in)} of an enemy "
                                         f"({rs.rule('engagement_range_in')})"},
                  rows=frozenset({"moves"}))


def _analyse(board, rs):
    from game.engines.engagement_range import engine as wh40k  # the solver: imported when first used

    res = wh40k.analyse(board, rs)
    res.legend = legend(rs)
    return res


def _steps(board, rs):
    from game.engines.engagement_range import steps as fight_steps  # imported when first used

    return fight_steps.fight_phase_steps(board, rs)  # looked up at call time


# Offered on every board, rank-and-file trays too (each tray's models analysed as single
# models): the window analyses a drag of this engine off the frame (game/window/background.py).
STRATEGY = Engine(name=NAME, run=_analyse, legend_of=legend, schema=FightPhaseParams,
                  steps=_steps, steps_name="Fight phase")
