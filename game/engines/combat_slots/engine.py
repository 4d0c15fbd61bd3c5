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

import math
import random
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Optional

from game.core import geometry as g
from game.core.analysis import Analysis, ModelResult
from game.core.board import Board, Unit
from game.core.unit_models import Model
from game.core.engagement import boundary, find_engagements
from game.core.parts import Allocation, Allocations, CombatSlot, CombatSlots
from game.core.ruleset import Ruleset
from game.core.work import doing
from game.engines.combat_slots.fill import fill_nearest_first

SIDES = ("front", "right", "rear", "left")


def _natural(s: str):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


# ----- combat slots -------------------------------------------------------------------------
@dataclass
class SlotUnit:
    """One regular slot of room around a model.

    ``model``: id of the model the slot is beside; ``index``: position in the ring of slots
    running clockwise from the front-left; ``side``: front/right/rear/left of that model;
    ``anchor``: point on the base edge (table mm) in the middle of the slot's stretch;
    ``normal``: outward unit vector there; ``width_mm``: the stretch's length; ``at``: the
    slot's centre, ``width_mm / 2`` outside the anchor; ``blocked``: a friendly model touches
    the stretch, so the slot offers no room.
    """

    model: str
    index: int
    side: str
    anchor: g.Point
    normal: g.Point
    width_mm: float
    at: g.Point
    blocked: bool = False


def side_counts(total: int) -> list[int]:
    """Slots per side (front, right, rear, left) for ``total`` slots: shared out evenly,
    any remainder going to the front, then right, then rear. ``side_counts(8) == [2, 2, 2, 2]``."""
    base, rem = divmod(max(0, int(total)), 4)
    return [base + (1 if i < rem else 0) for i in range(4)]


def _ray_exit(center: g.Point, d: g.Point, pts) -> g.Point:
    """Where a ray from ``center`` (inside the convex polygon ``pts``) along ``d`` leaves it."""
    best = g.ray_polygon_mm(center, d, pts, behind_mm=0.0) or 0.0
    return (center[0] + d[0] * best, center[1] + d[1] * best)


def model_ring(model: Model, total_slots: int) -> list[SlotUnit]:
    """The ring of ``total_slots`` regular slots around ``model`` (none blocked yet).

    Rectangular bases (4-corner polygons as built by ``geometry.rect``: front-left,
    front-right, back-right, back-left) cut each side into equal stretches; round and oval
    bases place slots at even angles within each quarter-turn around the model's facing.
    Ring order runs clockwise from the front-left, so consecutive entries are neighbours.
    """
    counts = side_counts(total_slots)
    out: list[SlotUnit] = []
    shape = model.shape
    c = model.center
    pts: tuple[g.Point, ...]
    if isinstance(shape, g.Poly) and len(shape.points) == 4:
        pts = shape.points
        for s, k in enumerate(counts):
            a, b = pts[s], pts[(s + 1) % 4]
            edge = g.sub(b, a)
            length = math.hypot(*edge)
            if k == 0 or length == 0:
                continue
            nrm = (edge[1] / length, -edge[0] / length)
            mid = g.scale(g.add(a, b), 0.5)
            if g.dot(g.sub(mid, c), nrm) < 0:
                nrm = g.scale(nrm, -1)
            w = length / k
            for i in range(k):
                anchor = g.add(a, g.scale(edge, (i + 0.5) / k))
                out.append(SlotUnit(model.id, len(out), SIDES[s], anchor, nrm, w,
                                    g.add(anchor, g.scale(nrm, w / 2))))
        return out
    # round / oval: even angles within each quarter-turn
    if isinstance(shape, g.Circle):
        perim = 2 * math.pi * shape.radius_mm
    else:
        pts = shape.points
        perim = sum(g.dist(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts)))
    n = max(1, sum(counts))
    w = perim / n
    for s, k in enumerate(counts):
        for i in range(k):
            ang = model.facing_deg + 90 * s - 45 + 90 * (i + 0.5) / k
            d = g.forward(ang)
            if isinstance(shape, g.Circle):
                anchor = g.add(shape.center, g.scale(d, shape.radius_mm))
            else:
                anchor = _ray_exit(c, d, shape.points)
            out.append(SlotUnit(model.id, len(out), SIDES[s], anchor, d, w, g.add(anchor, g.scale(d, w / 2))))
    return out


