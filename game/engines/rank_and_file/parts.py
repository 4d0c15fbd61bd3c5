"""The part types the rank-and-file engine publishes beyond the core (The Old World's fight).

Each is a subclass of a drawn part type of :mod:`game.core.parts` (so the views draw it through
that type's drawer, without naming this engine) or a :class:`~game.core.parts.DataPart` (JSON
only). JSON keys (shared/spec "Keys for The Old World" and docs/ARCHITECTURE.md):

* :class:`FightingRanks` ``fighting_ranks``: each fighting rank (:class:`FightingRank`), drawn
  outlined (:class:`~game.core.parts.OutlinedRows`);
* :class:`NotInContact` ``not_in_contact``: fighters making the reduced attacks, numbered on a
  disc (:class:`~game.core.parts.ReducedAttackers`);
* :class:`FightingRankModels` ``fighting_rank_models``: ``{unit: n}`` (contract key);
* :class:`InitiativeWhy` ``initiative``: ``{unit: words}`` (:class:`~game.core.parts.UnitReasons`);
* :class:`LegendRows` ``legend_rows``: legend wording from the ruleset's rule names
  (:class:`~game.core.parts.RoleWords`).

The Rank Bonus is the core :class:`~game.core.parts.RankBonus` (``rank_bonus``, ``rank_bonus_why``).
"""
from __future__ import annotations

from typing import AbstractSet, Any, ClassVar, Mapping

from game.core.record import Record, record
from game.core.parts import DataPart, Entry, OutlinedRows, Part, ReducedAttackers, RoleWords, RowGroup, UnitReasons


@record
class FightingRank(Entry):
    """One fighting rank of ``unit`` facing ``enemy`` on its ``facing``: ``row`` index,
    ``present`` models in it, ``assumed`` (Incomplete Ranks: as wide as the largest row
    behind), ``row_models`` (ids in the row), ``models`` (who fights in it), ``second`` (the
    Press of Battle row), ``stand_ins``, ``supporters``, ``out_of_reach`` (beyond Movement)."""

    unit: str
    enemy: str
    facing: str
    row: int
    present: int
    assumed: int
    row_models: tuple = ()
    models: tuple = ()
    second: tuple = ()
    stand_ins: tuple = ()
    supporters: tuple = ()
    out_of_reach: tuple = ()


@record
class FightingRanks(OutlinedRows):
    """The fighting ranks: each row (with its Press of Battle row) outlined, each stand-in on its own."""

    key: ClassVar[str] = "fighting_ranks"
    ranks: tuple = ()

    def value(self) -> Any:
        return [r.to_json() for r in self.ranks]

    def groups(self) -> list[RowGroup]:
        out = []
        for r in self.ranks:
            out.append(RowGroup(r.unit, tuple(r.row_models) + tuple(r.second)))
            out += [RowGroup(r.unit, (m,)) for m in r.stand_ins]
        return out

    def shown(self, model_ids: AbstractSet[str]) -> int:
        """Fighting ranks with a model among ``model_ids`` (the picture's)."""
        return sum(1 for r in self.ranks if set(r.row_models) & model_ids)

    def for_units(self, ids: set) -> Part:
        return FightingRanks(label=self.label, ranks=tuple(r for r in self.ranks if r.unit in ids))

    def merged(self, other: Part) -> Part:
        assert isinstance(other, FightingRanks)
        return FightingRanks(label=other.label or self.label, ranks=self.ranks + other.ranks)


@record
class NotInContact(ReducedAttackers):
    key: ClassVar[str] = "not_in_contact"


@record
class FightingRankModels(DataPart):
    key: ClassVar[str] = "fighting_rank_models"


@record
class InitiativeWhy(UnitReasons):
    key: ClassVar[str] = "initiative"


@record
class LegendRows(RoleWords):
    key: ClassVar[str] = "legend_rows"


def fight_parts(extra: Mapping[str, Any]) -> list[Part]:
    """The parts of :func:`game.engines.rank_and_file.tow.fight`'s output mapping (its keys
    ``fighting_ranks``, ``not_in_contact``, ``fighting_rank_models``, ``initiative``,
    ``legend_rows``; the Rank Bonus goes through the ``rank_bonus`` slot)."""
    words = dict(extra.get("legend_rows") or {})
    why = dict(extra.get("initiative") or {})
    return [FightingRankModels(dict(extra.get("fighting_rank_models") or {})),
            FightingRanks(label=words.get("fighting_ranks", ""),
                          ranks=tuple(FightingRank.of(e) for e in extra.get("fighting_ranks") or [])),
            InitiativeWhy(why, tuple(u for u, w in why.items() if "(" in w)),  # a rule named: a rule changed it
            NotInContact(tuple(extra.get("not_in_contact") or ()), words.get("not_in_contact", "")),
            LegendRows(words)]
