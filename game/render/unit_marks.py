"""The units on the table and the marks drawn on or between them, each a function of the
scene's :class:`~game.render.painter.Paint` ``p``: movement trays (and, in print, the empty
places in them), bases filled by role (:func:`role_fill`, also the legend's role swatches),
ghosts where rule-mandated moves start, a model's move into its combat slot, compare and
overlap marks, gap links, move arrows and front markers.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

from game.core import geometry as g
from game.core.board import Unit, empty_slots

from game.render.hatching import cross_hatch, hatch_segments
from game.render.drawn import DrawnModel, _moved, _shape_at, circle_pts
from game.render.painter import Paint
from game.render.palette import LINE_UNITS, lw, player_colour, with_alpha
from game.render.placer import link_box

DIFFER_COLOUR = (255, 210, 0)  # the ring of a model that fights differently under the compared ruleset

Point = tuple[float, float]


def role_fill(p: Paint, data: Any, role: str, kind: str) -> None:
    """Fill a base (``kind`` ``circle``: ``(centre, r)``; ``poly``: points px) in its role's
    colour; with palette ``patterns``, roles also differ without colour: attack a heavy
    black outline, support white hatching and a dashed outline, none a thin outline."""
    P, u = p.pal, p.u
    fill = P.get(role, P["none"])
    pts = circle_pts(*data) if kind == "circle" else data
    if kind == "circle":
        p.c.circle(data[0], data[1], fill=fill, outline=P["base_edge"], width=u(lw("thin")))
    else:
        p.c.polygon(data, fill=fill, outline=P["base_edge"], width=u(lw("thin")))
    if P.get("print") and not P.get("patterns") and role == "support":
        for a, b in hatch_segments(pts, u(4.5)):  # print: supports hatched, so greyscale tells them apart
            p.c.line([a, b], (255, 255, 255), u(LINE_UNITS["thin"]))
        return
    if not P.get("patterns"):
        return
    if role == "support":
        for a, b in hatch_segments(pts, u(5)):
            p.c.line([a, b], (255, 255, 255), u(lw("thin")))
        p.c.line(list(pts) + [pts[0]], (0, 0, 0), u(lw("thin")), dashed=True)
    elif role == "attack":
        p.c.polygon(pts, outline=(0, 0, 0), width=u(lw("medium")))

# -- units ---------------------------------------------------------------------------------
def tray(p: Paint, u: Unit, outline: bool = False) -> None:
    """The movement tray: a faint player-coloured fill under the bases, and (``outline``)
    a player-coloured frame drawn over them."""
    if not u.is_ranked:
        return
    p.c.tag = f"tray:{u.id}"
    col = player_colour(p.pal, u.player)
    pts = p.v.pts(u.tray().points)
    if outline:
        bold = lw("bold") if p.pal.get("print") else lw("medium")  # print: the bold unit frame
        p.c.polygon(pts, fill=None, outline=col, width=p.u(bold))
        return
    if p.pal["tray_alpha"][0] > 0:
        p.c.polygon(pts, fill=with_alpha(col, p.pal["tray_alpha"][0]), outline=None)
    if p.pal.get("print"):
        empty_places(p, u)


def empty_places(p: Paint, u: Unit) -> None:
    """Print style: each empty place in a ranked unit (``empty`` slots, e.g. a casualty's)
    hatched grey inside a dashed outline, so a gap never reads as a model that does not fight."""
    for rank, file in empty_slots(u):
        p.c.tag = f"empty:{u.id}.r{rank}f{file}"
        c = u.slot_center(rank, file)
        pts = p.v.pts(g.rect(c, u.base_w * 0.96, u.base_d * 0.96, u.facing_deg).points)
        for a, b in hatch_segments(pts, p.u(3.5)):
            p.c.line([a, b], p.pal["empty_hatch"], p.u(LINE_UNITS["hair"]))
        p.c.line(list(pts) + [pts[0]], p.pal["empty_hatch"], p.u(LINE_UNITS["thin"]), dashed=True)


def model(p: Paint, dm: DrawnModel) -> None:
    p.c.tag = f"model:{dm.id}"
    kind, data = p.shape_px(dm.shape)
    role_fill(p, data, dm.role, kind)
    if not dm.unit.is_ranked:  # skirmishers carry their player colour on a ring
        p.draw_shape(dm.shape, None, player_colour(p.pal, dm.unit.player), p.u(lw("medium")))


def models(p: Paint, dms: Sequence[DrawnModel]) -> None:
    """Every model of ``dms``, as :func:`model` draws each, in order: runs of ranked polygon
    bases of one role colour (a palette without print hatching or patterns) go to the canvas
    together (:meth:`Canvas.polygons`, which a back end may draw faster: a drag frame draws
    the moved units' models anew); any other model by :func:`model`."""
    P = p.pal
    if P.get("print") or P.get("patterns"):
        for dm in dms:
            p.safe(f"model {dm.id}", model, p, dm)
        return
    edge, width, none = P["base_edge"], p.u(lw("thin")), P["none"]
    run: list = []
    tags: list[str] = []
    fill: Any = None

    def flush() -> None:
        if run:
            p.safe(f"models {tags[0]}..{tags[-1]}", p.c.polygons, list(run), list(tags), fill, edge, width)
            run.clear()
            tags.clear()

    for dm in dms:
        if type(dm.shape) is not g.Poly or not dm.unit.is_ranked:
            flush()
            p.safe(f"model {dm.id}", model, p, dm)
            continue
        colour = P.get(dm.role, none)
        if run and colour != fill:
            flush()
        fill = colour
        run.append(p.v.pts(dm.shape.points))
        tags.append(f"model:{dm.id}")
    flush()


def ghost_outline(p: Paint, s: g.Shape) -> None:
    """Where a model started a move: its base's outline dotted in the palette's ``ghost`` tint
    (an empty place is a grey dashed, hatched outline: the two never read alike)."""
    kind, data = p.shape_px(s)
    if kind == "circle":
        centre, radius = data
        ring = circle_pts(centre, radius, n=32)
        p.c.line(ring + [ring[0]], p.pal["ghost"], p.u(lw("thin")), dashed="dot")
    else:
        p.c.line(list(data) + [data[0]], p.pal["ghost"], p.u(lw("thin")), dashed="dot")


def ghost(p: Paint, mid: str, path: Sequence[Point]) -> None:
    p.c.tag = f"ghost:{mid}"
    dm = next((d for d in p.models if d.id == mid), None)
    if dm is None:
        return
    # one convention in every view: the model is drawn where it ends, its start is the ghost
    frm, to = path[0], path[-1]
    s = _shape_at(dm.unit, None, (frm[0], frm[1])) if dm.unit.is_ranked else _moved(dm.shape, to, frm)
    ghost_outline(p, s)


#: longest slot-move mark (design units): a short arrow at the slot, never one across the block
SLOT_MARK_UNITS = 14.0


def slot_move(p: Paint, dm: DrawnModel, frm: Point, to: Point) -> None:
    """A model allocated to a combat slot: a ghost at its place in the unit and, at the slot, a
    short arrow (at most :data:`SLOT_MARK_UNITS`) into the model's edge from the side its place
    lies on; never an arrow across the block."""
    p.c.tag = f"slotmove:{dm.id}"
    ghost_outline(p, _moved(dm.shape, to, frm))
    L_mm = g.dist(frm, to)
    if L_mm * p.v.scale <= p.u(10):
        return
    d = ((frm[0] - to[0]) / L_mm, (frm[1] - to[1]) / L_mm)  # from the slot towards the model's place
    s = dm.shape
    edge = s.radius_mm if isinstance(s, g.Circle) else (g.ray_polygon_mm(to, d, s.points) or 0.0)
    tip = p.v.to_px((to[0] + d[0] * edge, to[1] + d[1] * edge))
    room = L_mm * p.v.scale - edge * p.v.scale
    n = min(p.u(SLOT_MARK_UNITS), room)
    if n <= p.u(4):
        return
    dx, dy = p.v.to_px((to[0] + d[0], to[1] + d[1]))
    ox, oy = p.v.to_px(to)
    k = math.hypot(dx - ox, dy - oy) or 1.0
    ux, uy = (dx - ox) / k, (dy - oy) / k  # the same direction in px (the view may flip nothing but scale)
    p.c.arrow([(tip[0] + ux * n, tip[1] + uy * n), tip], p.pal["slot_edge"], p.u(lw("medium")), head=p.u(5))


#: the ring of a highlighted model (a demo step's ``highlight``)
RING_COLOUR = (225, 0, 200)


def ring_mark(p: Paint, dm: DrawnModel) -> None:
    """A highlighted model: a bold magenta ring edged in white on its base outline."""
    p.c.tag = f"highlight:{dm.id}"
    p.draw_shape(dm.shape, None, (255, 255, 255), p.u(lw("bold", casing=True)))
    p.draw_shape(dm.shape, None, RING_COLOUR, p.u(lw("bold")))


def differ_mark(p: Paint, dm: DrawnModel) -> None:
    """A model that fights differently under the compared ruleset: dark hatching over the
    base (its role colour still shows between the lines) and a yellow ring edged in black."""
    p.c.tag = f"differ:{dm.id}"
    pts = p.outline_px(dm.shape)
    for a, b in hatch_segments(pts, p.u(5)):
        p.c.line([a, b], (20, 20, 20, 150), p.u(lw("thin")))
    p.draw_shape(dm.shape, None, (20, 20, 20), p.u(lw("medium", casing=True)))
    p.draw_shape(dm.shape, None, p.pal.get("differ", DIFFER_COLOUR), p.u(lw("medium")))


def overlap_mark(p: Paint, dm: DrawnModel) -> None:
    """A base that overlaps another: cross-hatched in black over its role colour, ringed
    black with a white dashed line on the ring (unlike any role, selection or compare mark)."""
    p.c.tag = f"overlap:{dm.id}"
    pts = p.outline_px(dm.shape)
    col, dash = p.pal.get("overlap", (15, 15, 15)), p.pal.get("overlap_dash", (255, 255, 255))
    cross_hatch(p.c, pts, p.u(6), col, p.u(lw("thin")))
    p.draw_shape(dm.shape, None, col, p.u(lw("medium", casing=True)))
    p.c.line(list(pts) + [pts[0]], dash, p.u(lw("thin")), dashed=True)


def gap_link(p: Paint, a: str, b: str, pos: dict) -> None:
    """A fight across a gap: a dashed line on a thin white casing, drawn over the front
    markers so a marker never hides it."""
    p.c.tag = f"gap:{a}|{b}"
    if a in pos and b in pos:
        pa, pb = p.v.to_px(pos[a]), p.v.to_px(pos[b])
        p.c.line([pa, pb], (255, 255, 255, 200), p.u(lw("medium", casing=True)))
        p.c.line([pa, pb], p.pal["gap_link"], p.u(lw("medium")), dashed=True)
        p.placer.add(link_box(pa, pb, p.u(2)), soft=True)


def move(p: Paint, mid: str, path: Sequence[Point]) -> None:
    p.c.tag = f"move:{mid}"
    if len(path) >= 2:
        pts = p.v.pts(path)
        L = sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))
        head = min(max(p.u(7), 6.0 * p.v.scale), max(p.u(4), L * 0.5))  # a short move: a smaller head
        p.c.arrow(pts, p.pal["move"], p.u(lw("medium")), head=head)
        for q0, q1 in zip(pts, pts[1:]):
            p.placer.add(link_box(q0, q1, p.u(2)), soft=True)