class _Grid:
    """Bucket shapes by their bounding boxes for quick "what is near this point" queries."""

    def __init__(self, items: list[tuple[str, g.Shape]], cell_mm: float):
        self.cell = max(cell_mm, 1.0)
        self.cells: dict[tuple[int, int], list[tuple[str, g.Shape]]] = defaultdict(list)
        for mid, s in items:
            x0, y0, x1, y1 = s.bbox()
            for i in range(math.floor(x0 / self.cell), math.floor(x1 / self.cell) + 1):
                for j in range(math.floor(y0 / self.cell), math.floor(y1 / self.cell) + 1):
                    self.cells[(i, j)].append((mid, s))

    def near(self, p: g.Point) -> list[tuple[str, g.Shape]]:
        i, j = math.floor(p[0] / self.cell), math.floor(p[1] / self.cell)
        seen, out = set(), []
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                for mid, s in self.cells.get((i + di, j + dj), ()):
                    if mid not in seen:
                        seen.add(mid)
                        out.append((mid, s))
        return out


def block_by_friends(ring: list[SlotUnit], friends: _Grid, tol: float) -> None:
    """Mark slots whose stretch of the base edge a friendly model touches (Combat slots:
    adjacent friendly models take slots). A stretch is touched when another friendly base
    lies within ``tol`` mm of the stretch's middle point; a model touching only at a corner
    leaves the side's slots free."""
    for su in ring:
        probe = g.Circle(su.anchor, 0.0)
        for mid, s in friends.near(su.anchor):
            if mid != su.model and g.gap_mm(probe, s) <= tol:
                su.blocked = True
                break


def slot_groups(ring: list[SlotUnit], room: int, total_slots: int) -> list[tuple[int, ...]]:
    """Candidate places (tuples of ring indices) for an enemy that takes ``room`` slots.

    ``room == 1``: every slot. Larger: runs of ``room`` neighbouring slots; where every side
    holds a multiple of ``room`` slots (a large model's sides, two each) the runs stay within
    one side, otherwise (a regular model, one per side) they may turn a corner.
    """
    n = len(ring)
    if room <= 1:
        return [(i,) for i in range(n)]
    if room > n:
        return []
    counts = side_counts(total_slots)
    if all(k >= room and k % room == 0 for k in counts):
        out, i = [], 0
        for k in counts:
            for j in range(0, k, room):
                out.append(tuple(range(i + j, i + j + room)))
            i += k
        return out
    return [tuple((i + j) % n for j in range(room)) for i in range(n)]


def side_pairs(models: list[Model], rings: dict[str, list[SlotUnit]], totals: dict[str, int],
               tol: float) -> list[tuple[tuple[str, int], tuple[str, int]]]:
    """Places for a large enemy spanning two neighbouring models along one side (Combat slots:
    a large model takes the room of two regular slots, which may lie on two models side by
    side): the last slot of one model's side and the first of the next model's same side, where
    one side ends within ``tol`` mm of where the other begins, facing the same way. Returns
    ``((model id, ring index), (model id, ring index))`` pairs."""
    starts: dict[tuple[int, int], list[tuple[str, int, SlotUnit]]] = defaultdict(list)
    ends: list[tuple[g.Point, str, int, SlotUnit]] = []
    cell = max(tol, 1.0)
    for m in models:
        ring = rings.get(m.id)
        if not ring or not (isinstance(m.shape, g.Poly) and len(m.shape.points) == 4):
            continue
        pts = m.shape.points
        i = 0
        for s, k in enumerate(side_counts(totals[m.id])):
            if k == 0:
                continue
            first, last = ring[i], ring[i + k - 1]
            a, b = pts[s], pts[(s + 1) % 4]
            starts[(math.floor(a[0] / cell), math.floor(a[1] / cell))].append((m.id, i, first))
            ends.append((b, m.id, i + k - 1, last))
            i += k
    out = []
    for p, mid, idx, su in ends:
        ci, cj = math.floor(p[0] / cell), math.floor(p[1] / cell)
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                for oid, oidx, osu in starts.get((ci + di, cj + dj), ()):
                    if oid == mid or g.dot(su.normal, osu.normal) < 0.999:
                        continue
                    # the next model's side must begin where this one's ends
                    start_pt = g.sub(osu.anchor, g.scale(_along(osu), osu.width_mm / 2))
                    if g.dist(start_pt, p) <= tol:
                        out.append(((mid, idx), (oid, oidx)))
    return out


def _along(su: SlotUnit) -> g.Point:
    """Unit vector along a slot's stretch, in ring (clockwise) order."""
    return (-su.normal[1], su.normal[0])


