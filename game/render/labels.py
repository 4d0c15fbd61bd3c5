"""Text and markers placed on the table, through one collision pass.

Every label, badge and marker the scene draws on the table registers its pixel box in a
:class:`~game.render.placer.Placer`; the next one takes the first candidate spot that overlaps nothing registered
and stays inside the table area (else the least covered spot, pushed inside the area), so no
label hides another and no text leaves the canvas. Unit labels read as a rulebook prints them:
the unit's name (its id only with ``SceneOptions.ids``), optionally behind a letter (A, B, ...).

Each function draws with the scene's :class:`~game.render.painter.Paint` ``p`` (canvas, view,
palette, options, the placer ``p.placer`` and the units' boxes ``p.boxes``). The boxes taken
and the placing rule are :mod:`game.render.placer`'s.
"""
from __future__ import annotations

import math
from typing import Any, Sequence

from game.core import geometry as g
from game.core.board import Unit

from game.render.canvas import overlap_area
from game.render.palette import lw, player_colour
from game.render.painter import Paint
from game.render.placer import Box

Point = tuple[float, float]


def unit_letter(i: int) -> str:
    """Letter of the ``i``-th unit (0 -> A, 25 -> Z, 26 -> AA ...)."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def unit_caption(u: Unit, index: int, *, ids: bool = False, letters: bool = False) -> str:
    """How a figure names unit ``u`` (the ``index``-th of the board): its name, plus
    ``(id)`` with ``ids``, behind ``A:`` with ``letters``."""
    name = u.name or u.id
    text = f"{name} ({u.id})" if ids and u.name and u.name != u.id else name
    return f"{unit_letter(index)}: {text}" if letters else text


# -- terrain ---------------------------------------------------------------------------
def terrain_label(p: Paint, t: dict, pts: Sequence[Point]) -> None:
    """The terrain's name, small: inside the polygon when it fits with room to spare, else
    beside it (below, above, right, left), the first spot clear of units and labels."""
    text = f"{t.get('name', 'terrain')} (impassable)"
    size = p.size(10)
    tw, th = p.c.text_size(text, size)
    x0, y0 = min(q[0] for q in pts), min(q[1] for q in pts)
    x1, y1 = max(q[0] for q in pts), max(q[1] for q in pts)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    pad = p.u(2)
    if tw <= 0.6 * (x1 - x0) and th <= 0.4 * (y1 - y0):
        cands = [(cx - tw / 2, cy - th / 2)]
    else:
        gap = p.u(4)
        cands = [(cx - tw / 2, y1 + gap), (cx - tw / 2, y0 - gap - th), (x1 + gap, cy - th / 2),
                 (x0 - gap - tw, cy - th / 2)]
    boxes = [(x - pad, y - pad, x + tw + pad, y + th + pad) for x, y in cands]
    b = p.placer.best(boxes, p.boxes.avoid(p.models))
    p.placer.add(b)
    p.c.text((b[0] + pad, b[1] + pad), text, size, p.pal["label"], anchor="topleft",
             background=p.pal["label_bg"])

# -- units -----------------------------------------------------------------------------
def unit_label(p: Paint, u: Unit, index: int) -> None:
    """The unit's name behind it (away from its front), else on another side, the first
    spot clear of every unit, label, badge and marker; underlined in the player colour."""
    p.c.tag = f"label:{u.id}"
    text = unit_caption(u, index, ids=p.o.ids, letters=p.o.letters)
    size = p.size(13)
    tw, th = p.c.text_size(text, size, True)
    ub = p.boxes.drawn_box(u.id, p.models) or p.boxes.px_bbox(u)
    gap, pad = p.u(6), p.u(3)
    cands = []
    tray = p.boxes.px_bbox(u)
    if p.o.placements is None and u.is_ranked and tray != ub:
        # some of its models drawn away from the block (in a combat slot): the spots by the block first
        cands = _side_spots(p, u, tray, tw, th, gap, 3)
    cands += _side_spots(p, u, ub, tw, th, gap, 8)
    boxes = [(x - pad, y - pad, x + tw + pad, y + th + pad) for x, y in cands]
    bases = unit_bases(p) if p.o.placements is None else {}
    good, bad = own_first(p, u.id, ub, boxes, bases)
    avoid = p.boxes.avoid(p.models)
    b = p.placer.best(good, avoid) if good else None
    if b is None or (bad and not _only_soft(p, b, avoid)):
        # no spot by its own unit is free of other labels and marks: any spot, a leader joins it
        b = p.placer.best(good + bad, avoid)
    p.placer.add(b)
    x, y = b[0] + pad, b[1] + pad
    col = player_colour(p.pal, u.player)
    p.c.text((x, y), text, size, p.pal["label"], anchor="topleft", bold=True, background=p.pal["label_bg"])
    line_w = p.u(lw("medium"))
    p.c.line([(x - pad, y + th + pad - line_w / 2), (x + tw + pad, y + th + pad - line_w / 2)], col, line_w)
    mine = bases.get(u.id) or [ub]
    if bases and _nearer_other(b, u.id, mine, bases):
        # no spot by its own unit is free (a small unit between two others): a short leader
        # in the player colour joins the label to its unit's nearest base
        mb = min(mine, key=lambda m: _box_dist(b, m))
        p.c.line(list(_closest_points(b, mb)), col, p.u(lw("thin")))


def _side_spots(p: Paint, u: Unit, ub: Box, tw: float, th: float, gap: float, rings: int) -> list:
    """Top-left px corners of a ``tw`` x ``th`` label around box ``ub``: behind the unit first,
    then below, above, in front, right, left; ``rings`` distances out from ``gap``."""
    cx, cy = (ub[0] + ub[2]) / 2, (ub[1] + ub[3]) / 2
    back = g.scale(g.forward(u.facing_deg), -1)
    cands = []
    for k in range(rings):  # each side at increasing distances, so a crowded combat pushes a label clear
        step = k * (th + p.u(6))
        for d in (back, (0, 1), (0, -1), g.forward(u.facing_deg), (1, 0), (-1, 0)):
            if abs(d[1]) >= abs(d[0]):
                y = ub[3] + gap + step if d[1] > 0 else ub[1] - gap - th - step
                cands += [(cx - tw / 2, y), (ub[0], y), (ub[2] - tw, y)]
            else:
                x = ub[2] + gap + step if d[0] > 0 else ub[0] - gap - tw - step
                cands += [(x, cy - th / 2), (x, ub[1]), (x, ub[3] - th)]
    return cands


def _closest_points(a: Box, b: Box) -> tuple:
    """A point on box ``a``'s edge and one on box ``b``'s, nearest each other (px)."""
    def axis(a0: float, a1: float, b0: float, b1: float) -> tuple[float, float]:
        if a1 < b0:
            return a1, b0
        if b1 < a0:
            return a0, b1
        m = (max(a0, b0) + min(a1, b1)) / 2
        return m, m
    xa, xb = axis(a[0], a[2], b[0], b[2])
    ya, yb = axis(a[1], a[3], b[1], b[3])
    return (xa, ya), (xb, yb)


def _box_dist(a: Box, b: Box) -> float:
    """Px distance between two boxes (0 when they overlap)."""
    dx = max(0.0, a[0] - b[2], b[0] - a[2])
    dy = max(0.0, a[1] - b[3], b[1] - a[3])
    return math.hypot(dx, dy)


def unit_bases(p: Paint) -> dict[str, list[Box]]:
    """Unit id -> the px box of each of its drawn bases (``p.models``)."""
    out: dict[str, list[Box]] = {}
    v = p.v
    for dm in p.models:
        x0, y0, x1, y1 = dm.shape.bbox()
        a, b = v.to_px((x0, y0)), v.to_px((x1, y1))
        out.setdefault(dm.unit.id, []).append((min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])))
    return out


def _nearer_other(bx: Box, uid: str, mine: list, bases: dict) -> bool:
    """Is box ``bx``, or its centre, nearer a base of a unit other than ``uid`` than every one
    of ``mine``? (The box as a printer's check measures it; the centre as a reader's eye.)"""
    c = ((bx[0] + bx[2]) / 2, (bx[1] + bx[3]) / 2)
    pt = (c[0], c[1], c[0], c[1])
    for probe in (bx, pt):
        d_own = min(_box_dist(probe, mb) for mb in mine)
        if any(_box_dist(probe, ob) < d_own for o, obs in bases.items() if o != uid for ob in obs):
            return True
    return False


def own_first(p: Paint, uid: str, own: Box, boxes: list, bases: dict) -> tuple[list, list]:
    """``boxes`` (a label's candidate spots, in order) split into ``(good, bad)``: the bad ones
    nearer another unit's drawn bases than their own unit's (a label there reads as a
    neighbour's). Each spot is measured as a box to the px box of every drawn base (``bases``,
    from :func:`unit_bases`; ``own``, the unit's drawn box, stands in when none of its bases is
    drawn). The window (``p.o.placements`` set) keeps its order: every spot good."""
    if p.o.placements is not None or len(bases) < 2:
        # the window's retained layer reuses each label's spot while its candidates stay the
        # same: an order that followed every other unit's move would re-place every label on a drag
        return boxes, []
    mine = bases.get(uid) or [own]
    good: list = []
    bad: list = []
    for bx in boxes:
        (bad if _nearer_other(bx, uid, mine, bases) else good).append(bx)
    return good, bad


def _only_soft(p: Paint, bx: Box, avoid: list) -> bool:
    """Does the label box ``bx`` lie on the page and overlap nothing placed hard (labels,
    badges, letters), only soft marks and bases, by less than its own area? (A spot by its own
    unit over a dashed outline or a reach circle beats a free spot by another unit.)"""
    area = (bx[2] - bx[0]) * (bx[3] - bx[1])
    return p.placer.score(bx, avoid) < min(area, 1e4)


def badge(p: Paint, entry: Any) -> None:
    """The numbered fight-order badge (with "FF" for Fights First) at a corner of the unit
    (``entry`` a :class:`~game.core.parts.FightSelection`), the first corner clear of every
    label, badge and marker (registered too)."""
    uid = entry.unit
    p.c.tag = f"badge:{uid}"
    u = p.b.unit(uid)
    ub = p.boxes.drawn_box(uid, p.models) or p.boxes.px_bbox(u)
    r = p.u(11)
    ff = bool(entry.fights_first)
    ff_w = (p.c.text_size("FF", p.size(11), True)[0] + p.u(6)) if ff else 0.0

    def box(c: Point) -> Box:
        return (c[0] - r - 1, c[1] - r - 1, c[0] + r + 2 + ff_w, c[1] + r + 1)

    corners = [(ub[0] + r, ub[1] + r), (ub[2] - r - ff_w, ub[1] + r), (ub[0] + r, ub[3] - r),
               (ub[2] - r - ff_w, ub[3] - r)]
    out = 2 * r + p.u(4)
    corners += [(ub[0] - r, ub[1] - r), (ub[2] + r - ff_w, ub[1] - r), (ub[0] - r, ub[3] + r),
                (ub[2] + r - ff_w, ub[3] + r), (ub[0] - r, ub[1] - r - out), (ub[2] + r - ff_w, ub[3] + r + out),
                (ub[0] - r - out, ub[1] + r), (ub[2] + r + out, ub[1] + r)]
    others = []  # another unit's bases: a badge never covers them
    for dm in p.models:
        if dm.unit.id != uid:
            x0, y0, x1, y1 = dm.shape.bbox()
            q0, q1 = p.v.to_px((x0, y0)), p.v.to_px((x1, y1))
            others.append((min(q0[0], q1[0]), min(q0[1], q1[1]), max(q0[0], q1[0]), max(q0[1], q1[1])))
    far = 2 * out
    corners += [(ub[0] - r - far, ub[1] + r), (ub[2] + r + far, ub[1] + r), (ub[0] - r, ub[3] + r + far),
                (ub[2] + r - ff_w, ub[1] - r - far)]
    b = p.placer.best([box(c) for c in corners], others)
    p.placer.add(b)
    c = (b[0] + r + 1, b[1] + r + 1)
    p.c.circle(c, r, fill=p.pal["badge"], outline=p.pal["badge_text"], width=p.u(lw("thin")))
    p.c.text(c, str(entry.order), p.size(13), p.pal["badge_text"], anchor="center", bold=True)
    if ff:
        p.c.text((c[0] + r + p.u(3), c[1]), "FF", p.size(11), p.pal["label"], anchor="left", bold=True,
                 background=p.pal["label_bg"])

# -- on the models ---------------------------------------------------------------------
def count_mark(p: Paint, dm: Any, attacks: Any, marks: Sequence[Box] = ()) -> None:
    """``x2`` on a model that makes other than one attack, in its rear corner (clear of the
    front marker), sized to the base (at least the smallest font); where no spot on the base
    is free, the middle of its rear or a side, then just behind, beside or before it. ``marks``: px
    boxes of marks drawn later over the models (gap arrows): a spot touching one is taken
    only when every spot does (no badge under another mark); of those, a spot on another
    unit's box only when every one is (a badge reads as its neighbour's otherwise)."""
    p.c.tag = f"count:{dm.id}"
    text = f"×{_fmt_attacks(attacks)}"
    b = dm.shape.bbox()
    p0, p1 = p.v.to_px((b[0], b[1])), p.v.to_px((b[2], b[3]))
    bw, bh = p1[0] - p0[0], p1[1] - p0[1]
    ss = p.o.supersample
    # never left out: the legend counts every model making other than one attack, so each
    # carries its badge (at least the smallest font, on the least crowded spot)
    size = max(max(6, int(p.o.min_font_px)) * ss, int(min(p.size(11), bh * 0.34, bw * 0.34) / ss) * ss)
    tw, th = p.c.text_size(text, size, True)
    pad = max(1.0, 0.22 * size)
    ranked = dm.unit.is_ranked
    if ranked:  # a corner of the base, the rear right first (clear of the front marker)
        f, r = g.forward(dm.unit.facing_deg), g.right(dm.unit.facing_deg)
        c = dm.shape.center
        hw, hd = dm.unit.base_w / 2, dm.unit.base_d / 2
        dx = max(0.0, hw - (tw / 2 + pad) / p.v.scale - 0.05 * hw)
        dy = max(0.0, hd - (th / 2 + pad) / p.v.scale - 0.05 * hd)
        spots = [g.add(c, g.add(g.scale(r, sx * dx), g.scale(f, sy * dy))) for sx, sy in
                 ((1, -1), (-1, -1), (1, 1), (-1, 1), (0, -1), (1, 0), (-1, 0))]
        back, side = hd + (th / 2 + pad) / p.v.scale, hw + (tw / 2 + pad) / p.v.scale
        spots += [g.add(c, g.scale(f, -back)), g.add(c, g.scale(r, side)), g.add(c, g.scale(r, -side)),
                  g.add(c, g.scale(f, back))]
        cands = [p.v.to_px(q) for q in spots]
    else:  # lower right inside a round base, clear of a mark in its middle
        k = 0.3 if bw > 2.6 * tw else 0.0
        cands = [(p0[0] + bw * (0.5 + k), p0[1] + bh * (0.5 + k)), (p0[0] + bw * (0.5 - k), p0[1] + bh * (0.5 + k)),
                 (p0[0] + bw * 0.5, p0[1] + bh * 0.5)]
    boxes = [(x - tw / 2 - pad, y - th / 2 - pad * 0.6, x + tw / 2 + pad, y + th / 2 + pad * 0.6) for x, y in cands]
    clear = [bx for bx in boxes if not any(overlap_area(bx, m) > 0 for m in marks)] or boxes
    others = [ob for ob in (p.boxes.drawn_box(u.id, p.models) for u in p.b.units if u.id != dm.unit.id) if ob]
    own = [bx for bx in clear if not any(overlap_area(bx, ob) > 0 for ob in others)]
    b = p.placer.best(own or clear)
    pos = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    p.c.text(pos, text, size, (255, 255, 255), anchor="center", bold=True, background=(20, 20, 20, 200))
    p.placer.add(b)


def divide_mark(p: Paint, dm: Any, n_units: int) -> None:
    """A model touching several enemy units (it may divide its attacks): a small white ring
    with a black edge and a bar, in the rear left of a ranked base (clear of the front
    marker and the count), in the middle of another; explained in the legend."""
    p.c.tag = f"divide:{dm.id}"
    b = dm.shape.bbox()
    p0, p1 = p.v.to_px((b[0], b[1])), p.v.to_px((b[2], b[3]))
    side = min(p1[0] - p0[0], p1[1] - p0[1])
    r = max(2.0, side * 0.17)
    if dm.unit.is_ranked:
        f, rt = g.forward(dm.unit.facing_deg), g.right(dm.unit.facing_deg)
        d = (side * 0.5 - r - p.u(1.5)) / p.v.scale
        cx, cy = p.v.to_px(g.add(dm.shape.center, g.add(g.scale(rt, -d), g.scale(f, -d))))
    else:
        cx, cy = (p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2
        r = max(2.0, side * 0.3)
    p.c.circle((cx, cy), r, fill=None, outline=(20, 20, 20), width=p.u(lw("thin", casing=True)))
    p.c.circle((cx, cy), r, fill=None, outline=(255, 255, 255), width=p.u(lw("thin")))
    p.c.line([(cx - r * 0.55, cy), (cx + r * 0.55, cy)], (255, 255, 255), p.u(lw("thin")))
    p.placer.add((cx - r - p.u(1.3), cy - r - p.u(1.3), cx + r + p.u(1.3), cy + r + p.u(1.3)))


def _fmt_attacks(v: Any) -> str:
    if isinstance(v, float) and not math.isfinite(v):
        return "?"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)
