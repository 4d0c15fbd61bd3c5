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
Pure (no pygame or pymunk). Lengths in mm; Movement in inches converted once here. Parts: parts.py.
"""
from __future__ import annotations

import math

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Optional, Sequence

from game.core.names import plural
from game.core import geometry as g
from game.core.analysis import ModelResult
from game.core.strategy import ProfileField
from game.engines.rank_and_file.parts import fight_parts
from game.engines.rank_and_file.tow_gaps import Gaps, same_answers, same_answers_many
from game.engines.rank_and_file.policy import Combat, policy
from game.engines.rank_and_file.tow_rules import (
    Facing, TroopType, Weapon, _num, row_index, inward, assumed_row_models, stand_ins, combat_order, charge_bonus, initiative, rank_bonus, unit_strength, support_allowed)

Slot = tuple[int, int]


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


# ----- rows of a ranked unit -------------------------------------------------------------------
@dataclass
class Fighter:
    """How a model comes to fight: ``kind`` is ``contact``, ``row`` (fighting rank, not in
    contact), ``second`` (Press of Battle) or ``stand_in`` (Incomplete Ranks); ``enemies`` the
    enemy units it may attack; ``rows`` the fighting ranks it stands in, as (enemy, facing)."""

    kind: str
    enemies: set = field(default_factory=set)
    rows: list[tuple[str, str]] = field(default_factory=list)
    note: str = ""


def _word(troop: str) -> str:
    return troop.replace("_", " ")


def _profile(u: Any) -> tuple[int, Optional[dict[str, int]]]:
    parts = u.profile.get("parts")
    if parts:
        per = {str(pt.get("name", f"part{i + 1}")): int(pt.get("attacks", 0)) for i, pt in enumerate(parts)}
        return sum(per.values()), per
    return int(u.profile.get("attacks", 1)), None


def _troop(u: Any, p: Any) -> TroopType:
    """The troop type of unit ``u`` (its ``troop_type`` key, or the default when none or unknown)."""
    v = u.extra.get("troop_type", p.default_troop_type)
    return p.troop_types[v if v in p.troop_types else p.default_troop_type]


class _Unit:
    """What the policy reads of one unit (troop type, weapon, keywords, Movement)."""

    troop_type_name: str  # set from the unit's ``troop_type`` / ``weapon`` keys (or the defaults)
    weapon_name: str

    def __init__(self, u: Any, ms: list, p: Any, charged: set, notes: list):
        self.u, self.ms = u, ms
        self.slots = {(m.rank, m.file): m for m in ms} if u.is_ranked else {}
        self.kw = {str(k).lower() for k in u.keywords}
        for key, table, default in (("troop_type", p.troop_types, p.default_troop_type),
                                    ("weapon", p.weapons, p.default_weapon)):
            v = u.extra.get(key, default)
            if v not in table:
                notes.append(f"{u.id}: unknown {key} {v!r}; read as {default}")
                v = default
            setattr(self, key + "_name", v)
        self.troop, self.weapon = p.troop_types[self.troop_type_name], p.weapons[self.weapon_name]
        mv = u.profile.get("movement")
        self.movement_in = float(mv) if isinstance(mv, (int, float)) and not isinstance(mv, bool) else None
        if self.movement_in is None and p.fight_range == "movement_inches" and u.is_ranked:
            notes.append(f"{u.id}: no Movement in its profile; its fighting rank is not limited by distance")
        self.charged = u.id in charged  # this turn
        self.ranks = max((r for r, _ in self.slots), default=0)
        sizes = [0] * (self.ranks + 1)
        for r, _ in self.slots:
            sizes[r] += 1
        self.rank_sizes = sizes[1:]
        self.in_order = bool(self.slots) and combat_order(max(self.rank_sizes), self.ranks)

    def reach_mm(self, p: Any) -> Optional[float]:
        return None if p.fight_range == "unlimited" or self.movement_in is None else self.movement_in * g.MM_PER_INCH


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
    Never raises on a valid board.
    """
    notes: list[str] = []
    charged = set(context.get("charged") or [])
    # what is read of each unit decided (the others, only read, are never explained or counted here)
    info = {uid: _Unit(units[uid], models[uid], p, charged, notes) for uid in units if only is None or uid in only}
    if order is None:
        order = {m.id: i for i, m in enumerate(m for ms in models.values() for m in ms)}
    if unit_of is None:
        unit_of = {m.id: m.unit_id for ms in models.values() for m in ms}
    mine = {uid: ms for uid, ms in models.items() if only is None or uid in only}
    results = ({m.id: ModelResult(at=m.center) for ms in mine.values() for m in ms} if blank is None else
               {m.id: blank[m.id] for ms in mine.values() for m in ms})
    gap_to = Gaps(models, units)
    fighters: dict[str, Fighter] = {}
    supporters: dict[str, set] = {}
    why_none: dict[str, str] = {}
    ranks_out, touched = [], {}  # touched: (unit, enemy) -> its enemy_touched, built once per pair
    frm: dict[str, int] = {uid: 0 for uid in info}

    def enemy_touched(uid: str, enemy: str) -> list[str]:
        """Enemy models of ``enemy`` touching any model of ``uid`` (shared: never mutate)."""
        if (uid, enemy) not in touched:
            touched[uid, enemy] = sorted({t for m in models[uid] for t in contacts.get(m.id, ())
                                          if unit_of[t] == enemy}, key=order.__getitem__)
        return touched[uid, enemy]

    for uid, ms in mine.items():
        ui = info[uid]
        reach = ui.reach_mm(p)
        lim = None if reach is None else reach + tol
        for m in ms:
            if contacts.get(m.id):
                fighters[m.id] = Fighter("contact", {unit_of[t] for t in contacts[m.id]})
        if not ui.u.is_ranked:
            continue
        occ = set(ui.slots)
        by_row: dict[tuple[bool, int], list[Slot]] = {}  # (lengthwise, index) -> slots, built once per unit
        for s in occ:
            by_row.setdefault((True, s[0]), []).append(s)
            by_row.setdefault((False, s[1]), []).append(s)
        row_of = lambda f, i: by_row.get((f in ("front", "rear"), i), [])  # the occupied slots of row i seen from f
        engs = [(e, f) for (a, e, f) in engagements if a == uid]
        rows: list[tuple[str, str, int, list]] = []
        for enemy, facing in engs:
            eids = {em.id for em in models[enemy]}
            touching = [s for s, m in ui.slots.items() if m.id in contacts and not eids.isdisjoint(contacts[m.id])]
            for idx in sorted({row_index(s, facing) for s in touching}):
                rows.append((enemy, facing, idx, [s for s in touching if row_index(s, facing) == idx]))
        in_rows = {s for (_e, f, idx, _t) in rows for s in row_of(f, idx)}
        taken = set(in_rows)
        pob = ui.troop.press_of_battle and ui.in_order and not ui.charged and p.press_of_battle_depth > 1
        for enemy, facing, idx, touching in rows:
            lengthwise = facing in ("front", "rear")
            present = row_of(facing, idx)
            positions = range(1, ui.u.files + 1) if lengthwise else range(1, ui.ranks + 1)
            if p.incomplete_ranks == "largest_row_behind":  # the rows behind (rows_behind), from by_row
                inw = sum(inward(facing))
                assumed = assumed_row_models(len(present), [len(v) for (lw, i), v in by_row.items()
                                                            if lw == lengthwise and (i - idx) * inw > 0])
            else:
                assumed = len(present)
            touch_pos = [s[1] if lengthwise else s[0] for s in touching]
            subs = stand_ins(occ, facing, idx, positions, touch_pos, assumed - len(present), taken)
            taken |= {s for _e, s in subs}
            entry = {"unit": uid, "enemy": enemy, "facing": facing, "row": idx, "present": len(present),
                     "row_models": [ui.slots[s].id for s in sorted(present)],
                     "assumed": assumed, "models": [], "second": [], "stand_ins": [], "supporters": [],
                     "out_of_reach": []}
            fighting = 0

            def add(slot: Slot, kind: str, key: str, note: str = "") -> bool:
                m = ui.slots[slot]
                if lim is not None and not fighters.get(m.id, Fighter("")).kind == "contact":
                    d = gap_to(m, enemy, lim)
                    if d > lim:
                        if m.id not in fighters:
                            why_none[m.id] = (
                                f"In the fighting rank facing {enemy} ({facing}), but {enemy} is {d / g.MM_PER_INCH:.1f}\" "
                                f"away, beyond its Movement of {ui.movement_in:g}\" ({p.rule('fight_range')}).")
                        entry["out_of_reach"].append(m.id)
                        return False
                f = fighters.get(m.id)
                if f is None:
                    f = fighters[m.id] = Fighter(kind, note=note)
                f.enemies.add(enemy)
                f.rows.append((enemy, facing))
                entry[key].append(m.id)
                return True

            for s in sorted(present):
                fighting += add(s, "row", "models")
            for empty, s in subs:
                fighting += add(s, "stand_in", "stand_ins",
                                f"{len(present)} model{'s' if len(present) != 1 else ''} but counts as {assumed}")
            fighting += assumed - len(present) - len(subs)  # assumed models nobody stands in for
            depth = 1
            if pob and facing in p.press_of_battle_facings:
                depth = p.press_of_battle_depth
                dr, df = inward(facing)
                for s in sorted(present):
                    rk, fl = s
                    for _k in range(depth - 1):
                        rk, fl = rk + dr, fl + df
                        if (rk, fl) not in occ or (rk, fl) in in_rows:
                            break
                        taken.add((rk, fl))
                        fighting += add((rk, fl), "second", "second")
            frm[uid] += fighting
            # supporting attacks from the row directly behind the fighting rank(s)
            step = sum(inward(facing))
            pob_why = "" if depth > 1 else _no_press_why(ui, facing, p)
            allowed_facing = facing in p.support_facings or p.support_any_facing_keyword.lower() in ui.kw
            may, why_not = support_allowed(ui.weapon, p.support_keyword.lower() in ui.kw, ui.charged)
            for s in sorted(row_of(facing, idx + depth * step)):
                m = ui.slots[s]
                if s in in_rows or s in taken:
                    continue
                where = (f"Directly behind the fighting rank facing {enemy} ({facing})" if depth == 1 else
                         f"Directly behind the {p.rule('press_of_battle_depth')} rank facing {enemy}")
                lead = f"{where}: {pob_why}; and " if pob_why else f"{where}, but "
                if not allowed_facing:
                    why_none.setdefault(m.id, (
                        f"{lead}supporting attacks go only to the {'/'.join(p.support_facings)} "
                        f"({p.rule('support_facings')}; {p.rule('support_any_facing_keyword')} would allow any facing)."))
                    continue
                if not may:
                    why_none.setdefault(m.id, f"{lead}{why_not} ({p.rule('support_keyword')}; "
                                              f"weapon: {_word(ui.weapon_name)}).")
                    continue
                d = gap_to(m, enemy, lim) if lim is not None else 0.0
                if d > lim if lim is not None else False:
                    why_none.setdefault(m.id, (
                        f"{lead}{enemy} is {d / g.MM_PER_INCH:.1f}\" away, beyond its Movement of {ui.movement_in:g}\" "
                        f"({p.rule('fight_range')})."))
                    continue
                supporters.setdefault(m.id, set()).add(enemy)
                entry["supporters"].append(m.id)
            ranks_out.append(entry)
        # a model in two fighting ranks fights once (it is one Fighter); count it once
        frm[uid] -= sum(max(0, len(set(fighters[m.id].rows)) - 1) for m in ms if m.id in fighters)

    for uid in info:
        if not info[uid].u.is_ranked:
            frm[uid] = sum(1 for m in models[uid] if m.id in fighters)

    # ----- attacks, targets, explanations
    dividing: dict[str, list[str]] = {}  # fighter touching no enemy -> the closest of its enemy units
    if p.dividing_attacks == "closest_enemy_unit":
        asks = [(mid, sorted(f.enemies)) for mid, f in fighters.items()
                if not (f.kind == "contact" or contacts.get(mid)) and len(f.enemies) > 1]
        by_id = {m.id: m for uid in {unit_of[mid] for mid, _es in asks} for m in models[uid]}
        dividing = dict(zip((a[0] for a in asks), gap_to.closest([(by_id[mid], es) for mid, es in asks], tol)))
    for mid, f in fighters.items():
        uid = unit_of[mid]
        ui = info[uid]
        r = results[mid]
        total, parts = _profile(ui.u)
        r.role = "attack"
        f_rows = sorted(set(f.rows))
        two = len(f_rows) > 1
        if f.kind == "contact" or contacts.get(mid):
            r.targets = sorted(contacts[mid], key=order.__getitem__)
            r.attacks, r.parts = total, (dict(parts) if parts else None)
            contact_units = ", ".join(sorted({unit_of[t] for t in r.targets}))
            facings = sorted({fc for (_e, fc) in f_rows}) or ["front"]
            r.why = (f"In base contact with {contact_units}: fights with its full Attacks ({total}) "
                     f"({p.rule('contact_tolerance_mm')}; {p.rule('non_contact_attacks')}).")
            if two:
                r.why += (f" It stands in two fighting ranks ({' and '.join(facings)}) but attacks once, directing its "
                          f"attacks at an enemy it touches ({p.rule('dividing_attacks')}).")
            continue
        enemies = dividing.get(mid) or sorted(f.enemies)
        r.targets = [t for e in enemies for t in enemy_touched(uid, e)]
        r.targets.sort(key=order.__getitem__)
        n = p.non_contact_attacks
        r.parts = {k: (n if a > 0 else 0) for k, a in parts.items()} if parts else None  # one per part
        r.attacks = sum(r.parts.values()) if r.parts else (min(n, total) if total > 0 else 0)
        each = " per part" if parts else ""
        where = ", ".join(f"{e} ({fc})" for e, fc in f_rows)
        if f.kind == "row":
            r.why = (f"In the fighting rank facing {where}{'' if ui.reach_mm(p) is None else ' and within its Movement'}"
                     f": fights, but not in base contact, "
                     f"so {n} attack{each} ({p.rule('fight_range')}; {p.rule('non_contact_attacks')}).")
        elif f.kind == "second":
            r.why = (f"{p.rule('press_of_battle_depth')}: {_word(ui.troop_type_name)} in Combat Order that did not charge "
                     f"fight {p.press_of_battle_depth} ranks deep; directly behind the fighting rank facing {where}, "
                     f"not in base contact: {n} attack{each} ({p.rule('non_contact_attacks')}).")
        else:
            r.why = (f"{p.rule('incomplete_ranks')}: the fighting rank facing {where} holds {f.note} (the largest "
                     f"row behind it); our reading: this model stands in for a missing one, {n} attack{each}.")
        if len(f.enemies) > 1:
            r.why += f" Touching no enemy, it attacks the closest enemy unit ({p.rule('dividing_attacks')})."

    for mid, supported in supporters.items():
        if mid in fighters:
            continue
        uid = unit_of[mid]
        ui = info[uid]
        r = results[mid]
        total, parts = _profile(ui.u)
        n = min(p.support_attacks, total) if total > 0 else 0
        r.role = "support"
        r.targets = sorted({t for e in supported for t in enemy_touched(uid, e)}, key=order.__getitem__)
        if parts:
            first = next(iter(parts))
            r.parts = {k: (n if k == first else 0) for k in parts}
        r.attacks = n
        source = (f"the {p.support_keyword.replace('_', ' ')} rule" if p.support_keyword.lower() in ui.kw
                  else f"its {_word(ui.weapon_name)} (Fight in Extra Rank)")
        r.why = (f"Supporting attack ({p.rule('support_keyword')}): {source}; directly behind the fighting rank, "
                 f"{n} attack.")
        if parts and ui.troop.rider_only_support:
            r.why += f" Only the {next(iter(parts))} supports, not the mount."
        elif parts:
            r.why += f" One attack, made by the {next(iter(parts))}."
    no_attacks, none_why = {uid for uid in info if _profile(units[uid])[0] <= 0}, (  # once, not per model
        "Not in a fighting rank (no model of its rank or file touches an enemy) and not directly behind one "
        f"({p.rule('fight_range')}).")
    for mid, r in results.items():
        if r.role != "none" and unit_of[mid] in no_attacks:
            r.role, r.attacks, r.targets, r.parts = "none", 0, [], None
            r.why = "Attacks 0: a model without attacks never attacks (Characteristics of Zero)."
        if r.role == "none":
            r.why = why_none.get(mid) or none_why

    strike, initiative_why = strike_order(units, mine, engagements, context, p, info, results)
    rb, rb_why = rank_bonuses(units, models, engagements, p, info)
    extra = {"rank_bonus": rb, "fighting_rank_models": frm, "fighting_ranks": ranks_out,
             "rank_bonus_why": rb_why, "initiative": initiative_why,
             "not_in_contact": [m for m, f in fighters.items() if results[m].role == "attack" and not contacts.get(m)],
             "legend_rows": {"attack": f"Fights: in a fighting rank ({p.rule('fighters')})",
                             "fighting_ranks": f"Fighting rank, outlined ({p.rule('fighters')})",
                             "not_in_contact": f"Fights without touching an enemy: "
                                               f"{plural(p.non_contact_attacks, 'attack')} for each of its parts "
                                               f"({p.rule('non_contact_attacks')})"}}
    if reads is not None:
        reads.update({uid: gap_to.reads.get(uid, []) for uid in mine})
    return results, strike, extra, notes


