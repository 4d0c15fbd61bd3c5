"""Rank-and-file close combat: who fights, who supports, gaps, incomplete ranks, strike order.

One engine serves Warhammer Fantasy Battle 8th edition (``whfb8``) and The Ninth Age
(``t9a``); the ruleset's parameters choose between the systems' rules:

* ``contact_tolerance_mm``: bases this close count as touching (corners included).
* ``support_ranks`` / ``horde_keyword`` / ``horde_min_files`` / ``horde_support_ranks``:
  how many ranks behind the fighting rank make supporting attacks (whfb8 "Supporting
  Attacks", "The Horde"; t9a "Supporting Attacks" from the second rank only).
* ``support_attack_cap``: whfb8 "Supporting Attacks": one attack at most (``null``: none).
* ``restricted_attacks_height_cap``: t9a "Restricted Attacks": supporting attacks and attacks
  into a Flank or Rear facing are capped at the model's Height.
* ``incomplete_rank_flank``: ``move`` (whfb8 "Incomplete Ranks": the rear rank shuffles to
  the engaged flank) or ``none``.
* ``gap_fighting``: ``incomplete_rank`` (whfb8: fighting to the rear or both flanks, enemies
  facing a gap fight across it) or ``extend_bases`` (t9a "Fighting over Gaps": bases are
  extended along the engaged facing with no distance limit; the extension stops only at
  impassable terrain, another unit's boundary (the enemy's included: it meets the enemy where
  the enemy's engaged facing is) or a friendly model in front).
* ``strike_order``: ``initiative`` (whfb8 "Strike Order") or ``agility_step`` (t9a, per
  model part).

Facings are named ``front``, ``left``, ``right`` (flanks) and ``rear`` from the unit's own
view; a skirmish unit has only ``front``.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from .. import geometry as g
from ..analysis import Analysis, ModelResult
from ..board import Board, Model, Unit, slot_name
from ..ruleset import Ruleset
from . import closing
from . import tow_policy

# who-fights policies other than base contact, by the ruleset's ``who_fights`` value
_WHO_FIGHTS = {"fighting_rank": tow_policy}

FACINGS = ("front", "right", "rear", "left")


# ----- facings and contact ------------------------------------------------------------------
def boundary(unit: Unit, models: list[Model]) -> list[g.Shape]:
    """A unit's boundary: the tray of a ranked unit, each base of a skirmish unit."""
    return [unit.tray()] if unit.kind == "ranked" else [m.shape for m in models]


def _clip(poly: list[g.Point], inside) -> list[g.Point]:
    """Sutherland-Hodgman clip of ``poly`` by a half-plane ``inside(p) -> signed value >= 0``."""
    out: list[g.Point] = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        va, vb = inside(a), inside(b)
        if va >= 0:
            out.append(a)
        if (va >= 0) != (vb >= 0):
            t = va / (va - vb)
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
    return out


def _as_poly(s: g.Shape) -> list[g.Point]:
    if isinstance(s, g.Circle):
        return [(s.center[0] + s.radius_mm * math.cos(2 * math.pi * i / 24),
                 s.center[1] + s.radius_mm * math.sin(2 * math.pi * i / 24)) for i in range(24)]
    return list(s.points)


def edge_contact_lengths(unit: Unit, other: Iterable[g.Shape], tol: float) -> dict[str, float]:
    """How much of each edge of ``unit``'s tray the shapes ``other`` touch (mm along the edge).

    A shape touches an edge where it lies within ``tol`` of the edge line, outside or on it,
    and within the edge's extent. Pure corner contact gives lengths near zero.
    """
    W, D = unit.width_mm, unit.depth_mm
    out = dict.fromkeys(FACINGS, 0.0)
    # each edge: (facing, normal axis in local (u, v), band test, extent axis, lo, hi)
    for s in other:
        local = [g.to_local(p, unit.front, unit.facing_deg) for p in _as_poly(s)]
        for facing in FACINGS:
            if facing == "front":
                band = [lambda p: p[1] + tol, lambda p: tol - p[1]]          # -tol <= v <= tol
                ext = (0, -W / 2, W / 2)
            elif facing == "rear":
                band = [lambda p: p[1] - (D - tol), lambda p: D + tol - p[1]]
                ext = (0, -W / 2, W / 2)
            elif facing == "left":
                band = [lambda p: p[0] + W / 2 + tol, lambda p: -W / 2 + tol - p[0]]
                ext = (1, 0.0, D)
            else:
                band = [lambda p: p[0] - (W / 2 - tol), lambda p: W / 2 + tol - p[0]]
                ext = (1, 0.0, D)
            axis, lo, hi = ext
            poly = local
            for f in band + [lambda p, a=axis, l=lo: p[a] - l, lambda p, a=axis, h=hi: h - p[a]]:
                poly = _clip(poly, f)
                if not poly:
                    break
            if poly:
                vals = [p[axis] for p in poly]
                out[facing] += max(vals) - min(vals)
    return out


