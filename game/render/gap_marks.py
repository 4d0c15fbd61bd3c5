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
from typing import Any, Optional, Sequence

from game.core.analysis import Analysis
from game.core.board import Board
from game.core import geometry as g
from game.core.board import unit_of
from game.render.canvas import text_pad
from game.render.painter import Paint
from game.render.palette import lw
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


def gap_arrow(sa: g.Shape, sb: Any, d: Point, avoid: tuple = ()) -> Optional[tuple[Point, Point]]:
    """The arrow (start, end) mm from base ``sa`` along direction ``d`` to the nearest of the
    bases ``sb`` (one shape or a sequence): at the middle of the stretch (across ``d``) where
    ``sa`` faces them, moved to a quarter of it when the middle is within an ``avoid``
    interval (lateral ``(lo, hi)`` of a front marker). None when no base faces ``sa`` along ``d``."""
    targets = list(sb) if isinstance(sb, (list, tuple)) else [sb]
    n = math.hypot(*d) or 1.0
    d = (d[0] / n, d[1] / n)
    p = (-d[1], d[0])
    a0, a1 = _proj(sa, p)
    spans = [(max(a0, b0), min(a1, b1)) for b0, b1 in (_proj(s, p) for s in targets)]
    spans = [s for s in spans if s[1] - s[0] > 1e-6]
    if not spans:
        return None
    lo, hi = min(s[0] for s in spans), max(s[1] for s in spans)
    cands = [(lo + hi) / 2, lo + (hi - lo) * 0.25, lo + (hi - lo) * 0.75, lo + (hi - lo) * 0.1, lo + (hi - lo) * 0.9]

    def clash(t: float) -> bool:
        return any(x0 <= t <= x1 for x0, x1 in avoid)

    t = next((c for c in cands if not clash(c)), cands[0])
    ca = sa.center
    lat_a = ca[0] * p[0] + ca[1] * p[1]
    front_a = _proj(sa, d)[1]  # a's far edge along d
    along_c = ca[0] * d[0] + ca[1] * d[1]
    start = (ca[0] + p[0] * (t - lat_a) + d[0] * (front_a - along_c), ca[1] + p[1] * (t - lat_a) + d[1] * (front_a - along_c))
    hits = [h for h in (_ray_hit(start, d, s) for s in targets) if h is not None and h >= 0]
    if hits:
        hit = min(hits)
    else:  # the ray passes between two bases: to the nearer one's facing edge
        hit = min(_proj(s, d)[0] for s in targets) - front_a
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


def _links(board: Board, analysis: Optional[Analysis], shapes: dict) -> dict:
    """Every gap link that can be drawn along a facing, grouped by the model whose base is
    extended: ``{(src model, dst unit, d): [dst models]}`` (a contact both ways counted once;
    the source is the first side whose engaged facing points at a base of the other)."""
    eng: dict[tuple, Any] = {}
    for e in (analysis.engagements if analysis is not None else []):
        eng.setdefault((e.unit, e.enemy), e.facing)
    out: dict[tuple, list[str]] = {}
    seen: set = set()
    for link in (analysis.gap_links if analysis is not None else []):
        a, b = link[0], link[1]
        if a not in shapes or b not in shapes or frozenset((a, b)) in seen:
            continue
        seen.add(frozenset((a, b)))
        try:
            unit_a, unit_b = board.unit(unit_of(a)), board.unit(unit_of(b))
        except Exception:
            continue
        for src, dst, u, other in ((a, b, unit_a, unit_b), (b, a, unit_b, unit_a)):
            facing = eng.get((u.id, other.id))
            if facing is None or not u.is_ranked:
                continue
            d = facing_dir(u.facing_deg, facing)
            if gap_arrow(shapes[src], shapes[dst], d) is not None:
                out.setdefault((src, other.id, (round(d[0], 6), round(d[1], 6))), []).append(dst)
                break
    return out


SLANT_MM = 1.0  # arrows of a run whose lengths differ by more than this (and 20 %) mark a slanted gap


