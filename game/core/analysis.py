"""The result of analysing a board under a ruleset: :class:`Analysis` and :class:`ModelResult`.

The entry point that produces one is :func:`game.core.analyse.analyse` (it asks the registry
for the ruleset's strategy; this module imports neither, so the strategy protocol can name
these types).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, MutableMapping, Optional, Sequence, TypeVar

from game.core.board import Board
from game.core.engagement import Engagement
from game.core.geometry import Point
from game.core.parts import CORE_PARTS, Engagements, GapLinks, Moves, Part, Parts, StrikeOrder, StrikeStep

P = TypeVar("P", bound=Part)
C = TypeVar("C", GapLinks, Moves, StrikeOrder, Engagements)

ROLES = ("attack", "support", "none")


@dataclass(slots=True)
class ModelResult:
    """What one model does this round.

    ``role``: ``attack`` (fights normally, red), ``support`` (supporting attack, blue) or
    ``none``; ``attacks``: attacks it may make; ``targets``: enemy model ids it may direct
    them at (a list, or a tuple: the rank-and-file engine's own policies give tuples, which
    the collector stops tracking, and a model of it with none holds the shared empty tuple;
    never mutate it in place); ``at``: centre (table mm) after any rule-mandated move; ``why``: a short
    explanation in our own words citing the rule by name; ``parts``: attacks per model part.
    """

    role: str = "none"
    attacks: int = 0
    targets: Sequence[str] = field(default_factory=list)
    at: Point = (0.0, 0.0)
    why: str = ""
    parts: Optional[dict[str, int]] = None


@dataclass
class Analysis:
    """Analysis of a board: the core and its typed parts (see the contract's JSON and
    :mod:`game.core.parts`).

    Core: ``models`` (model id -> :class:`ModelResult`: role, attacks, targets, reason; a dict,
    or the rank-and-file engine's :class:`~game.core.results.ModelResults`, which reads as one) and
    ``notes``; ``parts`` (:class:`~game.core.parts.Parts`): one frozen part per type
    (``analysis.part(CombatSlots)``, None when not given), always holding the core parts
    (:data:`~game.core.parts.CORE_PARTS`) read through ``gap_links`` (model id pairs), ``moves``
    (model id -> path, table mm, from where the model stood to where it ends), ``strike_order``
    (:class:`~game.core.parts.StrikeStep`) and ``engagements``
    (:class:`~game.core.engagement.Engagement`: the facing of ``unit`` that ``enemy`` is engaged
    with): each read-only (tuples, a read-only mapping); assigning one, or ``add_moves`` /
    ``add_gap_links`` / ``add_engagements``, puts a new part. ``legend``: the strategy's
    :class:`~game.core.strategy.Legend`.
    """

    ruleset: str
    models: MutableMapping[str, ModelResult] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    parts: Parts = field(default_factory=Parts)
    legend: Any = None
    #: ``[(field path, message)]``: what the scenario asks that the rules forbid (e.g. a fight
    #: destroying a unit it is not engaged with); the command line refuses the file with the
    #: field's line (exit 2); not part of the JSON (each is also a note)
    input_errors: list = field(default_factory=list)

    def __post_init__(self) -> None:
        for kind in CORE_PARTS:  # first, so they are drawn and written before the engine's parts
            if self.parts.get(kind) is None:
                self.parts.put(kind())

    # -- the core parts ----------------------------------------------------------------------
    @property
    def gap_links(self) -> tuple[tuple[str, str], ...]:
        return self._core(GapLinks).links

    @gap_links.setter
    def gap_links(self, links: Iterable[Sequence[str]]) -> None:
        self.parts.put(GapLinks(tuple((str(a), str(b)) for a, b in links)))

    @property
    def moves(self) -> Mapping[str, tuple]:
        return self._core(Moves).paths

    @moves.setter
    def moves(self, paths: Mapping[str, Any]) -> None:
        self.parts.put(Moves.of(paths))

    @property
    def strike_order(self) -> tuple[StrikeStep, ...]:
        return self._core(StrikeOrder).steps

    @strike_order.setter
    def strike_order(self, steps: Iterable[Any]) -> None:
        self.parts.put(StrikeOrder(tuple(StrikeStep.of(s) for s in steps)))

    @property
    def engagements(self) -> tuple[Engagement, ...]:
        return self._core(Engagements).entries

    @engagements.setter
    def engagements(self, entries: Iterable[Any]) -> None:
        self.parts.put(Engagements(tuple(Engagement.of(e) for e in entries)))

    def add_moves(self, paths: Mapping[str, Any]) -> None:
        """Add (or replace) the paths of these models."""
        self.moves = {**self.moves, **paths}

    def add_gap_links(self, links: Iterable[Sequence[str]]) -> None:
        self.gap_links = self.gap_links + tuple((str(a), str(b)) for a, b in links)

    def add_engagements(self, entries: Iterable[Any]) -> None:
        self.engagements = self.engagements + tuple(Engagement.of(e) for e in entries)

    def _core(self, kind: type[C]) -> C:
        got = self.parts.get(kind)
        if got is None:  # a part dropped by hand: empty again
            got = kind()
            self.parts.put(got)
        return got

    def replaced(self, **changes: Any) -> "Analysis":
        """A copy with ``changes`` (fields, or the core parts by name), parts copied so the
        copy's parts can change without touching this analysis'."""
        core = {k: changes.pop(k) for k in ("gap_links", "moves", "strike_order", "engagements") if k in changes}
        out = dataclasses.replace(self, parts=self.parts.copy(), **changes)
        for k, v in core.items():
            setattr(out, k, v)
        return out

    # -- parts -------------------------------------------------------------------------------
    def part(self, kind: type[P]) -> Optional[P]:
        """The part of type ``kind`` (or a subclass), None when the analysis has none."""
        return self.parts.get(kind)

    def put(self, *parts: Part) -> "Analysis":
        """Set parts (one per type; a later one of the same type replaces it). Returns ``self``."""
        for p in parts:
            self.parts.put(p)
        return self

    def engine_parts(self) -> list[Part]:
        """The parts beyond the core ones (an engine's, merged per combat by the engine)."""
        return [p for p in self.parts if not isinstance(p, CORE_PARTS)]

    def role_of(self, model_id: str) -> str:
        r = self.models.get(model_id)
        return r.role if r else "none"

    def to_json(self) -> dict:
        """The contract's JSON object (``shared/spec/scenario-format.md``): ``ruleset``,
        ``models``, the core parts (``gap_links``, ``moves``, ``strike_order``,
        ``engagements``), then each other part's ``json_items()``, then ``notes``."""
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
        out: dict[str, Any] = {"ruleset": self.ruleset, "models": models}
        for kind in CORE_PARTS:
            out.update(self._core(kind).json_items())
        for p in self.engine_parts():
            out.update(p.json_items())
        if self.notes:
            out["notes"] = list(self.notes)
        return out
