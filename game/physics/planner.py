"""Collision-free move paths with pymunk (the pile-in / consolidation path device).

The pure rules core (:mod:`game.core.rules.wh40k`) decides *where* a model should end its
move; this module finds *how* it gets there without passing through other bases. Each
mover is simulated as a dynamic body in a :class:`pymunk.Space` whose other bases (and
impassable terrain) are static shapes. Every fixed step the mover's velocity is set
straight at its goal; contacts remove the component into an obstacle, so the body slides
around bases. The recorded centre positions, simplified, are the path.

Lengths are table millimetres (x right, y down). The rules core re-checks every returned
end position (3" limit, no overlap, closer), so this module only promises best effort.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

import pymunk

from game.core import geometry as g

Point = tuple[float, float]
_DT = 1.0 / 60.0


def _static_shape(space: pymunk.Space, shape: g.Shape) -> pymunk.Shape:
    if isinstance(shape, g.Circle):
        s = pymunk.Circle(space.static_body, shape.radius_mm, offset=shape.center)
    else:
        s = pymunk.Poly(space.static_body, list(shape.points))
    s.friction = 0.0
    s.elasticity = 0.0
    space.add(s)
    return s


def _mover_body(space: pymunk.Space, shape: g.Shape, clearance_mm: float) -> pymunk.Body:
    body = pymunk.Body(1.0, float("inf"))  # never rotates: bases keep their facing
    cx, cy = shape.center
    body.position = (cx, cy)
    if isinstance(shape, g.Circle):
        s = pymunk.Circle(body, shape.radius_mm + clearance_mm)
    else:
        s = pymunk.Poly(body, [(x - cx, y - cy) for x, y in shape.points], radius=clearance_mm)
    s.friction = 0.0
    s.elasticity = 0.0
    space.add(body, s)
    return body


def _push_out(space: pymunk.Space, body: pymunk.Body, rounds: int = 6) -> None:
    """Project the mover out of any base it sank into (pymunk's contacts are soft: a body
    steered into a static shape every step slowly penetrates it). Uses pymunk's own shape
    query: each contact's normal and depth say how far to push back."""
    (shape,) = body.shapes
    for _ in range(rounds):
        worst = None
        for hit in space.shape_query(shape):
            cps = hit.contact_point_set
            for pt in cps.points:
                if pt.distance < 0 and (worst is None or pt.distance < worst[1]):
                    worst = (cps.normal, pt.distance)
        if worst is None:
            return
        n, depth = worst
        body.position = body.position + n * depth
        space.reindex_shapes_for_body(body)


def _moved(shape: g.Shape, center: Point) -> g.Shape:
    if isinstance(shape, g.Circle):
        return g.Circle(center, shape.radius_mm)
    dx, dy = center[0] - shape.center[0], center[1] - shape.center[1]
    return g.Poly(tuple((x + dx, y + dy) for x, y in shape.points))


def simplify(points: Sequence[Point], tol_mm: float) -> list[Point]:
    """Ramer-Douglas-Peucker: drop points closer than ``tol_mm`` to the chord; ends kept."""
    pts = list(points)
    if len(pts) <= 2:
        return pts
    a, b = pts[0], pts[-1]
    ab = (b[0] - a[0], b[1] - a[1])
    L = math.hypot(*ab)
    best, idx = -1.0, 0
    for i in range(1, len(pts) - 1):
        p = pts[i]
        if L == 0:
            d = math.dist(p, a)
        else:
            d = abs(ab[0] * (p[1] - a[1]) - ab[1] * (p[0] - a[0])) / L
        if d > best:
            best, idx = d, i
    if best <= tol_mm:
        return [a, b]
    return simplify(pts[:idx + 1], tol_mm)[:-1] + simplify(pts[idx:], tol_mm)


def _path_length(pts: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))


