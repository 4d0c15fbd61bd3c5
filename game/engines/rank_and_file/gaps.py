"""Gap geometry of the rank-and-file engine: incomplete ranks and extended bases.

* :func:`shuffle_incomplete_rank`: whfb8 "Incomplete Ranks": the last rank moves to the end
  of the unit facing an engaged flank.
* :func:`gaps_incomplete_rank`: enemies facing an empty slot of an incomplete rank fight the
  nearest model inward across the gap.
* :func:`gaps_extend`: t9a "Fighting over Gaps": bases extended along the engaged facing
  (no distance limit; they stop at the first enemy model touched, terrain, another unit's
  boundary or a friendly model).

Pure geometry (table mm); the policies in :mod:`game.engines.rank_and_file.policies` choose
which applies and name the rules in the explanations.
"""
from __future__ import annotations

import math

from game.core import geometry as g
from game.core.board import Board, Unit
from game.core.unit_models import Model
from game.core.engagement import Engagement, as_poly, boundary, facing_dir
from game.core import closing
from game.core.work import doing
from game.engines.rank_and_file.gap_index import EnemyAhead


def shuffle_incomplete_rank(unit: Unit, side: str) -> dict[tuple[int, int], tuple[int, int]]:
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



def gaps_incomplete_rank(units: dict[str, Unit], models: dict[str, list[Model]], engs: list[Engagement],
                          tol: float) -> set[frozenset]:
    """whfb8 Incomplete Ranks: a unit fighting to its rear, or to both flanks, is fought across
    the gaps of its incomplete rank. An enemy model facing an empty slot on that edge (touching
    the slot's outer edge along more than the tolerance) fights the nearest model inward in
    the same file (rear) or rank (flanks), and that model fights it."""
    links: set[frozenset] = set()
    engaged: dict[str, list[Engagement]] = {}
    for e in engs:
        engaged.setdefault(e.unit, []).append(e)
    for uid, u in units.items():
        if not u.is_ranked:
            continue
        fs = {e.facing for e in engaged.get(uid, ())}
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
            enemies = [e.enemy for e in engaged[uid] if e.facing == edge]
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
    local = [g.to_local(p, u.front, u.facing_deg) for p in as_poly(shape)]
    if edge in ("rear", "front"):
        vals = [p[0] for p in local]
    else:
        vals = [p[1] for p in local]
    lo, hi = (lo_u, hi_u) if edge in ("rear", "front") else (lo_v, hi_v)
    return min(max(vals), hi) - max(min(vals), lo)


def _extended(m: Model, u: Unit, direction: g.Point, length: float, pts: list[g.Point] | None = None) -> g.Poly:
    """Model ``m``'s base stretched ``length`` mm along ``direction`` (a swept outline);
    ``pts`` its outline when already made (``as_poly(m.shape)``)."""
    pts = as_poly(m.shape) if pts is None else pts
    moved = [(p[0] + direction[0] * length, p[1] + direction[1] * length) for p in pts]
    return g.Poly(tuple(g.convex_hull(pts + moved)))



def _ray_capsule(px: float, py: float, dx: float, dy: float, a: g.Point, b: g.Point, r: float) -> float:
    """Smallest ``s >= 0`` at which the point ``(px, py) + s * (dx, dy)`` (``d`` a unit vector)
    comes within ``r`` of the segment ``ab``; ``inf`` if it never does."""
    ax, ay = a
    bx, by = b
    ex, ey = bx - ax, by - ay
    seg = math.hypot(ex, ey)
    best = math.inf
    for cx, cy in ((ax, ay), (bx, by)):  # the round ends
        fx, fy = px - cx, py - cy
        bb = fx * dx + fy * dy
        c = fx * fx + fy * fy - r * r
        if c <= 0:
            return 0.0
        disc = bb * bb - c
        if disc >= 0:
            t = -bb - math.sqrt(disc)
            if 0 <= t < best:
                best = t
    if seg > 0:
        ux, uy = ex / seg, ey / seg
        nx, ny = -uy, ux
        h0 = (px - ax) * nx + (py - ay) * ny
        hv = dx * nx + dy * ny
        along0 = (px - ax) * ux + (py - ay) * uy
        av = dx * ux + dy * uy
        if abs(h0) <= r and 0 <= along0 <= seg:
            return 0.0
        if hv != 0:
            for side in (r, -r):
                t = (side - h0) / hv
                if 0 <= t < best and 0 <= along0 + t * av <= seg:
                    best = t
    return best