def _no_press_why(ui: _Unit, facing: str, p: Any) -> str:
    """Why the row behind a fighting rank is not a second fighting rank (Press of Battle)."""
    rule = p.rule("press_of_battle_depth")
    return (f"{_word(ui.troop_type_name)} have no {rule}" if not ui.troop.press_of_battle else
            f"no {rule} in a turn the unit charged" if ui.charged else
            f"not in Combat Order (more ranks than files), so no {rule}" if not ui.in_order else
            f"{rule} deepens only the {'/'.join(p.press_of_battle_facings)} fighting rank"
            if facing not in p.press_of_battle_facings else f"{rule} is switched off in this ruleset")


def unit_initiative(uid: str, ui: _Unit, engagements: Sequence[tuple[str, str, str]], context: Mapping[str, Any],
                    p: Any) -> tuple[dict[str, float], str]:
    """({part or '': Initiative}, explanation) for one unit this round."""
    u = ui.u
    sf = p.strike_first_keyword.lower() in ui.kw
    sl_kw = p.strike_last_keyword.lower() in ui.kw
    sl_weapon = ui.weapon.strike_last
    charge = 0
    bits = []
    if ui.charged:
        arcs = {f for (_a, e, f) in engagements if e == uid}  # the enemies' facings it touches
        arc = "front" if arcs <= {"front"} else "flank_rear"
        moved = (context.get("charge_moved") or {}).get(uid)
        disordered = uid in set(context.get("disordered") or [])
        charge = charge_bonus(moved, arc, p, disordered)
        if disordered:
            bits.append(f"a disordered charge gets no bonus ({p.rule('charge_initiative_per_inch')})")
        elif moved is None:
            bits.append(f"charged, but no charge_moved distance is given: no bonus ({p.rule('charge_initiative_per_inch')})")
        else:
            cap = p.charge_initiative_max_front if arc == "front" else p.charge_initiative_max_flank_rear
            bits.append(f"+{charge} for charging {int(math.floor(moved + 1e-9))} full inches into the "
                        f"{'front' if arc == 'front' else 'flank/rear'} (at most +{cap}; "
                        f"{p.rule('charge_initiative_per_inch')})")
    spear = 0
    if ui.weapon.initiative_vs_front_chargers and not ui.charged:
        if any(a == uid and f == "front" and e in set(context.get("charged") or []) for (a, e, f) in engagements):
            spear = ui.weapon.initiative_vs_front_chargers
            bits.append(f"+{spear} with a {_word(ui.weapon_name)} against the unit that charged its front "
                        f"({p.rule('weapons')})")
    base_all = u.profile.get("initiative", u.profile.get("agility", 0))
    parts = u.profile.get("parts") or [{"name": "", "initiative": base_all}]
    # a weapon's Strike Last is the rider's (the first part's) only
    out: dict[str, float] = {str(pt.get("name", f"part{i + 1}")): initiative(
        float(pt.get("initiative", base_all)), p, strike_first=sf, strike_last=sl_kw or (sl_weapon and i == 0),
        charge=charge, spear=spear) for i, pt in enumerate(parts)}
    src = f"its {_word(ui.weapon_name)}" if sl_weapon and not sl_kw else "its special rule"
    head = ([] if not (sf or sl_kw or sl_weapon) else
            ["Strike First and Strike Last cancel out"] if sf and (sl_kw or sl_weapon) else
            [f"{p.rule('strike_first_initiative')}: I{p.strike_first_initiative} before modifiers"] if sf else
            [f"{p.rule('strike_last_initiative')} ({src}): I{p.strike_last_initiative} before modifiers"])
    shown = ", ".join(f"{k or 'I'} {_num(v)}" if k else f"I{_num(v)}" for k, v in out.items())
    why = f"{u.id}: {shown}" + (" (" + "; ".join(head + bits) + ")" if head or bits else "")
    if any(v >= p.initiative_cap for v in out.values()) and (charge or spear):
        why += f"; never above {p.initiative_cap}"
    return out, why