def plan_paths(movers: Iterable[tuple[str, g.Shape, Point]], obstacles: Iterable[g.Shape], *,
               max_len_mm: float, clearance_mm: float = 0.2, step_mm: float = 1.5,
               arrive_mm: float = 0.05, simplify_mm: float = 0.25) -> dict[str, list[Point]]:
    """Plan a path for each mover, in order, around ``obstacles`` and earlier movers.

    ``movers``: ``(model_id, shape_at_start, goal_centre)`` with shapes from
    :mod:`game.core.geometry` (``Circle`` or convex ``Poly``; movers do not turn).
    ``obstacles``: shapes that never move (other bases, impassable terrain).
    Each mover is steered at its goal in fixed steps of about ``step_mm`` and stops when
    within ``arrive_mm`` of the goal, after ``max_len_mm`` of path, or when stuck; its end
    shape is then an obstacle for the movers after it. ``clearance_mm`` inflates the mover
    so it keeps that much air to other bases.

    Returns ``{model_id: [start, ..., end]}`` (table mm, simplified polyline, length at most
    ``max_len_mm``); a mover that could not move gets ``[start]``. Raises ``ValueError`` for
    a negative ``max_len_mm``. Rule served: Warhammer 40,000 "Pile-in Moves" and
    "Consolidation Moves" (models move around, never through, other models).
    """
    if max_len_mm < 0:
        raise ValueError(f"max_len_mm must be >= 0 (got {max_len_mm})")
    placed: list[g.Shape] = list(obstacles)
    out: dict[str, list[Point]] = {}
    for mid, shape, goal in movers:
        path = _plan_one(shape, goal, placed, max_len_mm, clearance_mm, step_mm, arrive_mm)
        path = simplify(path, simplify_mm)
        out[mid] = path
        placed.append(_moved(shape, path[-1]))
    return out


def _plan_one(shape: g.Shape, goal: Point, obstacles: Sequence[g.Shape], max_len: float, clearance: float,
              step: float, arrive: float) -> list[Point]:
    start = (float(shape.center[0]), float(shape.center[1]))
    if max_len <= 0 or math.dist(start, goal) <= arrive:
        return [start]
    space = pymunk.Space()
    space.collision_slop = 0.01
    space.iterations = 20
    # only obstacles the mover could touch matter
    reach = max_len + _extent(shape) + clearance + 1.0
    for ob in obstacles:
        if g.bbox_gap(ob.bbox(), (start[0] - reach, start[1] - reach, start[0] + reach, start[1] + reach)) <= 0:
            _static_shape(space, ob)
    body = _mover_body(space, shape, clearance)
    pts = [start]
    length = 0.0
    speed = step / _DT
    stuck = 0
    blocked = 0  # consecutive steps that made little headway: steer further sideways
    for _ in range(int(6 * max_len / step) + 20):
        pos = body.position
        dx, dy = goal[0] - pos.x, goal[1] - pos.y
        d = math.hypot(dx, dy)
        if d <= arrive:
            break
        v = min(speed, d / _DT)
        ux, uy = dx / d, dy / d
        if blocked:
            # a head-on contact has no sliding component: turn the heading to start a slide
            a = math.radians(80.0)
            ux, uy = ux * math.cos(a) - uy * math.sin(a), ux * math.sin(a) + uy * math.cos(a)
        body.velocity = (ux * v, uy * v)
        space.step(_DT)
        body.velocity = (0.0, 0.0)
        _push_out(space, body)
        p = (float(body.position.x), float(body.position.y))
        seg = math.dist(pts[-1], p)
        blocked = blocked + 1 if seg < 0.1 * v * _DT else 0
        if length + seg >= max_len:
            k = (max_len - length) / seg if seg > 0 else 0.0
            pts.append((pts[-1][0] + (p[0] - pts[-1][0]) * k, pts[-1][1] + (p[1] - pts[-1][1]) * k))
            break
        if seg < 0.05 * step:
            stuck += 1
            if stuck >= 8:
                break
        else:
            stuck = 0
        if seg > 0:
            pts.append(p)
            length += seg
    if len(pts) >= 2 and _path_length(pts) > max_len:  # numerical guard
        pts = pts[:-1]
    return pts


def _extent(shape: g.Shape) -> float:
    if isinstance(shape, g.Circle):
        return shape.radius_mm
    cx, cy = shape.center
    return max(math.dist((cx, cy), p) for p in shape.points)
