"""The one drawing routine: ``draw_scene(canvas, board, analysis, view, *, options)``.

A pure function of (board, analysis, view, options) drawing on any :class:`~game.render.canvas.Canvas`
(window, PNG, SVG, recording), like ``chess.svg.board``: display options are keyword-only
fields of :class:`SceneOptions`, colours a dict of named roles (:data:`game.render.palette.PALETTE`)
the caller may override.

Lengths: every stroke width, marker and font size is given in *design units* and multiplied by
``SceneOptions.font_scale`` (px per unit). The window draws at 1 px per unit; a print figure at
``dpi / 125`` px per unit, so one unit prints as 1/125 inch (0.2 mm, 0.58 pt): base outlines
0.2 mm, body text 7.5 pt, at any dpi, in PNG and SVG alike (:mod:`game.render.figure`).

What is drawn, back to front: the table, terrain (hatched), objectives, reach zones
(a ``MoveReach`` part), movement trays (player colour), combat slots
(a ``CombatSlots`` part), every base to scale filled by role (attack red, support blue, none grey;
with outline styles and hatching too when the palette asks for ``patterns``), ghosts where
rule-mandated moves start (a model allocated to a combat slot stands in it, its place in the
unit a ghost), compare marks, overlapping bases (cross-hatched), attack counts and
dividing-attack marks, moves (arrows), front markers, gap links (dashed, over the markers),
fight-sequence badges, unit labels (:mod:`game.render.labels`: one collision pass keeps every
label, badge and marker clear of the others and inside the table), hover/selection
highlights, then the panels: title (wrapped), legend (:mod:`game.render.legend`), status line,
error banner and warning line, tooltip (:mod:`game.render.window_layers`).

Every element is drawn inside its own ``try``; a failure is recorded in the returned list of
error strings and drawing goes on, so an odd board never kills the window.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from game.core import geometry as g
from game.core.board import Board, Unit, empty_slots
from game.core.parts import OffTable
from game.core.ruleset import load_ruleset

from game.render.canvas import Canvas, cross_hatch, ellipsize, hatch_segments, wrap
from game.render.drawn import DrawnModel, _moved, _shape_at, circle_pts, drawn_models, font_px
from game.render.labels import LabelPainter, link_box
from game.render import move_marks
from game.render import gap_marks
from game.render import part_marks  # noqa: F401 - registers the drawers of the core part types
from game.render.drawers import drawn_parts
from game.render.legend import DIFFER_COLOUR, LegendPainter, attacks_of, divides
from game.render.palette import LINE_UNITS, PALETTE, player_colour, with_alpha
from game.render.window_layers import WindowPainter
from game.render.painter import Layout, SceneOptions  # noqa: F401 (SceneOptions is imported from here too)
from game.render.transform import View

Point = tuple[float, float]
TITLE_SIZE, TITLE_LINE = 18, 22  # title font and extra line height (units)


def layout(width: int, height: int, *, legend: bool = True, title: bool = True, status: bool = False,
           panel_width: int = 270, font_scale: float = 1.0, top_inset: int = 0, title_lines: int = 1) -> Layout:
    """Split a ``width`` x ``height`` canvas into the table area, the legend panel on the right,
    a title bar on top (``title_lines`` lines, plus ``top_inset`` px under it) and a status
    line at the bottom."""
    th = (int((34 + TITLE_LINE * (max(1, title_lines) - 1)) * font_scale) if title else 0) + int(top_inset)
    sh = int(24 * font_scale) if status else 0
    pw = int(min(panel_width * font_scale, width * 0.45)) if legend else 0
    return Layout(table=(0, th, width - pw, height - th - sh),
                  panel=(width - pw, th, pw, height - th - sh) if legend else None,
                  title=(0, 0, width, th - int(top_inset)) if title else None,
                  status=(0, height - sh, width, sh) if status else None)


def ruleset_name(ruleset_id: Any) -> str:
    """The display name of a ruleset id (the id itself when it does not load)."""
    try:
        return str(load_ruleset(str(ruleset_id)).name or ruleset_id)
    except Exception:
        return str(ruleset_id)


def ruleset_inline(canvas: Canvas, options: SceneOptions, ruleset: Any) -> bool:
    """Does the ruleset's name fit on the right of the title bar (at most 30 % of the width)?
    A figure too narrow for it puts the name on a line of its own under the title."""
    if not options.wrap_title:
        return True
    rw = canvas.text_size(ruleset_name(ruleset), font_px(13 * options.font_scale, options.supersample))[0]
    return rw <= 0.3 * canvas.width


def title_lines(canvas: Canvas, board: Board, options: SceneOptions, ruleset: Any = None) -> list[str]:
    """The title as drawn: one line (cut with an ellipsis) in the window, wrapped in figures."""
    title = str(board.title if options.title is None else options.title)
    if not title:
        return []
    fs = options.font_scale
    size = font_px(TITLE_SIZE * fs, options.supersample)
    rs = ruleset or board.ruleset
    right = ruleset_name(rs) if options.wrap_title else f"ruleset: {rs}"
    rw = canvas.text_size(right, font_px(13 * fs, options.supersample))[0] if ruleset_inline(canvas, options, rs) else 0
    avail = canvas.width - rw - 52 * fs
    if not options.wrap_title:
        return [ellipsize(canvas, title, size, avail, bold=True)]
    return wrap(canvas, title, size, avail, bold=True)


def scene_layout(canvas: Canvas, board: Board, options: SceneOptions, ruleset: Any = None) -> Layout:
    """The :func:`layout` ``draw_scene`` uses for these options."""
    title = board.title if options.title is None else options.title
    n = len(title_lines(canvas, board, options, ruleset)) if (title and options.wrap_title) else 1
    rs = ruleset or board.ruleset
    if title and not ruleset_inline(canvas, options, rs) and title_lines(canvas, board, options, rs) != [ruleset_name(rs)]:
        n += 1  # the ruleset's name on a line of its own
    return layout(canvas.width, canvas.height, legend=options.legend, title=bool(title), status=bool(options.status),
                  panel_width=options.panel_width, font_scale=options.font_scale, top_inset=options.top_inset,
                  title_lines=n)


def units_bbox(board: Board, analysis: Any = None, margin_mm: float = 0.0) -> tuple[float, float, float, float]:
    """Bounding box (x0, y0, x1, y1) mm of every tray and base (and analysed positions)."""
    xs: list[float] = []
    ys: list[float] = []
    for u in board.units:
        try:
            shapes = [u.tray()] if u.is_ranked else [m.shape for m in u.models()]
            for s in shapes:
                b = s.bbox()
                xs += [b[0], b[2]]
                ys += [b[1], b[3]]
        except Exception:
            continue
    for t in board.terrain:
        for p in t.get("points", []):
            xs.append(p[0])
            ys.append(p[1])
    for p in (board.context or {}).get("objectives", []) or []:
        xs += [p[0] - 20, p[0] + 20]
        ys += [p[1] - 20, p[1] + 20]
    if not xs:
        return (0.0, 0.0, board.table[0], board.table[1])
    return (min(xs) - margin_mm, min(ys) - margin_mm, max(xs) + margin_mm, max(ys) + margin_mm)


def fit_view(canvas_w: int, canvas_h: int, board: Board, options: SceneOptions, *, margin_mm: float = 60.0,
             whole_table: bool = False) -> View:
    """The view that shows every unit (or the whole table) in the table area of the layout."""
    title = board.title if options.title is None else options.title
    lay = layout(canvas_w, canvas_h, legend=options.legend, title=bool(title), status=bool(options.status),
                 panel_width=options.panel_width, font_scale=options.font_scale, top_inset=options.top_inset)
    box = (0.0, 0.0, board.table[0], board.table[1]) if whole_table else units_bbox(board, margin_mm=margin_mm)
    return View.fit(box, lay.table, margin_px=12)


# ----------------------------------------------------------------------------------------------
class _Painter(LabelPainter, LegendPainter, WindowPainter):  # the layers share PainterState
    """State of one ``draw_scene`` call (canvas, view, palette, placer, error log)."""

    def __init__(self, canvas: Canvas, board: Board, analysis: Any, view: View, options: SceneOptions):
        self.c, self.b, self.a, self.v, self.o = canvas, board, analysis, view, options
        self.pal = dict(PALETTE)
        self.pal.update(options.palette or {})
        self.errors: list[str] = []
        self.fs = options.font_scale
        self.lay = scene_layout(canvas, board, options, ruleset_of(analysis))
        self.models: list[DrawnModel] = []
        self._unit_boxes: dict = {}
        self.init_placer()

    def safe(self, what: str, fn: Callable, *args: Any) -> Any:
        tag = self.c.tag
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 - never let one element kill the frame
            self.errors.append(f"{what}: {type(exc).__name__}: {exc}")
            return None
        finally:
            self.c.tag = tag

    def role_fill(self, data: Any, role: str, kind: str) -> None:
        """Fill a base (``kind`` ``circle``: ``(centre, r)``; ``poly``: points px) in its role's
        colour; with palette ``patterns``, roles also differ without colour: attack a heavy
        black outline, support white hatching and a dashed outline, none a thin outline."""
        P, u = self.pal, self.u
        fill = P.get(role, P["none"])
        pts = circle_pts(*data) if kind == "circle" else data
        if kind == "circle":
            self.c.circle(data[0], data[1], fill=fill, outline=P["base_edge"], width=u(1))
        else:
            self.c.polygon(data, fill=fill, outline=P["base_edge"], width=u(1))
        if P.get("print") and not P.get("patterns") and role == "support":
            for a, b in hatch_segments(pts, u(4.5)):  # print: supports hatched, so greyscale tells them apart
                self.c.line([a, b], (255, 255, 255), u(LINE_UNITS["thin"]))
            return
        if not P.get("patterns"):
            return
        if role == "support":
            for a, b in hatch_segments(pts, u(5)):
                self.c.line([a, b], (255, 255, 255), u(1.3))
            self.c.line(list(pts) + [pts[0]], (0, 0, 0), u(1.4), dashed=True)
        elif role == "attack":
            self.c.polygon(pts, outline=(0, 0, 0), width=u(2.4))

    # -- table ---------------------------------------------------------------------------------
    def table(self) -> None:
        self.c.tag = "table"
        self.c.fill(self.pal["background"])
        w, h = self.b.table
        self.c.polygon(self.v.pts([(0, 0), (w, 0), (w, h), (0, h)]), fill=self.pal["table"],
                       outline=self.pal["table_edge"], width=self.u(2))
        step = 6 * g.MM_PER_INCH  # a faint 6-inch grid helps judge distances
        if self.pal.get("grid") is not None and step * self.v.scale >= 40 * self.fs:
            # only the lines on the canvas: a table of 1e308 mm costs what the screen shows
            (x0, y0), (x1, y1) = self.v.to_mm((0, 0)), self.v.to_mm((self.c.width, self.c.height))
            for lo_mm, hi_mm, size, vertical in ((min(x0, x1), max(x0, x1), w, True),
                                                 (min(y0, y1), max(y0, y1), h, False)):
                k = max(1, math.floor(max(lo_mm, 0.0) / step))
                end = min(hi_mm, size)
                n = 0
                while k * step < end and n < 400:
                    a = k * step
                    seg = [(a, max(0.0, min(y0, y1))), (a, min(h, max(y0, y1)))] if vertical else \
                        [(max(0.0, min(x0, x1)), a), (min(w, max(x0, x1)), a)]
                    self.c.line(self.v.pts(seg), self.pal["grid"], self.u(1))
                    k, n = k + 1, n + 1

    def terrain(self, t: dict) -> None:
        self.c.tag = f"terrain:{t.get('name', '')}"
        pts = self.v.pts(t["points"])
        self.c.polygon(pts, fill=self.pal["terrain"], outline=self.pal["terrain_edge"], width=self.u(2))
        for a, b in hatch_segments(pts, self.u(9)):
            self.c.line([a, b], self.pal["terrain_hatch"], self.u(1))
        self.terrain_label(t, pts)

    def objective(self, i: int, p: Point) -> None:
        self.c.tag = f"objective:{i}"
        c = self.v.to_px(p)
        r = max(self.u(6), 20.0 * self.v.scale)
        self.c.circle(c, r, fill=self.pal["objective"], outline=self.pal["objective_edge"], width=self.u(2))
        self.c.circle(c, r * 0.45, fill=None, outline=self.pal["objective_edge"], width=self.u(2))
        size = self.size(11)
        tw, th = self.c.text_size("Objective", size)
        self.placer.add((c[0] - r, c[1] - r, c[0] + r, c[1] + r), soft=True)
        gap, pad = self.u(2), self.u(1.5)
        spots = [(c[0] - tw / 2, c[1] + r + gap), (c[0] - tw / 2, c[1] - r - gap - th), (c[0] + r + gap, c[1] - th / 2),
                 (c[0] - r - gap - tw, c[1] - th / 2)]
        boxes = [(x - pad, y - pad, x + tw + pad, y + th + pad) for x, y in spots]
        models = self.models or (drawn_models(self.b, self.a) if self.a is not None else [])
        avoid = []
        for dm in models:  # the label keeps off every base (a model may stand on the objective)
            x0, y0, x1, y1 = dm.shape.bbox()
            p0, p1 = self.v.to_px((x0, y0)), self.v.to_px((x1, y1))
            avoid.append((p0[0], p0[1], p1[0], p1[1]))
        b = self.placer.best(boxes, avoid)
        self.placer.add(b)
        self.c.text((b[0] + pad, b[1] + pad), "Objective", size, self.pal["label"], anchor="topleft",
                    background=self.pal["label_bg"])

    # -- units ---------------------------------------------------------------------------------
    def tray(self, u: Unit, outline: bool = False) -> None:
        """The movement tray: a faint player-coloured fill under the bases, and (``outline``)
        a player-coloured frame drawn over them."""
        if not u.is_ranked:
            return
        self.c.tag = f"tray:{u.id}"
        col = player_colour(self.pal, u.player)
        pts = self.v.pts(u.tray().points)
        if outline:
            bold = LINE_UNITS["bold"] if self.pal.get("print") else 2.5  # print: the bold unit frame
            self.c.polygon(pts, fill=None, outline=col, width=self.u(bold))
            return
        if self.pal["tray_alpha"][0] > 0:
            self.c.polygon(pts, fill=with_alpha(col, self.pal["tray_alpha"][0]), outline=None)
        if self.pal.get("print"):
            self.empty_places(u)

    def empty_places(self, u: Unit) -> None:
        """Print style: each empty place in a ranked unit (``empty`` slots, e.g. a casualty's)
        hatched grey inside a dashed outline, so a gap never reads as a model that does not fight."""
        for rank, file in empty_slots(u):
            self.c.tag = f"empty:{u.id}.r{rank}f{file}"
            c = u.slot_center(rank, file)
            pts = self.v.pts(g.rect(c, u.base_w * 0.96, u.base_d * 0.96, u.facing_deg).points)
            for a, b in hatch_segments(pts, self.u(3.5)):
                self.c.line([a, b], self.pal["empty_hatch"], self.u(LINE_UNITS["hair"]))
            self.c.line(list(pts) + [pts[0]], self.pal["empty_hatch"], self.u(LINE_UNITS["thin"]), dashed=True)

    def model(self, dm: DrawnModel) -> None:
        self.c.tag = f"model:{dm.id}"
        kind, data = self.shape_px(dm.shape)
        self.role_fill(data, dm.role, kind)
        if not dm.unit.is_ranked:  # skirmishers carry their player colour on a ring
            self.draw_shape(dm.shape, None, player_colour(self.pal, dm.unit.player), self.u(2))

    def ghost_outline(self, s: g.Shape) -> None:
        kind, data = self.shape_px(s)
        if kind == "circle":
            centre, radius = data
            ring = circle_pts(centre, radius, n=32)
            self.c.line(ring + [ring[0]], self.pal["ghost"], self.u(1.2), dashed=True)
        else:
            self.c.line(list(data) + [data[0]], self.pal["ghost"], self.u(1.2), dashed=True)

    def ghost(self, mid: str, path: Sequence[Point]) -> None:
        self.c.tag = f"ghost:{mid}"
        dm = next((d for d in self.models if d.id == mid), None)
        if dm is None:
            return
        # one convention in every view: the model is drawn where it ends, its start is the ghost
        frm, to = path[0], path[-1]
        s = _shape_at(dm.unit, None, (frm[0], frm[1])) if dm.unit.is_ranked else _moved(dm.shape, to, frm)
        self.ghost_outline(s)

    def slot_move(self, dm: DrawnModel, frm: Point, to: Point) -> None:
        """A model allocated to a combat slot: a ghost at its place in the unit, an arrow to the slot."""
        self.c.tag = f"slotmove:{dm.id}"
        self.ghost_outline(_moved(dm.shape, to, frm))
        a, b = self.v.to_px(frm), self.v.to_px(to)
        L = math.hypot(b[0] - a[0], b[1] - a[1])
        if L > self.u(10):
            k = min(0.45, self.u(4) / L)
            self.c.arrow([(a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k), b], self.pal["slot_edge"],
                         self.u(1.5), head=self.u(6))

    def differ_mark(self, dm: DrawnModel) -> None:
        """A model that fights differently under the compared ruleset: dark hatching over the
        base (its role colour still shows between the lines) and a yellow ring edged in black."""
        self.c.tag = f"differ:{dm.id}"
        pts = self.outline_px(dm.shape)
        for a, b in hatch_segments(pts, self.u(5)):
            self.c.line([a, b], (20, 20, 20, 150), self.u(1.2))
        self.draw_shape(dm.shape, None, (20, 20, 20), self.u(4))
        self.draw_shape(dm.shape, None, self.pal.get("differ", DIFFER_COLOUR), self.u(2.2))

    def overlap_mark(self, dm: DrawnModel) -> None:
        """A base that overlaps another: cross-hatched in black over its role colour, ringed
        black with a white dashed line on the ring (unlike any role, selection or compare mark)."""
        self.c.tag = f"overlap:{dm.id}"
        pts = self.outline_px(dm.shape)
        col, dash = self.pal.get("overlap", (15, 15, 15)), self.pal.get("overlap_dash", (255, 255, 255))
        cross_hatch(self.c, pts, self.u(6), col, self.u(1.2))
        self.draw_shape(dm.shape, None, col, self.u(4))
        self.c.line(list(pts) + [pts[0]], dash, self.u(1.6), dashed=True)

    def gap_link(self, a: str, b: str, pos: dict) -> None:
        """A fight across a gap: a dashed line on a thin white casing, drawn over the front
        markers so a marker never hides it."""
        self.c.tag = f"gap:{a}|{b}"
        if a in pos and b in pos:
            p, q = self.v.to_px(pos[a]), self.v.to_px(pos[b])
            self.c.line([p, q], (255, 255, 255, 200), self.u(3.6))
            self.c.line([p, q], self.pal["gap_link"], self.u(2), dashed=True)
            self.placer.add(link_box(p, q, self.u(2)), soft=True)

    def move(self, mid: str, path: Sequence[Point]) -> None:
        self.c.tag = f"move:{mid}"
        if len(path) >= 2:
            pts = self.v.pts(path)
            self.c.arrow(pts, self.pal["move"], self.u(2.5), head=max(self.u(7), 6.0 * self.v.scale))
            for p, q in zip(pts, pts[1:]):
                self.placer.add(link_box(p, q, self.u(2)), soft=True)

    def front_marker(self, u: Unit) -> None:
        """A narrow arrowhead pointing along the facing, inside the middle of the front edge
        (registered, so labels and badges keep off it)."""
        if not u.is_ranked:
            return
        self.c.tag = f"front:{u.id}"
        d = min(u.base_d, u.base_w) * 0.55  # the front half of the middle base: its rear half holds marks
        size_mm = max(d, self.u(9) / max(self.v.scale, 1e-6))
        size_mm = min(size_mm, u.depth_mm * 0.9, u.width_mm * 0.5)
        f = g.forward(u.facing_deg)
        r = g.right(u.facing_deg)
        inset = min(u.base_d * 0.06, max(0.0, u.base_d - size_mm))
        tip = g.add(u.front, g.scale(f, -inset - size_mm * 0.05))
        back = g.add(u.front, g.scale(f, -inset - size_mm * 0.95))
        left = g.add(back, g.scale(r, -size_mm * 0.24))
        right = g.add(back, g.scale(r, size_mm * 0.24))
        col = player_colour(self.pal, u.player)
        pts = self.v.pts([tip, right, left])
        self.c.polygon(pts, fill=col, outline=(255, 255, 255), width=self.u(1.2))
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        self.placer.add((min(xs), min(ys), max(xs), max(ys)))

    # -- panels --------------------------------------------------------------------------------
    def title(self) -> None:
        if not self.lay.title:
            return
        self.c.tag = "title"
        x, y, w, h = self.lay.title
        self.c.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill=self.pal["title_bg"])
        rs = ruleset_of(self.a) or self.b.ruleset
        right = ruleset_name(rs) if self.o.wrap_title else f"ruleset: {rs}"
        lines = title_lines(self.c, self.b, self.o, rs)
        if lines == [right]:
            right = ""  # a compare panel: its title is the ruleset's name
        below = bool(right) and not ruleset_inline(self.c, self.o, rs)
        size = self.size(TITLE_SIZE)
        lh = TITLE_LINE * self.fs
        n = len(lines) + (1 if below else 0)
        top = y + h / 2 - lh * (n - 1) / 2
        if self.pal.get("title_rule") is not None:  # print: black on white, ruled off from the table
            self.c.line([(x, y + h - self.u(0.5)), (x + w, y + h - self.u(0.5))], self.pal["title_rule"],
                        self.u(LINE_UNITS["thin"]))
        for i, ln in enumerate(lines):
            self.c.text((x + self.u(14), top + i * lh), ln, size, self.pal["title_text"], anchor="left", bold=True)
        if below:
            self.c.text((x + self.u(14), top + len(lines) * lh), right, self.size(13), self.pal["title_text"], anchor="left")
        else:
            self.c.text((x + w - self.u(14), y + h / 2), right, self.size(13), self.pal["title_text"], anchor="right")

    def scale_bar(self) -> None:
        """A bar of a whole number of inches (at least 70 units) in the bottom-left corner."""
        self.c.tag = "scale_bar"
        tl, tt, tw, th = self.lay.table
        inches = 1
        while inches * g.MM_PER_INCH * self.v.scale < 70 * self.fs and inches < 48:
            inches *= 2
        L = inches * g.MM_PER_INCH * self.v.scale
        x0, y0 = tl + 14 * self.fs, tt + th - 14 * self.fs
        self.c.line([(x0, y0), (x0 + L, y0)], self.pal["scale_bar"], 3 * self.fs)
        for x in (x0, x0 + L):
            self.c.line([(x, y0 - 5 * self.fs), (x, y0 + 1)], self.pal["scale_bar"], 2 * self.fs)
        text = f'{inches}" = {inches * g.MM_PER_INCH:.1f} mm'
        size = self.size(11)
        tw_, th_ = self.c.text_size(text, size)
        self.placer.add((x0 - self.u(2), y0 - th_, x0 + L + self.u(10) + tw_, y0 + th_ / 2 + self.u(2)))
        self.c.text((x0 + L + 8 * self.fs, y0), text, size, self.pal["scale_bar"], anchor="left",
                    background=self.pal["label_bg"])


def legend_painter(canvas: Canvas, board: Board, analysis: Any, options: SceneOptions) -> "_Painter":
    """A scene painter on ``canvas`` for drawing legend swatches outside a scene (the one
    legend of a multi-panel figure: :mod:`game.render.figure_panels`)."""
    return _Painter(canvas, board, analysis, View(), options)


def draw_scene(canvas: Canvas, board: Board, analysis: Any, view: View, *, options: Optional[SceneOptions] = None,
               models: Optional[list[DrawnModel]] = None) -> list[str]:
    """Draw ``board`` with its ``analysis`` (may be ``None``) on ``canvas`` through ``view``.

    Returns the list of per-element errors (empty when everything drew); never raises for a
    bad board or analysis. See the module docstring for what is drawn.
    """
    o = options or SceneOptions()
    p = _Painter(canvas, board, analysis, view, o)
    layer = o.layer
    if layer in ("all", "base"):
        p.safe("table", p.table)
        p.safe("scale bar", p.scale_bar)  # placed first: labels keep off it
        for t in board.terrain or []:
            p.safe("terrain", p.terrain, t)
        for i, pt in enumerate((board.context or {}).get("objectives", []) or []):
            p.safe("objective", p.objective, i, pt)
        stage(p, analysis, "table")
    if layer in ("top", "panel"):
        p.models = models if models is not None else (p.safe("models", drawn_models, board, analysis) or [])
    else:
        _draw_units(p, board, analysis, o, models)
    if layer in ("all", "top"):
        p.safe("highlight", p.highlight)
        for item in o.overlays or []:
            p.safe("overlay", p.overlay, item)
    if layer in ("all", "base", "units"):
        stage(p, analysis, "labels")
        shown = None if o.visible is None else {dm.unit.id for dm in p.models if dm.id in o.visible}
        off = analysis.part(OffTable) if analysis is not None else None
        if o.labels:
            for i, u in enumerate(board.units):
                if off is not None and off.whole_unit([m.id for m in part_marks._models(u)]):
                    continue  # embarked or destroyed: not on the table, no label
                if shown is None or u.id in shown:  # a unit cropped out of the figure gets no label
                    p.safe(f"label {u.id}", p.unit_label, u, i)
    if layer in ("all", "base", "panel"):
        p.safe("panel", p.panel)
    if layer in ("all", "top"):
        p.safe("title", p.title)
        p.safe("status", p.status)
        p.safe("banner", p.banner)
        p.safe("tooltip", p.tooltip)
    if o.placed is not None:
        o.placed.extend(p.placer.taken)
    canvas.tag = ""
    return p.errors


def _draw_units(p: "_Painter", board: Board, analysis: Any, o: SceneOptions, models: Optional[list[DrawnModel]]) -> None:
    """Trays, bases and every mark drawn on or between them (moves, gaps, counts, fronts)."""
    for u in board.units:
        p.safe(f"tray {u.id}", p.tray, u)
    stage(p, analysis, "under")
    # ``models``: drawn_models(board, analysis) already computed by the caller (the window
    # keeps them for hovering), so a frame does not build them twice
    p.models = models if models is not None else (p.safe("models", drawn_models, board, analysis) or [])
    for dm in p.models:
        p.safe(f"model {dm.id}", p.model, dm)
    moves = analysis.moves if analysis is not None else {}
    for mid, path in moves.items():
        p.safe(f"ghost {mid}", p.ghost, mid, path)
    for dm in p.models:
        if dm.slot_from is not None:
            p.safe(f"slot move {dm.id}", p.slot_move, dm, dm.slot_from, dm.shape.center)
    for dm in p.models:
        if dm.id in (o.differ or {}):
            p.safe(f"differ {dm.id}", p.differ_mark, dm)
    over = set(o.overlaps or ())
    for dm in p.models:
        if dm.id in over:
            p.safe(f"overlap {dm.id}", p.overlap_mark, dm)
    for dm in p.models:
        if divides(analysis, dm.id) > 1:
            p.safe(f"divide {dm.id}", p.divide_mark, dm, divides(analysis, dm.id))
    drawn_moves = p.safe("uncross moves", move_marks.uncrossed, analysis, p.models) or moves
    for mid, path in drawn_moves.items():
        p.safe(f"move {mid}", p.move, mid, path)
    p.safe("move marks", move_marks.draw, p, analysis, drawn_moves)
    stage(p, analysis, "over")
    for u in board.units:
        p.safe(f"tray {u.id}", p.tray, u, True)
        p.safe(f"front {u.id}", p.front_marker, u)
    numbered = stage(p, analysis, "ranks")
    if o.counts:
        for dm in p.models:
            n = attacks_of(analysis, dm.id)
            if dm.role != "none" and n != 1 and dm.id not in numbered:
                p.safe(f"count {dm.id}", p.count_mark, dm, n)
    p.safe("gap arrows", gap_marks.draw, p, analysis, o.gap_letter_start, o.gap_lettered)


def stage(p: "_Painter", analysis: Any, at: str) -> set[str]:
    """Draw every part of ``analysis`` whose drawer draws at stage ``at`` (see
    :mod:`game.render.drawers`); returns the model ids the drawers numbered."""
    out: set[str] = set()
    for d, part in drawn_parts(analysis, at):
        if d.draw is None:
            continue
        got = p.safe(f"{type(part).__name__}", d.draw, p, part, analysis)
        if isinstance(got, set):
            out |= got
    return out


def ruleset_of(analysis: Any) -> Optional[str]:
    """The ruleset id an analysis was made under (None: no analysis)."""
    return analysis.ruleset if analysis is not None else None