def strike_order(units: dict, models: dict, engagements, context, p: Any, info: dict, results: dict
                 ) -> tuple[list[dict], dict[str, str]]:
    """Who Strikes First?: steps of models (and parts) by Initiative, highest first; equal
    Initiative strikes together. Returns (steps, {unit: explanation})."""
    steps: dict[float, list[str]] = {}
    parts_at: dict[float, list[str]] = {}
    why, seen = {}, set()  # seen: (step, model id) pairs already placed
    for uid, ms in models.items():
        values, why[uid] = unit_initiative(uid, info[uid], engagements, context, p)
        first = next(iter(values.values()))
        for m in (m for m in ms if results[m.id].attacks > 0):
            parts = results[m.id].parts if len(values) > 1 else None
            for part, n in (parts or {"": 1}).items():
                s = values.get(part, first)
                if n > 0 and (s, m.id) not in seen:  # a set: a list scan here was quadratic in a step
                    seen.add((s, m.id))
                    steps.setdefault(s, []).append(m.id)
                if parts and n > 0:
                    parts_at.setdefault(s, []).append(f"{m.id}/{part}")
    out = [{"step": _num(s), "label": f"Initiative {_num(s)}", "models": steps[s],
            **({"parts": parts_at[s]} if parts_at.get(s) else {})} for s in sorted(steps, reverse=True)]
    return out, why