def first_reach(pts: list, d: g.Point, other: g.Shape, r: float) -> float:
    """Smallest ``s >= 0`` at which the convex polygon ``pts`` moved ``s`` mm along the unit
    vector ``d`` comes within ``r`` mm of ``other`` (edge to edge): the closest points of two
    convex shapes are a vertex of one and an edge of the other, so it is the first time a
    vertex of either comes within ``r`` of an edge of the other (relative motion), found in
    closed form; ``inf`` if never."""
    dx, dy = d
    best = math.inf
    n = len(pts)
    if isinstance(other, g.Circle):
        (cx, cy), rr = other.center, other.radius_mm + r
        if g.point_in_poly(other.center, pts):
            return 0.0
        for i in range(n):
            best = min(best, _ray_capsule(cx, cy, -dx, -dy, pts[i], pts[(i + 1) % n], rr))
        return best
    q = other.points
    m = len(q)
    for (x, y) in pts:
        for j in range(m):
            best = min(best, _ray_capsule(x, y, dx, dy, q[j], q[(j + 1) % m], r))
    for (x, y) in q:
        for i in range(n):
            best = min(best, _ray_capsule(x, y, -dx, -dy, pts[i], pts[(i + 1) % n], r))
    return best


def gaps_extend(board: Board, units: dict[str, Unit], models: dict[str, list[Model]], engs: list[Engagement],
                 tol: float) -> set[frozenset]:
    """t9a Fighting over Gaps: extend each model's base along the facing its unit is engaged
    in; an enemy model of that engaged unit reached this way is in contact. The text sets no
    distance limit: the extension runs through the unit's own empty slots and past its
    boundary, and stops only at impassable terrain, another unit's boundary (the engaged
    enemy's too, so it meets the enemy at its engaged facing, never a model behind a gap in the
    enemy's ranks) or a friendly model."""
    with doing("the gap search (Fighting over Gaps)", "the table is too entangled for the gap search"):
        return _gaps_extend(board, units, models, engs, tol)


def _gaps_extend(board: Board, units: dict[str, Unit], models: dict[str, list[Model]], engs: list[Engagement],
                 tol: float) -> set[frozenset]:
    """:func:`gaps_extend` without the progress note: engagement by engagement."""
    search = _GapSearch(board, units, models, tol)
    for e in engs:
        search.engagement(e)
    return search.links


_STEP = {"front": (-1, 0), "rear": (1, 0), "left": (0, -1), "right": (0, 1)}  # (rank, file) towards a facing