def place_at(rings: dict[str, list[SlotUnit]], place: tuple[tuple[str, int], ...]) -> g.Point:
    """Centre (table mm) of a place made of ring slots ``(model id, index)``: outside the middle
    of their stretches, as far out as half their combined width."""
    us = [rings[mid][k] for mid, k in place]
    if len(us) == 1:
        return us[0].at
    ax = sum(u.anchor[0] for u in us) / len(us)
    ay = sum(u.anchor[1] for u in us) / len(us)
    nx = sum(u.normal[0] for u in us)
    ny = sum(u.normal[1] for u in us)
    L = math.hypot(nx, ny)
    if L < 1e-9:
        return us[0].at
    w = sum(u.width_mm for u in us)
    return (ax + nx / L * w / 2, ay + ny / L * w / 2)


# ----- allocation numbers -------------------------------------------------------------------
@dataclass
class PairView:
    """One engagement seen from ``unit``: its ``enemy``, who the ``attacker`` is and why
    (``attacker_because``), the ``direction`` (frontal|flank|rear, the defender's facing the
    attacker is engaged with) and the numbers it gives ``unit``."""

    unit: str
    enemy: str
    attacker: str
    attacker_because: str
    direction: str
    total: int
    base: int
    bonus: int
    final: int
    whole: bool


def draw_shares(board: Board, rs: Ruleset) -> dict[str, int]:
    """Base number: one share (whole percent) per unit, drawn in file order from
    ``random.Random(seed)`` (the scenario's ``seed``, else the ruleset's ``default_seed``),
    uniform between ``share_min_pct`` and ``share_max_pct`` inclusive. Every unit draws,
    engaged or not, so casualties or moves never shift another unit's share."""
    v = rs.values
    lo, hi = v.share_min_pct, v.share_max_pct
    if hi < lo:
        lo, hi = hi, lo
    seed = board.seed if board.seed is not None else v.default_seed
    rng = random.Random(seed)
    return {u.id: rng.randint(lo, hi) for u in board.units}


