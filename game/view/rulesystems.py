"""Every decision of the window that depends on the rule system, in one small adapter.

The window never names a rule system elsewhere: which rulesets a board can use (and why not),
which ruleset to compare with, whether a board steps through a phase (and the steps), and
which profile values and unit keys the unit panel edits. A strategy registry can replace
:class:`RuleSystems` by answering the same questions. Pygame-free.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from game.core.board import Board
from game.core.ruleset import Ruleset, RulesetError, available, load_ruleset


@dataclass(frozen=True)
class Field:
    """One value the unit panel edits: ``key`` (profile key, or ``extra:<key>`` for a unit
    key beyond the contract), ``label``, ``kind`` (``int``, ``text``, ``parts``, ``keywords``,
    or ``choice`` with ``choices``) and the ``default`` a new unit gets (None: unset)."""

    key: str
    label: str
    kind: str = "int"
    default: Any = None
    choices: tuple = ()


#: the ruleset each one is naturally compared with (two readings of one rule family)
COMPARE_PAIRS = {"whfb8": "t9a", "t9a": "whfb8"}


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
        if rs.strategy == "wh40k" and rid != current and any(u.kind == "ranked" for u in board.units):
            return ("has no rank-and-file units; its pile-in would take minutes on these trays "
                    "(use a board of models placed one by one)")
        return ""

    def choices(self, board: Board, current: str) -> list[tuple[str, str]]:
        """Every shipped ruleset as ``(id, reason it is unavailable or "")``, sorted by id."""
        return [(rid, self.unavailable_reason(board, rid, current)) for rid in self.ids()]

    def usable(self, board: Board, current: str) -> list[str]:
        return [rid for rid, why in self.choices(board, current) if not why]

    def compare_partner(self, board: Board, rid: str) -> Optional[str]:
        """The natural ruleset to compare ``rid`` with: its pair in :data:`COMPARE_PAIRS`, else
        another one of the same engine (strategy), else the next usable one."""
        ids = [x for x in self.usable(board, rid) if x != rid]
        if COMPARE_PAIRS.get(rid) in ids:
            return COMPARE_PAIRS[rid]
        try:
            strategy = load_ruleset(rid).strategy
        except RulesetError:
            strategy = None
        same = [x for x in ids if _strategy(x) == strategy]
        if same:
            return same[0]
        return ids[0] if ids else None

    # -- phase steps -------------------------------------------------------------------------
    def has_steps(self, rs: Ruleset) -> bool:
        """True when boards of this ruleset step through a phase (N / P)."""
        return rs.strategy == "wh40k"

    def steps_name(self, rs: Ruleset) -> str:
        return "Fight phase"

    def steps(self, board: Board, rs: Ruleset, services: dict) -> list:
        """``[(caption, board, analysis)]`` of the phase steps of ``board``."""
        from game.core.rules.wh40k import fight_phase_steps

        return fight_phase_steps(board, rs, services.get("planner"))

    # -- unit profile ------------------------------------------------------------------------
    def fields(self, rs: Ruleset) -> list[Field]:
        """The values the unit panel edits under ``rs``: what its engine reads, found from the
        ruleset's parameters (a strike order by Agility needs Agility, a Height cap Height, a
        troop-type table a troop type, a fighting range in Movement the Movement...)."""
        out = [Field("attacks", "Attacks", default=1)]
        if rs.strategy == "ranked":
            if str(rs.p("strike_order", "initiative")) == "agility_step":
                out.append(Field("agility", "Agility", default=3))
            else:
                out.append(Field("initiative", "Initiative", default=3))
            if rs.p("restricted_attacks_height_cap", False):
                out.append(Field("height", "Height", default=int(rs.p("default_height", 1) or 1)))
            if str(rs.p("fight_range", "")).startswith("movement"):
                out.append(Field("movement", "Movement", default=4))
            if isinstance(rs.p("troop_types"), dict):
                troops = tuple(rs.p("troop_types"))
                out.append(Field("extra:troop_type", "Troop type", kind="choice",
                                 default=rs.p("default_troop_type", troops[0]), choices=troops))
                out.append(Field("wounds", "Wounds"))
            if isinstance(rs.p("weapons"), dict):
                weapons = tuple(rs.p("weapons"))
                out.append(Field("extra:weapon", "Weapon", kind="choice", default=rs.p("default_weapon", weapons[0]),
                                 choices=weapons))
            out.append(Field("parts", "Parts", kind="parts"))
        elif rs.strategy == "slots":
            out.append(Field("size", "Size", kind="choice", default="regular", choices=("regular", "large")))
            out.append(Field("parts", "Parts", kind="parts"))
        if any(k.endswith("_keyword") and rs.p(k) for k in rs.params):
            out.append(Field("keywords", "Keywords", kind="keywords"))
        return out

    def new_profile(self, rs: Ruleset) -> dict:
        """The profile a new unit gets under ``rs`` (every whole-number value the ruleset reads)."""
        return {f.key: f.default for f in self.fields(rs)
                if f.default is not None and not f.key.startswith("extra:") and f.kind in ("int", "choice")}


def _strategy(rid: str) -> Optional[str]:
    try:
        return load_ruleset(rid).strategy
    except RulesetError:
        return None