class _GapSearch:
    """The state of one Fighting over Gaps search over a board: the pairs linked so far
    (``links``, frozensets of two model ids), every unit's boundary (a grid of them), the
    terrain, each unit's models in a grid, and each model's outline (made once; as_poly of a
    round base is 24 points). Lengths in table mm; ``tol`` the contact tolerance."""

    def __init__(self, board: Board, units: dict[str, Unit], models: dict[str, list[Model]], tol: float):
        self.units, self.models, self.tol = units, models, tol
        self.links: set[frozenset] = set()
        bounds = {uid: boundary(units[uid], models[uid]) for uid in units}
        self.terrain = [g.Poly(tuple(tuple(p) for p in t["points"])) for t in board.terrain]
        self.model_grids: dict[str, _Grid] = {}
        self.bound_grid = _Grid([(uid, sh) for uid, shapes in bounds.items() for sh in shapes], 50.0)
        self.polys: dict[str, list[g.Point]] = {}

    def outline(self, m: Model) -> list[g.Point]:
        """The outline of ``m``'s base as points (made once per model)."""
        pts = self.polys.get(m.id)
        if pts is None:
            pts = self.polys[m.id] = as_poly(m.shape)
        return pts

    def engagement(self, e: Engagement) -> None:
        """Link each model of ``e.unit`` whose facing towards the enemy is not covered by a
        friendly model to the enemy models its extended base reaches first, unblocked."""
        u = self.units[e.unit]
        d = facing_dir(u, e.facing)
        occupied = {(m.rank, m.file) for m in self.models[e.unit]} if u.is_ranked else set()
        step = _STEP[e.facing]
        movers = [m for m in self.models[e.unit]
                  if not (m.rank is not None and m.file is not None and (m.rank + step[0], m.file + step[1]) in occupied)]
        if not movers:
            return  # every model's facing towards the enemy is covered by a friendly model
        enemies = self.models[e.enemy]
        ranked_enemy = self.units[e.enemy].is_ranked
        # the enemy bases indexed along d: each model looks only at those it can meet face to face
        index = EnemyAhead([em.shape for em in enemies], [self.outline(em) for em in enemies], d, self.tol)
        # no distance limit: the extension runs until it meets the enemy's boundary (a ranked
        # enemy's tray; going further would cross it), or past every enemy base
        fars = [] if ranked_enemy else index.far_from([m.center for m in movers])
        for k, m in enumerate(movers):
            pts = self.outline(m)
            if ranked_enemy:
                hit = closing.sweep_mm([pts], [list(self.units[e.enemy].tray().points)], d)
                if hit is None:
                    continue
                length = hit + 2 * self.tol
            else:
                half = max(g.dot(g.sub(p, m.center), d) for p in pts)
                length = max(0.0, fars[k] - half)
            self.link_first(m, e, d, self.reaches(m, u, d, length, pts, index, enemies))

    def reaches(self, m: Model, u: Unit, d: g.Point, length: float, pts: list[g.Point], index: EnemyAhead,
                enemies: list[Model]) -> list[tuple[int, float, Model]]:
        """(enemy index, shortest extension in mm reaching it, enemy model) for each enemy
        base ``m`` extended up to ``length`` mm along ``d`` meets face to face, in the enemy
        unit's order. Nearest first; a base whose reach cannot come within tol of the shortest
        found is never linked, and nor is any after it."""
        tol = self.tol
        side = (-d[1], d[0])
        mine = [g.dot(p, side) for p in pts]
        along = [g.dot(p, d) for p in pts]
        full: g.Poly | None = None
        fb = (0.0, 0.0, 0.0, 0.0)
        own: g.Poly | None = None  # the base itself as the search's outline (extension 0)
        reach = []
        best = math.inf
        for bound, j in index.ahead((min(mine), max(mine)), (min(along), max(along)), length):
            if bound > best + tol:
                break
            em = enemies[j]
            if full is None:
                full = _extended(m, u, d, length, pts)
                fb = full.bbox()
            if g.bbox_gap(fb, em.shape.bbox()) > tol or g.gap_mm(full, em.shape) > tol:
                continue
            theirs = [g.dot(p, side) for p in self.outline(em)]
            # face to face: the extended base must overlap the enemy base sideways, not
            # meet it only at a corner (a diagonal is not "along the facing")
            if min(max(mine), max(theirs)) - max(min(mine), min(theirs)) <= tol:
                continue
            if own is None:
                own = _extended(m, u, d, 0.0, pts)
            hi = _shortest_extension(own, pts, d, em, length, tol)
            reach.append((j, hi, em))
            best = min(best, hi)
        reach.sort(key=lambda r: r[0])  # the enemy unit's order, as every base was once tried
        return reach

    def link_first(self, m: Model, e: Engagement, d: g.Point, reach: list[tuple[int, float, Model]]) -> None:
        """Link ``m`` to the enemy models its extended base touches first (it cannot go on
        past the enemy's boundary: a slanted enemy's next model, further on, is not in
        contact), unless the extension to it is blocked."""
        u, tol = self.units[e.unit], self.tol
        first = min((h for _, h, _ in reach), default=0.0)
        for _, hi, em in reach:
            if hi > first + tol:
                continue
            pair = frozenset((m.id, em.id))
            if pair in self.links:
                continue  # linked already (through another engagement): nothing to add
            if not self.blocked(_extended(m, u, d, max(0.0, hi - tol), self.outline(m)), e.unit, m.id):
                self.links.add(pair)

    def blocked(self, ext: g.Poly, uid: str, mid: str) -> bool:
        """Whether the extended base ``ext`` of model ``mid`` of unit ``uid`` crosses another
        unit's boundary, a friendly model or impassable terrain. Only shapes whose boxes meet
        the extension's box can block it (grid look-ups); another unit's boundary first: on an
        entangled board it blocks most extensions, and the friendly models beside this one
        touch it without blocking (the order of these tests does not change the answer)."""
        eb, tol = ext.bbox(), self.tol

        def overlaps(shape: g.Shape, by: float) -> bool:
            return g.bbox_gap(eb, shape.bbox()) <= 0 and g.gap_mm(ext, shape) < by

        if any(oid != uid and overlaps(sh, -tol) for oid, sh in self.bound_grid.near(eb)):
            return True
        grid = self.model_grids.get(uid)
        if grid is None:
            grid = self.model_grids[uid] = _Grid([(fm.id, fm.shape) for fm in self.models[uid]], 50.0)
        if any(fid != mid and overlaps(sh, -tol) for fid, sh in grid.near(eb)):
            return True
        return any(overlaps(t, 0.0) for t in self.terrain)