def arrows(board: Board, analysis: Optional[Analysis], shapes: dict) -> list[tuple[str, str, Point, Point]]:
    """``[(a, b, start, end)]`` mm: the contact arrows over gaps as a rulebook draws them (a
    link whose units have no engagement, or whose bases do not face each other, is left out).

    * one arrow per extended base: model ``a``'s base extended along its unit's engaged
      facing meets ``b`` (the nearest of the enemies it reaches there), drawn at the middle of
      the stretch where ``a`` faces them, aside from any front marker;
    * a *run* is a row of such arrows from side-by-side bases of one unit, on one edge, to one
      enemy unit. Where the gap is the same width along the run (a gap in the formation) each
      arrow is kept ("arrows a, b and c"); where it widens (units not aligned: the bases meet at
      a slant) only the run's two end arrows are kept, the narrow and the wide end ("d and e"),
      standing for the contacts between.
    """
    groups = _links(board, analysis, shapes)
    single = []
    for (src, enemy, d), dsts in groups.items():
        try:
            ua, ub = board.unit(unit_of(src)), board.unit(enemy)
        except Exception:
            continue
        p = (-d[1], d[0])
        avoid = tuple(marker_span(x, p) for x in (ua, ub) if x.is_ranked)
        seg = gap_arrow(shapes[src], [shapes[m] for m in dsts], d, avoid)
        if seg is None:
            continue
        end = seg[1]
        hit = min(dsts, key=lambda m: _dist_to(end, shapes[m]))  # the enemy the arrow ends on
        single.append((src, hit, seg, d))
    runs: dict[tuple, list] = {}
    for src, dst, seg, d in single:
        runs.setdefault((unit_of(src), unit_of(dst), d), []).append((src, dst, seg))
    out = []
    for (_, _, d), items in runs.items():
        p = (-d[1], d[0])
        items.sort(key=lambda it: it[2][0][0] * p[0] + it[2][0][1] * p[1])
        run: list = []
        for it in items:
            if run and not _adjacent(run[-1], it, shapes, d, p):
                out += _thin(run)
                run = []
            run.append(it)
        out += _thin(run)
    out.sort(key=lambda a: (a[2][1], a[2][0]))  # reading order: top to bottom, left to right
    return out


def _dist_to(pt: Point, shape: g.Shape) -> float:
    c = shape.center
    return math.hypot(pt[0] - c[0], pt[1] - c[1])


def _adjacent(prev: tuple, it: tuple, shapes: dict, d: Point, p: Point) -> bool:
    """Do two arrows start on one edge line (along ``d``) from side-by-side bases?"""
    (sp, _, (s0, _)), (si, _, (s1, _)) = prev, it
    if abs((s0[0] - s1[0]) * d[0] + (s0[1] - s1[1]) * d[1]) > 1.0:
        return False
    return _proj(shapes[si], p)[0] - _proj(shapes[sp], p)[1] <= 1.0


def _thin(run: list) -> list[tuple[str, str, Point, Point]]:
    """The arrows kept of one run (see :func:`arrows`)."""
    out = [(s, t, seg[0], seg[1]) for s, t, seg in run]
    if len(out) < 3:
        return out
    lengths = [math.hypot(e[0] - s[0], e[1] - s[1]) for _, _, s, e in out]
    if max(lengths) - min(lengths) > max(SLANT_MM, 0.2 * max(lengths)):
        return [out[0], out[-1]]
    return out


def draw(painter: Paint, analysis: Optional[Analysis], first_letter: int = 0, lettered: Optional[bool] = None) -> int:
    """Draw the gap arrows of ``analysis`` (:func:`arrows`) with the scene ``painter`` (its
    canvas, view, palette, placer): each on a white casing, at the *medium* line weight;
    letter every one (from ``first_letter``) when ``lettered`` (None: when there are two or
    more), each letter beside its own arrow. Links that cannot be drawn along a facing fall
    back to the painter's centre-to-centre link. Returns the number of letters used."""
    P, u, v, c = painter.pal, painter.u, painter.v, painter.c
    shapes = _link_shapes(painter, analysis)
    arr, plain = plan(painter.b, analysis, shapes)
    if lettered is None:
        lettered = len(arr) > 1
    w, casing = u(lw("medium")), u(lw("medium", casing=True))
    px = [(v.to_px(s), v.to_px(e)) for _, _, s, e in arr]
    for (a, b, _, _), (ps, pe) in zip(arr, px):
        c.tag = f"gap:{a}|{b}"
        L = math.hypot(pe[0] - ps[0], pe[1] - ps[1])
        head = min(u(6), max(u(3), L * 0.45))
        if L < u(2):  # bases nearly touch: a short tick across the gap instead of an arrow
            c.line([ps, pe], P["gap_link"], w)
        else:
            c.line([ps, pe], (255, 255, 255, 220), casing)
            c.arrow([ps, pe], P["gap_link"], w, head=head)
        painter.placer.add(_arrow_box(ps, pe, u(2)), soft=True)
    n = 0
    side = None
    if lettered:  # after every arrow is drawn: each letter keeps off the others' arrows
        for i, ((a, b, _, _), (ps, pe)) in enumerate(zip(arr, px)):
            others = px[:i] + px[i + 1:]
            side = painter.safe("gap letter", _letter, painter, letter(first_letter + n), ps, pe, (a, b), others,
                                side) or side
            n += 1
    pos = {m: sh.center for m, sh in shapes.items()}
    for link in plain:
        painter.safe("gap link", gap_link, painter, link[0], link[1], pos)
    return n


