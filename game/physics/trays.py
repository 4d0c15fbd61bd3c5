"""Trays as pymunk bodies, so a dragged unit stops or slides against the others.

Pymunk is an input device here; the board stays the truth. Every ranked unit's movement tray
(and every skirmish model) is a body in a :class:`pymunk.Space` working in table millimetres
(x right, y down; a body's ``angle`` in radians equals the facing, clockwise on the page).
Bodies rest as ``KINEMATIC`` (immovable obstacles); the one being dragged turns ``DYNAMIC``
and follows a kinematic mouse body through a :class:`pymunk.PivotJoint` with a capped
``max_force`` and ``max_bias`` (the pymunk ``examples/constraints.py`` pattern), stepped at a
fixed ``1/60`` s. After every step the new pose is checked against the board geometry with
:func:`game.core.geometry.gap_mm`; a pose that would push a tray into another (pymunk has no
continuous collision, so a very fast drag could tunnel) is refused and the last good pose kept.
While the mouse stands still a step shorter than :data:`REST_MM` is undone (the body is put back
and stopped): a tray pressed into contact would otherwise creep micrometres a frame under the
contact solver (or inch along the other base by one cut back to flush a frame), and one closing
on the mouse would crawl ever shorter steps, each a new pose to analyse. It stops within three
times that of the mouse (each step closes a quarter of the distance left).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Optional, Sequence

import pymunk

from game.core import geometry as g
from game.core.board import Board, Unit, base_shape

Key = tuple[str, Optional[int]]  # (unit id, None) for a tray, (unit id, model index) for a skirmisher

STEP_S = 1.0 / 60.0
MAX_SPEED_MM_S = 1500.0   # fastest a dragged tray moves (also the joint's max_bias)
MAX_FORCE = 5.0e6          # pull of the mouse joint on a body of mass 1
OVERLAP_TOL_MM = 0.5       # overlap accepted after a step (pymunk's collision slop is 0.1 mm)
FLUSH_MM = 0.05            # a too-deep step is cut back to this overlap: flush, inside pymunk's slop
# a step shorter than this while the mouse stands still is no move: the body rests (twice the cut
# back to flush, so a body pressed into contact does not inch along it one cut-back step a frame)
REST_MM = 2 * FLUSH_MM
GROUP_DRAG = 1             # shape filter group of a dragged group: its bodies do not collide with each other
BBox = tuple[float, float, float, float]  # (x0, y0, x1, y1) mm


def body_keys(board: Board) -> list[Key]:
    """Keys of the bodies a board gives: one per ranked unit, one per skirmish model."""
    out: list[Key] = []
    for u in board.units:
        if u.is_ranked:
            out.append((u.id, None))
        else:
            out += [(u.id, i) for i in range(len(u.placed))]
    return out


def pose_of(unit: Unit, index: Optional[int] = None) -> tuple[g.Point, float]:
    """(position mm, facing degrees) of a unit's tray centre, or of skirmish model ``index``."""
    if unit.is_ranked or index is None:
        return unit.center(), unit.facing_deg
    return tuple(unit.placed[index][0]), unit.facing_deg


def with_position(unit: Unit, index: Optional[int], pos: g.Point) -> Unit:
    """``unit`` with its tray centre (or skirmish model ``index``) at ``pos`` mm: a new unit
    sharing every field the move leaves alone (cheap enough to make for a look only)."""
    c, _ = pose_of(unit, index)
    if unit.is_ranked or index is None:
        return unit.translated(pos[0] - c[0], pos[1] - c[1])
    placed = list(unit.placed)
    placed[index] = ((float(pos[0]), float(pos[1])), placed[index][1])
    return replace(unit, placed=placed)


def shapes_of(unit: Unit, index: Optional[int] = None) -> list[g.Shape]:
    """Board geometry of one body: the tray of a ranked unit, or skirmish model ``index``
    (``index`` None: every model of a skirmish unit)."""
    if unit.is_ranked:
        return [unit.tray()]
    ms = unit.models()
    return [ms[index].shape] if index is not None else [m.shape for m in ms]


def obstacles(board: Board, key: Key) -> list[tuple[BBox, g.Shape]]:
    """(bounding box, shape) of every body of the board but ``key``, in board order: what
    :func:`penetration_mm` tests body ``key`` against."""
    uid, idx = key
    out = []
    for other in board.units:
        if other.is_ranked or other.id != uid:
            if other.id == uid:
                continue
            theirs = shapes_of(other)
        else:  # the other models of my own skirmish unit
            theirs = [s for i, s in enumerate(shapes_of(other)) if i != idx]
        out += [(b.bbox(), b) for b in theirs]
    return out


