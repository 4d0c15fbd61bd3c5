"""Plane geometry of bases on the table, in millimetres (pure Python, no third-party imports).

Conventions (the scenario contract): table coordinates have x to the right and y down the
page; facings are degrees clockwise from north (north = -y). A unit's own frame has an
``across`` axis pointing to the unit's right and a ``back`` axis pointing away from its front.

Shapes are small frozen value types: :class:`Circle` (round base) and :class:`Poly`
(a convex polygon: rectangular bases, oval bases approximated by many sides). The one
distance used everywhere is :func:`gap_mm`, the edge-to-edge gap between two bases (negative
or zero when they overlap), from which base contact (gap within a tolerance) is derived.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence, Union

Point = tuple[float, float]
MM_PER_INCH = 25.4  # the one inch: rulesets give distances in inches, the table is in mm


def forward(facing_deg: float) -> Point:
    """Unit vector a model facing ``facing_deg`` looks along (0 -> (0, -1), 90 -> (1, 0))."""
    a = math.radians(facing_deg)
    return (math.sin(a), -math.cos(a))


def right(facing_deg: float) -> Point:
    """Unit vector to the right of a model facing ``facing_deg`` (0 -> (1, 0))."""
    a = math.radians(facing_deg)
    return (math.cos(a), math.sin(a))


def add(a: Point, b: Point) -> Point:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def scale(a: Point, k: float) -> Point:
    return (a[0] * k, a[1] * k)


def dot(a: Point, b: Point) -> float:
    return a[0] * b[0] + a[1] * b[1]


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def to_local(p: Point, origin: Point, facing_deg: float) -> Point:
    """Table point -> (across, back) in a frame at ``origin`` facing ``facing_deg``."""
    d = sub(p, origin)
    return (dot(d, right(facing_deg)), -dot(d, forward(facing_deg)))


def to_table(across: float, back: float, origin: Point, facing_deg: float) -> Point:
    """(across, back) in a frame at ``origin`` facing ``facing_deg`` -> table point."""
    r, f = right(facing_deg), forward(facing_deg)
    return (origin[0] + r[0] * across - f[0] * back, origin[1] + r[1] * across - f[1] * back)


@dataclass(frozen=True)
class Circle:
    """A round base: ``center`` in table mm, ``radius_mm``."""

    center: Point
    radius_mm: float

    def bbox(self) -> tuple[float, float, float, float]:
        """(min_x, min_y, max_x, max_y) in table mm."""
        x, y = self.center
        r = self.radius_mm
        return (x - r, y - r, x + r, y + r)

    def moved(self, center: Point) -> "Circle":
        """The same base with its centre at ``center`` (table mm)."""
        return Circle(center, self.radius_mm)

    def translated(self, dx: float, dy: float) -> "Circle":
        """The same base moved by ``(dx, dy)`` mm."""
        return Circle((self.center[0] + dx, self.center[1] + dy), self.radius_mm)


@dataclass(frozen=True)
class Poly:
    """A convex polygon base; ``points`` in table mm, any winding.

    ``center`` and :meth:`bbox` are computed on first use and kept (a plain instance
    attribute, no per-object lock as ``functools.cached_property`` takes)."""

    points: tuple[Point, ...]

    @property
    def center(self) -> Point:
        d = self.__dict__
        c = d.get("_c")
        if c is None:
            pts = self.points
            n = len(pts)
            c = d["_c"] = (sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n)
        return c

    def moved(self, center: Point) -> "Poly":
        """The same outline translated so its :attr:`center` is ``center`` (never turned)."""
        c = self.center
        return self.translated(center[0] - c[0], center[1] - c[1])

    def translated(self, dx: float, dy: float) -> "Poly":
        """The same outline moved by ``(dx, dy)`` mm."""
        return Poly(tuple((x + dx, y + dy) for x, y in self.points))

    def bbox(self) -> tuple[float, float, float, float]:
        """(min_x, min_y, max_x, max_y) in table mm (computed once)."""
        d = self.__dict__
        bb = d.get("_bb")
        if bb is None:
            xs = [p[0] for p in self.points]
            ys = [p[1] for p in self.points]
            bb = d["_bb"] = (min(xs), min(ys), max(xs), max(ys))
        return bb


def box_like(s: "Shape") -> bool:
    """True when ``s`` is a polygon that is its own bounding box, within 1e-9 mm (a square-on
    rectangular base: four corners, one at each corner of the box); kept on the shape. Then
    :func:`gap_mm` to another such shape, when apart, is their boxes' gap (:func:`bbox_gap`)
    within 1e-8 mm."""
    if not isinstance(s, Poly):
        return False
    d = s.__dict__
    got = d.get("_box")
    if got is None:
        x0, y0, x1, y1 = s.bbox()
        seen = set()
        for x, y in s.points:
            cx = 0 if abs(x - x0) <= 1e-9 else 1 if abs(x - x1) <= 1e-9 else -1
            cy = 0 if abs(y - y0) <= 1e-9 else 1 if abs(y - y1) <= 1e-9 else -1
            seen.add((cx, cy))
        got = d["_box"] = len(s.points) == 4 and seen == {(0, 0), (0, 1), (1, 0), (1, 1)}
    return got


Shape = Union[Circle, Poly]
"""A base outline in table mm. Both kinds move the same way: ``shape.moved(center)`` (to a
centre) and ``shape.translated(dx, dy)`` (by an offset); nothing else rebuilds one to move it."""


def rect(center: Point, width_mm: float, depth_mm: float, facing_deg: float) -> Poly:
    """Rectangular base ``width_mm`` across and ``depth_mm`` deep, centred at ``center``.

    Corners run front-left, front-right, back-right, back-left (as seen by the model).
    """
    hw, hd = width_mm / 2, depth_mm / 2
    return Poly(tuple(to_table(a, b, center, facing_deg) for a, b in
                      ((-hw, -hd), (hw, -hd), (hw, hd), (-hw, hd))))


def oval(center: Point, width_mm: float, depth_mm: float, facing_deg: float, sides: int = 32) -> Poly:
    """Oval base approximated by a ``sides``-gon (error under 0.1 mm for bases up to 170 mm)."""
    pts = []
    for i in range(sides):
        t = 2 * math.pi * i / sides
        pts.append(to_table(width_mm / 2 * math.cos(t), depth_mm / 2 * math.sin(t), center, facing_deg))
    return Poly(tuple(pts))


def _seg_point_dist(p: Point, a: Point, b: Point) -> float:
    ab = sub(b, a)
    L2 = dot(ab, ab)
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, dot(sub(p, a), ab) / L2))
    return dist(p, (a[0] + ab[0] * t, a[1] + ab[1] * t))


def _edges(pts: Sequence[Point]) -> Iterable[tuple[Point, Point]]:
    n = len(pts)
    for i in range(n):
        yield pts[i], pts[(i + 1) % n]


def _poly_overlap_depth(a: Sequence[Point], b: Sequence[Point], stop: float = -math.inf) -> float:
    """Separating-axis test over every edge normal: the smallest overlap of the projections.

    > 0: the convex polygons overlap by that depth; 0: they touch; < 0: they are apart by at
    least that much along the best separating axis (a lower bound of the true gap).
    ``stop``: return the first axis's overlap below it at once (the caller only needs to know
    the depth is below ``stop``; the default looks at every axis).
    """
    depth = math.inf
    for pts in (a, b):
        n = len(pts)
        for i in range(n):
            px, py = pts[i]
            qx, qy = pts[(i + 1) % n]
            ax, ay = qy - py, px - qx
            L = math.hypot(ax, ay)
            if L == 0:
                continue
            ax /= L
            ay /= L
            lo_a = hi_a = a[0][0] * ax + a[0][1] * ay
            for vx, vy in a:
                t = vx * ax + vy * ay
                if t < lo_a:
                    lo_a = t
                elif t > hi_a:
                    hi_a = t
            lo_b = hi_b = b[0][0] * ax + b[0][1] * ay
            for vx, vy in b:
                t = vx * ax + vy * ay
                if t < lo_b:
                    lo_b = t
                elif t > hi_b:
                    hi_b = t
            o = (hi_a if hi_a < hi_b else hi_b) - (lo_a if lo_a > lo_b else lo_b)
            if o < depth:
                depth = o
                if o < stop:
                    return o
    return depth


def point_in_poly(p: Point, pts: Sequence[Point]) -> bool:
    """True when ``p`` lies inside or on the convex polygon ``pts``."""
    sign = 0
    for a, b in _edges(pts):
        c = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        if abs(c) < 1e-12:
            continue
        s = 1 if c > 0 else -1
        if sign == 0:
            sign = s
        elif s != sign:
            return False
    return True


def poly_point_dist(p: Point, pts: Sequence[Point]) -> float:
    """Distance from ``p`` to the boundary of a convex polygon; negative inside."""
    d = min(_seg_point_dist(p, a, b) for a, b in _edges(pts))
    return -d if point_in_poly(p, pts) else d


def gap_mm(a: Shape, b: Shape) -> float:
    """Edge-to-edge gap between two bases in mm; <= 0 when they touch or overlap.

    Circle-circle and circle-polygon give the signed gap; polygon-polygon gives the gap when
    apart and minus the penetration depth when they overlap.
    """
    if isinstance(a, Circle):
        if isinstance(b, Circle):
            return dist(a.center, b.center) - a.radius_mm - b.radius_mm
        return poly_point_dist(a.center, b.points) - a.radius_mm
    if isinstance(b, Circle):
        return poly_point_dist(b.center, a.points) - b.radius_mm
    depth = _poly_overlap_depth(a.points, b.points, 0.0)  # apart on one axis: the depth is not needed
    if depth > 0:
        return -depth
    return math.sqrt(min(_min_vertex_edge_d2(a.points, b.points), _min_vertex_edge_d2(b.points, a.points)))


def _min_vertex_edge_d2(pts: Sequence[Point], poly: Sequence[Point]) -> float:
    """Smallest squared distance from a vertex of ``pts`` to an edge of ``poly`` (inlined for speed)."""
    best = math.inf
    n = len(poly)
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        L2 = ex * ex + ey * ey
        for px, py in pts:
            wx, wy = px - ax, py - ay
            t = 0.0 if L2 == 0 else (wx * ex + wy * ey) / L2
            if t < 0.0:
                t = 0.0
            elif t > 1.0:
                t = 1.0
            dx, dy = wx - ex * t, wy - ey * t
            d2 = dx * dx + dy * dy
            if d2 < best:
                best = d2
    return best


def within(a: Shape, b: Shape, tol: float) -> bool:
    """True when bases ``a`` and ``b`` touch or overlap within ``tol`` mm (``gap_mm <= tol``).

    Faster than :func:`gap_mm` for contact tests: bounding boxes first, then for two
    polygons a separating axis more than ``tol`` wide rules contact out at once.
    """
    if bbox_gap(a.bbox(), b.bbox()) > tol:
        return False
    if isinstance(a, Poly) and isinstance(b, Poly):
        depth = _poly_overlap_depth(a.points, b.points, -tol)
        if depth < -tol:
            return False
        if depth >= -1e-9:  # touching or overlapping on every axis
            return True
        return math.sqrt(min(_min_vertex_edge_d2(a.points, b.points), _min_vertex_edge_d2(b.points, a.points))) <= tol
    return gap_mm(a, b) <= tol


def corner_touch(a: Shape, b: Shape, tol: float) -> bool:
    """True when polygon bases ``a`` and ``b``, touching within ``tol`` mm, touch only at a
    corner: no edge of one runs along an edge of the other (parallel, at most ``tol`` mm
    apart) for more than ``tol`` mm. False for a round base (it touches at a point, not at a
    corner) and for bases along each other's edges."""
    if not (isinstance(a, Poly) and isinstance(b, Poly)):
        return False
    for p0, p1 in _edges(a.points):
        d = sub(p1, p0)
        length = math.hypot(d[0], d[1])
        if length <= 0.0:
            continue
        u = (d[0] / length, d[1] / length)
        for q0, q1 in _edges(b.points):
            e = sub(q1, q0)
            le = math.hypot(e[0], e[1])
            if le <= 0.0 or abs(u[0] * e[1] - u[1] * e[0]) > 1e-6 * le:  # (not parallel)
                continue
            if abs(u[0] * (q0[1] - p0[1]) - u[1] * (q0[0] - p0[0])) > tol:  # (the lines too far apart)
                continue
            s0, s1 = dot(sub(q0, p0), u), dot(sub(q1, p0), u)
            if min(length, max(s0, s1)) - max(0.0, min(s0, s1)) > tol:
                return False
    return True