def facing_of(unit: Unit, enemy_shapes: list[g.Shape], enemy_center: g.Point, tol: float) -> str:
    """The facing of ``unit`` (front/left/right/rear) an enemy touching it is engaged with.

    Decided by which tray edge the enemy touches along the greatest length; a contact at a
    corner only falls back to the arc (bounded by the tray's diagonals) holding the enemy's
    centre. Skirmish units have only a front.
    """
    if unit.kind != "ranked":
        return "front"
    lengths = edge_contact_lengths(unit, enemy_shapes, tol)
    best = max(FACINGS, key=lambda f: lengths[f])
    if lengths[best] > 2 * tol:
        return best
    u, v = g.to_local(enemy_center, unit.front, unit.facing_deg)
    v -= unit.depth_mm / 2
    # exactly on a diagonal (a corner meeting a corner) counts as front/rear; the small margin
    # keeps that choice the same however the table is turned (floating-point noise)
    if abs(v) / (unit.depth_mm / 2) >= abs(u) / (unit.width_mm / 2) - 1e-6:
        return "front" if v < 0 else "rear"
    return "left" if u < 0 else "right"


def find_engagements(units: dict[str, Unit], models: dict[str, list[Model]], bounds: dict[str, list[g.Shape]],
                     tol: float) -> list[_Eng]:
    """Every pair of enemy units whose boundaries touch, both ways round: ``_Eng(unit, enemy,
    facing)`` with the facing of ``unit`` that ``enemy`` is engaged with (see :func:`facing_of`)."""
    out = []
    ids = list(units)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            ua, ub = units[a], units[b]
            if ua.player == ub.player or not models[a] or not models[b]:
                continue
            if not touching(bounds[a], bounds[b], tol):
                continue
            out.append(_Eng(a, b, facing_of(ua, bounds[b], ub.center(), tol)))
            out.append(_Eng(b, a, facing_of(ub, bounds[a], ua.center(), tol)))
    return out


def _near(ms: list[Model], shapes: list[g.Shape], tol: float) -> list[Model]:
    """The models of ``ms`` within ``tol`` of any of ``shapes`` (bounding boxes first)."""
    boxes = [s.bbox() for s in shapes]
    if len(boxes) > 1:
        whole = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    else:
        whole = boxes[0]
    out = []
    for m in ms:
        bb = m.shape.bbox()
        if g.bbox_gap(bb, whole) > tol:
            continue
        if any(g.bbox_gap(bb, b) <= tol and g.within(m.shape, s, tol) for b, s in zip(boxes, shapes)):
            out.append(m)
    return out


def facing_dir(unit: Unit, facing: str) -> g.Point:
    """Outward direction (table) of ``unit``'s ``facing``."""
    f, r = g.forward(unit.facing_deg), g.right(unit.facing_deg)
    return {"front": f, "rear": g.scale(f, -1), "right": r, "left": g.scale(r, -1)}[facing]


def touching(a: list[g.Shape], b: list[g.Shape], tol: float) -> bool:
    """True when any shape of ``a`` is within ``tol`` of any shape of ``b``."""
    for sa in a:
        ba = sa.bbox()
        for sb in b:
            if g.bbox_gap(ba, sb.bbox()) <= tol and g.within(sa, sb, tol):
                return True
    return False


# ----- analysis -------------------------------------------------------------------------------
@dataclass
class _Eng:
    unit: str
    enemy: str
    facing: str  # facing of `unit` the enemy is engaged with


def _profile_attacks(unit: Unit) -> tuple[int, dict[str, int] | None, dict[str, float]]:
    """(total attacks, attacks per part or None, agility/initiative per part)."""
    p = unit.profile
    parts = p.get("parts")
    if parts:
        per = {str(pt.get("name", f"part{i + 1}")): int(pt.get("attacks", 0)) for i, pt in enumerate(parts)}
        ag = {str(pt.get("name", f"part{i + 1}")): float(pt.get("agility", pt.get("initiative", p.get("agility", 0))))
              for i, pt in enumerate(parts)}
        return sum(per.values()), per, ag
    return int(p.get("attacks", 1)), None, {}


