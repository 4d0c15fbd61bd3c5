"""The Old World (``tow``, Rulebook + FAQ & Errata v1.5.2): who fights, how often, and when.

A policy of the rank-and-file engine. The engine finds which units touch, on which facing,
and which models touch (``Base Contact``); this module decides the rest from the ruleset's
parameters (:class:`TowSchema`):

* **The Fighting Rank**: every row (rank or file) holding a model in base contact with an
  enemy unit is a fighting rank; each of its models fights if that enemy unit is within its
  Movement in inches (``fight_range: movement_inches``; ``unlimited`` is the 2024 text).
  A fighter touching an enemy makes its full Attacks, any other ``non_contact_attacks``
  (one per part of a split profile: ``How Many Attacks?``). A model in two fighting ranks
  (a corner) fights once.
* **Press of Battle**: troop types with ``press_of_battle``, in Combat Order, not charging,
  fight ``press_of_battle_depth`` rows deep (the models directly behind; one attack each).
* **Supporting Attacks**: only models with Fight in Extra Rank (their ``weapon`` per the
  ``weapons`` table, or the ``support_keyword``), in the row directly behind the fighting
  rank(s), not themselves in a fighting rank, within Movement, to the facings in
  ``support_facings`` (any facing with ``support_any_facing_keyword``); ``support_attacks``
  each, the rider only for troop types with ``rider_only_support``.
* **Incomplete Ranks**: a fighting rank counts as many models as the largest parallel row
  behind it; nobody moves or fights across gaps. Our reading (tow.md Q2): the nearest model
  behind each empty slot (nearest the enemy first) stands in, with one attack.
* **Who Strikes First?**: by Initiative, set by Strike First / Strike Last before other
  modifiers; chargers add ``charge_initiative_per_inch`` per full inch (capped by the arc
  charged; none when disordered), spears ``initiative_vs_front_chargers`` when charged in
  front; never above ``initiative_cap``; each part of a split profile at its own.
* **Rank Bonus**: by troop type (models per rank, maximum, Horde +``horde_rank_bonus``),
  Combat Order only, none when Disrupted by a flank/rear enemy of enough Unit Strength.
Pure (no pygame or pymunk). Lengths in mm; Movement in inches converted once (tow_unit.py). Steps:
tow_ranks.py (who fights), tow_attacks.py (attacks, why), tow_strike.py (Initiative, Rank Bonus); parts: parts.py.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Mapping, Optional, Sequence

from game.core.analysis import ModelResult
from game.core.names import plural
from game.core.strategy import ProfileField
from game.engines.rank_and_file.parts import fight_parts
from game.engines.rank_and_file.tow_gaps import Gaps, same_answers, same_answers_many
from game.engines.rank_and_file.policy import Combat, policy
from game.engines.rank_and_file.tow_attacks import Targets, closest_enemy_units, write_attacks
from game.engines.rank_and_file.tow_ranks import decide_roles
from game.engines.rank_and_file.tow_rules import Facing, TroopType, Weapon
from game.engines.rank_and_file.tow_strike import rank_bonuses, strike_order
from game.engines.rank_and_file.tow_unit import TowUnit


# ----- parameters (the schema ``rulesets/tow.yaml`` is checked against) ----------------------
@dataclass(frozen=True)
class TowSchema:
    """The parameters this policy reads besides the slot choices (no defaults: the ruleset
    gives every one; the loader checks types and enums, naming file, line and parameter)."""

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
    troop_types: Mapping[str, TroopType]
    weapons: Mapping[str, Weapon]


class Params:
    """A ruleset's typed values (``p.fight_range``...) and ``p.rule(name)``, each one's rule name."""

    def __init__(self, rs: Any):
        self.__dict__.update({k: getattr(rs.values, k) for k in rs.values.__dataclass_fields__})
        self._rs = rs
        self._rules: dict[str, str] = {}

    def rule(self, key: str) -> str:
        got = self._rules.get(key)
        if got is None:
            got = self._rules[key] = self._rs.rule(key) if key in self._rs.params else key
        return got

    @staticmethod
    def of(rs: Any) -> "Params":
        """The :class:`Params` of a loaded ruleset (kept per ruleset object: a loaded ruleset
        does not change)."""
        hit = _PARAMS.get(id(rs))
        if hit is None or hit[0] is not rs:
            if len(_PARAMS) > 64:
                _PARAMS.clear()
            hit = _PARAMS[id(rs)] = (rs, Params(rs))
        return hit[1]


_PARAMS: dict[int, tuple[Any, Params]] = {}


def fight(units: dict, models: dict, engagements: Sequence[tuple[str, str, str]], contacts: Mapping[str, set],
          context: Mapping[str, Any], p: Any, tol: float, only: Optional[set] = None,
          order: Optional[Mapping[str, int]] = None, unit_of: Optional[Mapping[str, str]] = None,
          blank: Optional[Mapping[str, ModelResult]] = None, reads: Optional[dict] = None
          ) -> tuple[dict, list, dict, list]:
    """Decide every model's role, attacks and targets under The Old World: returns
    ({model id: ModelResult}, strike order steps, extra output keys, notes).

    ``units``: {id: Unit}; ``models``: {id: [Model]}; ``engagements``: (unit, enemy, facing of
    ``unit`` the enemy is engaged with); ``contacts``: {model id: enemy model ids it touches};
    ``context``: the scenario's phase context (``charged``, ``charge_moved``, ``disordered``);
    ``p``: :class:`Params`; ``only``: the units to decide (None: all; the others are read);
    ``order`` (model id -> index, board order) and ``unit_of`` (model id -> unit id) over at
    least these models, when the caller has them (else built here); ``blank``: a fresh
    ``ModelResult(at=m.center)`` per model decided, to fill in (else made here); ``reads``:
    filled with what each decided unit learnt of where enemy bases stand (:attr:`Gaps.reads`).
    Steps: who fights and supports (:func:`.tow_ranks.decide_roles`), their attacks and
    explanations (:func:`.tow_attacks.write_attacks`), Who Strikes First? and the Rank Bonus
    (:mod:`.tow_strike`). Never raises on a valid board.
    """
    notes: list[str] = []
    charged = set(context.get("charged") or [])
    # what is read of each unit decided (the others, only read, are never explained or counted here)
    info = {uid: TowUnit(units[uid], models[uid], p, charged, notes) for uid in units if only is None or uid in only}
    if order is None:
        order = {m.id: i for i, m in enumerate(m for ms in models.values() for m in ms)}
    if unit_of is None:
        unit_of = {m.id: m.unit_id for ms in models.values() for m in ms}
    mine = {uid: ms for uid, ms in models.items() if only is None or uid in only}
    results = ({m.id: ModelResult(at=m.center) for ms in mine.values() for m in ms} if blank is None else
               {m.id: blank[m.id] for ms in mine.values() for m in ms})
    gap_to = Gaps(models, units)
    roles = decide_roles(mine, info, engagements, contacts, models, unit_of, p, tol, gap_to)
    targets = Targets(models, contacts, order, unit_of)
    write_attacks(results, roles, info, targets, p, closest_enemy_units(roles, targets, p, tol, gap_to))
    strike, initiative_why = strike_order(units, mine, engagements, context, p, info, results)
    rb, rb_why = rank_bonuses(units, models, engagements, p, info)
    extra = {"rank_bonus": rb, "fighting_rank_models": roles.frm, "fighting_ranks": roles.ranks,
             "rank_bonus_why": rb_why, "initiative": initiative_why,
             "not_in_contact": [m for m in roles.fighters if results[m].role == "attack" and not contacts.get(m)],
             "legend_rows": {"attack": f"Fights: in a fighting rank ({p.rule('fighters')})",
                             "fighting_ranks": f"Fighting rank, outlined ({p.rule('fighters')})",
                             "not_in_contact": f"Fights without touching an enemy: "
                                               f"{plural(p.non_contact_attacks, 'attack')} for each of its parts "
                                               f"({p.rule('non_contact_attacks')})"}}
    if reads is not None:
        reads.update({uid: gap_to.reads.get(uid, []) for uid in mine})
    return results, strike, extra, notes


# ----- the rank-and-file engine's policy seams ----------------------------------------------------
# ``fighters: fighting_rank`` runs the fight above and hands its strike order and Rank Bonus to
# the ``strike_order`` and ``rank_bonus`` slots; the other tow slots add nothing of their own.
@policy("incomplete_ranks", "largest_row_behind")
def largest_row_behind(c: Combat) -> None:
    """Nobody moves: a fighting rank counts as wide as the largest row behind it (decided with
    the fighting ranks)."""


def _fields(rs: Any) -> list:
    v = rs.values
    out = [ProfileField("movement", "Movement", default=4)] if v.fight_range == "movement_inches" else []
    return out + [ProfileField("extra:troop_type", "Troop type", kind="choice", default=v.default_troop_type,
                               choices=tuple(v.troop_types)),
                  ProfileField("wounds", "Wounds"),
                  ProfileField("extra:weapon", "Weapon", kind="choice", default=v.default_weapon,
                               choices=tuple(v.weapons))]


def _same_reads(c: Combat, reads: list) -> bool:
    """Whether a unit's recorded gap questions get the same answers on ``c`` (its enemies moved)."""
    return same_answers(c.models, c.units, reads)


