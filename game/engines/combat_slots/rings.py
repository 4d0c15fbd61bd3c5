"""Combat slots around a model (ruleset ``slots``; see :mod:`.engine` for the rule): the ring
of regular slots around each base, the slots a friendly model blocks, the places a large model
takes (two neighbouring slots, on one model or across two side by side) and where a place is
drawn. Table mm; pure (stdlib and ``game.core``)."""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from game.core import geometry as g
from game.core.unit_models import Model

SIDES = ("front", "right", "rear", "left")


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
