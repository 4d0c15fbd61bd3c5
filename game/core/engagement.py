"""Engagements shared by every engine: unit boundaries, facings, which units touch, combats.

Pure geometry over a :class:`~game.core.board.Board` (table mm, facings clockwise from north):

* :func:`boundary`: a ranked unit's tray, or each base of a skirmish unit;
* :func:`touching` / :func:`near`: shapes (or models) within a tolerance (mm) of others;
* :func:`facing_of`: which facing (``front``, ``right``, ``rear``, ``left``) of a unit an
  enemy touching it is engaged with (the tray edge touched along the greatest length; a
  corner-only contact falls back to the arc between the tray's diagonals);
* :func:`find_engagements`: every pair of enemy units in contact, both ways round;
* :func:`combats`: units grouped into separate combats (joined by contact, directly or not);
  units are paired by a sort-and-sweep over their boxes and each pair's answer is cached;
* :func:`model_contacts`: which models of engaged units touch (base contact, corners count).

No rule system is named here: the engines decide what an engagement means.
"""
from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Iterable, Optional

from game.core import contact
from game.core import geometry as g
from game.core.board import Board, Unit
from game.core.unit_models import Model
from game.core.lru import LRU
from game.core.record import Record, record
from game.core.parts import Entry

FACINGS = ("front", "right", "rear", "left")


@record
class Engagement(Entry):
    """``enemy`` is engaged with the ``facing`` of ``unit`` (unit ids; one of :data:`FACINGS`);
    JSON ``{unit, enemy, facing}``."""

    unit: str
    enemy: str
    facing: str


def boundary(unit: Unit, models: list[Model]) -> list[g.Shape]:
    """A unit's boundary: the tray of a ranked unit, each base of a skirmish unit."""
    return [unit.tray()] if unit.is_ranked else [m.shape for m in models]


def _clip(poly: list[g.Point], vals: list[float]) -> list[g.Point]:
    """Sutherland-Hodgman clip of ``poly`` by a half-plane: ``vals`` the signed value of each
    vertex (inside where >= 0)."""
    if not vals:
        return []
    if min(vals) >= 0:
        return poly  # wholly inside: every vertex kept, no crossing (read-only lists)
    if max(vals) < 0:
        return []
    out: list[g.Point] = []
    # each edge (a, b) with its vertices' values, the last closing the polygon
    for a, b, va, vb in zip(poly, poly[1:] + poly[:1], vals, vals[1:] + vals[:1]):
        inside = va >= 0
        if inside:
            out.append(a)
        if inside != (vb >= 0):
            t = va / (va - vb)
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
    return out


def _values(poly: list[g.Point], axis: int, kind: str, c: Any) -> list[float]:
    """Each vertex's signed value for one half-plane of :func:`edge_contact_lengths`:
    ``p[axis] + c`` (``add``), ``p[axis] - c`` (``sub``), ``c - p[axis]`` (``rsub``) or
    ``p[axis] + c[0] + c[1]`` (``add2``), evaluated in that order (the same floats every time)."""
    if kind == "sub":
        return [p[axis] - c for p in poly]
    if kind == "rsub":
        return [c - p[axis] for p in poly]
    if kind == "add":
        return [p[axis] + c for p in poly]
    c0, c1 = c
    return [p[axis] + c0 + c1 for p in poly]


def as_poly(s: g.Shape) -> list[g.Point]:
    if isinstance(s, g.Circle):
        return [(s.center[0] + s.radius_mm * math.cos(2 * math.pi * i / 24),
                 s.center[1] + s.radius_mm * math.sin(2 * math.pi * i / 24)) for i in range(24)]
    return list(s.points)


_MARGIN = 1e-6  # mm: far beyond the rounding of a clipped point (coordinates are table mm)


def _outside(facing: str, u0: float, u1: float, v0: float, v1: float, W: float, D: float, tol: float) -> bool:
    """True when a shape whose local box is ``u0..u1`` x ``v0..v1`` lies wholly (by more than
    :data:`_MARGIN`) outside one of the half-planes bounding ``facing``'s band in
    :func:`edge_contact_lengths`: clipping it by that half-plane leaves nothing, so the
    shape adds no length to that edge (the clips are skipped, the sum unchanged)."""
    m = _MARGIN
    if facing == "front":
        return v1 + tol < -m or v0 - tol > m or u1 + W / 2 < -m or u0 - W / 2 > m
    if facing == "rear":
        return v1 - (D - tol) < -m or v0 - (D + tol) > m or u1 + W / 2 < -m or u0 - W / 2 > m
    if facing == "left":
        return u1 + W / 2 + tol < -m or u0 - (-W / 2 + tol) > m or v1 < -m or v0 - D > m
    return u1 - (W / 2 - tol) < -m or u0 - (W / 2 + tol) > m or v1 < -m or v0 - D > m