def bbox_of(shapes: Sequence["Shape"]) -> tuple[float, float, float, float]:
    """(min_x, min_y, max_x, max_y) mm of every shape's box together (one shape: its own kept
    box, e.g. a tray's); all zeros for no shape."""
    if len(shapes) == 1:
        return shapes[0].bbox()
    bb = [s.bbox() for s in shapes] or [(0.0, 0.0, 0.0, 0.0)]
    return (min(b[0] for b in bb), min(b[1] for b in bb), max(b[2] for b in bb), max(b[3] for b in bb))


def bbox_gap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    """Cheap lower bound of the gap between two shapes from their bounding boxes."""
    dx = max(a[0] - b[2], b[0] - a[2], 0.0)
    dy = max(a[1] - b[3], b[1] - a[3], 0.0)
    return math.hypot(dx, dy)


def closest_points(a: Shape, b: Shape) -> tuple[Point, Point]:
    """A pair of nearest points (on a, on b) between two bases (approximate when overlapping)."""
    pa = _nearest_on(a, b.center if isinstance(b, Circle) else b.center)
    pb = _nearest_on(b, pa)
    pa = _nearest_on(a, pb)
    return pa, pb


def _nearest_on(s: Shape, p: Point) -> Point:
    if isinstance(s, Circle):
        d = dist(p, s.center)
        if d == 0:
            return s.center
        k = s.radius_mm / d
        return (s.center[0] + (p[0] - s.center[0]) * k, s.center[1] + (p[1] - s.center[1]) * k)
    best, bd = s.points[0], math.inf
    for a, b in _edges(s.points):
        ab = sub(b, a)
        L2 = dot(ab, ab)
        t = 0.0 if L2 == 0 else max(0.0, min(1.0, dot(sub(p, a), ab) / L2))
        q = (a[0] + ab[0] * t, a[1] + ab[1] * t)
        d = dist(p, q)
        if d < bd:
            best, bd = q, d
    return best


