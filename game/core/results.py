"""Typed parts of an :class:`~game.core.analysis.Analysis` and their JSON (the contract keys).

Each part is a record with a ``to_json()`` giving exactly the contract's object; optional keys
(``None`` values) are left out, as the engines always did. Records also answer
``record["key"]`` / ``record.get("key")`` / ``"key" in record`` / ``record["key"] = v`` like
the dicts they replace (a key the type does not name is kept and written back), so code
written against the JSON shape keeps working.

* :class:`StrikeStep`: ``strike_order`` entries ``{step, label, models[, parts]}``;
* :class:`FightSelection`: ``fight_sequence`` entries (Warhammer 40,000 fight selection);
* :class:`Allocation`: ``allocation.<unit>`` (combat slots: models sent to the melee);
* :class:`CombatSlot`: ``slots`` entries (one combat slot around an engaged model);
* :class:`~game.core.engagement.Engagement`: ``engagements`` entries (also a :class:`Record`).

:data:`PARTS` maps a JSON key to its ``Analysis`` attribute and how it is read from a plain
mapping, so ``analysis.extra["allocation"] = {...}`` sets the typed part.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Optional


class Record:
    """Mixin for result dataclasses: ``to_json`` (``None`` fields left out) and read access
    by key, like the JSON object it serialises to."""

    def to_json(self) -> dict:
        out = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if v is None:
                continue
            out[f.name] = list(v) if isinstance(v, tuple) else v
        out.update(getattr(self, "_more", None) or {})
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Record):
            return type(other) is type(self) and other.to_json() == self.to_json()
        if isinstance(other, dict):
            return self.to_json() == other
        return NotImplemented

    __hash__ = object.__hash__

    def __getitem__(self, key: str) -> Any:
        more = getattr(self, "_more", None) or {}
        if key in more:
            return more[key]
        if key not in self:
            raise KeyError(key)
        return getattr(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def __setitem__(self, key: str, value: Any) -> None:
        if key in {f.name for f in dataclasses.fields(self)}:
            setattr(self, key, value)
        else:
            more = getattr(self, "_more", None)
            if more is None:
                more = {}
                object.__setattr__(self, "_more", more)
            more[key] = value

    def __contains__(self, key: object) -> bool:
        if key in (getattr(self, "_more", None) or {}):
            return True
        return isinstance(key, str) and key in {f.name for f in dataclasses.fields(self)} and \
            getattr(self, key) is not None

    def keys(self) -> list[str]:
        return list(self.to_json())

    @classmethod
    def of(cls, d: Any) -> Any:
        """A record from its JSON mapping (a record is returned as it is)."""
        if isinstance(d, cls):
            return d
        fields = dataclasses.fields(cls)
        names = {f.name for f in fields}
        data = dict(d)
        kw = {k: v for k, v in data.items() if k in names}
        for f in fields:  # a part written by hand may lack a key: it reads as absent (None)
            if f.name not in kw and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                kw[f.name] = None
        rec = cls(**kw)
        more = {k: v for k, v in data.items() if k not in names}
        if more:  # keys an engine added that this type does not name yet: kept, and written back
            object.__setattr__(rec, "_more", more)
        return rec


@dataclass(eq=False)
class StrikeStep(Record):
    """One step of the strike order: ``step`` (Initiative / Agility value, or the selection
    order), ``label`` for readers, ``models`` striking at it, ``parts`` (``model/part``) when
    model parts strike at their own value."""

    step: Any
    label: str
    models: list
    parts: Optional[list] = None


@dataclass(eq=False)
class FightSelection(Record):
    """A unit selected to fight (Warhammer 40,000): ``order`` (1-based), ``unit``, ``player``,
    ``fight`` (``normal`` | ``overrun``), ``fights_first``, ``step`` (``fights_first`` |
    ``remaining``), ``engaged`` (a model ends in Engagement Range), ``destroys`` (unit ids)."""

    order: int
    unit: str
    player: int
    fight: str
    fights_first: bool
    step: Optional[str] = None
    engaged: Optional[bool] = None
    destroys: Optional[list] = None


@dataclass(eq=False)
class Allocation(Record):
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


@dataclass(eq=False)
class CombatSlot(Record):
    """A combat slot beside ``model``: centre ``at`` (table mm), ``size`` of the filler's
    room (``regular`` | ``large``), ``side`` of the model (``front/right`` for a corner),
    ``filled_by`` (model id or None: free), ``also`` (other models a large filler's room
    touches)."""

    model: str
    at: list
    size: str
    side: str
    filled_by: Optional[str] = None
    also: Optional[list] = None

    def to_json(self) -> dict:
        out = super().to_json()
        out["filled_by"] = self.filled_by  # the contract keeps a free slot's null
        return out


def _listed(kind):
    return lambda v: [kind.of(x) for x in v] if v is not None else None


def _mapped(kind):
    return lambda v: {k: kind.of(x) for k, x in dict(v).items()} if v is not None else None


#: JSON key -> (Analysis attribute, reader from plain JSON)
PARTS = {
    "fight_sequence": ("fight_sequence", _listed(FightSelection)),
    "allocation": ("allocation", _mapped(Allocation)),
    "slots": ("slots", _listed(CombatSlot)),
    "move_reach_mm": ("move_reach_mm", lambda v: v),
    "pile_in_targets": ("pile_in_targets", lambda v: v),
    "move_targets": ("move_targets", lambda v: v),
    "consolidation": ("consolidation", lambda v: v),
    "rank_bonus": ("rank_bonus", lambda v: dict(v) if v is not None else None),
}


def to_json(value: Any) -> Any:
    """JSON form of a typed part (records, lists and mappings of them, plain values)."""
    if isinstance(value, Record):
        return value.to_json()
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    return value


def part(analysis: Any, key: str) -> Any:
    """The typed part ``key`` of an analysis (``slots``, ``fight_sequence``, ...), None when
    the analysis has none; a stand-in object without the attribute is read through its
    ``extra`` mapping, if any."""
    v = getattr(analysis, key, None)
    if v is None:
        v = (getattr(analysis, "extra", None) or {}).get(key)
    return v
