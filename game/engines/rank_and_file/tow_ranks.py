"""The Old World: who fights and who supports, rank by rank (The Fighting Rank, Press of Battle,
Incomplete Ranks, Supporting Attacks; see :mod:`.tow`). Fills a :class:`Roles` unit by unit;
attacks, targets and explanations of the models decided are :mod:`.tow_attacks`' job.
Pure; lengths in mm; ``p`` is :class:`.tow.Params`; ``gap_to`` a :class:`.tow_gaps.Gaps`."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from game.core import geometry as g
from game.engines.rank_and_file.tow_rules import row_index, inward, assumed_row_models, stand_ins, support_allowed
from game.engines.rank_and_file.tow_unit import TowUnit, word

Slot = tuple[int, int]


@dataclass
class Fighter:
    """How a model comes to fight: ``kind`` is ``contact``, ``row`` (fighting rank, not in
    contact), ``second`` (Press of Battle) or ``stand_in`` (Incomplete Ranks); ``enemies`` the
    enemy units it may attack; ``rows`` the fighting ranks it stands in, as (enemy, facing)."""

    kind: str
    enemies: set = field(default_factory=set)
    rows: list[tuple[str, str]] = field(default_factory=list)
    note: str = ""


@dataclass
class Roles:
    """What the fighting ranks decide, filled unit by unit: ``fighters`` {model id: Fighter};
    ``supporters`` {model id: enemy units it supports against}; ``why_none`` {model id: why it
    neither fights nor supports}; ``ranks`` the ``fighting_ranks`` output entries; ``frm``
    {unit id: models its fighting ranks count} (Incomplete Ranks' assumed models included)."""

    frm: dict[str, int]
    fighters: dict[str, Fighter] = field(default_factory=dict)
    supporters: dict[str, set] = field(default_factory=dict)
    why_none: dict[str, str] = field(default_factory=dict)
    ranks: list[dict] = field(default_factory=list)


def decide_roles(mine: Mapping[str, list], info: Mapping[str, TowUnit], engagements: Sequence[tuple[str, str, str]],
                 contacts: Mapping[str, set], models: Mapping[str, list], unit_of: Mapping[str, str], p: Any,
                 tol: float, gap_to: Any) -> Roles:
    """Every model of the units decided (``mine``: {unit id: [Model]}) that fights or supports,
    and why the others do not. A model touching an enemy fights (``contact``); a ranked unit's
    fighting ranks, Press of Battle rows and supporters follow (:class:`UnitRanks`); a skirmish
    unit counts its fighters as its fighting rank models."""
    roles = Roles(frm={uid: 0 for uid in info})
    for uid, ms in mine.items():
        for m in ms:
            if contacts.get(m.id):
                roles.fighters[m.id] = Fighter("contact", {unit_of[t] for t in contacts[m.id]})
        if info[uid].u.is_ranked:
            UnitRanks(uid, info[uid], p, tol, gap_to, roles).decide(engagements, contacts, models)
    for uid in info:
        if not info[uid].u.is_ranked:
            roles.frm[uid] = sum(1 for m in models[uid] if m.id in roles.fighters)
    return roles


class UnitRanks:
    """One ranked unit's fighting ranks against each enemy it is engaged with: the models in
    them (within Movement), the stand-ins for missing models, the Press of Battle rows and the
    supporters behind; written into ``roles``."""

    def __init__(self, uid: str, ui: TowUnit, p: Any, tol: float, gap_to: Any, roles: Roles):
        self.uid, self.ui, self.p, self.gap_to, self.roles = uid, ui, p, gap_to, roles
        reach = ui.reach_mm(p)
        self.lim = None if reach is None else reach + tol  # mm, or None: no limit
        self.occ = set(ui.slots)
        self.by_row: dict[tuple[bool, int], list[Slot]] = {}  # (lengthwise, index) -> slots, built once per unit
        for s in self.occ:
            self.by_row.setdefault((True, s[0]), []).append(s)
            self.by_row.setdefault((False, s[1]), []).append(s)
        self.in_rows: set[Slot] = set()  # slots in any fighting rank
        self.taken: set[Slot] = set()  # slots that fight (rows, stand-ins, Press of Battle)
        self.pob = ui.troop.press_of_battle and ui.in_order and not ui.charged and p.press_of_battle_depth > 1

    def row_of(self, facing: str, idx: int) -> list[Slot]:
        """The occupied slots of row ``idx`` seen from ``facing``."""
        return self.by_row.get((facing in ("front", "rear"), idx), [])

    def decide(self, engagements: Sequence[tuple[str, str, str]], contacts: Mapping[str, set],
               models: Mapping[str, list]) -> None:
        """Decide every fighting rank of the unit, then count a model standing in two once."""
        rows = self.touching_rows(engagements, contacts, models)
        self.in_rows = {s for (_e, f, idx, _t) in rows for s in self.row_of(f, idx)}
        self.taken = set(self.in_rows)
        for enemy, facing, idx, touching in rows:
            self.fighting_rank(enemy, facing, idx, touching)
        # a model in two fighting ranks fights once (it is one Fighter); count it once
        fighters = self.roles.fighters
        self.roles.frm[self.uid] -= sum(max(0, len(set(fighters[m.id].rows)) - 1)
                                        for m in self.ui.ms if m.id in fighters)

    def touching_rows(self, engagements: Sequence[tuple[str, str, str]], contacts: Mapping[str, set],
                      models: Mapping[str, list]) -> list[tuple[str, str, int, list]]:
        """The fighting ranks: (enemy, facing, row index, its slots touching that enemy), per
        engagement, each row holding a model in base contact with the enemy unit."""
        rows: list[tuple[str, str, int, list]] = []
        for enemy, facing in [(e, f) for (a, e, f) in engagements if a == self.uid]:
            eids = {em.id for em in models[enemy]}
            touching = [s for s, m in self.ui.slots.items()
                        if m.id in contacts and not eids.isdisjoint(contacts[m.id])]
            for idx in sorted({row_index(s, facing) for s in touching}):
                rows.append((enemy, facing, idx, [s for s in touching if row_index(s, facing) == idx]))
        return rows

    def assumed(self, facing: str, idx: int, present: int) -> int:
        """Models the fighting rank counts (Incomplete Ranks: as many as the largest row behind)."""
        if self.p.incomplete_ranks != "largest_row_behind":
            return present
        lengthwise, inw = facing in ("front", "rear"), sum(inward(facing))
        return assumed_row_models(present, [len(v) for (lw, i), v in self.by_row.items()
                                            if lw == lengthwise and (i - idx) * inw > 0])

    def fighting_rank(self, enemy: str, facing: str, idx: int, touching: list[Slot]) -> None:
        """One fighting rank: its models, stand-ins and Press of Battle rows fight; the row
        directly behind may support. Adds its ``fighting_ranks`` entry and its count."""
        ui = self.ui
        lengthwise = facing in ("front", "rear")
        present = self.row_of(facing, idx)
        positions = range(1, ui.u.files + 1) if lengthwise else range(1, ui.ranks + 1)
        assumed = self.assumed(facing, idx, len(present))
        touch_pos = [s[1] if lengthwise else s[0] for s in touching]
        subs = stand_ins(self.occ, facing, idx, positions, touch_pos, assumed - len(present), self.taken)
        self.taken |= {s for _e, s in subs}
        entry = {"unit": self.uid, "enemy": enemy, "facing": facing, "row": idx, "present": len(present),
                 "row_models": [ui.slots[s].id for s in sorted(present)],
                 "assumed": assumed, "models": [], "second": [], "stand_ins": [], "supporters": [],
                 "out_of_reach": []}
        fighting = 0
        for s in sorted(present):
            fighting += self.enlist(s, "row", "models", enemy, facing, entry)
        note = f"{len(present)} model{'s' if len(present) != 1 else ''} but counts as {assumed}"
        for _empty, s in subs:
            fighting += self.enlist(s, "stand_in", "stand_ins", enemy, facing, entry, note)
        fighting += assumed - len(present) - len(subs)  # assumed models nobody stands in for
        depth = self.p.press_of_battle_depth if self.pob and facing in self.p.press_of_battle_facings else 1
        if depth > 1:
            fighting += self.press_of_battle(present, depth, enemy, facing, entry)
        self.roles.frm[self.uid] += fighting
        self.supporters(enemy, facing, idx, depth, entry)
        self.roles.ranks.append(entry)

    def enlist(self, slot: Slot, kind: str, key: str, enemy: str, facing: str, entry: dict, note: str = "") -> bool:
        """Make the model at ``slot`` a fighter of ``kind`` against ``enemy`` (listed under
        ``entry[key]``) unless ``enemy`` is beyond its Movement (then listed out of reach, with
        why). Returns whether it fights."""
        m = self.ui.slots[slot]
        fighters, lim = self.roles.fighters, self.lim
        if lim is not None and not fighters.get(m.id, Fighter("")).kind == "contact":
            d = self.gap_to(m, enemy, lim)
            if d > lim:
                if m.id not in fighters:
                    self.roles.why_none[m.id] = (
                        f"In the fighting rank facing {enemy} ({facing}), but {enemy} is {d / g.MM_PER_INCH:.1f}\" "
                        f"away, beyond its Movement of {self.ui.movement_in:g}\" ({self.p.rule('fight_range')}).")
                entry["out_of_reach"].append(m.id)
                return False
        f = fighters.get(m.id)
        if f is None:
            f = fighters[m.id] = Fighter(kind, note=note)
        f.enemies.add(enemy)
        f.rows.append((enemy, facing))
        entry[key].append(m.id)
        return True

    def press_of_battle(self, present: list[Slot], depth: int, enemy: str, facing: str, entry: dict) -> int:
        """Press of Battle: the models directly behind the fighting rank, ``depth`` rows deep
        in all, fight (stopping at a gap or another fighting rank). Returns how many fight."""
        dr, df = inward(facing)
        fighting = 0
        for s in sorted(present):
            rk, fl = s
            for _k in range(depth - 1):
                rk, fl = rk + dr, fl + df
                if (rk, fl) not in self.occ or (rk, fl) in self.in_rows:
                    break
                self.taken.add((rk, fl))
                fighting += self.enlist((rk, fl), "second", "second", enemy, facing, entry)
        return fighting

    def supporters(self, enemy: str, facing: str, idx: int, depth: int, entry: dict) -> None:
        """Supporting Attacks from the row directly behind the fighting rank(s): each model
        there not fighting supports if its facing, weapon and Movement allow; else why not."""
        ui, p, lim, why_none = self.ui, self.p, self.lim, self.roles.why_none
        step = sum(inward(facing))
        pob_why = "" if depth > 1 else no_press_why(ui, facing, p)
        allowed_facing = facing in p.support_facings or p.support_any_facing_keyword.lower() in ui.kw
        may, why_not = support_allowed(ui.weapon, p.support_keyword.lower() in ui.kw, ui.charged)
        for s in sorted(self.row_of(facing, idx + depth * step)):
            m = ui.slots[s]
            if s in self.in_rows or s in self.taken:
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
                                          f"weapon: {word(ui.weapon_name)}).")
                continue
            d = self.gap_to(m, enemy, lim) if lim is not None else 0.0
            if d > lim if lim is not None else False:
                why_none.setdefault(m.id, (
                    f"{lead}{enemy} is {d / g.MM_PER_INCH:.1f}\" away, beyond its Movement of {ui.movement_in:g}\" "
                    f"({p.rule('fight_range')})."))
                continue
            self.roles.supporters.setdefault(m.id, set()).add(enemy)
            entry["supporters"].append(m.id)


def no_press_why(ui: TowUnit, facing: str, p: Any) -> str:
    """Why the row behind a fighting rank is not a second fighting rank (Press of Battle)."""
    rule = p.rule("press_of_battle_depth")
    return (f"{word(ui.troop_type_name)} have no {rule}" if not ui.troop.press_of_battle else
            f"no {rule} in a turn the unit charged" if ui.charged else
            f"not in Combat Order (more ranks than files), so no {rule}" if not ui.in_order else
            f"{rule} deepens only the {'/'.join(p.press_of_battle_facings)} fighting rank"
            if facing not in p.press_of_battle_facings else f"{rule} is switched off in this ruleset")

