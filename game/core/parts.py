"""Typed parts of an analysis result, and the entry records they are made of.

An :class:`~game.core.analysis.Analysis` holds its core (models with roles, attacks, targets and
reasons; notes) plus ``parts``: one frozen :class:`Part` per type, keyed by its type
(``analysis.part(CombatSlots)``). Every analysis holds the core parts (:data:`CORE_PARTS`):
:class:`GapLinks`, :class:`Moves`, :class:`StrikeOrder`, :class:`Engagements`. The JSON writer asks
each part for its ``json_items()`` (contract key -> JSON value) and never knows an engine.

The types here are the *vocabulary* the views draw (one drawer per type, see
:mod:`game.render.drawers`); an engine package declares its own part types as subclasses
(``game/engines/rank_and_file/parts.py``: fighting ranks are :class:`OutlinedRows`, fighters
not in contact :class:`ReducedAttackers`, ...), so a view draws an engine's part through the
drawer of its base type without importing or naming the engine. A part only serialised (never
drawn) is a :class:`DataPart`.

Entry records (:class:`Entry`: :class:`StrikeStep`, :class:`FightSelection`,
:class:`Allocation`, :class:`CombatSlot`, and :class:`~game.core.engagement.Engagement`) are
frozen dataclasses: ``to_json()`` writes the contract's object (``None`` fields left out) and
``of(mapping)`` builds one from such an object (JSON -> record), nothing else: they are not dicts.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import AbstractSet, Any, ClassVar, Iterator, Mapping, Optional, TypeVar

from game.core.board import unit_of
from game.core.record import Record, record

P = TypeVar("P", bound="Part")


def to_json(value: Any) -> Any:
    """JSON form of a part's value: entries, parts, tuples/lists and mappings of them, plain values."""
    if isinstance(value, (Entry, Part)):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: to_json(v) for k, v in value.items()}
    return value


def _frozen(value: Any) -> Any:
    """Lists as tuples (recursively), so a part built from JSON is immutable and hashable-ish."""
    if isinstance(value, list):
        for v in value:
            if isinstance(v, list):
                return tuple(_frozen(x) for x in value)
        return tuple(value)  # no list inside (model ids): one copy, no call per item
    return value



@record
class Entry(Record):
    """Base of entry records: ``to_json`` (None fields left out; tuples as lists) and ``of``."""

    def to_json(self) -> dict:
        out = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if v is None:
                continue
            out[f.name] = to_json(v)
        return out

    @classmethod
    def of(cls, d: Any) -> Any:
        """The record for a JSON mapping ``d`` (a record of this type is returned as it is).
        Raises ``TypeError`` for a key the type does not declare (an engine must declare it)."""
        if isinstance(d, cls):
            return d
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise TypeError(f"{cls.__name__}: undeclared keys {sorted(unknown)}")
        return cls(**{k: _frozen(v) for k, v in dict(d).items()})


@record
class StrikeStep(Entry):
    """One step of the strike order: ``step`` (Initiative / Agility value, or the selection
    order), ``label`` for readers, ``models`` (ids) striking at it, ``parts`` (``model/part``)
    when model parts strike at their own value (the model strikes at this step with those parts)."""

    step: Any
    label: str
    models: tuple = ()
    parts: Optional[tuple] = None


@record
class FightSelection(Entry):
    """A unit selected to fight (a fight sequence): ``order`` (1-based), ``unit``, ``player``,
    ``fight`` (``normal`` | ``overrun``), ``fights_first``, ``step`` (``fights_first`` |
    ``remaining``), ``engaged`` (a model ends in Engagement Range), ``destroys`` (unit ids),
    ``kills`` (model ids), ``moved`` (model ids of an overrun pile-in), ``overrun_because``
    (words), ``selected_by`` (the rule that selected it out of turn), ``move_status`` (an overrun
    pile-in: proven optimal or best found)."""

    order: int
    unit: str
    player: int
    fight: str
    fights_first: bool
    step: Optional[str] = None
    engaged: Optional[bool] = None
    destroys: Optional[tuple] = None
    kills: Optional[tuple] = None
    moved: Optional[tuple] = None
    overrun_because: Optional[str] = None
    selected_by: Optional[str] = None
    move_status: Optional[Any] = None  # an overrun fight's pile-in: {status, engaged, bound}


