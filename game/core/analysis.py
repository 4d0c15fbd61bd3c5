"""The result of analysing a board under a ruleset, and the entry point :func:`analyse`.

:func:`analyse` looks up the ruleset's ``strategy`` in :mod:`game.core.registry` and calls
its ``analyse(board, ruleset, services)``. ``services`` lets the caller inject
non-pure helpers (for example a pymunk path planner for pile-in moves) without the rules
core importing them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .board import Board
from .engagement import Engagement
from .geometry import Point
from .results import PARTS, Allocation, CombatSlot, FightSelection, StrikeStep, to_json
from .ruleset import Ruleset, load_ruleset

ROLES = ("attack", "support", "none")


@dataclass
class ModelResult:
    """What one model does this round.

    ``role``: ``attack`` (fights normally, red), ``support`` (supporting attack, blue) or
    ``none``; ``attacks``: attacks it may make; ``targets``: enemy model ids it may direct
    them at; ``at``: centre (table mm) after any rule-mandated move; ``why``: a short
    explanation in our own words citing the rule by name; ``parts``: attacks per model part.
    """

    role: str = "none"
    attacks: int = 0
    targets: list[str] = field(default_factory=list)
    at: Point = (0.0, 0.0)
    why: str = ""
    parts: Optional[dict[str, int]] = None


@dataclass
class Analysis:
    """Analysis of a board: per-model results plus typed parts (see the contract's JSON and
    :mod:`game.core.results`).

    ``gap_links`` (model id pairs), ``moves`` (model id -> path, table mm), ``strike_order``
    (:class:`StrikeStep`), ``engagements`` (:class:`Engagement`: the facing of ``unit`` that
    ``enemy`` is engaged with), ``notes``; parts an engine may give (None: not given, and left
    out of the JSON): ``fight_sequence`` (:class:`FightSelection`), ``allocation`` (unit ->
    :class:`Allocation`), ``slots`` (:class:`CombatSlot`), ``move_reach_mm``,
    ``pile_in_targets`` / ``move_targets`` (unit -> enemy unit ids), ``consolidation`` (unit
    -> mode), ``rank_bonus`` (unit -> Rank Bonus; empty: none shown). ``extra`` holds keys a
    policy adds that have no type here (written to the JSON as they are); ``legend`` the
    strategy's :class:`~game.core.strategy.Legend`.
    """

    ruleset: str
    models: dict[str, ModelResult] = field(default_factory=dict)
    gap_links: list[tuple[str, str]] = field(default_factory=list)
    moves: dict[str, list[Point]] = field(default_factory=dict)
    strike_order: list[StrikeStep] = field(default_factory=list)
    engagements: list[Engagement] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    rank_bonus: dict[str, int] = field(default_factory=dict)
    fight_sequence: Optional[list[FightSelection]] = None
    allocation: Optional[dict[str, Allocation]] = None
    slots: Optional[list[CombatSlot]] = None
    move_reach_mm: Optional[float] = None
    pile_in_targets: Optional[dict[str, list[str]]] = None
    move_targets: Optional[dict[str, list[str]]] = None
    consolidation: Optional[dict[str, str]] = None
    legend: Any = None

    def adopt(self) -> "Analysis":
        """Make every part typed: strike steps and engagements given as plain mappings, and
        contract keys an engine left in ``extra`` (``fight_sequence``, ``allocation``,
        ``slots``, ...), become their records. Returns ``self``."""
        self.strike_order = [StrikeStep.of(s) for s in self.strike_order]
        self.engagements = [Engagement.of(e) for e in self.engagements]
        for key, (attr, read) in PARTS.items():
            if key in self.extra:
                setattr(self, attr, read(self.extra.pop(key)))
        return self

    def role_of(self, model_id: str) -> str:
        r = self.models.get(model_id)
        return r.role if r else "none"

    def to_json(self) -> dict:
        """The contract's JSON object (``shared/spec/scenario-format.md``)."""
        def pt(p: Point) -> list[float]:
            return [round(float(p[0]), 3), round(float(p[1]), 3)]

        models = {}
        for mid, r in self.models.items():
            d: dict[str, Any] = {"role": r.role, "attacks": r.attacks, "targets": list(r.targets), "at": pt(r.at)}
            if r.parts is not None:
                d["parts"] = dict(r.parts)
            if r.why:
                d["why"] = r.why
            models[mid] = d
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "models": models,
            "gap_links": [list(p) for p in self.gap_links],
            "moves": {k: [pt(p) for p in v] for k, v in self.moves.items()},
            "strike_order": to_json(self.strike_order),
            "engagements": to_json(self.engagements),
        }
        for key, (attr, _read) in PARTS.items():
            v = getattr(self, attr)
            if v is not None and (key != "rank_bonus" or v):
                out[key] = to_json(v)
        out.update(to_json(self.extra))
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def analyse(board: Board, ruleset: Optional[Ruleset] = None, **services: Any) -> Analysis:
    """Analyse ``board`` under ``ruleset`` (default: the board's own ruleset id).

    Raises :class:`~game.core.ruleset.RulesetError` if the ruleset is not shipped.
    """
    from .registry import strategy_of
    rs = ruleset or load_ruleset(board.ruleset)
    return strategy_of(rs).analyse(board, rs, services).adopt()