def _bands(W: float, D: float, tol: float) -> tuple:
    """Each facing's band as :func:`edge_contact_lengths` clips it: ``(facing, cuts, axis)``,
    ``cuts`` the band's two half-planes then the edge's extent, each ``(axis, kind, constant)``
    as :func:`_values` reads it, ``axis`` the one the edge runs along."""
    return (("front", ((1, "add", tol), (1, "rsub", tol), (0, "sub", -W / 2), (0, "rsub", W / 2)), 0),
            ("right", ((0, "sub", W / 2 - tol), (0, "rsub", W / 2 + tol), (1, "sub", 0.0), (1, "rsub", D)), 1),
            ("rear", ((1, "sub", D - tol), (1, "rsub", D + tol), (0, "sub", -W / 2), (0, "rsub", W / 2)), 0),
            ("left", ((0, "add2", (W / 2, tol)), (0, "rsub", -W / 2 + tol), (1, "sub", 0.0), (1, "rsub", D)), 1))


def edge_contact_lengths(unit: Unit, other: Iterable[g.Shape], tol: float) -> dict[str, float]:
    """How much of each edge of ``unit``'s tray the shapes ``other`` touch (mm along the edge).

    A shape touches an edge where it lies within ``tol`` of the edge line, outside or on it,
    and within the edge's extent. Pure corner contact gives lengths near zero. (Each shape is
    clipped by each band's half-planes in turn, Sutherland-Hodgman, :func:`_clip` on the values
    of :func:`_values`, written out here: a half-plane holding every vertex keeps the polygon,
    one holding none empties it.)
    """
    W, D = unit.width_mm, unit.depth_mm
    out = dict.fromkeys(FACINGS, 0.0)
    bands = _bands(W, D, tol)
    # each edge: (facing, normal axis in local (u, v), band test, extent axis, lo, hi)
    (ox, oy), (rx, ry), (fx, fy) = unit.front, g.right(unit.facing_deg), g.forward(unit.facing_deg)
    for s in other:
        # g.to_local of each vertex (the same arithmetic; the frame's unit vectors worked out once)
        local = [((x - ox) * rx + (y - oy) * ry, -((x - ox) * fx + (y - oy) * fy)) for x, y in as_poly(s)]
        us, vs = [p[0] for p in local], [p[1] for p in local]
        u0, u1, v0, v1 = min(us), max(us), min(vs), max(vs)
        for facing, cuts, axis in bands:
            if _outside(facing, u0, u1, v0, v1, W, D, tol):
                continue  # every clip below would leave nothing: the length stays 0.0
            poly = local
            for ax, kind, c in cuts:
                if kind == "sub":
                    vals = [p[ax] - c for p in poly]
                elif kind == "rsub":
                    vals = [c - p[ax] for p in poly]
                elif kind == "add":
                    vals = [p[ax] + c for p in poly]
                else:
                    c0, c1 = c
                    vals = [p[ax] + c0 + c1 for p in poly]
                if min(vals) >= 0:
                    continue  # wholly inside: every vertex kept
                if max(vals) < 0:
                    poly = []
                    break
                poly = _clip(poly, vals)
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
    if not unit.is_ranked:
        return "front"
    lengths = edge_contact_lengths(unit, enemy_shapes, tol)
    best = max(FACINGS, key=lengths.__getitem__)
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
                     tol: float) -> list[Engagement]:
    """Every pair of enemy units whose boundaries touch, both ways round: ``Engagement(unit, enemy,
    facing)`` with the facing of ``unit`` that ``enemy`` is engaged with (see :func:`facing_of`).

    Candidate pairs come from a sort-and-sweep over the boundaries' boxes
    (:func:`game.core.contact.sweep_pairs`); each pair's answer is kept in a bounded cache by
    the two units' poses, so a drag recomputes only the dragged unit's pairs."""
    out: list[Engagement] = []
    ids = [i for i in units if models[i]]
    boxes = [g.bbox_of(bounds[i]) for i in ids]
    for i, j in contact.sweep_pairs(boxes, tol):
        a, b = ids[i], ids[j]
        ua, ub = units[a], units[b]
        if ua.player == ub.player:
            continue
        ka, kb = ua.pose_key(), ub.pose_key()
        own = models[a] is ua.models(ka) and models[b] is ub.models(kb)
        pair = pair_engagement(ua, bounds[a], ub, bounds[b], tol, cache=own, keys=(ka, kb))
        if pair is not None:
            out.extend(_engagement_pair(a, b, pair))
    return out


_PAIR_CACHE = LRU(4096)  # (pose of a, pose of b, tol) -> None | (facing of a, facing of b)


def pair_engagement(ua: Unit, ba: list[g.Shape], ub: Unit, bb: list[g.Shape], tol: float,
                    cache: bool = True, keys: Optional[tuple] = None) -> Optional[tuple[str, str]]:
    """None when the boundaries ``ba`` of ``ua`` and ``bb`` of ``ub`` do not touch, else (facing
    of ``ua`` engaged by ``ub``, facing of ``ub`` engaged by ``ua``). With ``cache`` (the
    boundaries are the units' own) the answer is kept by the units' poses (``keys``: the two
    :meth:`~game.core.board.Unit.pose_key`, when the caller has them)."""
    key = (keys or (ua.pose_key(), ub.pose_key())) + (tol,) if cache else None
    if key is not None:
        hit = _PAIR_CACHE.get(key, _PAIR_CACHE)
        if hit is not _PAIR_CACHE:
            return hit
    val = None
    if touching(ba, bb, tol):
        val = (facing_of(ua, bb, ub.center(), tol), facing_of(ub, ba, ua.center(), tol))
    if key is not None:
        _PAIR_CACHE.put(key, val)
    return val