def rank_bonuses(units: dict, models: dict, engagements, p: Any, info: dict
                 ) -> tuple[dict[str, int], dict[str, str]]:
    """Rank Bonus each unit can claim now, with a one-line reason each."""
    out: dict[str, int] = {}
    why: dict[str, str] = {}
    for uid, ui in info.items():
        t = ui.troop
        name = _word(ui.troop_type_name)
        rule = p.rule("troop_types")
        if not ui.u.is_ranked or not ui.ms or t.models_per_rank is None:
            out[uid], why[uid] = 0, f"{name if ui.ms and ui.u.is_ranked else 'no ranks'}: no Rank Bonus ({rule})"
            continue
        horde = p.horde_keyword.lower() in ui.kw
        disruptors = []
        for (a, e, f) in engagements:
            if a != uid or f == "front" or not units[e].is_ranked:
                continue
            us = unit_strength(_troop(units[e], p), len(models[e]), units[e].profile.get("wounds"))
            if us >= t.disrupted_by_unit_strength:
                disruptors.append(f"{e} (Unit Strength {_num(us)}) in its {f if f == 'rear' else f + ' flank'}")
        n = rank_bonus(ui.rank_sizes, t, horde=horde, in_combat_order=ui.in_order, disrupted=bool(disruptors),
                       horde_bonus=p.horde_rank_bonus)
        out[uid] = n
        if disruptors:
            why[uid] = (f"Disrupted by {', '.join(disruptors)}; {name} are disrupted from Unit Strength "
                        f"{t.disrupted_by_unit_strength} ({rule}: Disrupted Units)")
        elif not ui.in_order:
            why[uid] = f"not in Combat Order (deeper than wide) ({rule}: Combat Order)"
        else:
            cap = t.max_rank_bonus + (p.horde_rank_bonus if horde else 0)
            why[uid] = (f"ranks of {t.models_per_rank}+ {name} behind the first, at most +{cap}"
                        + (f" ({p.rule('horde_keyword')} +{p.horde_rank_bonus})" if horde else "") + f" ({rule})")
    return out, why


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


@policy("strike_order", "charge_initiative", fields=lambda rs: [ProfileField("initiative", "Initiative", default=3)])
def charge_initiative(c: Combat) -> list[dict]:
    """Who Strikes First?, with the charge bonus: computed with the fighting ranks."""
    return c.state.get("strike_order", [])


@policy("rank_bonus", "troop_type")
def troop_type(c: Combat) -> dict:
    """Rank Bonus by troop type: computed with the fighting ranks."""
    return c.state.get("rank_bonus", {})
