"""The Old World (``tow``) on the rank-and-file engine's policy seams.

Registers :mod:`game.core.rules.tow_policy` (the rules, written by the tow session) in the
policy slots of :mod:`game.core.rules.policy`, and declares the schema its parameters are
checked against when ``rulesets/tow.yaml`` loads. ``fighters: fighting_rank`` runs the whole
fight (fighting ranks, Press of Battle, supports, Incomplete Ranks, strike order, Rank Bonus)
and hands the strike order and Rank Bonus to ``strike_order: charge_initiative`` and
``rank_bonus: troop_type``; ``incomplete_ranks: largest_row_behind`` and ``supports:
fight_in_extra_rank`` move nobody and add nothing of their own (the fight decides them).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Mapping, Optional, Union

from ..analysis import ModelResult
from . import tow_policy as tow
from ..strategy import ProfileField
from .policy import Combat, policy

Facing = Literal["front", "right", "rear", "left"]


@dataclass(frozen=True)
class TroopRow:
    models_per_rank: Optional[int]
    max_rank_bonus: int
    unit_strength: Union[float, Literal["wounds"]]
    press_of_battle: bool
    rider_only_support: bool
    disrupted_by_unit_strength: int


@dataclass(frozen=True)
class WeaponRow:
    fight_in_extra_rank: Literal["never", "always", "not_charged", "charged_only"]
    strike_last: bool
    initiative_vs_front_chargers: int


@dataclass(frozen=True)
class TowSchema:
    """The parameters ``tow_policy.TowParams`` reads (besides the slot choices)."""

    fight_range: Literal["movement_inches", "unlimited"]
    non_contact_attacks: int
    dividing_attacks: Literal["closest_enemy_unit", "any_engaged_unit"]
    press_of_battle_depth: int
    press_of_battle_facings: tuple[Facing, ...]
    support_keyword: str
    support_facings: tuple[Facing, ...]
    support_any_facing_keyword: str
    support_attacks: int
    charge_initiative_per_inch: int
    charge_initiative_max_front: int
    charge_initiative_max_flank_rear: int
    initiative_cap: int
    strike_first_keyword: str
    strike_first_initiative: int
    strike_last_keyword: str
    strike_last_initiative: int
    horde_keyword: str
    horde_rank_bonus: int
    default_troop_type: str
    default_weapon: str
    troop_types: Mapping[str, TroopRow]
    weapons: Mapping[str, WeaponRow]


@policy("incomplete_ranks", "largest_row_behind")
def largest_row_behind(c: Combat) -> None:
    """Nobody moves: the fighting rank counts as wide as the largest row behind it (decided
    by the ``fighting_rank`` fight)."""


def _fields(rs) -> list:
    v = rs.values
    out = [ProfileField("movement", "Movement", default=4)] if v.fight_range == "movement_inches" else []
    return out + [ProfileField("extra:troop_type", "Troop type", kind="choice", default=v.default_troop_type,
                               choices=tuple(v.troop_types)),
                  ProfileField("wounds", "Wounds"),
                  ProfileField("extra:weapon", "Weapon", kind="choice", default=v.default_weapon,
                               choices=tuple(v.weapons))]


@policy("fighters", "fighting_rank", params=TowSchema, fields=_fields)
def fighting_rank(c: Combat) -> None:
    out = tow.fight(c.units, c.models, [(e.unit, e.enemy, e.facing) for e in c.engs], c.contacts, c.board.context,
                    tow.params_of(c.rs), c.tol, ModelResult)
    c.res.models.update(out.results)
    c.res.notes += out.notes
    extra = dict(out.extra)
    c.state["strike_order"] = out.strike_order
    c.state["rank_bonus"] = extra.pop("rank_bonus", {})
    c.res.extra.update(extra)


@policy("supports", "fight_in_extra_rank")
def fight_in_extra_rank(c: Combat) -> None:
    """Decided with the fighting rank (``fighters: fighting_rank``)."""


@policy("strike_order", "charge_initiative", fields=lambda rs: [ProfileField("initiative", "Initiative", default=3)])
def charge_initiative(c: Combat) -> list[dict]:
    return c.state.get("strike_order", [])


@policy("rank_bonus", "troop_type")
def troop_type(c: Combat) -> dict:
    return c.state.get("rank_bonus", {})
