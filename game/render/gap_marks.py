"""Contacts over gaps drawn the way rulebooks draw them: short arrows between facing edges.

A gap link ``(a, b)`` of the analysis (model ``a`` is in contact with enemy ``b`` across a
gap, by extending its base along the facing its unit is engaged in) is drawn as one short
arrow **along that facing**, from ``a``'s edge to where the extended base meets ``b``'s, not
as a line from centre to centre. The arrow sits at the middle of the stretch where the two
bases face each other, moved aside when that would run over a unit's front marker, so no
link crosses a marker. With several arrows in a figure each is lettered (a, b, c...; a
multi-panel figure continues the letters from panel to panel, as the rules text does:
"arrows a, b and c" then "d and e").

Geometry is in table mm (:func:`gap_arrow`, pure, tested); :func:`draw` is the drawer the
scene calls with its painter.
"""
from __future__ import annotations

import math
from typing import Any, Optional

from game.core import geometry as g
from game.core.board import unit_of
from game.render.canvas import text_pad
from game.render.unit_marks import gap_link

Point = tuple[float, float]
FACING_SIGN = {"front": (1, 0), "rear": (-1, 0), "right": (0, 1), "left": (0, -1)}


def facing_dir(facing_deg: float, facing: str) -> Point:
    """Outward unit vector (table mm) of a ranked unit's ``facing`` (front/rear/left/right)."""
    f, r = g.forward(facing_deg), g.right(facing_deg)
    a, b = FACING_SIGN.get(facing, (1, 0))
    return (f[0] * a + r[0] * b, f[1] * a + r[1] * b)


def _proj(shape: g.Shape, axis: Point) -> tuple[float, float]:
    if isinstance(shape, g.Circle):
        c = shape.center[0] * axis[0] + shape.center[1] * axis[1]
        return c - shape.radius_mm, c + shape.radius_mm
    vals = [p[0] * axis[0] + p[1] * axis[1] for p in shape.points]
    return min(vals), max(vals)


def _ray_hit(origin: Point, d: Point, shape: g.Shape) -> Optional[float]:
    """Distance along ``d`` from ``origin`` to the first point of ``shape`` (None: missed)."""
    if isinstance(shape, g.Circle):
        ox, oy = origin[0] - shape.center[0], origin[1] - shape.center[1]
        b = ox * d[0] + oy * d[1]
        c = ox * ox + oy * oy - shape.radius_mm ** 2
        disc = b * b - c
        if disc < 0:
            return None
        t = -b - math.sqrt(disc)
        return t if t >= -1e-6 else (-b + math.sqrt(disc) if -b + math.sqrt(disc) >= 0 else None)
    return g.ray_polygon_mm(origin, d, shape.points)


def gap_arrow(sa: g.Shape, sb: g.Shape, d: Point, avoid: tuple = ()) -> Optional[tuple[Point, Point]]:
    """The arrow (start, end) mm from base ``sa`` along direction ``d`` to base ``sb``: at the
    middle of the stretch (across ``d``) where both bases lie, moved to a quarter of it when
    the middle is within an ``avoid`` interval (lateral ``(lo, hi)`` of a front marker).
    None when the bases do not face each other along ``d``."""
    n = math.hypot(*d) or 1.0
    d = (d[0] / n, d[1] / n)
    p = (-d[1], d[0])
    a0, a1 = _proj(sa, p)
    b0, b1 = _proj(sb, p)
    lo, hi = max(a0, b0), min(a1, b1)
    if hi - lo <= 1e-6:
        return None
    cands = [(lo + hi) / 2, lo + (hi - lo) * 0.25, lo + (hi - lo) * 0.75, lo + (hi - lo) * 0.1, lo + (hi - lo) * 0.9]

    def clash(t: float) -> bool:
        return any(x0 <= t <= x1 for x0, x1 in avoid)

    t = next((c for c in cands if not clash(c)), cands[0])
    ca = sa.center
    lat_a = ca[0] * p[0] + ca[1] * p[1]
    front_a = _proj(sa, d)[1]  # a's far edge along d
    along_c = ca[0] * d[0] + ca[1] * d[1]
    start = (ca[0] + p[0] * (t - lat_a) + d[0] * (front_a - along_c), ca[1] + p[1] * (t - lat_a) + d[1] * (front_a - along_c))
    hit = _ray_hit(start, d, sb)
    if hit is None:
        b_near = _proj(sb, d)[0]
        hit = b_near - front_a
    if hit < 0:
        return None
    return start, (start[0] + d[0] * hit, start[1] + d[1] * hit)


