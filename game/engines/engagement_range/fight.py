"""Warhammer 40,000 Fight step: who is selected to fight, in what order, with which fight type.

Outcomes are not rolled: ``context.destroys`` says what each unit's fight destroys, either
whole units (``{monster: [transport]}``) or some models of a unit
(``{assault_squad: [{unit: passengers, models: 2}]}``: the owner removes casualties and keeps
its models in the fight, so the models furthest from the fighting unit are removed first).
A fight destroys only enemy units the fighting unit is engaged with as it fights (after an
overrun pile-in): any other entry is an input error (``problems``, with its field path).

Who fights next is the player's choice ("players alternate selecting one friendly unit that
is eligible to fight"). ``context.fight_order: [unit ids]`` states it: when a player selects,
the first listed unit of theirs that is eligible is selected. Units not listed (or no list)
are chosen by our default reading (:func:`pick`), which never depends on the order of the
units in the file.
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
    pool: tuple = ()  # the units its player could have selected instead (it included)


def attackers_of(t: Table, uid: str, p: Params) -> tuple[list[str], dict[str, list[str]]]:
    """Models of ``uid`` within Engagement Range of an enemy, and the enemy models each reaches."""
    targets: dict[str, list[str]] = {}
    enemies = [q for e in t.near_units(uid, t.enemy_units(uid), p.er_mm) for q in t.models_of(e)]
    mine = t.models_of(uid)
    GM = t.gap_matrix(mine, enemies)
    for i, pc in enumerate(mine):
        tg = [q.id for j, q in enumerate(enemies) if GM[i, j] <= p.er_mm]
        if tg:
            targets[pc.id] = sorted(tg, key=natural)
    return sorted(targets, key=natural), targets


def _casualties(t: Table, uid: str, spec, p: Params, problems: list) -> tuple[list[str], list[str]]:
    """(whole units, model ids) that ``uid``'s fight destroys under ``spec`` (see module doc).
    An entry naming a unit ``uid`` is not engaged with as it fights is left out and appended to
    ``problems`` as ``(field path, message)``."""
    units: list = []
    models: list = []
    engaged = set(t.engaged_with(uid, p.er_mm))
    for j, item in enumerate(spec or []):
        victim = item if isinstance(item, str) else item.get("unit")
        if victim not in engaged:
            where = "is not on the table then" if victim not in t.units else "is not within Engagement Range of it"
            problems.append((("context", "destroys", uid, j),
                             f"{uid}'s fight cannot destroy {victim}: when {uid} fights, {victim} {where} "
                             f"({p.rules['engagement_range_in']}: a unit fights only enemy units it is engaged with, "
                             f"{p.rules['default_attacks']})"))
            continue
        if isinstance(item, str):
            units.append(item)
            continue
        n = int(item.get("models", 0) or 0)
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


def pick(t: Table, pool: list[str], ctx: dict, p: Params) -> str:
    """The unit a player selects to fight next from ``pool`` (their eligible units).

    The choice is the player's (Fight: "players alternate selecting one friendly unit that is
    eligible to fight"): the first unit of ``pool`` in ``context.fight_order``. Otherwise our
    default reading: a unit that is engaged now (a normal fight) before one that would make an
    overrun fight (it may yet gain from waiting); then the order the scenario lists its charges
    in (``context.charged``, then ``context.fights_first``); then the unit with the most models
    within Engagement Range of an enemy; then the unit id (natural order). File order never
    counts, so reordering the units in a file changes nothing."""
    order = list(ctx.get("fight_order") or [])
    listed = [u for u in order if u in pool]
    if listed:
        return listed[0]
    stated = [u for u in list(ctx.get("charged") or []) + list(ctx.get("fights_first") or []) if u in pool]

    def key(u: str):
        engaged = t.engaged_with(u, p.er_mm)
        n = len(attackers_of(t, u, p)[0]) if engaged else 0
        return (0 if engaged else 1, stated.index(u) if u in stated else len(stated), -n, natural(u))

    return min(pool, key=key)


def fight_sequence(table: Table, p: Params, ctx: dict, *, selected: Optional[set] = None,
                   problems: Optional[list] = None) -> list[Selection]:
    """Warhammer 40,000 "Fight" step: who is selected to fight, in what order, with which fight.

    Starting with the active player, players alternate selecting eligible Fights First units
    (charged this turn or in ``fights_first``); a player with none passes to the other; when
    no Fights First unit is eligible the sequence moves to Remaining Combats, started by the
    player who moved it on, and returns to Fights First whenever one is eligible.
    Eligible: not yet selected, and engaged, engaged at the start of the step, or charged.
    An engaged unit makes a normal fight; an unengaged one an overrun fight (pile in, then
    fight). ``ctx["destroys"]`` says what a unit's fight destroys (no dice); entries the rules
    forbid go to ``problems`` (see :func:`_casualties`). The player's choice of unit is
    :func:`pick`. ``table`` is copied, never changed; ``selected`` lists units already selected.
    """
    problems = [] if problems is None else problems
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
        uid = pick(t, mine, ctx, p)
        selected.add(uid)
        moves: dict[str, list[g.Point]] = {}
        if t.engaged_with(uid, p.er_mm):
            kind = "normal"
        else:
            kind = "overrun"
            rep = pile_in_unit(t, uid, p)
            moves = rep.paths
        attackers, targets = attackers_of(t, uid, p)
        entry = {"order": len(out) + 1, "unit": uid, "player": t.player(uid), "fight": kind,
                 "fights_first": uid in ff, "step": step, "engaged": bool(attackers)}
        if kind == "overrun":
            entry["overrun_because"] = ("engaged at the start of the Fight step" if uid in at_start else
                                        "charged this turn")
        if moves:
            entry["moved"] = sorted(moves, key=natural)
        if kind == "overrun" and rep.status:
            entry["move_status"] = dict(rep.status)  # the overrun pile-in: proven optimal or best found
        gone, killed = _casualties(t, uid, destroys.get(uid), p, problems)
        if gone:
            entry["destroys"] = gone
        if killed:
            entry["kills"] = killed
        at_fight = t.copy()
        t.remove_models(killed, f"destroyed by {uid}")
        for d in gone:
            t.remove_unit(d, f"destroyed by {uid}")
        out.append(Selection(entry, attackers, targets, moves, t.copy(), gone, at_fight, killed,
                             tuple(sorted(mine, key=natural))))
        chooser = other(chooser)
        if step == "remaining" and any(u in ff for u in eligible()):
            step = "fights_first"
    return out


def strike_order(seq: list[Selection], t: Table) -> list[dict]:
    """The contract's ``strike_order`` from a fight sequence: one step per selection, its
    ``label`` the unit and when it fights (``"monster, Fights First"``, ``"..., overrun fight"``,
    ``"..., Remaining Combats"``); the step number is the selection order."""
    out = []
    for s in seq:
        e = s.entry
        tag = "Fights First" if e["fights_first"] else "Remaining Combats"
        kind = ", overrun fight" if e["fight"] == "overrun" else ""
        models = s.attackers or list(t.by_unit.get(e["unit"], [])) or list(s.table.by_unit.get(e["unit"], []))
        out.append({"step": e["order"], "label": f"{e['unit']}, {tag}{kind}",
                    "models": models})
    return out