def plan(board: Board, analysis: Optional[Analysis], shapes: dict) -> tuple[list, list]:
    """What :func:`draw` draws for the gap links of ``analysis`` between the models of
    ``shapes`` (``{model id: shape}`` mm): ``(arrows, plain links)``, the arrows as
    :func:`arrows` gives them and the links that cannot be drawn along a facing (drawn
    centre to centre instead)."""
    links = analysis.gap_links if analysis is not None else []
    arr = arrows(board, analysis, shapes)
    drawn = {(s, t) for (s, _, _), dsts in _links(board, analysis, shapes).items() for t in dsts}
    drawn |= {(b, a) for a, b in drawn}
    return arr, [link for link in links if (link[0], link[1]) not in drawn]


def _link_shapes(painter: Paint, analysis: Optional[Analysis]) -> dict:
    """``{model id: shape}`` of the drawn models at either end of a gap link (only those are
    looked up: every lookup is of a link's end)."""
    links = analysis.gap_links if analysis is not None else []
    ends = {m for link in links for m in link[:2]}
    return {dm.id: dm.shape for dm in painter.models if dm.id in ends} if ends else {}


def _arrow_box(ps: Point, pe: Point, pad_px: float) -> tuple[float, float, float, float]:
    """The px box ``(x0, y0, x1, y1)`` of an arrow from ``ps`` to ``pe``, ``pad_px`` round it."""
    return (min(ps[0], pe[0]) - pad_px, min(ps[1], pe[1]) - pad_px,
            max(ps[0], pe[0]) + pad_px, max(ps[1], pe[1]) + pad_px)


def arrow_boxes(painter: Paint, analysis: Optional[Analysis]) -> list[tuple[float, float, float, float]]:
    """The px boxes ``(x0, y0, x1, y1)`` the gap arrows :func:`draw` will draw take (each with
    the margin it registers in the placer), known before they are drawn: the marks placed
    before the arrows (the ``×N`` badges) keep off them. Empty without gap links."""
    if analysis is None or not analysis.gap_links:
        return []
    arr = arrows(painter.b, analysis, _link_shapes(painter, analysis))
    v, pad = painter.v, painter.u(2)
    return [_arrow_box(v.to_px(s), v.to_px(e), pad) for _, _, s, e in arr]


