"""The Old World: the attacks, targets and explanation of each model once the fighting ranks
have decided its role (:class:`.tow_ranks.Roles`): full Attacks in base contact, the
``non_contact_attacks`` otherwise (one per part of a split profile), supporting attacks,
dividing attacks to the closest enemy unit, and why a model does not fight. Writes into the
``ModelResult`` of each model decided. Pure; ``p`` is :class:`.tow.Params`; ``info`` {unit id:
:class:`.tow_unit.TowUnit`}."""
from __future__ import annotations

from typing import Any, Mapping

from game.core.analysis import ModelResult
from game.engines.rank_and_file.tow_ranks import Fighter, Roles
from game.engines.rank_and_file.tow_unit import TowUnit, profile_attacks, word


class Targets:
    """The enemy models a decided model may attack: ``contacts`` {model id: enemy model ids it
    touches}, ``order`` {model id: board index} (targets are listed in board order),
    ``unit_of`` {model id: unit id}, ``models`` {unit id: [Model]}."""

    def __init__(self, models: Mapping[str, list], contacts: Mapping[str, set], order: Mapping[str, int],
                 unit_of: Mapping[str, str]):
        self.models, self.contacts, self.order, self.unit_of = models, contacts, order, unit_of
        self._touched: dict[tuple[str, str], list[str]] = {}  # built once per (unit, enemy) pair

    def touched(self, uid: str, enemy: str) -> list[str]:
        """Enemy models of ``enemy`` touching any model of ``uid`` (shared: never mutate)."""
        if (uid, enemy) not in self._touched:
            self._touched[uid, enemy] = sorted({t for m in self.models[uid] for t in self.contacts.get(m.id, ())
                                                if self.unit_of[t] == enemy}, key=self.order.__getitem__)
        return self._touched[uid, enemy]


def closest_enemy_units(roles: Roles, t: Targets, p: Any, tol: float, gap_to: Any) -> dict[str, list[str]]:
    """Dividing attacks: {fighter touching no enemy but in fighting ranks against several
    enemy units: [the closest of them]} under ``closest_enemy_unit`` (else empty)."""
    if p.dividing_attacks != "closest_enemy_unit":
        return {}
    asks = [(mid, sorted(f.enemies)) for mid, f in roles.fighters.items()
            if not (f.kind == "contact" or t.contacts.get(mid)) and len(f.enemies) > 1]
    by_id = {m.id: m for uid in {t.unit_of[mid] for mid, _es in asks} for m in t.models[uid]}
    return dict(zip((a[0] for a in asks), gap_to.closest([(by_id[mid], es) for mid, es in asks], tol)))


def fighter_attacks(r: ModelResult, mid: str, f: Fighter, ui: TowUnit, t: Targets, p: Any,
                    dividing: Mapping[str, list[str]]) -> None:
    """A fighter's attacks, targets and why: full Attacks in base contact (at the models it
    touches), else ``non_contact_attacks`` (per part) at the enemy models touching its unit."""
    total, parts = profile_attacks(ui.u)
    r.role = "attack"
    f_rows = sorted(set(f.rows))
    if f.kind == "contact" or t.contacts.get(mid):
        r.targets = sorted(t.contacts[mid], key=t.order.__getitem__)
        r.attacks, r.parts = total, (dict(parts) if parts else None)
        contact_units = ", ".join(sorted({t.unit_of[x] for x in r.targets}))
        facings = sorted({fc for (_e, fc) in f_rows}) or ["front"]
        r.why = (f"In base contact with {contact_units}: fights with its full Attacks ({total}) "
                 f"({p.rule('contact_tolerance_mm')}; {p.rule('non_contact_attacks')}).")
        if len(f_rows) > 1:
            r.why += (f" It stands in two fighting ranks ({' and '.join(facings)}) but attacks once, directing its "
                      f"attacks at an enemy it touches ({p.rule('dividing_attacks')}).")
        return
    uid = t.unit_of[mid]
    enemies = dividing.get(mid) or sorted(f.enemies)
    r.targets = [x for e in enemies for x in t.touched(uid, e)]
    r.targets.sort(key=t.order.__getitem__)
    n = p.non_contact_attacks
    r.parts = {k: (n if a > 0 else 0) for k, a in parts.items()} if parts else None  # one per part
    r.attacks = sum(r.parts.values()) if r.parts else (min(n, total) if total > 0 else 0)
    r.why = _non_contact_why(f, ui, p, n, " per part" if parts else "", ", ".join(f"{e} ({fc})" for e, fc in f_rows))
    if len(f.enemies) > 1:
        r.why += f" Touching no enemy, it attacks the closest enemy unit ({p.rule('dividing_attacks')})."