def front_marker(p: Paint, u: Unit) -> None:
    """A narrow arrowhead pointing along the facing, inside the middle of the front edge
    (registered, so labels and badges keep off it)."""
    if not u.is_ranked:
        return
    p.c.tag = f"front:{u.id}"
    d = min(u.base_d, u.base_w) * 0.55  # the front half of the middle base: its rear half holds marks
    size_mm = max(d, p.u(9) / max(p.v.scale, 1e-6))
    size_mm = min(size_mm, u.depth_mm * 0.9, u.width_mm * 0.5)
    f = g.forward(u.facing_deg)
    r = g.right(u.facing_deg)
    inset = min(u.base_d * 0.06, max(0.0, u.base_d - size_mm))
    tip = g.add(u.front, g.scale(f, -inset - size_mm * 0.05))
    back = g.add(u.front, g.scale(f, -inset - size_mm * 0.95))
    left = g.add(back, g.scale(r, -size_mm * 0.24))
    right = g.add(back, g.scale(r, size_mm * 0.24))
    col = player_colour(p.pal, u.player)
    pts = p.v.pts([tip, right, left])
    p.c.polygon(pts, fill=col, outline=(255, 255, 255), width=p.u(lw("thin")))
    xs, ys = [q[0] for q in pts], [q[1] for q in pts]
    p.placer.add((min(xs), min(ys), max(xs), max(ys)))
