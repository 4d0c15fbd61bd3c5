"""The Old World: Who Strikes First? (Initiative with Strike First / Strike Last, the charge
bonus, the spear bonus, the cap; each part of a split profile at its own) and the Rank Bonus
each unit claims (troop type, Combat Order, Horde, Disrupted). Pure; ``p`` is :class:`.tow.Params`,
``info`` {unit id: :class:`.tow_unit.TowUnit`} of the units decided."""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

from game.engines.rank_and_file.tow_rules import _num, charge_bonus, initiative, rank_bonus, unit_strength
from game.engines.rank_and_file.tow_unit import TowUnit, troop_of, word


def unit_initiative(uid: str, ui: TowUnit, engagements: Sequence[tuple[str, str, str]], context: Mapping[str, Any],
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
            bits.append(f"+{spear} with a {word(ui.weapon_name)} against the unit that charged its front "
                        f"({p.rule('weapons')})")
    base_all = u.profile.get("initiative", u.profile.get("agility", 0))
    parts = u.profile.get("parts") or [{"name": "", "initiative": base_all}]
    # a weapon's Strike Last is the rider's (the first part's) only
    out: dict[str, float] = {str(pt.get("name", f"part{i + 1}")): initiative(
        float(pt.get("initiative", base_all)), p, strike_first=sf, strike_last=sl_kw or (sl_weapon and i == 0),
        charge=charge, spear=spear) for i, pt in enumerate(parts)}
    src = f"its {word(ui.weapon_name)}" if sl_weapon and not sl_kw else "its special rule"
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
        name = word(ui.troop_type_name)
        rule = p.rule("troop_types")
        if not ui.u.is_ranked or not ui.ms or t.models_per_rank is None:
            out[uid], why[uid] = 0, f"{name if ui.ms and ui.u.is_ranked else 'no ranks'}: no Rank Bonus ({rule})"
            continue
        horde = p.horde_keyword.lower() in ui.kw
        disruptors = []
        for (a, e, f) in engagements:
            if a != uid or f == "front" or not units[e].is_ranked:
                continue
            us = unit_strength(troop_of(units[e], p), len(models[e]), units[e].profile.get("wounds"))
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