def seg_dist(pt: Point, a: Point, b: Point) -> float:
    """Distance (px or mm) from ``pt`` to the segment ``a``-``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 <= 0 else max(0.0, min(1.0, ((pt[0] - a[0]) * dx + (pt[1] - a[1]) * dy) / L2))
    return math.hypot(pt[0] - a[0] - dx * t, pt[1] - a[1] - dy * t)


def _crosses(box: tuple, a: Point, b: Point) -> bool:
    """Does the segment ``a``-``b`` enter ``box`` (Liang-Barsky)?"""
    x0, y0, x1, y1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for pp, qq in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if pp == 0:
            if qq < 0:
                return False
        elif pp < 0:
            t0 = max(t0, qq / pp)
        else:
            t1 = min(t1, qq / pp)
    return t0 <= t1


def box_dist(box: tuple, a: Point, b: Point) -> float:
    """Distance from the segment ``a``-``b`` to the nearest point of ``box`` (0 when it enters it)."""
    if _crosses(box, a, b):
        return 0.0
    x0, y0, x1, y1 = box
    best = min(seg_dist(q, a, b) for q in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))
    for p in (a, b):
        best = min(best, math.hypot(max(x0 - p[0], 0.0, p[0] - x1), max(y0 - p[1], 0.0, p[1] - y1)))
    return best


def _side(c: Point, ps: Point, pe: Point) -> str:
    """Where a letter centred at ``c`` sits against the arrow ``ps``-``pe``: ``start`` (past
    its tail), ``end`` (past its head), ``left`` or ``right`` of it."""
    dx, dy = pe[0] - ps[0], pe[1] - ps[1]
    L2 = dx * dx + dy * dy or 1.0
    t = ((c[0] - ps[0]) * dx + (c[1] - ps[1]) * dy) / L2
    if t < 0:
        return "start"
    if t > 1:
        return "end"
    return "left" if (c[0] - ps[0]) * dy - (c[1] - ps[1]) * dx > 0 else "right"


def _letter(painter: Any, text: str, ps: Point, pe: Point, pair: tuple = (), others: Sequence = (),
            side: Optional[str] = None) -> str:
    """The arrow's letter right beside it: on the spot nearest the arrow that is clear of
    everything placed, of every base of another unit than the two it joins (``pair``: it
    names their contact), nearer its own arrow than any of the ``others`` (px segments), and
    as clear as can be of the two units' bases, its own arrow's included (a letter beside the
    shaft, never on a base, wherever a spot a few letters away is free; only where none is, on
    the arrow's own base or the enemy's). ``side``: where
    the previous letter sat (:func:`_side`), kept when it costs little, so the letters of a
    figure read alike. Returns where this one sits."""
    c, u = painter.c, painter.u
    c.tag = f"gapletter:{text}:{'|'.join(pair)}"
    size = painter.size(11)
    tw, th = c.text_size(text, size, True)
    dx, dy = pe[0] - ps[0], pe[1] - ps[1]
    L = math.hypot(dx, dy) or 1.0
    ux, uy = dx / L, dy / L
    nx, ny = -uy, ux
    pad = max(u(1.5), text_pad(size))  # the drawn background's padding
    hw, hh = tw / 2 + pad, th / 2 + pad
    reach = abs(nx) * hw + abs(ny) * hh + u(1.5)  # centre to the arrow, clear of it
    cands = []
    for t in (0.5, 0.25, 0.75, 0.0, 1.0):
        px_, py_ = ps[0] + dx * t, ps[1] + dy * t
        for k in (1.0, 1.5, 2.2, 3.0):
            for sgn in (1, -1):
                cands.append((px_ + nx * reach * k * sgn, py_ + ny * reach * k * sgn))
    along = abs(ux) * hw + abs(uy) * hh + u(1.5)
    for end, sgn in ((ps, -1), (pe, 1)):  # past either end, on one of the two bases the arrow joins
        for k in (1.0, 1.6):
            cands.append((end[0] + ux * along * k * sgn, end[1] + uy * along * k * sgn))
    boxes = [(x - hw, y - hh, x + hw, y + hh) for x, y in cands]
    units = {unit_of(m) for m in pair}  # the letter names the contact of these two units
    bases = [painter.outline_px(dm.shape) for dm in painter.models if dm.unit.id not in units]
    near = [painter.outline_px(dm.shape) for dm in painter.models if dm.unit.id in units]  # the pair's own too

    def score(bx: tuple) -> float:
        own = box_dist(bx, ps, pe)
        theirs = min((box_dist(bx, a, b) for a, b in others), default=1e9)
        wrong = 1e5 if theirs < own + u(1) else 0.0  # nearer another arrow: it would name that one
        crossed = 1e5 if own <= 0 else 0.0
        covered = sum(poly_box_area(pts, bx) for pts in bases) * 100
        moved = u(4) ** 2 if side is not None and _side(((bx[0] + bx[2]) / 2, (bx[1] + bx[3]) / 2), ps, pe) != side else 0
        return (painter.placer.score(bx) * 10 + covered + wrong + crossed + moved
                + sum(poly_box_area(pts, bx) for pts in near) * 40 + own * own)  # beside the shaft, off the bases

    b = min(boxes, key=score)
    b = painter.placer.inside(b)
    painter.placer.add(b)
    centre = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    c.text(centre, text, size, painter.pal["label"], anchor="center", bold=True, background=painter.pal["label_bg"])
    return _side(centre, ps, pe)