@record
class Allocation(Entry):
    """A unit's models sent to the melee (combat slots): ``final`` number allocated,
    ``actual`` that found a slot, ``base``, ``bonus``, ``share`` (percent), ``total`` the
    share was taken of, own ``models``, ``whole`` (allocated whole), the enemy ``against``,
    ``direction`` (frontal/flank/rear), the ``attacker`` and why (``attacker_because``),
    ``free_slots`` around the enemy, and ``why`` in words."""

    final: int
    actual: int
    base: int
    bonus: int
    share: Optional[int] = None
    total: Optional[int] = None
    models: Optional[int] = None
    whole: Optional[bool] = None
    against: Optional[str] = None
    direction: Optional[str] = None
    attacker: Optional[str] = None
    attacker_because: Optional[str] = None
    free_slots: Optional[int] = None
    why: Optional[str] = None


@record
class CombatSlot(Entry):
    """A combat slot beside ``model``: centre ``at`` (table mm, ``(x, y)``), ``size`` of the
    filler's room (``regular`` | ``large``), ``side`` of the model (``front/right`` for a
    corner), ``filled_by`` (model id or None: free), ``also`` (other models a large filler's
    room touches)."""

    model: str
    at: tuple
    size: str
    side: str
    filled_by: Optional[str] = None
    also: Optional[tuple] = None

    def to_json(self) -> dict:
        out = super().to_json()
        out["filled_by"] = self.filled_by  # the contract keeps a free slot's null
        return out


# ---------------------------------------------------------------------------------------------
@record
class Part(Record):
    """Base of the typed parts. ``key``: the contract's JSON key; ``json_items()`` the keys
    and values it writes (usually ``{key: value}``); ``for_units(ids)`` the part restricted to
    those unit ids (the rank-and-file engine merges parts of separate combats) and
    ``merged(other)`` two such parts as one (later wins per unit). ``json_only``: a part only
    written to the JSON, never drawn; the renderer raises for a part of any other type that
    has no drawer (:mod:`game.render.drawers`)."""

    key: ClassVar[str] = ""
    json_only: ClassVar[bool] = False

    def value(self) -> Any:
        """The JSON value under ``key`` (default: the part's one field)."""
        (f,) = dataclasses.fields(self)
        return to_json(getattr(self, f.name))

    def json_items(self) -> dict[str, Any]:
        return {self.key: self.value()}

    def to_json(self) -> Any:
        return self.value()

    def for_units(self, ids: set) -> "Part":
        return dataclasses.replace(self, **{f.name: _only(getattr(self, f.name), ids) for f in dataclasses.fields(self)})

    def merged(self, other: "Part") -> "Part":
        return dataclasses.replace(self, **{f.name: _join(getattr(self, f.name), getattr(other, f.name))
                                            for f in dataclasses.fields(self)})


def _unit_of(x: Any) -> Optional[str]:
    if isinstance(x, str):
        return unit_of(x)
    u = getattr(x, "unit", None)
    return u if isinstance(u, str) else None


def _only(v: Any, ids: set) -> Any:
    """A part's field restricted to unit ids: mappings by key (unit or model id), sequences by
    each entry's unit (entries without one are kept)."""
    if isinstance(v, Mapping):
        return {k: x for k, x in v.items() if _unit_of(k) in ids}
    if isinstance(v, tuple):
        return tuple(x for x in v if _unit_of(x) is None or _unit_of(x) in ids)
    return v


def _join(a: Any, b: Any) -> Any:
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return {**a, **b}
    if isinstance(a, tuple) and isinstance(b, tuple):
        return a + b
    return b


@record
class DataPart(Part):
    """A part only written to the JSON (no drawer): ``data`` as the engine gave it (mappings,
    tuples of plain values or of dicts)."""

    json_only: ClassVar[bool] = True
    data: Any = None


# --- the core parts: every analysis holds one of each -----------------------------------------
def _pt(p: Any) -> list[float]:
    return [round(float(p[0]), 3), round(float(p[1]), 3)]


@record
class GapLinks(Part):
    """Pairs of model ids that fight across a gap (``(a, b)``, JSON ``[[a, b], ...]``): drawn as
    dashed links (or lettered arrows along the engaged facing), a legend row."""

    key: ClassVar[str] = "gap_links"
    links: tuple[tuple[str, str], ...] = ()

    def value(self) -> Any:
        return [list(p) for p in self.links]