def penetration_mm(board: Board, key: Key, unit: Optional[Unit] = None,
                   others: Optional[Sequence[tuple[BBox, g.Shape]]] = None) -> float:
    """Deepest overlap (mm, >= 0) between body ``key`` (posed as ``unit`` if given) and every
    other body of the board, from :func:`gap_mm`. ``others``: :func:`obstacles` of the board
    and key when the caller has them, or those of them near enough to matter (the bodies
    whose box is apart from every box the body can take are left out: they add nothing)."""
    uid, idx = key
    u = unit or board.unit(uid)
    mine = shapes_of(u, idx)
    worst = 0.0
    for a in mine:
        ba = a.bbox()
        for bb, b in (obstacles(board, key) if others is None else others):
            if g.bbox_gap(ba, bb) > 0:
                continue
            worst = max(worst, -g.gap_mm(a, b))
    return worst


def _near_path(others: Sequence[tuple[BBox, g.Shape]], shapes: Sequence[g.Shape],
               shift: g.Point) -> list[tuple[BBox, g.Shape]]:
    """The ``others`` whose box touches the box swept by ``shapes`` moved by any fraction of
    ``shift`` mm (the union of the boxes at both ends, grown by a micrometre for rounding):
    every body a pose between the two ends can overlap."""
    boxes = [s.bbox() for s in shapes]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    dx, dy = shift
    m = 1e-3
    box = (x0 + min(0.0, dx) - m, y0 + min(0.0, dy) - m, x1 + max(0.0, dx) + m, y1 + max(0.0, dy) + m)
    return [o for o in others if g.bbox_gap(box, o[0]) <= 0]


def clearance_mm(board: Board, key: Key, unit: Optional[Unit] = None, within_mm: float = math.inf) -> Optional[float]:
    """Smallest signed :func:`gap_mm` (negative: overlap) between body ``key`` (posed as
    ``unit`` if given) and every other body whose bounding box lies within ``within_mm``;
    None when no body is that close."""
    uid, idx = key
    u = unit or board.unit(uid)
    mine = shapes_of(u, idx)
    best: Optional[float] = None
    for other in board.units:
        if other.id != uid:
            theirs = shapes_of(other)
        elif other.is_ranked:
            continue
        else:  # the other models of my own skirmish unit
            theirs = [sh for i, sh in enumerate(shapes_of(other)) if i != idx]
        for a in mine:
            ba = a.bbox()
            for b in theirs:
                if g.bbox_gap(ba, b.bbox()) > within_mm:
                    continue
                gap = g.gap_mm(a, b)
                if best is None or gap < best:
                    best = gap
    return best


def _contact_lines(board: Board, key: Key, unit: Unit, within_mm: float) -> list[g.Point]:
    """Unit vectors along which body ``key`` (posed as ``unit``) may meet, or leave, the
    nearest other body: the line between their nearest points, the line between circle
    centres, and the edge normals of polygons (a separating axis of the deepest overlap)."""
    uid, idx = key
    mine = shapes_of(unit, idx)
    best, pair = math.inf, None
    for other in board.units:
        if other.id == uid and other.is_ranked:
            continue
        theirs = [sh for i, sh in enumerate(shapes_of(other)) if other.id != uid or i != idx]
        for a in mine:
            for b in theirs:
                if g.bbox_gap(a.bbox(), b.bbox()) > within_mm:
                    continue
                gap = g.gap_mm(a, b)
                if gap < best:
                    best, pair = gap, (a, b)
    if pair is None:
        return []
    a, b = pair
    lines: list[g.Point] = []
    if best > 0:
        lines.append(g.sub(*reversed(g.closest_points(a, b))))
    if isinstance(a, g.Circle) and isinstance(b, g.Circle):
        lines.append(g.sub(b.center, a.center))
    elif isinstance(a, g.Circle) or isinstance(b, g.Circle):
        circ, poly = (a, b) if isinstance(a, g.Circle) else (b, a)
        lines.append(g.sub(g.closest_points(poly, g.Circle(circ.center, 0.0))[0], circ.center))
    for sh in (a, b):
        if isinstance(sh, g.Poly):
            pts = sh.points
            lines += [(pts[i][1] - pts[(i + 1) % len(pts)][1], pts[(i + 1) % len(pts)][0] - pts[i][0])
                      for i in range(len(pts))]
    out = []
    for v in lines:
        n = math.hypot(*v)
        if n > 1e-9:
            out.append((v[0] / n, v[1] / n))
    return out


