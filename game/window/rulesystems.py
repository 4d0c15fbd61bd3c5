"""Every decision of the window that depends on the rule system, in one small adapter.

The window never names a rule system: it asks this adapter which rulesets a board can use
(and why not), which ruleset to compare with, whether a board steps through a phase (and the
steps), and which profile values and unit keys the unit panel edits. The answers come from the
ruleset data and its strategy (:mod:`game.core.registry`). Pygame-free.
"""
from __future__ import annotations

from typing import Optional

from game.core.board import Board
from game.core.compare import partner
from game.core.registry import strategy_of
from game.core.scenario import check_limits
from game.core.ruleset import Ruleset, RulesetError, available, load_ruleset


class RuleSystems:
    """Questions the window asks about rule systems (answered from the ruleset data and strategy)."""

    def load(self, rid: str) -> Ruleset:
        return load_ruleset(rid)

    def ids(self) -> list[str]:
        return available()

    def unavailable_reason(self, board: Board, rid: str, current: str) -> str:
        """Why ruleset ``rid`` cannot analyse ``board`` in the window ("" when it can)."""
        try:
            rs = load_ruleset(rid)
        except RulesetError as exc:
            return f"cannot be loaded ({str(exc)[:80]})"
        strat = strategy_of(rs)
        if rid != current and not strat.usable_on(board):
            return strat.unusable_reason or "cannot analyse this board"
        if rid != current:
            said: list[str] = []
            check_limits(board.units, rid, lambda _path, msg: said.append(msg))
            if said:
                return said[0]
        return ""

    def short_reason(self, board: Board, rid: str, current: str) -> str:
        """A few words for a drop-down: why ``rid`` is unavailable ("" when it is available)."""
        why = self.unavailable_reason(board, rid, current)
        if not why:
            return ""
        try:
            strat = strategy_of(load_ruleset(rid))
        except RulesetError:
            return "cannot be loaded"
        return strat.unusable_short or "cannot analyse this board"

    def choices(self, board: Board, current: str) -> list[tuple[str, str]]:
        """Every shipped ruleset as ``(id, reason it is unavailable or "")``, sorted by id."""
        return [(rid, self.unavailable_reason(board, rid, current)) for rid in self.ids()]

    def usable(self, board: Board, current: str) -> list[str]:
        return [rid for rid, why in self.choices(board, current) if not why]

    def compare_partner(self, board: Board, rid: str) -> Optional[str]:
        """The natural ruleset to compare ``rid`` with (:func:`game.core.compare.partner`: the
        one it inherits from or that inherits from it, else the same engine, else the next)."""
        return partner(rid, self.usable(board, rid))

    # -- phase steps -------------------------------------------------------------------------
    def has_steps(self, rs: Ruleset) -> bool:
        """True when boards of this ruleset step through a phase (N / P)."""
        return strategy_of(rs).has_phase_steps

    def steps_name(self, rs: Ruleset) -> str:
        return strategy_of(rs).steps_name or "phase"

    def steps(self, board: Board, rs: Ruleset) -> list:
        """``[(caption, board, analysis)]`` of the phase steps of ``board``."""
        return strategy_of(rs).phase_steps(board, rs) or []

    # -- unit profile ------------------------------------------------------------------------
    def fields(self, rs: Ruleset) -> list:
        """The values the unit panel edits under ``rs``: what its engine reads
        (``Strategy.profile_fields``: a strike order by Agility needs Agility, a Height cap
        Height, a troop-type table a troop type...)."""
        return strategy_of(rs).profile_fields(rs)

    def new_profile(self, rs: Ruleset) -> dict:
        """The profile a new unit gets under ``rs`` (every whole-number value the ruleset reads)."""
        return {f.key: f.default for f in self.fields(rs)
                if f.default is not None and not f.key.startswith("extra:") and f.kind in ("int", "choice")}
