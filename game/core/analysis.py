"""The result of analysing a board under a ruleset: :class:`Analysis` and :class:`ModelResult`.

The entry point that produces one is :func:`game.core.analyse.analyse` (it asks the registry
for the ruleset's strategy; this module imports neither, so the strategy protocol can name
these types).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, TypeVar

from game.core.board import Board
from game.core.engagement import Engagement
from game.core.geometry import Point
from game.core.parts import Part, Parts, StrikeStep, to_json
from game.core.ruleset_data import Ruleset  # noqa: F401 (the type analyses are made under)

P = TypeVar("P", bound=Part)

ROLES = ("attack", "support", "none")


@dataclass(slots=True)
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
    """Analysis of a board: the core and its typed parts (see the contract's JSON and
    :mod:`game.core.parts`).

    Core: ``models`` (model id -> :class:`ModelResult`: role, attacks, targets, reason),
    ``gap_links`` (model id pairs), ``moves`` (model id -> path, table mm, from where the
    model stood to where it ends), ``strike_order`` (:class:`~game.core.parts.StrikeStep`),
    ``engagements`` (:class:`~game.core.engagement.Engagement`: the facing of ``unit`` that
    ``enemy`` is engaged with), ``notes``; ``parts`` (:class:`~game.core.parts.Parts`): one
    typed part per type an engine publishes (``analysis.part(CombatSlots)``, None when not
    given); ``legend`` the strategy's :class:`~game.core.strategy.Legend`.
    """

    ruleset: str
    models: dict[str, ModelResult] = field(default_factory=dict)
    gap_links: list[tuple[str, str]] = field(default_factory=list)
    moves: dict[str, list[Point]] = field(default_factory=dict)
    strike_order: list[StrikeStep] = field(default_factory=list)
    engagements: list[Engagement] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    parts: Parts = field(default_factory=Parts)
    legend: Any = None
    #: ``[(field path, message)]``: what the scenario asks that the rules forbid (e.g. a fight
    #: destroying a unit it is not engaged with); the command line refuses the file with the
    #: field's line (exit 2); not part of the JSON (each is also a note)
    input_errors: list = field(default_factory=list)

    def part(self, kind: type[P]) -> Optional[P]:
        """The part of type ``kind`` (or a subclass), None when the analysis has none."""
        return self.parts.get(kind)

    def put(self, *parts: Part) -> "Analysis":
        """Set parts (one per type; a later one of the same type replaces it). Returns ``self``."""
        for p in parts:
            self.parts.put(p)
        return self

    def adopt(self) -> "Analysis":
        """Make every core entry typed: strike steps and engagements given as plain mappings
        become their records (engines may build them as dicts). Returns ``self``."""
        self.strike_order = [StrikeStep.of(s) for s in self.strike_order]
        self.engagements = [Engagement.of(e) for e in self.engagements]
        return self

    def role_of(self, model_id: str) -> str:
        r = self.models.get(model_id)
        return r.role if r else "none"

    def to_json(self) -> dict:
        """The contract's JSON object (``shared/spec/scenario-format.md``): the core keys, then
        each part's ``json_items()``."""
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
        for p in self.parts:
            out.update(p.json_items())
        if self.notes:
            out["notes"] = list(self.notes)
        return out