def _shortest_extension(own: g.Poly, pts: list[g.Point], d: g.Point, em: Model, length: float, tol: float) -> float:
    """The shortest extension (mm) of the base ``own`` (outline ``pts``) along ``d`` reaching
    the enemy model ``em``, as a 16-step bisection of [0, ``length``] finds it. When the bases
    already meet every step succeeds, so it ends at exactly length / 2**16; else the extension
    reaches it from ``t_reach`` on, and the 16 halvings replayed on that number give the
    search's own end, without 16 hulls and gaps."""
    lo, hi = 0.0, length
    touching = g.gap_mm(own, em.shape) <= tol
    if touching:
        return length / 65536.0
    t_reach = first_reach(pts, d, em.shape, tol)
    for _ in range(16):
        mid = (lo + hi) / 2
        if mid >= t_reach:
            hi = mid
        else:
            lo = mid
    return hi


class _Grid:
    """Shapes bucketed by bounding box in square cells of ``cell_mm``: :meth:`near` gives each
    ``(key, shape)`` whose box may meet a box, once (a superset; callers test exactly)."""

    def __init__(self, items: list, cell_mm: float):
        self.cell = max(float(cell_mm), 1.0)
        self.items = items
        self.cells: dict[tuple[int, int], list[int]] = {}
        for i, (_, sh) in enumerate(items):
            for c in self._cells(sh.bbox()):
                self.cells.setdefault(c, []).append(i)

    def _cells(self, bb: tuple) -> list:
        k = self.cell
        x0, y0, x1, y1 = (math.floor(bb[0] / k), math.floor(bb[1] / k), math.floor(bb[2] / k), math.floor(bb[3] / k))
        if (x1 - x0 + 1) * (y1 - y0 + 1) > 4096:  # a huge shape: one bucket for all of them
            return [("big", 0)]
        return [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]

    def near(self, bb: tuple):
        seen: set[int] = set()
        for c in self._cells(bb) + [("big", 0)]:
            for i in self.cells.get(c, ()):
                if i not in seen:
                    seen.add(i)
                    yield self.items[i]