def snap_to_contact(board: Board, key: Key, directions: Sequence[Optional[g.Point]], max_mm: float = 0.5,
                    tol_mm: float = 1e-6) -> Optional[Unit]:
    """Body ``key`` moved into exact base contact when it stands within ``max_mm`` of it (a
    gap, or an overlap no deeper than that), or None when it is not that close, already
    flush, or cannot be made flush.

    The body moves along the line of the first of ``directions`` that works (for a drag: its
    last step, then its whole displacement), closing a gap or backing out of an overlap. Each
    step moves by the current smallest gap, which can never push it into any body (a gap
    changes no faster than the body moves), so the steps close in on contact from one side.
    When every direction runs (nearly) along the contact, the shortest of the contact lines
    of the nearest pair (nearest points, centres, edge normals) is used instead. The result
    touches within ``tol_mm`` and overlaps nothing by more."""
    return _snap(_near(board, key, max_mm + 1.0 + 2 * max_mm), key, directions, max_mm, tol_mm)


def _near(board: Board, key: Key, reach_mm: float) -> Board:
    """``board`` with only the units that could come within ``reach_mm`` of body ``key`` (its
    own unit always kept): those whose bounding box lies within ``reach_mm`` (plus 1 mm to
    spare) of the body's. A body moved by at most d mm changes every bounding-box gap by at
    most d, so a search that moves it no further than ``reach_mm`` less the distance it checks
    finds the same gaps on this board as on the whole one (:func:`snap_to_contact` moves a
    body at most ``2 * max_mm`` and checks within ``max_mm + 1``)."""
    uid, idx = key
    mine = shapes_of(board.unit(uid), idx)
    if not mine:
        return board
    box = g.bbox_of(mine)
    keep = []
    for other in board.units:
        theirs = shapes_of(other) if other.id != uid else []
        if other.id == uid or (theirs and g.bbox_gap(box, g.bbox_of(theirs)) <= reach_mm + 1.0):
            keep.append(other)
    return board.with_units(keep)


def _snap(board: Board, key: Key, directions: Sequence[Optional[g.Point]], max_mm: float,
          tol_mm: float) -> Optional[Unit]:
    uid, idx = key
    u = board.unit(uid)
    gap0 = clearance_mm(board, key, u, max_mm + 1.0)
    if gap0 is None or abs(gap0) <= tol_mm or abs(gap0) > max_mm:
        return None
    c, _ = pose_of(u, idx)

    def along(d: g.Point) -> Optional[tuple[float, g.Point]]:
        t, gap = 0.0, gap0
        for _ in range(60):
            t += gap
            if abs(t) > 2 * max_mm:
                return None
            pos = (c[0] + d[0] * t, c[1] + d[1] * t)
            got = clearance_mm(board, key, with_position(u, idx, pos), max_mm + 1.0)
            if got is None:
                return None
            gap = got
            if abs(gap) <= tol_mm:
                return abs(t), pos
        return None

    for direction in directions:
        if direction is not None and math.hypot(*direction) > 1e-9:
            n = math.hypot(*direction)
            # either way along the line: the last step of a drag may be the contact solver
            # pushing the body back out rather than the user pushing it in
            for sign in (1.0, -1.0):
                r = along((sign * direction[0] / n, sign * direction[1] / n))
                if r is not None:
                    return with_position(u, idx, r[1])
    tries = [r for d in _contact_lines(board, key, u, max_mm + 1.0) for sd in (d, (-d[0], -d[1]))
             if (r := along(sd)) is not None]
    return with_position(u, idx, min(tries, key=lambda r: r[0])[1]) if tries else None


@dataclass
class DragState:
    key: Key
    joint: pymunk.PivotJoint
    good_pos: g.Point
    start_pos: g.Point
    start_pen: float
    together: tuple = ()
    mouse_mm: Optional[g.Point] = None  # where the mouse was at the last step