def _shuffle_incomplete_rank(unit: Unit, side: str) -> dict[tuple[int, int], tuple[int, int]]:
    """whfb8 Incomplete Ranks: the last rank's models move to the end facing the engaged
    ``side`` (left/right). Returns {old (rank, file): new (rank, file)} for models that move."""
    slots = unit.occupied_slots()
    last = max(r for r, _ in slots)
    row = sorted(f for r, f in slots if r == last)
    if len(row) >= unit.files or last == 1:
        return {}
    n = len(row)
    new_files = list(range(unit.files - n + 1, unit.files + 1)) if side == "right" else list(range(1, n + 1))
    return {(last, old): (last, new) for old, new in zip(row, new_files) if old != new}


_COMBAT_CACHE: dict[tuple, Analysis] = {}


def _unit_key(u: Unit) -> str:
    """Everything about a unit the ranked rules read (pose, player, profile, keywords, and
    unit keys a policy reads such as a troop type)."""
    return repr((u.pose_key(), u.player, u.profile, u.keywords, u.extra))


def combats(board: Board, tol: float) -> list[list[str]]:
    """Unit ids grouped into separate combats: units joined by base contact of their
    boundaries, directly or through other units (a lone unit is a combat of its own)."""
    units = board.units
    parent = {u.id: u.id for u in units}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    bounds = [(u, boundary(u, u.models()) if u.kind != "ranked" else [u.tray()]) for u in units]
    boxes = []
    for u, shapes in bounds:
        bb = [s.bbox() for s in shapes] or [(0.0, 0.0, 0.0, 0.0)]
        boxes.append((min(b[0] for b in bb), min(b[1] for b in bb), max(b[2] for b in bb), max(b[3] for b in bb)))
    for i, (ua, sa) in enumerate(bounds):
        for j in range(i + 1, len(bounds)):
            ub, sb = bounds[j]
            if ua.player == ub.player or g.bbox_gap(boxes[i], boxes[j]) > tol:
                continue
            if touching(sa, sb, tol):
                parent[root(ua.id)] = root(ub.id)
    groups: dict[str, list[str]] = defaultdict(list)
    for u in units:
        groups[root(u.id)].append(u.id)
    return list(groups.values())


def analyse(board: Board, rs: Ruleset, **_services) -> Analysis:
    """Analyse a rank-and-file close combat (whfb8 "Fight!"; t9a Melee Phase).

    When ``context.combats`` lists pairs no longer in contact, they first close up by the
    ruleset's ``close_up`` policy (:mod:`.closing`); the position after that move is analysed
    and the moved models are reported under ``moves``. See :func:`_analyse_board`.
    """
    pairs = (board.context or {}).get("combats")
    if not pairs:
        return _analyse_board(board, rs)
    shut = closing.close_up(board, rs, pairs)
    res = _analyse_board(shut.board, rs)
    res.moves = closing.merge_moves(shut.moves, res.moves)
    res.notes += shut.notes
    return res


