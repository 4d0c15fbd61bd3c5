"""Text and markers placed on the table, through one collision pass.

Every label, badge and marker the scene draws on the table registers its pixel box in a
:class:`Placer`; the next one takes the first candidate spot that overlaps nothing registered
and stays inside the table area (else the least covered spot, pushed inside the area), so no
label hides another and no text leaves the canvas. Unit labels read as a rulebook prints them:
the unit's name (its id only with ``SceneOptions.ids``), optionally behind a letter (A, B, ...).

:class:`LabelPainter` is a mixin of the scene painter (:mod:`game.render.scene`): it uses the
painter's canvas ``c``, view ``v``, palette ``pal``, options ``o``, layout ``lay``, drawn
``models`` and the length helpers ``u`` (design units -> px) and ``size`` (font px).
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Optional, Sequence

from game.core import geometry as g
from game.core.board import Unit, unit_of

from game.render.canvas import overlap_area
from game.render.gridindex import GridIndex
from game.render.palette import player_colour
from game.render.painter import PainterState

Point = tuple[float, float]
Box = tuple[float, float, float, float]


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


class Placer:
    """Boxes ``(x0, y0, x1, y1)`` px already taken on the table, and where the next goes.
    Boxes are kept in grid indexes (:class:`~game.render.gridindex.GridIndex`), so scoring a spot
    looks only at the boxes near it, however many units the table holds."""

    def __init__(self, area: Box):
        self.area = area
        self.taken: list[Box] = []   # labels, badges, markers: nothing may overlap these
        self.soft: list[Box] = []    # units and links: avoided when possible
        self._taken_ix = GridIndex()
        self._soft_ix = GridIndex()
        self._avoid: tuple = (None, None)  # (the last ``avoid`` list, its index)

    def add(self, box: Box, soft: bool = False) -> None:
        (self.soft if soft else self.taken).append(box)
        (self._soft_ix if soft else self._taken_ix).add(box)

    def off_area(self, box: Box) -> float:
        x0, y0, x1, y1 = self.area
        return max(0.0, x0 - box[0]) + max(0.0, box[2] - x1) + max(0.0, y0 - box[1]) + max(0.0, box[3] - y1)

    def _avoid_index(self, avoid: Iterable[Box]) -> GridIndex:
        if self._avoid[0] is avoid:  # the same list as last time (the painter's unit boxes)
            return self._avoid[1]
        ix = GridIndex(avoid)
        if isinstance(avoid, list):
            self._avoid = (avoid, ix)
        return ix

    def score(self, box: Box, avoid: Iterable[Box] = ()) -> float:
        hard = sum(overlap_area(box, b) for b in self._taken_ix.near(box))
        soft = sum(overlap_area(box, b) for b in self._soft_ix.near(box))
        soft += sum(overlap_area(box, b) for b in self._avoid_index(avoid).near(box))
        return hard * 1e4 + soft + self.off_area(box) * 1e6

    def inside(self, box: Box) -> Box:
        """``box`` shifted into the area (if it is larger, its top-left corner stays in)."""
        x0, y0, x1, y1 = self.area
        w, h = box[2] - box[0], box[3] - box[1]
        nx = min(max(box[0], x0), max(x0, x1 - w))
        ny = min(max(box[1], y0), max(y0, y1 - h))
        return (nx, ny, nx + w, ny + h)

    def best(self, boxes: Sequence[Box], avoid: Iterable[Box] = ()) -> Box:
        """The first box scoring 0, else the lowest scoring one moved inside the area."""
        avoid = avoid if isinstance(avoid, list) else list(avoid)
        scores = []
        for b in boxes:
            sc = self.score(b, avoid)
            if sc <= 0:
                return b
            scores.append(sc)
        i = min(range(len(scores)), key=lambda k: (scores[k], k))
        return self.inside(boxes[i])


class LabelPainter(PainterState):
    """Labels, badges, counts and markers of the scene painter (a mixin; see the module doc)."""

    placer: Placer

    def init_placer(self) -> None:
        tl, tt, tw, th = self.lay.table
        top = tt + getattr(self.o, "caption_band", 0.0)
        m = self.u(3)
        self.placer = Placer((tl + m, top + m, tl + tw - m, tt + th - m))
        self._unit_boxes = {x.id: self.px_bbox(x) for x in self.b.units if self._has_shapes(x)}
        self._drawn_boxes: Optional[dict] = None

    def drawn_box(self, uid: str) -> Optional[Box]:
        """Px box of a unit as drawn: its bases where the figure draws them (after a rule's
        move), plus its tray when none of its models moved."""
        if self._drawn_boxes is None:
            moved = {unit_of(m) for m in (self.a.moves if self.a is not None else {})}
            out: dict = {}
            for dm in getattr(self, "models", None) or []:
                x0, y0, x1, y1 = dm.shape.bbox()
                p0, p1 = self.v.to_px((x0, y0)), self.v.to_px((x1, y1))
                q = out.setdefault(dm.unit.id, [p0[0], p0[1], p1[0], p1[1]])
                q[0], q[1], q[2], q[3] = min(q[0], p0[0]), min(q[1], p0[1]), max(q[2], p1[0]), max(q[3], p1[1])
            for key, tb in self._unit_boxes.items():
                if key not in moved or key not in out:
                    q = out.setdefault(key, list(tb))
                    q[0], q[1], q[2], q[3] = min(q[0], tb[0]), min(q[1], tb[1]), max(q[2], tb[2]), max(q[3], tb[3])
            self._drawn_boxes = {k: tuple(v) for k, v in out.items()}
        return self._drawn_boxes.get(uid)

    @staticmethod
    def _has_shapes(u: Unit) -> bool:
        try:
            return bool(u.models()) or u.is_ranked
        except Exception:
            return False

    def px_bbox(self, u: Unit) -> Box:
        shapes = [u.tray()] if u.is_ranked else [m.shape for m in u.models()]
        xs, ys = [], []
        for s in shapes:
            b = s.bbox()
            xs += [b[0], b[2]]
            ys += [b[1], b[3]]
        p0 = self.v.to_px((min(xs), min(ys)))
        p1 = self.v.to_px((max(xs), max(ys)))
        return (p0[0], p0[1], p1[0], p1[1])

    def unit_boxes(self) -> list[Box]:
        """Px boxes labels keep off: each ranked unit's tray and each other drawn base."""
        if getattr(self, "_avoid", None) is None:
            moved = {unit_of(m) for m in (self.a.moves if self.a is not None else {})}
            boxes = [b for uid, b in self._unit_boxes.items() if self.b.unit(uid).is_ranked and uid not in moved]
            for dm in getattr(self, "models", None) or []:
                if not dm.unit.is_ranked or dm.slot_from is not None or dm.unit.id in moved:
                    x0, y0, x1, y1 = dm.shape.bbox()
                    p0, p1 = self.v.to_px((x0, y0)), self.v.to_px((x1, y1))
                    boxes.append((p0[0], p0[1], p1[0], p1[1]))
            self._avoid = boxes
        return self._avoid

    # -- terrain ---------------------------------------------------------------------------
    def terrain_label(self, t: dict, pts: Sequence[Point]) -> None:
        """The terrain's name, small: inside the polygon when it fits with room to spare, else
        beside it (below, above, right, left), the first spot clear of units and labels."""
        text = f"{t.get('name', 'terrain')} (impassable)"
        size = self.size(10)
        tw, th = self.c.text_size(text, size)
        x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
        x1, y1 = max(p[0] for p in pts), max(p[1] for p in pts)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        pad = self.u(2)
        if tw <= 0.6 * (x1 - x0) and th <= 0.4 * (y1 - y0):
            cands = [(cx - tw / 2, cy - th / 2)]
        else:
            gap = self.u(4)
            cands = [(cx - tw / 2, y1 + gap), (cx - tw / 2, y0 - gap - th), (x1 + gap, cy - th / 2),
                     (x0 - gap - tw, cy - th / 2)]
        boxes = [(x - pad, y - pad, x + tw + pad, y + th + pad) for x, y in cands]
        b = self.placer.best(boxes, self.unit_boxes())
        self.placer.add(b)
        self.c.text((b[0] + pad, b[1] + pad), text, size, self.pal["label"], anchor="topleft",
                    background=self.pal["label_bg"])

    # -- units -----------------------------------------------------------------------------
    def unit_label(self, u: Unit, index: int) -> None:
        """The unit's name behind it (away from its front), else on another side, the first
        spot clear of every unit, label, badge and marker; underlined in the player colour."""
        self.c.tag = f"label:{u.id}"
        text = unit_caption(u, index, ids=self.o.ids, letters=self.o.letters)
        size = self.size(13)
        tw, th = self.c.text_size(text, size, True)
        ub = self.drawn_box(u.id) or self.px_bbox(u)
        cx, cy = (ub[0] + ub[2]) / 2, (ub[1] + ub[3]) / 2
        gap, pad = self.u(6), self.u(3)
        back = g.scale(g.forward(u.facing_deg), -1)
        cands = []
        for k in range(8):  # each side at increasing distances, so a crowded combat pushes a label clear
            step = k * (th + self.u(6))
            for d in (back, (0, 1), (0, -1), g.forward(u.facing_deg), (1, 0), (-1, 0)):
                if abs(d[1]) >= abs(d[0]):
                    y = ub[3] + gap + step if d[1] > 0 else ub[1] - gap - th - step
                    cands += [(cx - tw / 2, y), (ub[0], y), (ub[2] - tw, y)]
                else:
                    x = ub[2] + gap + step if d[0] > 0 else ub[0] - gap - tw - step
                    cands += [(x, cy - th / 2), (x, ub[1]), (x, ub[3] - th)]
        boxes = [(x - pad, y - pad, x + tw + pad, y + th + pad) for x, y in cands]
        b = self.placer.best(boxes, self.unit_boxes())
        self.placer.add(b)
        x, y = b[0] + pad, b[1] + pad
        col = player_colour(self.pal, u.player)
        self.c.text((x, y), text, size, self.pal["label"], anchor="topleft", bold=True, background=self.pal["label_bg"])
        lw = self.u(2.5)
        self.c.line([(x - pad, y + th + pad - lw / 2), (x + tw + pad, y + th + pad - lw / 2)], col, lw)

    def badge(self, entry: Any) -> None:
        """The numbered fight-order badge (with "FF" for Fights First) at a corner of the unit
        (``entry`` a :class:`~game.core.parts.FightSelection`), the first corner clear of every
        label, badge and marker (registered too)."""
        uid = entry.unit
        self.c.tag = f"badge:{uid}"
        u = self.b.unit(uid)
        ub = self.drawn_box(uid) or self.px_bbox(u)
        r = self.u(11)
        ff = bool(entry.fights_first)
        ff_w = (self.c.text_size("FF", self.size(11), True)[0] + self.u(6)) if ff else 0.0

        def box(c: Point) -> Box:
            return (c[0] - r - 1, c[1] - r - 1, c[0] + r + 2 + ff_w, c[1] + r + 1)

        corners = [(ub[0] + r, ub[1] + r), (ub[2] - r - ff_w, ub[1] + r), (ub[0] + r, ub[3] - r),
                   (ub[2] - r - ff_w, ub[3] - r)]
        out = 2 * r + self.u(4)
        corners += [(ub[0] - r, ub[1] - r), (ub[2] + r - ff_w, ub[1] - r), (ub[0] - r, ub[3] + r),
                    (ub[2] + r - ff_w, ub[3] + r), (ub[0] - r, ub[1] - r - out), (ub[2] + r - ff_w, ub[3] + r + out),
                    (ub[0] - r - out, ub[1] + r), (ub[2] + r + out, ub[1] + r)]
        b = self.placer.best([box(c) for c in corners])
        self.placer.add(b)
        c = (b[0] + r + 1, b[1] + r + 1)
        self.c.circle(c, r, fill=self.pal["badge"], outline=self.pal["badge_text"], width=self.u(1.5))
        self.c.text(c, str(entry.order), self.size(13), self.pal["badge_text"], anchor="center", bold=True)
        if ff:
            self.c.text((c[0] + r + self.u(3), c[1]), "FF", self.size(11), self.pal["label"], anchor="left", bold=True,
                        background=self.pal["label_bg"])

    # -- on the models ---------------------------------------------------------------------
    def count_mark(self, dm: Any, attacks: Any) -> None:
        """``x2`` on a model that makes other than one attack, in its rear corner (clear of the
        front marker), sized to the base (at least the smallest font); where no spot on the base
        is free, the middle of its rear or a side, then just behind or beside it."""
        self.c.tag = f"count:{dm.id}"
        text = f"×{_fmt_attacks(attacks)}"
        b = dm.shape.bbox()
        p0, p1 = self.v.to_px((b[0], b[1])), self.v.to_px((b[2], b[3]))
        bw, bh = p1[0] - p0[0], p1[1] - p0[1]
        ss = self.o.supersample
        # never left out: the legend counts every model making other than one attack, so each
        # carries its badge (at least the smallest font, on the least crowded spot)
        size = max(6 * ss, int(min(self.size(11), bh * 0.34, bw * 0.34) / ss) * ss)
        tw, th = self.c.text_size(text, size, True)
        pad = max(1.0, 0.22 * size)
        ranked = dm.unit.is_ranked
        if ranked:  # a corner of the base, the rear right first (clear of the front marker)
            f, r = g.forward(dm.unit.facing_deg), g.right(dm.unit.facing_deg)
            c = dm.shape.center
            hw, hd = dm.unit.base_w / 2, dm.unit.base_d / 2
            dx = max(0.0, hw - (tw / 2 + pad) / self.v.scale - 0.05 * hw)
            dy = max(0.0, hd - (th / 2 + pad) / self.v.scale - 0.05 * hd)
            spots = [g.add(c, g.add(g.scale(r, sx * dx), g.scale(f, sy * dy))) for sx, sy in
                     ((1, -1), (-1, -1), (1, 1), (-1, 1), (0, -1), (1, 0), (-1, 0))]
            back, side = hd + (th / 2 + pad) / self.v.scale, hw + (tw / 2 + pad) / self.v.scale
            spots += [g.add(c, g.scale(f, -back)), g.add(c, g.scale(r, side)), g.add(c, g.scale(r, -side))]
            cands = [self.v.to_px(p) for p in spots]
        else:  # lower right inside a round base, clear of a mark in its middle
            k = 0.3 if bw > 2.6 * tw else 0.0
            cands = [(p0[0] + bw * (0.5 + k), p0[1] + bh * (0.5 + k)), (p0[0] + bw * (0.5 - k), p0[1] + bh * (0.5 + k)),
                     (p0[0] + bw * 0.5, p0[1] + bh * 0.5)]
        boxes = [(x - tw / 2 - pad, y - th / 2 - pad * 0.6, x + tw / 2 + pad, y + th / 2 + pad * 0.6) for x, y in cands]
        b = self.placer.best(boxes)
        pos = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
        self.c.text(pos, text, size, (255, 255, 255), anchor="center", bold=True, background=(20, 20, 20, 200))
        self.placer.add(b)

    def divide_mark(self, dm: Any, n_units: int) -> None:
        """A model touching several enemy units (it may divide its attacks): a small white ring
        with a black edge and a bar, in the rear left of a ranked base (clear of the front
        marker and the count), in the middle of another; explained in the legend."""
        self.c.tag = f"divide:{dm.id}"
        b = dm.shape.bbox()
        p0, p1 = self.v.to_px((b[0], b[1])), self.v.to_px((b[2], b[3]))
        side = min(p1[0] - p0[0], p1[1] - p0[1])
        r = max(2.0, side * 0.17)
        if dm.unit.is_ranked:
            f, rt = g.forward(dm.unit.facing_deg), g.right(dm.unit.facing_deg)
            d = (side * 0.5 - r - self.u(1.5)) / self.v.scale
            cx, cy = self.v.to_px(g.add(dm.shape.center, g.add(g.scale(rt, -d), g.scale(f, -d))))
        else:
            cx, cy = (p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2
            r = max(2.0, side * 0.3)
        self.c.circle((cx, cy), r, fill=None, outline=(20, 20, 20), width=self.u(2.6))
        self.c.circle((cx, cy), r, fill=None, outline=(255, 255, 255), width=self.u(1.3))
        self.c.line([(cx - r * 0.55, cy), (cx + r * 0.55, cy)], (255, 255, 255), self.u(1.3))
        self.placer.add((cx - r - self.u(1.3), cy - r - self.u(1.3), cx + r + self.u(1.3), cy + r + self.u(1.3)))


def _fmt_attacks(v: Any) -> str:
    if isinstance(v, float) and not math.isfinite(v):
        return "?"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def link_box(a: Point, b: Point, width: float) -> Box:
    """The px box of a straight link from ``a`` to ``b`` ``width`` px wide."""
    return (min(a[0], b[0]) - width, min(a[1], b[1]) - width, max(a[0], b[0]) + width, max(a[1], b[1]) + width)


def first_free(placer: Placer, boxes: Sequence[Box]) -> Optional[Box]:
    """The first of ``boxes`` free of every taken box and inside the area (None if none is)."""
    for b in boxes:
        if placer.score(b) <= 0:
            return b
    return None
