"""The result of analysing a board under a ruleset: :class:`Analysis` and :class:`ModelResult`.

The entry point that produces one is :func:`game.core.analyse.analyse` (it asks the registry
for the ruleset's strategy; this module imports neither, so the strategy protocol can name
these types).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping, MutableMapping
from typing import Any, Optional

from game.core.board import Board
from game.core.engagement import Engagement
from game.core.geometry import Point
from game.core.results import PARTS, Allocation, CombatSlot, FightSelection, StrikeStep, to_json
from game.core.ruleset_data import Ruleset

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
    -> mode), ``rank_bonus`` (unit -> Rank Bonus; empty: none shown). ``more`` holds keys a
    policy adds that have no type here (written to the JSON as they are); ``legend`` the
    strategy's :class:`~game.core.strategy.Legend`.

    ``extra`` is a mapping over both, by JSON key: ``analysis.extra["allocation"]`` reads the
    typed part, ``analysis.extra["fight_sequence"] = [...]`` sets it (plain mappings become
    records), any other key lives in ``more``.
    """

    ruleset: str
    models: dict[str, ModelResult] = field(default_factory=dict)
    gap_links: list[tuple[str, str]] = field(default_factory=list)
    moves: dict[str, list[Point]] = field(default_factory=dict)
    strike_order: list[StrikeStep] = field(default_factory=list)
    engagements: list[Engagement] = field(default_factory=list)
    more: dict[str, Any] = field(default_factory=dict)
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
    #: ``[(field path, message)]``: what the scenario asks that the rules forbid (e.g. a fight
    #: destroying a unit it is not engaged with); the command line refuses the file with the
    #: field's line (exit 2); not part of the JSON (each is also a note)
    input_errors: list = field(default_factory=list)

    @property
    def extra(self) -> "Extras":
        """Every output key beyond the core ones, typed parts included (see the class doc)."""
        return Extras(self)

    @extra.setter
    def extra(self, values: Mapping[str, Any]) -> None:
        self.more = {}
        for key, (attr, _read) in PARTS.items():
            setattr(self, attr, {} if key == "rank_bonus" else None)
        Extras(self).update(values or {})

    def adopt(self) -> "Analysis":
        """Make every part typed: strike steps and engagements given as plain mappings become
        their records (engines may build them as dicts). Returns ``self``."""
        self.strike_order = [StrikeStep.of(s) for s in self.strike_order]
        self.engagements = [Engagement.of(e) for e in self.engagements]
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
        out.update(to_json(dict(self.more)))
        if self.notes:
            out["notes"] = list(self.notes)
        return out


class Extras(MutableMapping):
    """``Analysis.extra``: the typed parts by JSON key (:data:`~game.core.results.PARTS`), read
    and written through to the analysis, and the untyped keys of ``Analysis.more``."""

    def __init__(self, owner: Analysis):
        self._a = owner

    def _typed(self, key: str) -> Any:
        attr = PARTS[key][0]
        v = getattr(self._a, attr)
        return None if v is None or (key == "rank_bonus" and not v) else v

    def __getitem__(self, key: str) -> Any:
        if key in PARTS:
            v = self._typed(key)
            if v is None:
                raise KeyError(key)
            return v
        return self._a.more[key]

    def __setitem__(self, key: str, value: Any) -> None:
        if key in PARTS:
            attr, read = PARTS[key]
            setattr(self._a, attr, read(value))
        else:
            self._a.more[key] = value

    def __delitem__(self, key: str) -> None:
        if key in PARTS:
            if self._typed(key) is None:
                raise KeyError(key)
            setattr(self._a, PARTS[key][0], {} if key == "rank_bonus" else None)
        else:
            del self._a.more[key]

    def __iter__(self):
        yield from (k for k in PARTS if self._typed(k) is not None)
        yield from self._a.more

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"Extras({dict(self)!r})"