def _same_reads_many(c: Combat, batch: list) -> list:
    """:func:`_same_reads` of several units' reads at once."""
    return same_answers_many(c.models, c.units, batch)


@policy("fighters", "fighting_rank", params=TowSchema, fields=_fields, geometry=True,  # gaps to enemy bases
        recheck=_same_reads, recheck_many=_same_reads_many)
def fighting_rank(c: Combat) -> None:
    """The Fighting Rank and everything decided with it (see the module doc). The gap
    questions each decided unit asked go to ``c.state["geometry_reads"]`` (``{unit: reads}``)."""
    reads: dict = {}
    results, strike, extra, notes = fight(c.units, c.models, [(e.unit, e.enemy, e.facing) for e in c.engs],
                                          c.contacts, c.board.context, Params.of(c.rs), c.tol, c.only,
                                          order=c.order, unit_of=c.unit_of, blank=c.res.models, reads=reads)
    c.state["geometry_reads"] = reads
    c.res.models.update(results)
    c.res.notes += notes
    c.state.update(strike_order=strike, rank_bonus=extra.pop("rank_bonus", {}), rank_bonus_why=extra.pop("rank_bonus_why", {}))
    c.res.put(*fight_parts(extra))


@policy("supports", "fight_in_extra_rank")
def fight_in_extra_rank(c: Combat) -> None:
    """Supporting Attacks: decided with the fighting ranks (``fighters: fighting_rank``)."""


@policy("strike_order", "charge_initiative",
        fields=lambda rs: [ProfileField("initiative", "Initiative", default=3, read_also=("agility",))])
def charge_initiative(c: Combat) -> list[dict]:
    """Who Strikes First?, with the charge bonus: computed with the fighting ranks."""
    return c.state.get("strike_order", [])


@policy("rank_bonus", "troop_type")
def troop_type(c: Combat) -> dict:
    """Rank Bonus by troop type: computed with the fighting ranks."""
    return c.state.get("rank_bonus", {})