def _analyse_board(board: Board, rs: Ruleset) -> Analysis:
    """Analyse a rank-and-file close combat as it stands (no closing up).

    Returns an :class:`Analysis` with every model's role, attacks and targets, gap links,
    incomplete-rank moves and the strike order. Never raises on a valid :class:`Board`.

    Separate combats are analysed on their own and cached by the state of their units (and,
    for t9a, of the units nearby that could block an extended base), so re-analysing while one
    unit is dragged recomputes only the combat it is in.
    """
    tol = float(rs.p("contact_tolerance_mm", 0.5))
    groups = combats(board, tol)
    if len(groups) <= 1:
        return _analyse_combat(board, rs)
    by_id = {u.id: u for u in board.units}
    extend = rs.p("gap_fighting", "none") == "extend_bases"
    terrain_key = repr(board.terrain) if extend else ""
    part_of: dict[str, Analysis] = {}
    combat_units: dict[int, set[str]] = {}  # id(part) -> the unit ids of that combat
    for ids in groups:
        members = [by_id[i] for i in ids]
        if extend:
            # units near the combat may block an extended base (Fighting over Gaps); an extended
            # base ends at an enemy model of the combat, so it stays within the combat's box
            box = _units_box(members)
            grow = max(max(u.width_mm, u.depth_mm) if u.kind == "ranked" else 0.0 for u in members)
            box = (box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow)
            members += [u for u in board.units if u.id not in ids and g.bbox_gap(_units_box([u]), box) <= 0]
        key = (rs.id, id(rs), terrain_key, repr(board.context), tuple(_unit_key(u) for u in members))
        part = _COMBAT_CACHE.get(key)
        if part is None:
            sub = Board(units=members, ruleset=board.ruleset, terrain=board.terrain, table=board.table,
                        context=board.context)
            part = _analyse_combat(sub, rs)
            if len(_COMBAT_CACHE) > 1024:
                _COMBAT_CACHE.clear()
            _COMBAT_CACHE[key] = part
        for i in ids:
            part_of[i] = part
        combat_units[id(part)] = set(ids)
    res = Analysis(ruleset=rs.id)
    seen: set[int] = set()
    for u in board.units:
        part = part_of[u.id]
        prefix = u.id + "."
        for mid, r in part.models.items():
            if mid.startswith(prefix):
                res.models[mid] = r
        if id(part) in seen:
            continue
        seen.add(id(part))
        mine = combat_units[id(part)]
        res.gap_links += [l for l in part.gap_links if l[0].split(".", 1)[0] in mine]
        res.moves.update({k: v for k, v in part.moves.items() if k.split(".", 1)[0] in mine})
        res.engagements += [e for e in part.engagements if e["unit"] in mine]
        _merge_extra(res.extra, part.extra, mine)
        res.notes += [n for n in part.notes if n not in res.notes]
    res.gap_links.sort()
    if rs.p("who_fights", "base_contact") in _WHO_FIGHTS:
        res.strike_order = _merge_steps([part.strike_order for part in {id(p): p for p in part_of.values()}.values()])
        return res
    units = {u.id: u for u in board.units}
    models = {uid: [] for uid in units}
    for mid in res.models:
        models[mid.split(".", 1)[0]].append(mid)
    res.strike_order = _strike_order_ids(rs, units, models, res)
    return res


def _merge_extra(into: dict, part: dict, mine: set[str]) -> None:
    """Add a combat's extra output keys: per-unit mappings and lists of per-unit entries,
    keeping only this combat's units."""
    for k, v in part.items():
        if isinstance(v, dict):
            into.setdefault(k, {}).update({u: x for u, x in v.items() if u in mine})
        elif isinstance(v, list):
            into.setdefault(k, []).extend(x for x in v if not isinstance(x, dict) or x.get("unit") in mine)


def _merge_steps(parts: list[list[dict]]) -> list[dict]:
    """Strike orders of separate combats as one: steps of equal value merged, highest first."""
    steps: dict = {}
    for order in parts:
        for s in order:
            d = steps.setdefault(s["step"], {"step": s["step"], "label": s.get("label", str(s["step"])), "models": []})
            d["models"] += s["models"]
            if s.get("parts"):
                d.setdefault("parts", []).extend(s["parts"])
    return [steps[k] for k in sorted(steps, reverse=True)]