class TraySpace:
    """A pymunk space mirroring a board's trays and skirmish models.

    ``sync(board)`` (re)builds bodies to match the board; ``start_drag`` / ``drag_to`` /
    ``end_drag`` move one body with the mouse and return the board pose to write back.
    """

    def __init__(self, board: Board):
        self.space = pymunk.Space()
        self.space.gravity = (0.0, 0.0)
        self.space.damping = 0.05  # keep only 5% of the velocity per second: no coasting
        # overlaps are prevented by the gap check below, so pymunk need not push bodies apart;
        # its default fast correction would bounce a tray cut back to flush 2 mm off again
        self.space.collision_bias = (1.0 - 0.002) ** 60
        self.mouse = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        self.space.add(self.mouse)
        self.bodies: dict[Key, pymunk.Body] = {}
        self.signature: dict[Key, tuple] = {}
        self.drag: Optional[DragState] = None
        self.sync(board)

    # -- building ------------------------------------------------------------------------
    @staticmethod
    def _sig(unit: Unit, idx: Optional[int]) -> tuple:
        if unit.is_ranked:
            return ("tray", unit.width_mm, unit.depth_mm)
        assert idx is not None  # a skirmish unit's body is one of its models
        return ("model", repr(unit.placed[idx][1] if unit.placed[idx][1] is not None else unit.base))

    def _make(self, unit: Unit, idx: Optional[int]) -> pymunk.Body:
        body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        shape: pymunk.Shape
        if unit.is_ranked:
            w, d = unit.width_mm, unit.depth_mm
            shape = pymunk.Poly(body, [(-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2)])
        else:
            assert idx is not None  # a skirmish unit's body is one of its models
            base = unit.placed[idx][1] if unit.placed[idx][1] is not None else unit.base
            local = base_shape(base, (0.0, 0.0), 0.0)
            shape = (pymunk.Circle(body, local.radius_mm) if isinstance(local, g.Circle)
                     else pymunk.Poly(body, list(local.points)))
        shape.friction = 0.0
        shape.elasticity = 0.0
        self.space.add(body, shape)
        return body

    def sync(self, board: Board) -> None:
        """Match bodies to ``board``: create/remove bodies, set every pose (ends any drag)."""
        if self.drag is not None:
            self.end_drag()
        keys = body_keys(board)
        for k in list(self.bodies):
            u = next((x for x in board.units if x.id == k[0]), None)
            if k not in keys or u is None or self.signature.get(k) != self._sig(u, k[1]):
                b = self.bodies.pop(k)
                self.space.remove(b, *b.shapes)
                self.signature.pop(k, None)
        for k in keys:
            u = board.unit(k[0])
            if k not in self.bodies:
                self.bodies[k] = self._make(u, k[1])
                self.signature[k] = self._sig(u, k[1])
            pos, facing = pose_of(u, k[1])
            b = self.bodies[k]
            b.position = pos
            b.angle = math.radians(facing)
            b.velocity = (0.0, 0.0)
            self.space.reindex_shapes_for_body(b)

    # -- dragging ------------------------------------------------------------------------
    def start_drag(self, board: Board, key: Key, grab_mm: g.Point, together: Sequence[Key] = ()) -> None:
        """Start dragging body ``key`` by table point ``grab_mm``. ``together``: the bodies of
        the units dragged with it (a group): they do not collide with it while it is dragged
        (the caller keeps the group rigid and checks the followers against the rest)."""
        self.end_drag()
        body = self.bodies[key]
        group = [k for k in together if k in self.bodies and k != key]
        if group:
            for k in [key] + group:
                for sh in self.bodies[k].shapes:
                    sh.filter = pymunk.ShapeFilter(group=GROUP_DRAG)
        body.body_type = pymunk.Body.DYNAMIC
        body.mass = 1.0
        body.moment = float("inf")  # drags never turn a tray; turning is a separate command
        body.velocity = (0.0, 0.0)
        self.mouse.position = grab_mm
        joint = pymunk.PivotJoint(self.mouse, body, (0.0, 0.0), body.world_to_local(grab_mm))
        joint.max_force = MAX_FORCE
        joint.max_bias = MAX_SPEED_MM_S
        joint.error_bias = (1.0 - 0.25) ** 60
        self.space.add(joint)
        pos = (float(body.position.x), float(body.position.y))
        self.drag = DragState(key, joint, pos, pos, penetration_mm(board, key), tuple(group))

    def drag_to(self, board: Board, mouse_mm: g.Point, steps: int = 1) -> Optional[g.Point]:
        """Move the mouse body to ``mouse_mm``, step the space ``steps`` times by 1/60 s, and
        return the dragged body's new position (mm) when it changed, else None. A pose that
        overlaps another body by more than the tolerance is refused (last good pose kept)."""
        if self.drag is None:
            return None
        d = self.drag
        assert d is not None
        body = self.bodies[d.key]
        still = d.mouse_mm is not None and g.dist(mouse_mm, d.mouse_mm) < 1e-9
        d.mouse_mm = (float(mouse_mm[0]), float(mouse_mm[1]))
        self.mouse.position = mouse_mm
        moved = None
        for _ in range(max(1, steps)):
            self.space.step(STEP_S)
            v = body.velocity
            sp = math.hypot(v.x, v.y)
            if sp > MAX_SPEED_MM_S:
                body.velocity = (v.x * MAX_SPEED_MM_S / sp, v.y * MAX_SPEED_MM_S / sp)
            pos = (float(body.position.x), float(body.position.y))
            if still and g.dist(pos, d.good_pos) < REST_MM:  # at rest: no creep
                # where the hand holds it, if that is free (a tray closing on the mouse ends there,
                # not short of it); else put back where it was (one pressed into contact)
                held = self._held_pose(board, body, mouse_mm)
                body.position = held if held is not None else d.good_pos
                body.velocity = (0.0, 0.0)
                self.space.reindex_shapes_for_body(body)
                if held is not None and g.dist(held, d.good_pos) >= 1e-4:
                    d.good_pos = moved = held
                continue
            if g.dist(pos, d.good_pos) < 1e-4:
                continue
            unit = board.unit(d.key[0])
            limit = max(OVERLAP_TOL_MM, d.start_pen + 1e-6)
            # every pose tried below lies between the last good one and this step's: the bodies
            # near that path, found once
            start = with_position(unit, d.key[1], d.good_pos)
            near = _near_path(obstacles(board, d.key), shapes_of(start, d.key[1]),
                              (pos[0] - d.good_pos[0], pos[1] - d.good_pos[1]))
            pen = penetration_mm(board, d.key, with_position(unit, d.key[1], pos), near)
            if pen > limit:
                # the step went too deep (fast drag): keep its farthest point that is still flush
                # (within pymunk's slop, so the contact solver does not bounce it back out)
                limit = max(FLUSH_MM, d.start_pen + 1e-6)
                lo, hi = 0.0, 1.0
                for _ in range(16):
                    mid = (lo + hi) / 2
                    q = (d.good_pos[0] + (pos[0] - d.good_pos[0]) * mid, d.good_pos[1] + (pos[1] - d.good_pos[1]) * mid)
                    if penetration_mm(board, d.key, with_position(unit, d.key[1], q), near) <= limit:
                        lo = mid
                    else:
                        hi = mid
                pos = (d.good_pos[0] + (pos[0] - d.good_pos[0]) * lo, d.good_pos[1] + (pos[1] - d.good_pos[1]) * lo)
                pen = penetration_mm(board, d.key, with_position(unit, d.key[1], pos), near)
                body.position = pos
                body.velocity = (0.0, 0.0)
                self.space.reindex_shapes_for_body(body)
                if g.dist(pos, d.good_pos) < 1e-4:
                    continue
            d.good_pos = pos
            d.start_pen = min(d.start_pen, pen)  # escaping an overlap is allowed, deepening it is not
            moved = pos
        return moved

    def _held_pose(self, board: Board, body: pymunk.Body, mouse_mm: g.Point) -> Optional[g.Point]:
        """The dragged body's position (mm) with its grab point under the mouse at ``mouse_mm``,
        when that pose overlaps nothing deeper than the drag already did; else None."""
        d = self.drag
        assert d is not None
        grab = body.local_to_world(d.joint.anchor_b)
        at = (float(mouse_mm[0] - (grab.x - body.position.x)), float(mouse_mm[1] - (grab.y - body.position.y)))
        if g.dist(at, d.good_pos) > 4 * REST_MM:  # the hand is farther: the joint pulls it there
            return None
        unit = with_position(board.unit(d.key[0]), d.key[1], at)
        pen = penetration_mm(board, d.key, unit)
        return at if pen <= max(FLUSH_MM, d.start_pen + 1e-6) else None

    def hold(self, pos: g.Point) -> None:
        """Put the dragged body at ``pos`` (mm), at rest: a group drag cut back because a unit
        following it would overlap another; the drag goes on from there."""
        if self.drag is None:
            return
        body = self.bodies[self.drag.key]
        body.position = pos
        body.velocity = (0.0, 0.0)
        self.space.reindex_shapes_for_body(body)
        self.drag.good_pos = (float(pos[0]), float(pos[1]))

    def end_drag(self) -> Optional[Key]:
        """Stop dragging; the body becomes an immovable obstacle again. Returns its key."""
        if self.drag is None:
            return None
        d = self.drag
        for k in (d.key,) + d.together if d.together else ():
            for sh in self.bodies[k].shapes if k in self.bodies else ():
                sh.filter = pymunk.ShapeFilter()
        self.space.remove(d.joint)
        body = self.bodies.get(d.key)
        if body is not None:
            body.velocity = (0.0, 0.0)
            body.body_type = pymunk.Body.KINEMATIC
            body.position = d.good_pos
            self.space.reindex_shapes_for_body(body)
        self.drag = None
        return d.key