def marker_span(u: Any, p: Point) -> tuple[float, float]:
    """The lateral extent (along ``p``, mm) of a ranked unit's front marker, with a margin."""
    half = min(u.base_d, u.base_w) * 0.55 * 0.24 + min(u.base_w, u.base_d) * 0.12
    c = u.front[0] * p[0] + u.front[1] * p[1]
    return c - half, c + half


def poly_box_area(pts: list, box: tuple) -> float:
    """Area (px^2) of polygon ``pts`` inside box ``(x0, y0, x1, y1)`` (Sutherland-Hodgman)."""
    x0, y0, x1, y1 = box
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    if max(xs) <= x0 or min(xs) >= x1 or max(ys) <= y0 or min(ys) >= y1:
        return 0.0
    out = g.clip_to_box(pts, x0, y0, x1, y1)
    if not out:
        return 0.0
    return abs(sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(out, out[1:] + out[:1]))) / 2


def letter(i: int) -> str:
    """``a``, ``b``... of the ``i``-th arrow (0-based)."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(97 + r) + s
    return s


def arrows(board: Any, analysis: Any, shapes: dict) -> list[tuple[str, str, Point, Point]]:
    """``[(a, b, start, end)]`` mm of every gap link that can be drawn along a facing (a link
    whose units have no engagement, or whose bases do not face each other, is left out)."""
    eng: dict[tuple, Any] = {}
    for e in (analysis.engagements if analysis is not None else []):
        eng.setdefault((e.unit, e.enemy), e.facing)
    out = []
    seen: set = set()
    for link in (analysis.gap_links if analysis is not None else []):
        a, b = link[0], link[1]
        if a not in shapes or b not in shapes or frozenset((a, b)) in seen:
            continue  # a contact both ways is one arrow
        seen.add(frozenset((a, b)))
        ua, ub = unit_of(a), unit_of(b)
        try:
            unit_a, unit_b = board.unit(ua), board.unit(ub)
        except Exception:
            continue
        res = None
        for src, dst, u, sign in ((a, b, unit_a, 1), (b, a, unit_b, 1)):
            facing = eng.get((u.id, (unit_b if u is unit_a else unit_a).id))
            if facing is None or not u.is_ranked:
                continue
            d = facing_dir(u.facing_deg, facing)
            p = (-d[1], d[0])
            avoid = tuple(marker_span(x, p) for x in (unit_a, unit_b) if x.is_ranked)
            seg = gap_arrow(shapes[src], shapes[dst], d, avoid)
            if seg is not None:
                res = (src, dst, seg[0], seg[1])
                break
        if res is not None:
            out.append(res)
    return out


MAX_LETTERED = 5  # more arrows than this in a picture are not lettered (letters would crowd them)


def draw(painter: Any, analysis: Any, first_letter: int = 0, lettered: Optional[bool] = None) -> int:
    """Draw the gap arrows of ``analysis`` with the scene ``painter`` (its canvas, view,
    palette, placer); letter them (from ``first_letter``) when ``lettered`` (None: when there
    are 2 to :data:`MAX_LETTERED`). Links that
    cannot be drawn along a facing fall back to the painter's centre-to-centre link. Returns
    the number of letters used."""
    P, u, v, c = painter.pal, painter.u, painter.v, painter.c
    shapes = {dm.id: dm.shape for dm in painter.models}
    arr = arrows(painter.b, analysis, shapes)
    drawn = {(a, b) for a, b, _, _ in arr} | {(b, a) for a, b, _, _ in arr}
    if lettered is None:
        lettered = 1 < len(arr) <= MAX_LETTERED
    lettered = lettered and len(arr) <= MAX_LETTERED
    n = 0
    for a, b, s, e in arr:
        c.tag = f"gap:{a}|{b}"
        ps, pe = v.to_px(s), v.to_px(e)
        L = math.hypot(pe[0] - ps[0], pe[1] - ps[1])
        head = min(u(6), max(u(3), L * 0.45))
        if L < u(2):  # bases nearly touch: a short tick across the gap instead of an arrow
            c.line([ps, pe], P["gap_link"], u(2))
        else:
            c.line([ps, pe], (255, 255, 255, 220), u(3.6))
            c.arrow([ps, pe], P["gap_link"], u(1.8), head=head)
        xs, ys = (ps[0], pe[0]), (ps[1], pe[1])
        painter.placer.add((min(xs) - u(2), min(ys) - u(2), max(xs) + u(2), max(ys) + u(2)), soft=True)
        if lettered:
            painter.safe("gap letter", _letter, painter, letter(first_letter + n), ps, pe, (a, b))
            n += 1
    pos = {dm.id: dm.shape.center for dm in painter.models}
    for link in (analysis.gap_links if analysis is not None else []):
        if (link[0], link[1]) not in drawn:
            painter.safe("gap link", gap_link, painter, link[0], link[1], pos)
    return n


def _letter(painter: Any, text: str, ps: Point, pe: Point, pair: tuple = ()) -> None:
    """The arrow's letter beside it, on the spot clear of everything placed and of every
    base of another unit than the two it joins (``pair``: it names their contact), and as
    clear as can be of their other bases."""
    c, u = painter.c, painter.u
    c.tag = f"gapletter:{text}:{'|'.join(pair)}"
    size = painter.size(11)
    tw, th = c.text_size(text, size, True)
    mx, my = (ps[0] + pe[0]) / 2, (ps[1] + pe[1]) / 2
    dx, dy = pe[0] - ps[0], pe[1] - ps[1]
    L = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / L, dx / L
    pad = max(u(1.5), text_pad(size))  # the drawn background's padding
    cands = []
    for t in (0.5, 0.25, 0.75, 0.0, 1.0):
        px, py = ps[0] + dx * t, ps[1] + dy * t
        for k in (1.0, 2.0, 3.5, 5.0, 7.0):
            off = (tw / 2 + pad + u(2)) * k
            for sgn in (1, -1):
                cx, cy = px + nx * off * sgn, py + ny * off * sgn
                cands.append((cx - tw / 2 - pad, cy - th / 2 - pad, cx + tw / 2 + pad, cy + th / 2 + pad))
    for t in (-0.1, 1.1):  # past either end, on one of the two bases the arrow joins
        ext = (th / 2 + pad + u(1)) / L
        px, py = ps[0] + dx * (t - ext if t < 0 else t + ext), ps[1] + dy * (t - ext if t < 0 else t + ext)
        cands.append((px - tw / 2 - pad, py - th / 2 - pad, px + tw / 2 + pad, py + th / 2 + pad))
    units = {unit_of(m) for m in pair}  # the letter names the contact of these two units
    bases = [painter.outline_px(dm.shape) for dm in painter.models if dm.unit.id not in units]
    near = [painter.outline_px(dm.shape) for dm in painter.models if dm.unit.id in units and dm.id not in pair]

    def covered(bx: tuple) -> float:  # exact: rotated bases are not their bounding boxes
        return sum(poly_box_area(pts, bx) for pts in bases)

    def near_cover(bx: tuple) -> float:
        return sum(poly_box_area(pts, bx) for pts in near)

    scored = [(painter.placer.score(bx) * 10 + covered(bx) * 100 + near_cover(bx), i) for i, bx in enumerate(cands)]
    b = cands[min(scored)[1]]
    b = painter.placer.inside(b)
    painter.placer.add(b)
    c.text(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), text, size, painter.pal["label"], anchor="center", bold=True,
           background=painter.pal["label_bg"])