def _units_box(units: list[Unit]) -> tuple[float, float, float, float]:
    boxes = [s.bbox() for u in units for s in ([u.tray()] if u.kind == "ranked" else [m.shape for m in u.models()])]
    if not boxes:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _analyse_combat(board: Board, rs: Ruleset) -> Analysis:
    """The ranked rules on one board (any number of combats), without caching."""
    tol = float(rs.p("contact_tolerance_mm", 0.5))
    res = Analysis(ruleset=rs.id)
    units = {u.id: u for u in board.units}
    models: dict[str, list[Model]] = {u.id: u.models() for u in board.units}

    # 1. which units touch, and on which facing
    bounds = {uid: boundary(units[uid], models[uid]) for uid in units}

    engs = find_engagements(units, models, bounds, tol)

    # 2. whfb8 Incomplete Ranks: fighting to one flank only, the rear rank shuffles into contact
    slot_override: dict[str, dict[tuple[int, int], tuple[int, int]]] = {}
    if rs.p("incomplete_rank_flank", "none") == "move":
        for uid, u in units.items():
            if u.kind != "ranked":
                continue
            fs = {e.facing for e in engs if e.unit == uid}
            flanks = fs & {"left", "right"}
            if len(flanks) == 1 and "rear" not in fs:
                moves = _shuffle_incomplete_rank(u, flanks.pop())
                if moves:
                    slot_override[uid] = moves
    pos_model: dict[str, Model] = {}
    for uid, ms in models.items():
        u = units[uid]
        if uid in slot_override:
            mv = slot_override[uid]
            new_ms = []
            for m in ms:
                rf = (m.rank, m.file)
                if rf in mv:
                    r, f = mv[rf]
                    c = u.slot_center(r, f)
                    nm = Model(f"{uid}.{slot_name(r, f)}", uid, slot_name(r, f), r, f, c, m.facing_deg,
                               g.rect(c, u.base_w, u.base_d, u.facing_deg))
                    res.moves[nm.id] = [m.center, c]
                    new_ms.append(nm)
                else:
                    new_ms.append(m)
            models[uid] = new_ms
        for m in models[uid]:
            pos_model[m.id] = m
    bounds = {uid: boundary(units[uid], models[uid]) for uid in units}
    eng_facing: dict[tuple[str, str], str] = {(e.unit, e.enemy): e.facing for e in engs}
    for e in engs:
        res.engagements.append({"unit": e.unit, "enemy": e.enemy, "facing": e.facing})

    # 3. base contact between models
    contacts: dict[str, set[str]] = defaultdict(set)
    engaged_pairs = {(e.unit, e.enemy) for e in engs}
    for a, b in engaged_pairs:
        if a > b:
            continue
        # only models near the other unit's boundary can touch its models
        near_a = _near(models[a], bounds[b], tol)
        near_b = _near(models[b], bounds[a], tol)
        for ma in near_a:
            ba = ma.shape.bbox()
            for mb in near_b:
                if g.bbox_gap(ba, mb.shape.bbox()) <= tol and g.within(ma.shape, mb.shape, tol):
                    contacts[ma.id].add(mb.id)
                    contacts[mb.id].add(ma.id)

    # a policy that decides who fights from here on (The Old World's fighting ranks)
    policy = _WHO_FIGHTS.get(rs.p("who_fights", "base_contact"))
    if policy is not None:
        out = policy.fight(units, models, [(e.unit, e.enemy, e.facing) for e in engs], contacts, board.context,
                           policy.params_of(rs), tol, ModelResult)
        res.models.update(out.results)
        res.strike_order, res.notes = out.strike_order, res.notes + out.notes
        res.extra.update(out.extra)
        return res

    # 4. fighting across gaps
    links: set[frozenset] = set()
    mode = rs.p("gap_fighting", "none")
    if mode == "incomplete_rank":
        links = _gaps_incomplete_rank(units, models, engs, tol)
    elif mode == "extend_bases":
        links = _gaps_extend(board, units, models, engs, tol)
    links = {l for l in links if not (set(l) <= ({next(iter(l))} | contacts[next(iter(l))]))}
    for l in links:
        a, b = sorted(l)
        contacts[a].add(b)
        contacts[b].add(a)
    res.gap_links = sorted(tuple(sorted(l)) for l in links)
    linked = {m for l in links for m in l}

    # 5. roles (lists of model ids keep the board's order: unit by unit, slot by slot)
    order = {m.id: i for i, m in enumerate(m for ms in models.values() for m in ms)}
    cap_support = rs.p("support_attack_cap")
    height_cap = bool(rs.p("restricted_attacks_height_cap", False))
    unit_of = {m.id: m.unit_id for ms in models.values() for m in ms}
    for uid, ms in models.items():
        u = units[uid]
        total, parts, _ = _profile_attacks(u)
        height = int(u.profile.get("height", 1))
        for m in ms:
            tg = sorted(contacts.get(m.id, ()), key=order.__getitem__)
            r = ModelResult(at=m.center)
            if tg:
                r.role, r.targets = "attack", tg
                facings = {eng_facing.get((uid, unit_of[t]), "front") for t in tg}
                restricted = height_cap and not (facings & {"front"})
                n = min(total, height) if restricted else total
                r.attacks = n
                r.parts = _split_parts(parts, n) if parts else None
                how = "across a gap" if m.id in linked else "in base contact"
                enemies = ", ".join(sorted({unit_of[t] for t in tg}))
                r.why = (f"Fights: {how} with {enemies} ({'/'.join(sorted(facings))} facing). "
                         + ("Rule: Fighting over Gaps. " if m.id in linked and mode == "extend_bases" else
                            "Rule: Incomplete Ranks (fighting across the gap). " if m.id in linked else
                            "Rule: Who Can Attack? (corner-to-corner counts). "))
                if restricted:
                    r.why += f"Attacks into a Flank/Rear facing are Restricted Attacks, capped at Height {height}."
                elif len({unit_of[t] for t in tg}) > 1:
                    r.why += "Touching several enemy units, it may divide its attacks (Dividing Attacks)."
            res.models[m.id] = r

    # supporting attacks
    kw = rs.p("horde_keyword")
    for uid, ms in models.items():
        u = units[uid]
        if u.kind != "ranked":
            continue
        front_enemies = {e.enemy for e in engs if e.unit == uid and e.facing == "front"}
        by_slot = {(m.rank, m.file): m for m in ms}
        front_width = sum(1 for (r, _f) in by_slot if r == 1)
        ranks = int(rs.p("support_ranks", 1))
        horde = (bool(kw) and str(kw).lower() in {k.lower() for k in u.keywords}
                 and front_width >= int(rs.p("horde_min_files", 10)))
        if horde:
            ranks = int(rs.p("horde_support_ranks", ranks))
        total, parts, _ = _profile_attacks(u)
        height = int(u.profile.get("height", 1))
        for m in ms:
            r = res.models[m.id]
            if r.role != "none" or m.rank is None or m.rank == 1:
                continue
            if m.rank > 1 + ranks:
                if front_enemies and m.rank == 2 + ranks and (1, m.file) in by_slot and \
                        res.models[by_slot[(1, m.file)].id].role == "attack":
                    r.why = (f"Rank {m.rank} is too far back: only {ranks} rank(s) behind the fighting rank support"
                             + (" (a horde of 10+ files would let the 3rd rank support)." if kw and not horde and ranks == 1 else "."))
                else:
                    r.why = "Not in base contact with an enemy and not behind a model fighting to the front."
                continue
            column = [by_slot.get((k, m.file)) for k in range(1, m.rank)]
            if any(c is None for c in column):
                r.why = "The slot in front of it is empty, so it is not directly behind a fighting model (Supporting Attacks)."
                continue
            lead = column[0]
            lead_targets = [t for t in res.models[lead.id].targets if unit_of[t] in front_enemies]
            if not lead_targets:
                if res.models[lead.id].role == "attack":
                    r.why = ("The model in front fights only to the flank or rear; supporting attacks are never made "
                             "to the side or rear (Supporting Attacks).")
                else:
                    r.why = "Not in base contact with an enemy and not behind a model fighting to the front."
                continue
            r.role, r.targets = "support", sorted(lead_targets, key=order.__getitem__)
            n = total
            if cap_support is not None:
                n = min(n, int(cap_support))
            if height_cap:
                n = min(n, height)
            r.attacks = n
            r.parts = _split_parts(parts, n) if parts else None
            rank_word = {2: "2nd", 3: "3rd", 4: "4th"}.get(m.rank, f"{m.rank}th")
            r.why = (f"Supports from the {rank_word} rank through {lead.id}, which fights to the front "
                     f"(Supporting Attacks{'; The Horde: 10+ wide' if horde and m.rank > 2 else ''}). ")
            if cap_support is not None:
                r.why += f"A supporting attack is at most {int(cap_support)} attack."
            elif height_cap:
                r.why += f"Supporting attacks are Restricted Attacks, capped at Height {height}."

    for mid, r in res.models.items():
        if r.role == "none" and not r.why:
            r.why = "Not in base contact with an enemy and not behind a model fighting to the front."

    # 6. strike order
    res.strike_order = _strike_order(rs, units, models, res)
    return res


