"""The parameters a combat round reads (:mod:`game.core.combat_round`), declared once so every
strategy that offers a round step by step adds them to its schema.

* ``casualty_removal``: ``rear_rank`` (casualties come off a ranked unit's back rank, a single
  rank evenly from both ends; the marked models only count them) or ``as_marked`` (the marked
  models go).
* ``stepped_forward_can_attack``: false when models stepping into the fighting rank to replace
  casualties cannot attack that phase (tow "Stepping Forward").
* ``round_winner``: ``none`` or ``most_casualties_inflicted`` (the unit that removed the most
  enemy models wins the round and counts as the attacker: slots "Recalculation").
* ``close_up``: how units still locked in combat regain contact (:mod:`.closing`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from game.core.board import Board
from game.core.record import Record, record
from game.core.ruleset_data import Ruleset
from game.core import closing


@record
class RoundParams(Record):
    """Parameters of a combat round step by step (see the module docstring)."""

    casualty_removal: Literal["rear_rank", "as_marked"]
    stepped_forward_can_attack: bool
    round_winner: Literal["none", "most_casualties_inflicted"]
    close_up: str = field(metadata={"choices": lambda: list(closing.POLICIES)})


def round_steps(board: Board, rs: Ruleset) -> list:
    """The combat round as phase steps (:func:`game.core.combat_round.round_phase_steps`), for
    an engine's ``steps``."""
    from game.core.combat_round import round_phase_steps  # stepping only: an analysis never imports it
    return round_phase_steps(board, rs)