@record
class Moves(Part):
    """Rule-mandated moves: model id -> path (table mm, ``((x, y), ...)``) from where the model
    stood to where it ends (JSON points rounded to 0.001 mm). Drawn with the model at the end,
    its start a dashed outline and an arrow from the outline to the model, its length beside it."""

    key: ClassVar[str] = "moves"
    paths: Mapping[str, tuple] = field(default_factory=dict)

    @classmethod
    def of(cls, paths: Mapping[str, Any]) -> "Moves":
        """The part for ``{model id: [points]}`` (points as pairs; each path kept as a tuple)."""
        return cls(MappingProxyType({k: tuple(tuple(q) for q in v) for k, v in paths.items()}))

    def value(self) -> Any:
        return {k: [_pt(q) for q in v] for k, v in self.paths.items()}

    def __reduce__(self) -> Any:
        """Pickled as its paths (a read-only mapping cannot be pickled; the window's analysis
        worker sends analyses between processes)."""
        return (Moves.of, (dict(self.paths),))


@record
class StrikeOrder(Part):
    """The strike order, highest step first (:class:`StrikeStep` entries): a legend section, and
    what a step view shows (``game.core.combat_round.at_step``)."""

    key: ClassVar[str] = "strike_order"
    steps: tuple = ()


@record
class Engagements(Part):
    """Which facing of which unit each enemy unit is engaged with
    (:class:`~game.core.engagement.Engagement` entries; JSON only)."""

    key: ClassVar[str] = "engagements"
    json_only: ClassVar[bool] = True
    entries: tuple = ()


#: the part types every analysis holds (written first, in this order, after ``models``); an
#: engine's own per-combat merging leaves them to :class:`~game.core.analysis.Analysis`
CORE_PARTS: tuple[type, ...] = (GapLinks, Moves, StrikeOrder, Engagements)


# --- the drawn vocabulary -------------------------------------------------------------------
@record
class FightSequence(Part):
    """The order units are selected to fight (:class:`FightSelection` entries); drawn as a
    numbered badge by each unit on the table, listed in the legend."""

    key: ClassVar[str] = "fight_sequence"
    entries: tuple = ()


@record
class Allocations(Part):
    """Models each unit sends to the melee: unit id -> :class:`Allocation` (legend lines)."""

    key: ClassVar[str] = "allocation"
    by_unit: Mapping[str, Allocation] = field(default_factory=dict)


@record
class CombatSlots(Part):
    """The combat slots around engaged models (:class:`CombatSlot`): dots, filled or free; a
    model allocated to a slot away from its place stands in it (its place a dashed outline)."""

    key: ClassVar[str] = "slots"
    slots: tuple = ()


@record
class MoveReach(Part):
    """The longest rule-mandated move allowed, mm: a reach disc round each move's start; a
    longer move is drawn invalid."""

    key: ClassVar[str] = "move_reach_mm"
    mm: float = 0.0


@record
class Locked(Part):
    """Models held in place (in base contact with an enemy, they may not move): a padlock."""

    key: ClassVar[str] = "locked"
    models: tuple = ()


@record
class OffTable(Part):
    """Models not on the table (embarked, destroyed): model id -> why. Never drawn, never
    counted, no label for a unit wholly off the table."""

    key: ClassVar[str] = "off_table"
    why: Mapping[str, str] = field(default_factory=dict)

    def has(self, model_id: str) -> bool:
        return model_id in self.why

    def whole_unit(self, model_ids: list) -> bool:
        return bool(model_ids) and all(m in self.why for m in model_ids)


@record
class Removed(Part):
    """Models removed at this point of the phase (a unit destroyed by a fight, casualties):
    drawn crossed out and listed in the legend under ``label`` (never counted as a model that
    does not fight). Not part of the JSON (the engine's own keys say it there)."""

    key: ClassVar[str] = "removed"
    models: tuple = ()
    label: str = "Destroyed"

    def json_items(self) -> dict[str, Any]:
        return {}


@record
class StepShown(Part):
    """The strike step a step view shows (a combat round's step, a demo's ``strike`` step):
    its ``label`` ("Agility 3") and the ``models`` (ids) striking at it. The legend counts the
    fighters of this step only and marks the step in the strike order. Not part of the JSON."""

    key: ClassVar[str] = "step_shown"
    label: str = ""
    models: tuple = ()

    def json_items(self) -> dict[str, Any]:
        return {}

    def for_units(self, ids: set) -> "Part":
        return self  # one step of the whole board


@record
class MovesPreview(Part):
    """The moves are a preview: the board is not moved, models stand where they start. Views
    still draw every move the same way (the model at the end, its start a dashed outline)."""

    key: ClassVar[str] = "moves_preview"
    json_only: ClassVar[bool] = True  # read by the engine's own steps; views draw every move alike

    def value(self) -> Any:
        return True