def near(ms: list[Model], shapes: list[g.Shape], tol: float) -> list[Model]:
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



def combats(board: Board, tol: float) -> list[list[str]]:
    """Unit ids grouped into separate combats: units joined by base contact of their
    boundaries, directly or through other units (a lone unit is a combat of its own)."""
    return combats_and_engagements(board, tol)[0]


_ENG_PAIRS = LRU(4096)  # (unit a, unit b, facing of a, facing of b) -> the two Engagements (shared, frozen)


def _engagement_pair(a: str, b: str, facings: tuple[str, str]) -> tuple[Engagement, Engagement]:
    key = (a, b) + facings
    hit = _ENG_PAIRS.get(key)
    if hit is None:
        hit = _ENG_PAIRS.put(key, (Engagement(a, b, facings[0]), Engagement(b, a, facings[1])))
    return hit


def combats_and_engagements(board: Board, tol: float) -> tuple[list[list[str]], Optional[list[Engagement]]]:
    """(:func:`combats`, the board's :func:`find_engagements` found on the way) from one
    sort-and-sweep: the engagements are those :func:`find_engagements` gives on every unit
    with its own models and boundaries (same pairs, same order) when the board is one combat,
    else None (several combats, a unit with no model, two units with one id: the caller finds
    them itself)."""
    units = board.units
    parent = {u.id: u.id for u in units}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    bounds: list[tuple[Unit, list[g.Shape]]] = [(u, [u.tray()] if u.is_ranked else boundary(u, u.models()))
                                                for u in units]
    boxes = [g.bbox_of(shapes) for _, shapes in bounds]
    keys: dict[int, tuple] = {}  # unit index -> its pose key, each computed once

    def key(i: int) -> tuple:
        k = keys.get(i)
        if k is None:
            k = keys[i] = units[i].pose_key()
        return k

    found: list[tuple[str, str, tuple[str, str]]] = []  # (unit a, unit b, their facings) in sweep order
    for i, j in contact.sweep_pairs(boxes, tol):  # sort-and-sweep, not every pair
        (ua, sa), (ub, sb) = bounds[i], bounds[j]
        if ua.player == ub.player or g.bbox_gap(boxes[i], boxes[j]) > tol or not sa or not sb:
            continue
        pair = pair_engagement(ua, sa, ub, sb, tol, keys=(key(i), key(j)))
        if pair is not None:
            parent[root(ua.id)] = root(ub.id)
            found.append((ua.id, ub.id, pair))
    groups: dict[str, list[str]] = defaultdict(list)
    for u in units:
        groups[root(u.id)].append(u.id)
    # the engagements as find_engagements gives them: one combat, every unit in it (each has
    # models), ids unique (asked only of a board that is one combat)
    if len(groups) > 1 or not (len(parent) == len(units) and all(u.models() for u in units)):
        return list(groups.values()), None
    return list(groups.values()), [e for a, b, pair in found for e in _engagement_pair(a, b, pair)]



def units_box(units: list[Unit]) -> tuple[float, float, float, float]:
    return g.bbox_of([s for u in units for s in ([u.tray()] if u.is_ranked else [m.shape for m in u.models()])])


def model_contacts(models: dict[str, list[Model]], bounds: dict[str, list[g.Shape]], engs: Iterable[Engagement],
                   tol: float, units: Optional[dict[str, Unit]] = None) -> dict[str, set[str]]:
    """Base contact between the models of engaged units: ``{model id: {enemy model ids}}``
    (symmetric; corners count). With ``units`` the array kernel decides
    (:func:`game.core.contact.model_contacts`); without, only models near the other unit's
    boundary are tested one by one."""
    contacts: dict[str, set[str]] = defaultdict(set)
    for a, b in sorted({(e.unit, e.enemy) for e in engs}):
        if a > b:
            continue
        if units is not None:
            la, lb = models[a], models[b]
            for i, j in contact.model_contacts(units[a], la, units[b], lb, tol):
                contacts[la[i].id].add(lb[j].id)
                contacts[lb[j].id].add(la[i].id)
            continue
        near_a = near(models[a], bounds[b], tol)
        near_b = near(models[b], bounds[a], tol)
        for ma in near_a:
            ba = ma.shape.bbox()
            for mb in near_b:
                if g.bbox_gap(ba, mb.shape.bbox()) <= tol and g.within(ma.shape, mb.shape, tol):
                    contacts[ma.id].add(mb.id)
                    contacts[mb.id].add(ma.id)
    return contacts
