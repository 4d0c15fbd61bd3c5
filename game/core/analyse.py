"""The entry point :func:`analyse`: a board and a ruleset to an :class:`~game.core.analysis.Analysis`.

:func:`analyse` looks up the ruleset's ``strategy`` in :mod:`game.core.registry` (which imports
that engine's package on first use) and calls its ``analyse(board, ruleset)``.
"""
from __future__ import annotations

from typing import Optional

from game.core.analysis import Analysis
from game.core.board import Board
from game.core.registry import strategy_of
from game.core.ruleset import load_ruleset
from game.core.ruleset_data import Ruleset


def analyse(board: Board, ruleset: Optional[Ruleset] = None) -> Analysis:
    """Analyse ``board`` under ``ruleset`` (default: the board's own ruleset id).

    Raises :class:`~game.core.ruleset.RulesetError` if the ruleset is not shipped.
    """
    rs = ruleset or load_ruleset(board.ruleset)
    return strategy_of(rs).analyse(board, rs)