def _split_parts(parts: dict[str, int], n: int) -> dict[str, int]:
    """Attacks per part when a model may make ``n`` in all: earlier-listed parts first."""
    out = {}
    left = n
    for name, a in parts.items():
        k = min(a, left)
        out[name] = k
        left -= k
    return out


def _strike_order(rs: Ruleset, units: dict[str, Unit], models: dict[str, list[Model]], res: Analysis) -> list[dict]:
    """Steps of striking (see :func:`_strike_order_ids`)."""
    return _strike_order_ids(rs, units, {uid: [m.id for m in ms] for uid, ms in models.items()}, res)


def _strike_order_ids(rs: Ruleset, units: dict[str, Unit], models: dict[str, list[str]], res: Analysis) -> list[dict]:
    """Steps of striking, highest value first; equal values strike simultaneously.

    whfb8 "Strike Order": by Initiative. t9a: by Agility Step, each model part on its own.
    ``models`` maps unit id to model ids in board order.
    """
    by = rs.p("strike_order", "initiative")
    steps: dict[float, list[str]] = defaultdict(list)
    parts_at: dict[float, list[str]] = defaultdict(list)
    for uid, ms in models.items():
        u = units[uid]
        _, parts, agility = _profile_attacks(u)
        key = "agility" if by == "agility_step" else "initiative"
        for mid in ms:
            r = res.models[mid]
            if r.attacks <= 0:
                continue
            if by == "agility_step" and r.parts:
                for part, n in r.parts.items():
                    if n > 0:
                        s = agility.get(part, 0.0)
                        if mid not in steps[s]:
                            steps[s].append(mid)
                        parts_at[s].append(f"{mid}/{part}")
            else:
                # a profile without Initiative falls back to Agility (the Ninth Age's equivalent),
                # so a t9a board compared under whfb8 still strikes in a sensible order
                value = u.profile.get(key, u.profile.get("agility" if key == "initiative" else "initiative", 0))
                steps[float(value)].append(mid)
    label = "Agility" if by == "agility_step" else "Initiative"
    out = []
    for s in sorted(steps, reverse=True):
        step = int(s) if s == int(s) else s
        d = {"step": step, "label": f"{label} {step}", "models": steps[s]}
        if parts_at.get(s):
            d["parts"] = parts_at[s]
        out.append(d)
    return out