def _non_contact_why(f: Fighter, ui: TowUnit, p: Any, n: int, each: str, where: str) -> str:
    """Why a fighter not in base contact fights, by how it came to (row, second, stand-in)."""
    if f.kind == "row":
        return (f"In the fighting rank facing {where}{'' if ui.reach_mm(p) is None else ' and within its Movement'}"
                f": fights, but not in base contact, "
                f"so {n} attack{each} ({p.rule('fight_range')}; {p.rule('non_contact_attacks')}).")
    if f.kind == "second":
        return (f"{p.rule('press_of_battle_depth')}: {word(ui.troop_type_name)} in Combat Order that did not charge "
                f"fight {p.press_of_battle_depth} ranks deep; directly behind the fighting rank facing {where}, "
                f"not in base contact: {n} attack{each} ({p.rule('non_contact_attacks')}).")
    return (f"{p.rule('incomplete_ranks')}: the fighting rank facing {where} holds {f.note} (the largest "
            f"row behind it); our reading: this model stands in for a missing one, {n} attack{each}.")


def supporter_attacks(r: ModelResult, mid: str, supported: set, ui: TowUnit, t: Targets, p: Any) -> None:
    """A supporter's attack (``support_attacks``, by the first part of a split profile), its
    targets (the enemy models touching its unit, of the units it supports against) and why."""
    total, parts = profile_attacks(ui.u)
    n = min(p.support_attacks, total) if total > 0 else 0
    r.role = "support"
    r.targets = sorted({x for e in supported for x in t.touched(t.unit_of[mid], e)}, key=t.order.__getitem__)
    if parts:
        first = next(iter(parts))
        r.parts = {k: (n if k == first else 0) for k in parts}
    r.attacks = n
    source = (f"the {p.support_keyword.replace('_', ' ')} rule" if p.support_keyword.lower() in ui.kw
              else f"its {word(ui.weapon_name)} (Fight in Extra Rank)")
    r.why = (f"Supporting attack ({p.rule('support_keyword')}): {source}; directly behind the fighting rank, "
             f"{n} attack.")
    if parts and ui.troop.rider_only_support:
        r.why += f" Only the {next(iter(parts))} supports, not the mount."
    elif parts:
        r.why += f" One attack, made by the {next(iter(parts))}."


def write_attacks(results: dict[str, ModelResult], roles: Roles, info: Mapping[str, TowUnit], t: Targets, p: Any,
                  dividing: Mapping[str, list[str]]) -> None:
    """Every decided model's attacks, targets and why: fighters, then supporters not fighting,
    then those that do neither (or whose unit has no Attacks: Characteristics of Zero)."""
    for mid, f in roles.fighters.items():
        fighter_attacks(results[mid], mid, f, info[t.unit_of[mid]], t, p, dividing)
    for mid, supported in roles.supporters.items():
        if mid not in roles.fighters:
            supporter_attacks(results[mid], mid, supported, info[t.unit_of[mid]], t, p)
    no_attacks = {uid for uid, ui in info.items() if profile_attacks(ui.u)[0] <= 0}  # once, not per model
    none_why = ("Not in a fighting rank (no model of its rank or file touches an enemy) and not directly behind one "
                f"({p.rule('fight_range')}).")
    for mid, r in results.items():
        if r.role != "none" and t.unit_of[mid] in no_attacks:
            r.role, r.attacks, r.targets, r.parts = "none", 0, [], None
            r.why = "Attacks 0: a model without attacks never attacks (Characteristics of Zero)."
        if r.role == "none":
            r.why = roles.why_none.get(mid) or none_why