@record
class RankBonus(Part):
    """Rank Bonus each unit claims (unit id -> n) and why (unit id -> words): a legend section.
    JSON: ``rank_bonus`` (left out when empty) and ``rank_bonus_why`` (when given)."""

    key: ClassVar[str] = "rank_bonus"
    bonus: Mapping[str, int] = field(default_factory=dict)
    why: Optional[Mapping[str, str]] = None

    def json_items(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rank_bonus": dict(self.bonus)} if self.bonus else {}
        if self.why is not None:
            out["rank_bonus_why"] = dict(self.why)
        return out

    def for_units(self, ids: set) -> "Part":
        return RankBonus(_only(self.bonus, ids), None if self.why is None else _only(self.why, ids))

    def merged(self, other: "Part") -> "Part":
        assert isinstance(other, RankBonus)
        why = None if self.why is None and other.why is None else {**(self.why or {}), **(other.why or {})}
        return RankBonus({**self.bonus, **other.bonus}, why)


@record
class UnitReasons(Part):
    """Why a unit strikes when it does (unit id -> words citing the rule); the units in
    ``changed`` (a rule changed their value) are listed under the strike order."""

    why: Mapping[str, str] = field(default_factory=dict)
    changed: tuple = ()  # unit ids whose strike value a rule changed (listed in the legend)

    def value(self) -> Any:
        return dict(self.why)

    def merged(self, other: "Part") -> "Part":
        assert isinstance(other, UnitReasons)
        return dataclasses.replace(self, why={**self.why, **other.why}, changed=self.changed + other.changed)


@record
class RoleWords(Part):
    """Legend wording the analysis gives (role or mark -> words); the legend uses the role
    rows (``attack``, ``support``, ``none``) over the strategy's labels."""

    words: Mapping[str, str] = field(default_factory=dict)

    def for_units(self, ids: set) -> "Part":
        return self  # wording, not per unit

    def role_labels(self) -> dict[str, str]:
        return {k: v for k, v in self.words.items() if k in ("attack", "support", "none")}


@record
class RowGroup(Record):
    """One group of models outlined together: ``unit`` id and the ``models`` (rank-and-file
    slot ids ``unit.rRfF``) whose rectangle is outlined."""

    unit: str
    models: tuple


@record
class OutlinedRows(Part):
    """Rows of models outlined as one rectangle each (e.g. fighting ranks); ``label`` the
    legend words. Subclasses give ``groups()`` and which rows a picture shows."""

    label: str = ""

    def groups(self) -> list[RowGroup]:  # pragma: no cover - every subclass gives its own
        return []

    def units(self) -> set[str]:
        return {gr.unit for gr in self.groups()}

    def shown(self, model_ids: AbstractSet[str]) -> int:
        """How many outlined rows a picture showing ``model_ids`` holds (default: every group;
        a subclass counts only the rows with a model among them)."""
        return len(self.groups())


@record
class ReducedAttackers(Part):
    """Fighters that attack without touching an enemy, with fewer attacks: their number of
    attacks on a white disc; ``label`` the legend words."""

    models: tuple = ()
    label: str = ""

    def value(self) -> Any:
        return list(self.models)

    def for_units(self, ids: set) -> "Part":
        return dataclasses.replace(self, models=_only(self.models, ids))

    def merged(self, other: "Part") -> "Part":
        assert isinstance(other, ReducedAttackers)
        return dataclasses.replace(self, models=self.models + other.models, label=other.label or self.label)


class Parts:
    """The parts of one analysis, keyed by type: ``get(T)`` the part of type ``T`` or of a
    subclass of it (None: none), ``put(part)`` sets it (replacing one of the same type),
    iteration in the order put."""

    def __init__(self) -> None:
        self._by_type: dict[type, Part] = {}

    def get(self, kind: type[P]) -> Optional[P]:
        p = self._by_type.get(kind)
        if p is not None:
            return p  # type: ignore[return-value]
        for t, x in self._by_type.items():
            if issubclass(t, kind):
                return x  # type: ignore[return-value]
        return None

    def put(self, part: Part) -> None:
        self._by_type[type(part)] = part

    def copy(self) -> "Parts":
        """Another ``Parts`` holding the same (frozen) parts, in the same order."""
        out = Parts()
        out._by_type = dict(self._by_type)
        return out

    def drop(self, kind: type) -> None:
        self._by_type.pop(kind, None)

    def __iter__(self) -> Iterator[Part]:
        return iter(list(self._by_type.values()))

    def __len__(self) -> int:
        return len(self._by_type)

    def __bool__(self) -> bool:
        return bool(self._by_type)

    def __repr__(self) -> str:
        return f"Parts({list(self._by_type.values())!r})"