def convex_hull(pts: list[Point]) -> list[Point]:
    """Convex hull of ``pts`` (table mm), anticlockwise in maths axes, by Andrew's monotone
    chain; fewer than three distinct points come back as they are (sorted)."""
    pts = sorted(set(pts))
    if len(pts) <= 2:
        return pts

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def ray_segment_mm(p: Point, d: Point, a: Point, b: Point, behind_mm: float = 1e-6) -> Optional[float]:
    """Distance (mm, along unit vector ``d``) from ``p`` to segment ``ab``; a hit up to
    ``behind_mm`` behind ``p`` counts as 0 (a touching start). None if the ray misses."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    den = d[0] * ey - d[1] * ex
    if abs(den) < 1e-12:
        return None
    wx, wy = a[0] - p[0], a[1] - p[1]
    t = (wx * ey - wy * ex) / den
    s = (wx * d[1] - wy * d[0]) / den
    if -1e-9 <= s <= 1 + 1e-9 and t >= -behind_mm:
        return max(t, 0.0)
    return None


def ray_polygon_mm(p: Point, d: Point, pts: Sequence[Point], behind_mm: float = 1e-6) -> Optional[float]:
    """Smallest :func:`ray_segment_mm` from ``p`` along ``d`` to an edge of the polygon ``pts``
    (mm; None: the ray misses every edge)."""
    hits = [t for a, b in _edges(pts) if (t := ray_segment_mm(p, d, a, b, behind_mm)) is not None]
    return min(hits) if hits else None


def clip_to_box(pts: Sequence[Point], x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    """The polygon ``pts`` clipped to the box ``x0 <= x <= x1, y0 <= y <= y1``
    (Sutherland-Hodgman; any unit); empty when nothing of it lies inside."""
    out = list(pts)
    for axis, bound, keep_above in ((0, x0, True), (0, x1, False), (1, y0, True), (1, y1, False)):
        src, out = out, []
        for i, cur in enumerate(src):
            prev = src[i - 1]
            cin = cur[axis] >= bound if keep_above else cur[axis] <= bound
            pin = prev[axis] >= bound if keep_above else prev[axis] <= bound
            if cin != pin:
                t = (bound - prev[axis]) / (cur[axis] - prev[axis])
                out.append((prev[0] + (cur[0] - prev[0]) * t, prev[1] + (cur[1] - prev[1]) * t))
            if cin:
                out.append(cur)
        if not out:
            return []
    return out
