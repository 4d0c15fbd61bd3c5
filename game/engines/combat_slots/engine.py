"""Combat-slot melee allocation (ruleset ``slots``; source: shared/seeds/004, a computer wargame).

The rule, in our words (section names as in the source):

* **Allocated models.** When rival units touch, each sends only part of its models into the
  melee. The *direction* decides whose model count the share is taken of: a frontal attack
  (the attacker engaged with the defender's front facing) uses the **defender's** count, a
  flank or rear attack the **attacker's** count; both units use that same count.
* **Base number** = ceil(share x count), the share a whole percentage drawn between
  ``share_min_pct`` and ``share_max_pct`` (a RANDBETWEEN draw), capped at the unit's own
  models. A unit of ``whole_unit_max_models`` (3) or fewer models is allocated whole.
* **Bonus number** = ``bonus_models`` (x): in a frontal attack to the unit with more models
  (nobody on a tie); in a flank or rear attack to the attacker.
* **Final number** = min(base + bonus, own models).
* **Actual number** = how many of the final number find a free **combat slot** beside an
  enemy model of a unit they are engaged with (so actual <= final and actual <= free slots).
* **Combat slots.** A regular model has room for ``slots_regular_model`` (4) regular enemies,
  one per side; a large model (``profile.size: large``) for ``slots_large_model`` (8), two
  per side. A large enemy takes the room of ``large_model_room`` (2) regular slots that sit
  next to each other: on one model (a whole side of a large model, or both slots at a corner of
  a regular one), or on two neighbouring models along the same side (a large base against a
  line covers two fronts; so three large models charging the front of a ten-wide line of
  regular models all find room). A slot
  whose stretch of the base edge a friendly model touches (within ``contact_tolerance_mm``)
  offers no room: a model inside a formation has fewer slots than one at its edge.
* **Recalculation.** The analysis is a pure function of the board, so removing casualties
  (``empty`` slots or a smaller ``models`` count) or naming the round's winner
  (``context.round_winner``, who then counts as the attacker) simply gives the new numbers.

Who is the attacker of a pair of engaged units: ``context.round_winner`` if it is one of them;
else the one listed in ``context.charged`` (if exactly one is); else the one engaging the
other's flank or rear while being engaged in its own front (the flanker); else the unit of
``context.active_player``; else player 1's unit.

Filling order: units that attack in some engagement fill first, then the others, each in file
order. Within a unit the (model, slot) pairs are taken nearest first (distance from the
model's centre to the slot centre, ties by model order then slot order), so the models
already at the contact fill the slots at the contact.

Slot geometry (for drawing): a side of a rectangular base is cut into as many equal stretches
as it has slots; a slot's centre lies outside the middle of its stretch, half a stretch's
width out. Round and oval bases use the same number of slots spread over quarter-turns
around the model's facing.

Pure: stdlib and ``game.core`` (the fill's array work through :mod:`game.core.arrays`).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from game.core.analysis import Analysis, ModelResult
from game.core.board import Board, Unit
from game.core.unit_models import Model
from game.core.engagement import boundary, find_engagements
from game.core.parts import Allocation, Allocations, CombatSlot, CombatSlots
from game.core.ruleset import Ruleset
from game.core.work import doing
from game.engines.combat_slots.fill import fill_nearest_first
from game.engines.combat_slots.numbers import PairView, alloc_why, draw_shares, pair_views
from game.engines.combat_slots.rings import (
    SlotUnit, _Grid, block_by_friends, model_ring, place_at, side_pairs, slot_groups)


@dataclass
class _Melee:
    """What one analysis reads and decides, step by step: the board's ``units``, their file
    ``order``, ``models``, ``size`` (regular|large) and, once engaged, ``enemies`` (unit id ->
    enemy units in file order) with ``facing[(a, b)]`` (the facing of ``a`` that ``b`` engages);
    the fill writes ``rings`` (model id -> its slots), ``total_of`` (model id -> slot count),
    ``taken`` ((enemy model, ring index) -> filler id), ``placed`` (filler id -> its place)
    and ``actual`` (unit id -> models that found a place)."""

    units: dict[str, Unit]
    order: dict[str, int]
    models: dict[str, list[Model]]
    size: dict[str, str]
    enemies: dict[str, list[str]] = field(default_factory=dict)
    facing: dict[tuple[str, str], str] = field(default_factory=dict)
    rings: dict[str, list[SlotUnit]] = field(default_factory=dict)
    total_of: dict[str, int] = field(default_factory=dict)
    taken: dict[tuple[str, int], str] = field(default_factory=dict)
    placed: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    actual: dict[str, int] = field(default_factory=dict)

    def engaged(self) -> list[str]:
        """The engaged units in file order."""
        return sorted(self.enemies, key=self.order.__getitem__)


# ----- analysis -----------------------------------------------------------------------------
def analyse(board: Board, rs: Ruleset) -> Analysis:
    """Allocate models to melee by combat slots (seed 004: Allocated models, Combat slots).

    Returns an :class:`~game.core.analysis.Analysis` whose models are ``attack`` (allocated:
    fills a combat slot; ``targets`` = the enemy model beside that slot; ``attacks`` from the
    profile, default 1) or ``none``; no supports. ``allocation`` maps each engaged
    unit to ``{final, actual, base, bonus, share, total, models, whole, against, direction,
    attacker, attacker_because, free_slots, why}`` (``share`` a whole percent; ``free_slots`` the
    regular slots around the enemy models before anyone fills them); ``slots`` lists
    every free-or-filled combat slot ``{model, at: [x, y] mm, size: regular|large,
    filled_by: model id | None, side}``. Never raises on a valid board; a ``round_winner``
    naming no unit is ignored with a note. Steps: engagements, numbers
    (:func:`.numbers.pair_views`), slot rings, the fill, then the output.
    """
    res = Analysis(ruleset=rs.id)
    units = {u.id: u for u in board.units}
    models: dict[str, list[Model]] = {u.id: u.models() for u in board.units}
    melee = _Melee(units, {u.id: i for i, u in enumerate(board.units)}, models,
                   {uid: str(u.profile.get("size", rs.values.default_size)) for uid, u in units.items()})
    winner = (board.context or {}).get("round_winner")
    if winner is not None and winner not in units:
        res.notes.append(f"context.round_winner {winner!r} names no unit of this board; ignored.")
    res.engagements = _engage(melee, rs)
    shares = draw_shares(board, rs)
    own = {uid: len(ms) for uid, ms in models.items()}
    views, attacking = pair_views(board, rs, units, own, melee.enemies, melee.facing, shares, melee.order)
    with doing(f"running the slot allocation ({rs.rule('slots_regular_model')}; {rs.rule('contact_tolerance_mm')})",
               "the units are too large for the slot allocation"):
        _make_rings(melee, rs)
        _fill(melee, rs, views, attacking)
    alloc = _allocations(melee, rs, views, shares, own)
    res.put(Allocations(alloc))
    res.put(_slots_out(melee))
    _model_results(res, melee, rs, views, alloc)
    return res


def _engage(melee: _Melee, rs: Ruleset) -> list:
    """Step 1: the engagements (trays / bases touching, the ranked engine's helpers); fills
    ``melee.facing`` and ``melee.enemies``. Returns the engagements found."""
    units, models, tol = melee.units, melee.models, rs.values.contact_tolerance_mm
    with doing(f"finding the engaged units ({rs.rule('contact_tolerance_mm')})", "the table is too large or too "
               "entangled for finding which units touch"):
        bounds = {uid: boundary(units[uid], models[uid]) for uid in units}
        found = find_engagements(units, models, bounds, tol)
    for e in found:
        melee.facing[(e.unit, e.enemy)] = e.facing
    enemies: dict[str, list[str]] = defaultdict(list)
    for (a, b) in melee.facing:
        enemies[a].append(b)
    for a in enemies:
        enemies[a].sort(key=melee.order.__getitem__)
    melee.enemies = enemies
    return found


def _make_rings(melee: _Melee, rs: Ruleset) -> None:
    """Step 3: the ring of combat slots around every model of an engaged unit, less the slots
    a friendly model touches."""
    v, units = rs.values, melee.units
    friends_by_player: dict[int, _Grid] = {}
    all_models = [m for ms in melee.models.values() for m in ms]
    cell = max([max(m.shape.bbox()[2] - m.shape.bbox()[0], m.shape.bbox()[3] - m.shape.bbox()[1])
                for m in all_models] or [50.0])
    for p in {u.player for u in units.values()}:
        friends_by_player[p] = _Grid([(m.id, m.shape) for m in all_models if units[m.unit_id].player == p], cell)
    for uid in melee.engaged():
        n = v.slots_large_model if melee.size[uid] == "large" else v.slots_regular_model
        for m in melee.models[uid]:
            ring = model_ring(m, n)
            block_by_friends(ring, friends_by_player[units[uid].player], v.contact_tolerance_mm)
            melee.rings[m.id] = ring
            melee.total_of[m.id] = n


def _fill(melee: _Melee, rs: Ruleset, views: dict[str, PairView], attacking: set[str]) -> None:
    """Step 4: attackers first (file order), then the rest; nearest (model, place) first. A
    place is a tuple of (enemy model id, ring index): one regular slot, or the room of a large
    model (two slots of one model, or of two neighbouring models along one side)."""
    v, models, rings = rs.values, melee.models, melee.rings
    across: dict[str, list] = {}
    for uid in sorted(melee.enemies, key=lambda u: (u not in attacking, melee.order[u])):
        room = v.large_model_room if melee.size[uid] == "large" else 1
        cands = []
        for e_i, eid in enumerate(melee.enemies[uid]):
            em_index = {em.id: i for i, em in enumerate(models[eid])}
            places = []
            for em in models[eid]:
                places += [tuple((em.id, k) for k in grp) for grp in slot_groups(rings[em.id], room, melee.total_of[em.id])]
            if room == 2:
                if eid not in across:
                    across[eid] = side_pairs(models[eid], rings, melee.total_of, v.contact_tolerance_mm)
                places += across[eid]
            for place in places:
                if any(rings[emid][k].blocked for emid, k in place):
                    continue
                cands.append((e_i, em_index[place[0][0]], place, place_at(rings, place)))
        melee.actual[uid] = fill_nearest_first(models[uid], cands, views[uid].final, melee.placed, melee.taken)


def _allocations(melee: _Melee, rs: Ruleset, views: dict[str, PairView], shares: dict[str, int],
                 own: dict[str, int]) -> dict[str, Allocation]:
    """Step 5a: each engaged unit's numbers, free room and why."""
    alloc = {}
    for uid in sorted(views, key=melee.order.__getitem__):
        v = views[uid]
        free_room = sum(1 for eid in melee.enemies[uid] for em in melee.models[eid] for su in melee.rings[em.id]
                        if not su.blocked)
        alloc[uid] = Allocation(
            final=v.final, actual=melee.actual[uid], base=v.base, bonus=v.bonus,
            share=shares[uid], total=v.total, models=own[uid], whole=v.whole,
            against=v.enemy, direction=v.direction, attacker=v.attacker,
            attacker_because=v.attacker_because, free_slots=free_room,
            why=alloc_why(v, shares[uid], melee.actual[uid], rs.values.whole_unit_max_models, rs))
    return alloc


def _slots_out(melee: _Melee) -> CombatSlots:
    """Step 5b: every free-or-filled combat slot, a large model's place once."""
    slots_out = []
    done: set[tuple[str, int]] = set()
    rings = melee.rings
    unit_of = {m.id: m.unit_id for ms in melee.models.values() for m in ms}
    for uid in melee.engaged():
        for m in melee.models[uid]:
            for su in rings[m.id]:
                if su.blocked or (m.id, su.index) in done:
                    continue
                filler = melee.taken.get((m.id, su.index))
                also = None
                if filler is not None:
                    place = melee.placed[filler]
                    done.update(place)
                    at = place_at(rings, place)
                    sz = melee.size[unit_of[filler]]
                    side = "/".join(dict.fromkeys(rings[emid][k].side for emid, k in place))
                    others = list(dict.fromkeys(emid for emid, _ in place if emid != m.id))
                    if others:
                        also = others
                else:
                    done.add((m.id, su.index))
                    at, sz, side = su.at, "regular", su.side
                slots_out.append(CombatSlot(model=m.id, at=(round(at[0], 3), round(at[1], 3)), size=sz, side=side,
                                            filled_by=filler, also=None if also is None else tuple(also)))
    return CombatSlots(tuple(slots_out))


def _model_results(res: Analysis, melee: _Melee, rs: Ruleset, views: dict[str, PairView],
                   alloc: dict[str, Allocation]) -> None:
    """Step 5c: each model's role, attacks, targets (board order) and why."""
    rule_slots, rule_alloc = rs.rule("slots_regular_model"), rs.rule("contact_tolerance_mm")
    board_index = {m.id: i for i, m in enumerate(m for ms in melee.models.values() for m in ms)}
    for uid, ms in melee.models.items():
        attacks = _profile_attacks(melee.units[uid])
        for m in ms:
            r = ModelResult(at=m.center)
            if m.id in melee.placed:
                place = melee.placed[m.id]
                targets = sorted(dict.fromkeys(emid for emid, _ in place), key=board_index.__getitem__)
                r.role, r.attacks, r.targets = "attack", attacks, targets
                if len(targets) > 1:
                    r.why = (f"Allocated to melee: as a large model it takes the room of {rs.values.large_model_room} "
                             f"regular slots, here the {melee.rings[place[0][0]][place[0][1]].side} slots of the "
                             f"neighbours {' and '.join(targets)} ({rule_slots}; {rule_alloc}).")
                else:
                    grp = tuple(k for _, k in place)
                    r.why = (f"Allocated to melee: fills a combat slot {_where(melee.rings[targets[0]], grp)} {targets[0]} "
                             f"({f'a large model takes {len(grp)} slots; ' if len(grp) > 1 else ''}"
                             f"{rule_slots}; {rule_alloc}).")
            elif uid not in views:
                r.why = f"Not in a melee: its unit touches no enemy unit ({rule_alloc}: melee starts on collision)."
            else:
                al = alloc[uid]
                if al.actual < al.final:
                    r.why = (f"Not allocated: {uid} would send {al.final} models but only {al.actual} found a "
                             f"free combat slot beside an enemy ({rule_slots}; Actual number).")
                else:
                    r.why = (f"Not allocated: {uid} sends {al.final} of its {al.models} models and models "
                             f"nearer the enemy took the places ({rule_alloc}: Final number).")
            res.models[m.id] = r


def _where(ring: list[SlotUnit], grp: tuple[int, ...]) -> str:
    """Words for where a place lies: 'on the front of', 'at the front-left corner of'."""
    sides = list(dict.fromkeys(ring[k].side for k in grp))
    if len(sides) == 2:
        sides.sort(key=lambda s: s not in ("front", "rear"))
        return f"at the {sides[0]}-{sides[1]} corner of"
    return f"on the {'/'.join(sides)} side of"


def _profile_attacks(unit: Unit) -> int:
    """Attacks per model from the profile: ``attacks`` (default 1), or the sum over ``parts``."""
    parts = unit.profile.get("parts")
    if parts:
        return sum(int(p.get("attacks", 0)) for p in parts)
    return int(unit.profile.get("attacks", 1))