def base_number(share_pct: int, total: int, own: int, whole_max: int) -> int:
    """Base number: ceil(share_pct% x total), capped at ``own`` models; a unit of
    ``whole_max`` models or fewer gives all ``own`` models. Integer arithmetic, no rounding drift."""
    if own <= whole_max:
        return own
    return min(own, -(-share_pct * total // 100))


def choose_attacker(board: Board, a: Unit, b: Unit, facing_a: str, facing_b: str) -> tuple[str, str]:
    """Attacker of the engaged pair ``a``/``b`` and the reason (see the module docstring).

    ``facing_a``: the facing of ``a`` that ``b`` is engaged with; ``facing_b`` likewise.
    Returns ``(unit id, reason)`` with reason one of ``round_winner``, ``charged``,
    ``flanker``, ``active_player``, ``player_1``.
    """
    ctx = board.context or {}
    w = ctx.get("round_winner")
    if w in (a.id, b.id):
        return w, "round_winner"
    charged = set(ctx.get("charged") or [])
    if (a.id in charged) != (b.id in charged):
        return (a.id if a.id in charged else b.id), "charged"
    if facing_a != "front" and facing_b == "front":
        return b.id, "flanker"
    if facing_b != "front" and facing_a == "front":
        return a.id, "flanker"
    ap = ctx.get("active_player")
    if ap in (a.player, b.player) and a.player != b.player:
        return (a.id if a.player == ap else b.id), "active_player"
    return (a.id if a.player <= b.player else b.id), "player_1"


_BECAUSE = {
    "round_winner": "won the last round, so counts as the attacker (Recalculation of allocated models)",
    "charged": "charged this turn",
    "flanker": "nobody charged; it is the one striking a flank or rear",
    "active_player": "nobody charged or flanked; it belongs to the active player",
    "player_1": "nobody charged or flanked and no active player is set; player 1's unit counts as the attacker",
}


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
    naming no unit is ignored with a note.
    """
    v = rs.values
    tol = v.contact_tolerance_mm
    whole_max = v.whole_unit_max_models
    bonus_x = v.bonus_models
    n_regular = v.slots_regular_model
    n_large = v.slots_large_model
    large_room = v.large_model_room
    default_size = v.default_size
    rule_slots, rule_alloc = rs.rule("slots_regular_model"), rs.rule("contact_tolerance_mm")

    res = Analysis(ruleset=rs.id)
    units = {u.id: u for u in board.units}
    order = {u.id: i for i, u in enumerate(board.units)}
    models: dict[str, list[Model]] = {u.id: u.models() for u in board.units}
    model_by_id = {m.id: m for ms in models.values() for m in ms}
    size = {uid: str(u.profile.get("size", default_size)) for uid, u in units.items()}

    winner = (board.context or {}).get("round_winner")
    if winner is not None and winner not in units:
        res.notes.append(f"context.round_winner {winner!r} names no unit of this board; ignored.")

    # 1. engagements: trays / bases touching (reusing the ranked engine's helpers)
    facing: dict[tuple[str, str], str] = {}
    with doing(f"finding the engaged units ({rule_alloc})", "the table is too large or too entangled for finding "
               "which units touch"):
        bounds = {uid: boundary(units[uid], models[uid]) for uid in units}
        found = find_engagements(units, models, bounds, tol)
    for e in found:
        facing[(e.unit, e.enemy)] = e.facing
    res.engagements = found
    enemies: dict[str, list[str]] = defaultdict(list)
    for (a, b) in facing:
        enemies[a].append(b)
    for a in enemies:
        enemies[a].sort(key=order.__getitem__)

    # 2. numbers per engagement; a unit fighting several uses the largest final number
    shares = draw_shares(board, rs)
    own = {uid: len(ms) for uid, ms in models.items()}
    views: dict[str, PairView] = {}
    attacking: set[str] = set()
    for uid in sorted(enemies, key=order.__getitem__):
        best: Optional[PairView] = None
        for eid in enemies[uid]:
            att, because = choose_attacker(board, units[uid], units[eid], facing[(uid, eid)], facing[(eid, uid)])
            dfn = eid if att == uid else uid
            if att == uid:
                attacking.add(uid)
            struck = facing[(dfn, att)]
            direction = "frontal" if struck == "front" else ("rear" if struck == "rear" else "flank")
            total = own[dfn] if direction == "frontal" else own[att]
            base = base_number(shares[uid], total, own[uid], whole_max)
            if direction == "frontal":
                bonus = bonus_x if own[uid] > own[eid] else 0
            else:
                bonus = bonus_x if att == uid else 0
            final = min(base + bonus, own[uid])
            v = PairView(uid, eid, att, because, direction, total, base, bonus, final, own[uid] <= whole_max)
            if best is None or v.final > best.final:
                best = v
        assert best is not None  # every unit here engages at least one enemy
        views[uid] = best

    with doing(f"running the slot allocation ({rule_slots}; {rule_alloc})", "the units are too large for the slot allocation"):
        # 3. combat slots around every model of an engaged unit
        friends_by_player: dict[int, _Grid] = {}
        all_models = [m for ms in models.values() for m in ms]
        cell = max([max(m.shape.bbox()[2] - m.shape.bbox()[0], m.shape.bbox()[3] - m.shape.bbox()[1])
                    for m in all_models] or [50.0])
        for p in {u.player for u in units.values()}:
            friends_by_player[p] = _Grid([(m.id, m.shape) for m in all_models if units[m.unit_id].player == p], cell)
        rings: dict[str, list[SlotUnit]] = {}
        total_of: dict[str, int] = {}
        for uid in sorted(enemies, key=order.__getitem__):
            n = n_large if size[uid] == "large" else n_regular
            for m in models[uid]:
                ring = model_ring(m, n)
                block_by_friends(ring, friends_by_player[units[uid].player], tol)
                rings[m.id] = ring
                total_of[m.id] = n

        # 4. fill: attackers first (file order), then the rest; nearest (model, place) first.
        # A place is a tuple of (enemy model id, ring index): one regular slot, or the room of a
        # large model (two slots of one model, or of two neighbouring models along one side).
        taken: dict[tuple[str, int], str] = {}        # (enemy model, ring index) -> filler id
        placed: dict[str, tuple[tuple[str, int], ...]] = {}  # filler id -> its place
        fill_order = sorted(enemies, key=lambda u: (u not in attacking, order[u]))
        actual: dict[str, int] = {}
        across: dict[str, list] = {}
        for uid in fill_order:
            room = large_room if size[uid] == "large" else 1
            cands = []
            for e_i, eid in enumerate(enemies[uid]):
                em_index = {em.id: i for i, em in enumerate(models[eid])}
                places = []
                for em in models[eid]:
                    ring = rings[em.id]
                    places += [tuple((em.id, k) for k in grp) for grp in slot_groups(ring, room, total_of[em.id])]
                if room == 2:
                    if eid not in across:
                        across[eid] = side_pairs(models[eid], rings, total_of, tol)
                    places += across[eid]
                for place in places:
                    if any(rings[emid][k].blocked for emid, k in place):
                        continue
                    cands.append((e_i, em_index[place[0][0]], place, place_at(rings, place)))
            actual[uid] = fill_nearest_first(models[uid], cands, views[uid].final, placed, taken)

    # 5. output: allocation, slots, model roles
    alloc = {}
    for uid in sorted(views, key=order.__getitem__):
        v = views[uid]
        free_room = sum(1 for eid in enemies[uid] for em in models[eid] for su in rings[em.id] if not su.blocked)
        alloc[uid] = Allocation(
            final=v.final, actual=actual[uid], base=v.base, bonus=v.bonus,
            share=shares[uid], total=v.total, models=own[uid], whole=v.whole,
            against=v.enemy, direction=v.direction, attacker=v.attacker,
            attacker_because=v.attacker_because, free_slots=free_room,
            why=_alloc_why(v, shares[uid], actual[uid], whole_max, rs))
    res.put(Allocations(alloc))

    slots_out = []
    done: set[tuple[str, int]] = set()
    for uid in sorted(enemies, key=order.__getitem__):
        for m in models[uid]:
            ring = rings[m.id]
            for su in ring:
                if su.blocked or (m.id, su.index) in done:
                    continue
                filler = taken.get((m.id, su.index))
                also = None
                if filler is not None:
                    place = placed[filler]
                    done.update(place)
                    at = place_at(rings, place)
                    sz = size[model_by_id[filler].unit_id]
                    side = "/".join(dict.fromkeys(rings[emid][k].side for emid, k in place))
                    others = list(dict.fromkeys(emid for emid, _ in place if emid != m.id))
                    if others:
                        also = others
                else:
                    done.add((m.id, su.index))
                    at, sz, side = su.at, "regular", su.side
                slots_out.append(CombatSlot(model=m.id, at=(round(at[0], 3), round(at[1], 3)), size=sz, side=side,
                                            filled_by=filler, also=None if also is None else tuple(also)))
    res.put(CombatSlots(tuple(slots_out)))

    board_index = {m.id: i for i, m in enumerate(all_models)}
    for uid, ms in models.items():
        attacks = _profile_attacks(units[uid])
        for m in ms:
            r = ModelResult(at=m.center)
            if m.id in placed:
                place = placed[m.id]
                targets = sorted(dict.fromkeys(emid for emid, _ in place), key=board_index.__getitem__)
                r.role, r.attacks, r.targets = "attack", attacks, targets
                if len(targets) > 1:
                    r.why = (f"Allocated to melee: as a large model it takes the room of {large_room} regular slots, "
                             f"here the {rings[place[0][0]][place[0][1]].side} slots of the neighbours "
                             f"{' and '.join(targets)} ({rule_slots}; {rule_alloc}).")
                else:
                    grp = tuple(k for _, k in place)
                    r.why = (f"Allocated to melee: fills a combat slot {_where(rings[targets[0]], grp)} {targets[0]} "
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
    return res


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


def _alloc_why(v: PairView, share: int, actual: int, whole_max: int, rs: Ruleset) -> str:
    """One-paragraph explanation of a unit's numbers, in our words, citing the rules by the
    names the ruleset gives them (``rule:`` of its parameters)."""
    alloc, base, bonus = rs.rule("contact_tolerance_mm"), rs.rule("share_min_pct"), rs.rule("bonus_models")
    att = "it" if v.attacker == v.unit else v.attacker
    parts = [f"Attacker: {att} ({_BECAUSE[v.attacker_because]})."]
    if v.direction == "frontal":
        parts.append(f"Frontal attack, so the share is taken of the defender's {v.total} models ({alloc}).")
    else:
        parts.append(f"{v.direction.capitalize()} attack, so the share is taken of the attacker's {v.total} models "
                     f"({alloc}).")
    if v.whole:
        parts.append(f"With {whole_max} or fewer models the unit is allocated whole: base {v.base} ({base}).")
    else:
        parts.append(f"{base}: {share}% of {v.total}, rounded up and capped at its own models = {v.base}.")
    if v.bonus:
        who = "it has more models" if v.direction == "frontal" else "it is the attacker"
        parts.append(f"{bonus}: +{v.bonus} because {who}.")
    elif v.direction == "frontal":
        parts.append(f"{bonus}: none (the bonus goes to the unit with more models; a tie gives none).")
    else:
        parts.append(f"{bonus}: none (only the attacker gets it in a flank or rear attack).")
    parts.append(f"Final number {v.final}; {actual} found a free combat slot (Actual number).")
    return " ".join(parts)