# ----- gaps -----------------------------------------------------------------------------------
def _gaps_incomplete_rank(units: dict[str, Unit], models: dict[str, list[Model]], engs: list[_Eng],
                          tol: float) -> set[frozenset]:
    """whfb8 Incomplete Ranks: a unit fighting to its rear, or to both flanks, is fought across
    the gaps of its incomplete rank. An enemy model facing an empty slot on that edge (touching
    the slot's outer edge along more than the tolerance) fights the nearest model inward in
    the same file (rear) or rank (flanks), and that model fights it."""
    links: set[frozenset] = set()
    for uid, u in units.items():
        if u.kind != "ranked":
            continue
        fs = {e.facing for e in engs if e.unit == uid}
        edges = []
        if "rear" in fs:
            edges.append("rear")
        if {"left", "right"} <= fs:
            edges += ["left", "right"]
        if not edges:
            continue
        occ = {(m.rank, m.file): m for m in models[uid]}
        R, F = u.ranks, u.files
        for edge in edges:
            enemies = [e.enemy for e in engs if e.unit == uid and e.facing == edge]
            if edge == "rear":
                slots = [((R, f), [(r, f) for r in range(R - 1, 0, -1)]) for f in range(1, F + 1)]
            elif edge == "left":
                slots = [((r, 1), [(r, f) for f in range(2, F + 1)]) for r in range(1, R + 1)]
            else:
                slots = [((r, F), [(r, f) for f in range(F - 1, 0, -1)]) for r in range(1, R + 1)]
            for (slot, inward) in slots:
                if slot in occ:
                    continue
                target = next((occ[s] for s in inward if s in occ), None)
                if target is None:
                    continue
                # the empty slot's outer edge as a thin strip
                c = u.slot_center(*slot)
                cell = g.rect(c, u.base_w, u.base_d, u.facing_deg)
                for eid in enemies:
                    for em in models[eid]:
                        if g.gap_mm(cell, em.shape) > tol:
                            continue
                        if edge_overlap(u, slot, edge, em.shape, tol) > tol:
                            links.add(frozenset((target.id, em.id)))
    return links


def edge_overlap(u: Unit, slot: tuple[int, int], edge: str, shape: g.Shape, tol: float) -> float:
    """Length (mm) along ``edge`` over which ``shape`` faces the outer edge of ``slot``."""
    r, f = slot
    W = u.width_mm
    lo_u, hi_u = (f - 1) * u.base_w - W / 2, f * u.base_w - W / 2
    lo_v, hi_v = (r - 1) * u.base_d, r * u.base_d
    local = [g.to_local(p, u.front, u.facing_deg) for p in _as_poly(shape)]
    if edge in ("rear", "front"):
        vals = [p[0] for p in local]
    else:
        vals = [p[1] for p in local]
    lo, hi = (lo_u, hi_u) if edge in ("rear", "front") else (lo_v, hi_v)
    return min(max(vals), hi) - max(min(vals), lo)


