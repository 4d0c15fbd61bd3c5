"""Warhammer 40,000 Fight step: who is selected to fight, in what order, with which fight type.

Outcomes are not rolled: ``context.destroys`` says what each unit's fight destroys, either
whole units (``{monster: [transport]}``) or some models of a unit
(``{assault_squad: [{unit: passengers, models: 2}]}``: the owner removes casualties and keeps
its models in the fight, so the models furthest from the fighting unit are removed first).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from game.core import geometry as g
from game.engines.engagement_range.moves import pile_in_unit
from game.engines.engagement_range.table import Params, Table, gap, natural, ordinal, other


@dataclass
class Selection:
    """One unit selected to fight: the sequence entry plus the table right after its fight."""

    entry: dict
    attackers: list[str]
    targets: dict[str, list[str]]
    moves: dict[str, list[g.Point]]
    table: Table  # after the fight (destroyed units and models removed, passengers disembarked)
    destroyed: list[str]  # whole units destroyed
    at_fight: Optional[Table] = None  # as the unit fights (after any overrun pile-in)
    killed: Optional[list[str]] = None  # models destroyed (ids as they stood when it fought)


def attackers_of(t: Table, uid: str, p: Params) -> tuple[list[str], dict[str, list[str]]]:
    """Models of ``uid`` within Engagement Range of an enemy, and the enemy models each reaches."""
    targets: dict[str, list[str]] = {}
    enemies = [q for e in t.enemy_units(uid) for q in t.models_of(e)]
    mine = t.models_of(uid)
    GM = t.gap_matrix(mine, enemies)
    for i, pc in enumerate(mine):
        tg = [q.id for j, q in enumerate(enemies) if GM[i, j] <= p.er_mm]
        if tg:
            targets[pc.id] = sorted(tg, key=natural)
    return sorted(targets, key=natural), targets


def _casualties(t: Table, uid: str, spec, p: Params) -> tuple[list[str], list[str]]:
    """(whole units, model ids) that ``uid``'s fight destroys under ``spec`` (see module doc)."""
    units, models = [], []
    for item in spec or []:
        if isinstance(item, str):
            if item in t.units:
                units.append(item)
            continue
        victim, n = item.get("unit"), int(item.get("models", 0) or 0)
        if victim not in t.units:
            continue
        mine = t.models_of(uid)
        # the owner removes its casualties and keeps its models in the fight: the models
        # furthest from the fighting unit go first
        pool = sorted(t.models_of(victim), key=lambda q: (-min((gap(q.shape, m.shape) for m in mine), default=0.0),
                                                          natural(q.id)))
        if n <= 0 or n >= len(pool):
            units.append(victim)
        else:
            models.extend(q.id for q in pool[:n])
    return units, models


def fight_sequence(table: Table, p: Params, ctx: dict, planner=None, *, selected: Optional[set] = None) -> list[Selection]:
    """Warhammer 40,000 "Fight" step: who is selected to fight, in what order, with which fight.

    Starting with the active player, players alternate selecting eligible Fights First units
    (charged this turn or in ``fights_first``); a player with none passes to the other; when
    no Fights First unit is eligible the sequence moves to Remaining Combats, started by the
    player who moved it on, and returns to Fights First whenever one is eligible.
    Eligible: not yet selected, and engaged, engaged at the start of the step, or charged.
    An engaged unit makes a normal fight; an unengaged one an overrun fight (pile in, then
    fight). ``ctx["destroys"]`` says what a unit's fight destroys (no dice). ``table`` is
    copied, never changed; ``selected`` lists units already selected to fight.
    """
    t = table.copy()
    active = int(ctx.get("active_player", 1) or 1)
    charged = set(ctx.get("charged") or [])
    ff = charged | set(ctx.get("fights_first") or [])
    destroys = ctx.get("destroys") or {}
    at_start = {u for u in t.units if t.engaged_with(u, p.er_mm)}
    selected = set(selected or ())
    out: list[Selection] = []
    step, chooser = "fights_first", active if p.fights_first_chooser == "active_player" else other(active)

    def eligible() -> list[str]:
        return [u for u in t.units if u not in selected and (u in at_start or u in charged or t.engaged_with(u, p.er_mm))]

    for _ in range(4 * len(t.units) + 8):
        el = eligible()
        if not el:
            break
        if step == "fights_first":
            pool = [u for u in el if u in ff]
            if not pool:
                step = "remaining"
                continue
        else:
            pool = el
        mine = [u for u in pool if t.player(u) == chooser]
        if not mine:
            chooser = other(chooser)
            continue
        uid = mine[0]
        selected.add(uid)
        moves: dict[str, list[g.Point]] = {}
        if t.engaged_with(uid, p.er_mm):
            kind = "normal"
        else:
            kind = "overrun"
            moves = pile_in_unit(t, uid, p).paths
        attackers, targets = attackers_of(t, uid, p)
        entry = {"order": len(out) + 1, "unit": uid, "player": t.player(uid), "fight": kind,
                 "fights_first": uid in ff, "step": step, "engaged": bool(attackers)}
        if kind == "overrun":
            entry["overrun_because"] = ("engaged at the start of the Fight step" if uid in at_start else
                                        "charged this turn")
        if moves:
            entry["moved"] = sorted(moves, key=natural)
        gone, killed = _casualties(t, uid, destroys.get(uid), p) if attackers else ([], [])
        if gone:
            entry["destroys"] = gone
        if killed:
            entry["kills"] = killed
        at_fight = t.copy()
        t.remove_models(killed, f"destroyed by {uid}")
        for d in gone:
            t.remove_unit(d, f"destroyed by {uid}")
        out.append(Selection(entry, attackers, targets, moves, t.copy(), gone, at_fight, killed))
        chooser = other(chooser)
        if step == "remaining" and any(u in ff for u in eligible()):
            step = "fights_first"
    return out


def strike_order(seq: list[Selection], t: Table) -> list[dict]:
    """The contract's ``strike_order`` from a fight sequence: one step per selection."""
    out = []
    for s in seq:
        e = s.entry
        tag = "Fights First" if e["fights_first"] else "Remaining Combats"
        kind = ", overrun fight" if e["fight"] == "overrun" else ""
        models = s.attackers or list(t.by_unit.get(e["unit"], [])) or list(s.table.by_unit.get(e["unit"], []))
        out.append({"step": e["order"], "label": f"{ordinal(e['order'])}: {e['unit']} ({tag}{kind})",
                    "models": models})
    return out