def _extended(m: Model, u: Unit, direction: g.Point, length: float) -> g.Poly:
    """Model ``m``'s base stretched ``length`` mm along ``direction`` (a swept outline)."""
    pts = _as_poly(m.shape)
    moved = [(p[0] + direction[0] * length, p[1] + direction[1] * length) for p in pts]
    return g.Poly(tuple(_hull(pts + moved)))


def _hull(pts: list[g.Point]) -> list[g.Point]:
    pts = sorted(set(pts))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[g.Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[g.Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _gaps_extend(board: Board, units: dict[str, Unit], models: dict[str, list[Model]], engs: list[_Eng],
                 tol: float) -> set[frozenset]:
    """t9a Fighting over Gaps: extend each model's base along the facing its unit is engaged
    in; an enemy model of that engaged unit reached this way is in contact. The text sets no
    distance limit: the extension runs through the unit's own empty slots and past its
    boundary, and stops only at impassable terrain, another unit's boundary (the engaged
    enemy's too, so it meets the enemy at its engaged facing, never a model behind a gap in the
    enemy's ranks) or a friendly model."""
    links: set[frozenset] = set()
    bounds = {uid: boundary(units[uid], models[uid]) for uid in units}
    terrain = [g.Poly(tuple(tuple(p) for p in t["points"])) for t in board.terrain]
    for e in engs:
        u = units[e.unit]
        d = facing_dir(u, e.facing)
        occupied = {(m.rank, m.file) for m in models[e.unit]} if u.kind == "ranked" else set()
        step = {"front": (-1, 0), "rear": (1, 0), "left": (0, -1), "right": (0, 1)}[e.facing]
        for m in models[e.unit]:
            if m.rank is not None and (m.rank + step[0], m.file + step[1]) in occupied:
                continue  # its facing towards the enemy is covered by a friendly model
            # no distance limit: the extension runs until it meets the enemy's boundary (a
            # ranked enemy's tray; going further would cross it), or past every enemy base
            if units[e.enemy].kind == "ranked":
                hit = closing.sweep_mm([_as_poly(m.shape)], [list(units[e.enemy].tray().points)], d)
                if hit is None:
                    continue
                L = hit + 2 * tol
            else:
                half = max(g.dot(g.sub(p, m.center), d) for p in _as_poly(m.shape))
                far = max(g.dot(g.sub(p, m.center), d) for em in models[e.enemy] for p in _as_poly(em.shape))
                L = max(0.0, far - half)
            full = _extended(m, u, d, L)
            fb = full.bbox()
            side = (-d[1], d[0])
            mine = [g.dot(p, side) for p in _as_poly(m.shape)]
            candidates = []
            for em in models[e.enemy]:
                if g.bbox_gap(fb, em.shape.bbox()) > tol or g.gap_mm(full, em.shape) > tol:
                    continue
                theirs = [g.dot(p, side) for p in _as_poly(em.shape)]
                # face to face: the extended base must overlap the enemy base sideways, not
                # meet it only at a corner (a diagonal is not "along the facing")
                if min(max(mine), max(theirs)) - max(min(mine), min(theirs)) > tol:
                    candidates.append(em)
            for em in candidates:
                # shortest extension reaching the enemy model
                lo, hi = 0.0, L
                for _ in range(16):
                    mid = (lo + hi) / 2
                    if g.gap_mm(_extended(m, u, d, mid), em.shape) <= tol:
                        hi = mid
                    else:
                        lo = mid
                ext = _extended(m, u, d, max(0.0, hi - tol))
                eb = ext.bbox()

                def overlaps(shape: g.Shape, by: float) -> bool:
                    return g.bbox_gap(eb, shape.bbox()) <= 0 and g.gap_mm(ext, shape) < by

                blocked = any(fm.id != m.id and overlaps(fm.shape, -tol) for fm in models[e.unit])
                if not blocked:
                    blocked = any(overlaps(sh, -tol) for oid, shapes in bounds.items() if oid != e.unit
                                  for sh in shapes)
                if not blocked:
                    blocked = any(overlaps(t, 0.0) for t in terrain)
                if not blocked:
                    links.add(frozenset((m.id, em.id)))
    return links
