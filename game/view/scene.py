"""The one drawing routine: ``draw_scene(canvas, board, analysis, view, *, options)``.

A pure function of (board, analysis, view, options) drawing on any :class:`~game.view.canvas.Canvas`
(window, PNG, recording; SVG later), like ``chess.svg.board``: display options are
keyword-only fields of :class:`SceneOptions`, colours a dict of named roles
(:data:`game.view.palette.PALETTE`) the caller may override.

What is drawn, back to front: the table, terrain (hatched), objectives, reach zones
(``extra["move_reach_mm"]``), movement trays (player colour), every base to scale filled by
role (attack red, support blue, none grey), ghosts where rule-mandated moves start, combat
slots (``extra["slots"]``), compare marks, overlapping bases (cross-hatched), gap links
(dashed), moves (arrows), front markers, fight-sequence badges (``extra["fight_sequence"]``),
unit labels placed clear of the trays, hover/selection highlights, then the panels: title,
legend with strike order, allocation and fight sequence, status line, error banner and
warning line, tooltip.

Every element is drawn inside its own ``try``; a failure is recorded in the returned list of
error strings and drawing goes on, so an odd board never kills the window.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from game.core import geometry as g
from game.core.board import Board, Unit, base_shape

from .canvas import Canvas
from .palette import PALETTE, player_colour, with_alpha
from .transform import View

Point = tuple[float, float]
ROLE_LABEL = {"attack": "Fights (in base contact or across a gap)", "support": "Supporting attack",
              "none": "Does not fight"}
ROLE_WORD = {"attack": "fights (red)", "support": "makes a supporting attack (blue)", "none": "does not fight (grey)"}


@dataclass
class SceneOptions:
    """Display options of :func:`draw_scene` (all optional).

    ``palette``: colour overrides merged over :data:`PALETTE`; ``legend``: draw the side panel;
    ``title``: caption (``None``: the board's title; ``""``: none); ``hover``: model id under the
    cursor and ``hover_px`` the cursor (canvas px) for its tooltip; ``selection``: unit ids drawn
    highlighted; ``status``: text of the bottom status line; ``banner``: an error shown in red
    at the top; ``labels``: unit labels on/off; ``panel_width``: legend panel width (px);
    ``overlays``: extra items the window adds (``("tape", p0_mm, p1_mm, text)``,
    ``("ghost_unit", Unit)``, ``("text", (x, y) px, string)``); ``font_scale``: multiplies
    every text size (figures for print); ``top_inset``: px kept free under the title (the
    window's toolbar); ``differ``: ``{model id: tooltip line}`` of models whose role or attacks
    differ under another ruleset (drawn hatched and ringed, e.g. ``"Under t9a: support x2"``)
    and ``differ_label`` its legend entry (``"Differs under t9a"``); ``overlaps``: ids of
    models whose bases overlap another base (cross-hatched, with a black and white dashed
    ring, and a legend row; see :func:`game.core.checks.overlapping_bases`); ``warning``: a
    line shown in an amber band at the top of the table (under any error banner).
    """

    palette: dict = field(default_factory=dict)
    legend: bool = True
    title: Optional[str] = None
    hover: Optional[str] = None
    hover_px: Optional[Point] = None
    selection: Sequence[str] = ()
    status: str = ""
    banner: str = ""
    labels: bool = True
    panel_width: int = 270
    overlays: list = field(default_factory=list)
    font_scale: float = 1.0
    top_inset: int = 0
    differ: dict = field(default_factory=dict)
    differ_label: str = ""
    overlaps: Sequence[str] = ()
    warning: str = ""


DIFFER_COLOUR = (255, 210, 0)


@dataclass
class Layout:
    """Pixel areas ``(left, top, width, height)`` of the table view, panel, title and status."""

    table: tuple
    panel: Optional[tuple]
    title: Optional[tuple]
    status: Optional[tuple]


@dataclass
class DrawnModel:
    """A model as drawn: id, unit, base shape (table mm, at its analysed position), role."""

    id: str
    unit: Unit
    shape: g.Shape
    role: str


def layout(width: int, height: int, *, legend: bool = True, title: bool = True, status: bool = False,
           panel_width: int = 270, font_scale: float = 1.0, top_inset: int = 0) -> Layout:
    """Split a ``width`` x ``height`` canvas into the table area, the legend panel on the right,
    a title bar on top (plus ``top_inset`` px under it) and a status line at the bottom."""
    th = (int(34 * font_scale) if title else 0) + int(top_inset)
    sh = int(24 * font_scale) if status else 0
    pw = int(min(panel_width * font_scale, width * 0.45)) if legend else 0
    return Layout(table=(0, th, width - pw, height - th - sh),
                  panel=(width - pw, th, pw, height - th - sh) if legend else None,
                  title=(0, 0, width, th - int(top_inset)) if title else None,
                  status=(0, height - sh, width, sh) if status else None)


def scene_layout(canvas: Canvas, board: Board, options: SceneOptions) -> Layout:
    """The :func:`layout` ``draw_scene`` uses for these options."""
    title = board.title if options.title is None else options.title
    return layout(canvas.width, canvas.height, legend=options.legend, title=bool(title), status=bool(options.status),
                  panel_width=options.panel_width, font_scale=options.font_scale, top_inset=options.top_inset)


def units_bbox(board: Board, analysis: Any = None, margin_mm: float = 0.0) -> tuple[float, float, float, float]:
    """Bounding box (x0, y0, x1, y1) mm of every tray and base (and analysed positions)."""
    xs: list[float] = []
    ys: list[float] = []
    for u in board.units:
        try:
            shapes = [u.tray()] if u.kind == "ranked" else [m.shape for m in u.models()]
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


def drawn_models(board: Board, analysis: Any) -> list[DrawnModel]:
    """Every model as the figure draws it: analysed models at their ``at`` position (after any
    rule-mandated move), plus board models the analysis does not mention (role ``none``),
    except the vacated start of a move."""
    out: list[DrawnModel] = []
    units = {u.id: u for u in board.units}
    board_models = {}
    for u in board.units:
        try:
            for m in u.models():
                board_models[m.id] = (u, m)
        except Exception:
            continue
    amodels = getattr(analysis, "models", None) or {}
    moves = getattr(analysis, "moves", None) or {}
    for mid, r in amodels.items():
        uid = mid.split(".", 1)[0]
        u = units.get(uid)
        if u is None:
            continue
        at = tuple(r.at) if r.at is not None else None
        if mid in board_models and (at is None or g.dist(at, board_models[mid][1].center) < 1e-6):
            shape = board_models[mid][1].shape
        else:
            shape = _shape_at(u, board_models.get(mid, (None, None))[1], at)
        out.append(DrawnModel(mid, u, shape, r.role))
    starts = [tuple(p[0]) for p in moves.values() if p]
    for mid, (u, m) in board_models.items():
        if mid in amodels:
            continue
        if any(g.dist(m.center, s) < 0.5 for s in starts):
            continue
        out.append(DrawnModel(mid, u, m.shape, "none"))
    return out


def _shape_at(u: Unit, m: Any, at: Point) -> g.Shape:
    if u.kind == "ranked":
        return g.rect(at, u.base_w, u.base_d, u.facing_deg)
    if m is not None:
        if isinstance(m.shape, g.Circle):
            return g.Circle(at, m.shape.radius_mm)
        dx, dy = at[0] - m.center[0], at[1] - m.center[1]
        return g.Poly(tuple((p[0] + dx, p[1] + dy) for p in m.shape.points))
    return base_shape(u.base, at, u.facing_deg)


def model_at(models: Sequence[DrawnModel], p_mm: Point) -> Optional[DrawnModel]:
    """The drawn model whose base contains table point ``p_mm`` (last drawn wins)."""
    for dm in reversed(models):
        s = dm.shape
        if isinstance(s, g.Circle):
            if g.dist(p_mm, s.center) <= s.radius_mm:
                return dm
        elif g.point_in_poly(p_mm, s.points):
            return dm
    return None


# ----------------------------------------------------------------------------------------------
class _Painter:
    """State of one ``draw_scene`` call (canvas, view, palette, error log)."""

    def __init__(self, canvas: Canvas, board: Board, analysis: Any, view: View, options: SceneOptions):
        self.c, self.b, self.a, self.v, self.o = canvas, board, analysis, view, options
        self.pal = dict(PALETTE)
        self.pal.update(options.palette or {})
        self.errors: list[str] = []
        self.fs = options.font_scale
        self.lay = scene_layout(canvas, board, options)
        self.models: list[DrawnModel] = []
        self.label_boxes: list[tuple] = []
        self._unit_boxes: Optional[dict] = None

    def safe(self, what: str, fn: Callable, *args: Any) -> Any:
        tag = self.c.tag
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 - never let one element kill the frame
            self.errors.append(f"{what}: {type(exc).__name__}: {exc}")
            return None
        finally:
            self.c.tag = tag

    def size(self, px: float) -> int:
        return max(7, int(round(px * self.fs)))

    def shape_px(self, s: g.Shape) -> tuple[str, Any]:
        if isinstance(s, g.Circle):
            return "circle", (self.v.to_px(s.center), s.radius_mm * self.v.scale)
        return "poly", self.v.pts(s.points)

    def draw_shape(self, s: g.Shape, fill: Any, outline: Any, width: float) -> None:
        kind, data = self.shape_px(s)
        if kind == "circle":
            self.c.circle(data[0], data[1], fill=fill, outline=outline, width=width)
        else:
            self.c.polygon(data, fill=fill, outline=outline, width=width)

    # -- table ---------------------------------------------------------------------------------
    def table(self) -> None:
        self.c.tag = "table"
        self.c.fill(self.pal["background"])
        w, h = self.b.table
        self.c.polygon(self.v.pts([(0, 0), (w, 0), (w, h), (0, h)]), fill=self.pal["table"],
                       outline=self.pal["table_edge"], width=2)
        # a faint 6-inch grid helps judge distances
        step = 6 * g.INCH_MM
        if step * self.v.scale >= 40:
            x = step
            while x < w:
                self.c.line(self.v.pts([(x, 0), (x, h)]), self.pal["grid"], 1)
                x += step
            y = step
            while y < h:
                self.c.line(self.v.pts([(0, y), (w, y)]), self.pal["grid"], 1)
                y += step

    def terrain(self, t: dict) -> None:
        self.c.tag = f"terrain:{t.get('name', '')}"
        pts = self.v.pts(t["points"])
        self.c.polygon(pts, fill=self.pal["terrain"], outline=self.pal["terrain_edge"], width=2)
        for a, b in hatch_segments(pts, 9.0):
            self.c.line([a, b], self.pal["terrain_hatch"], 1)
        self.terrain_label(t, pts)

    def terrain_label(self, t: dict, pts: Sequence[Point]) -> None:
        """The terrain's name, small: inside the polygon when it fits with room to spare (the
        piece stays visible around it), else beside it (below, above, right, left: the first
        spot clear of the units and the labels); registered so unit labels keep clear of it."""
        text = f"{t.get('name', 'terrain')} (impassable)"
        size = self.size(10)
        tw, th = self.c.text_size(text, size)
        x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
        x1, y1 = max(p[0] for p in pts), max(p[1] for p in pts)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if tw <= 0.6 * (x1 - x0) and th <= 0.4 * (y1 - y0):
            cands = [(cx - tw / 2, cy - th / 2)]
        else:
            gap = 4
            cands = [(cx - tw / 2, y1 + gap), (cx - tw / 2, y0 - gap - th), (x1 + gap, cy - th / 2),
                     (x0 - gap - tw, cy - th / 2)]
        if self._unit_boxes is None:
            self._unit_boxes = {x.id: self.px_bbox(x) for x in self.b.units}
        tl, tt, tw_a, th_a = self.lay.table

        def score(p: Point) -> float:
            box = (p[0] - 2, p[1] - 1, p[0] + tw + 2, p[1] + th + 1)
            off = max(0, tl - box[0]) + max(0, box[2] - (tl + tw_a)) + max(0, tt - box[1]) + max(0, box[3] - (tt + th_a))
            return sum(_overlap(box, b) for b in list(self._unit_boxes.values()) + self.label_boxes) + off * th * 2

        scores = [score(p) for p in cands]
        best = cands[next((i for i, sc in enumerate(scores) if sc <= 0), min(range(len(scores)), key=scores.__getitem__))]
        self.label_boxes.append((best[0] - 2, best[1] - 1, best[0] + tw + 2, best[1] + th + 1))
        self.c.text(best, text, size, self.pal["label"], anchor="topleft", background=self.pal["label_bg"])

    def objective(self, i: int, p: Point) -> None:
        self.c.tag = f"objective:{i}"
        c = self.v.to_px(p)
        r = max(6.0, 20.0 * self.v.scale)
        self.c.circle(c, r, fill=self.pal["objective"], outline=self.pal["objective_edge"], width=2)
        self.c.circle(c, r * 0.45, fill=None, outline=self.pal["objective_edge"], width=2)
        self.c.text((c[0], c[1] + r + 2), "Objective", self.size(11), self.pal["label"], anchor="top")

    def reach(self) -> None:
        extra = getattr(self.a, "extra", None) or {}
        r_mm = extra.get("move_reach_mm")
        if not r_mm:
            return
        for mid, path in (getattr(self.a, "moves", None) or {}).items():
            if not path:
                continue
            self.c.tag = f"reach:{mid}"
            self.c.circle(self.v.to_px(path[0]), float(r_mm) * self.v.scale, fill=self.pal["reach"],
                          outline=self.pal["reach_edge"], width=1)

    # -- units ---------------------------------------------------------------------------------
    def tray(self, u: Unit, outline: bool = False) -> None:
        """The movement tray: a faint player-coloured fill under the bases, and (``outline``)
        a player-coloured frame drawn over them."""
        if u.kind != "ranked":
            return
        self.c.tag = f"tray:{u.id}"
        col = player_colour(self.pal, u.player)
        pts = self.v.pts(u.tray().points)
        if outline:
            self.c.polygon(pts, fill=None, outline=col, width=3)
        else:
            self.c.polygon(pts, fill=with_alpha(col, self.pal["tray_alpha"][0]), outline=None)

    def model(self, dm: DrawnModel) -> None:
        self.c.tag = f"model:{dm.id}"
        fill = self.pal.get(dm.role, self.pal["none"])
        self.draw_shape(dm.shape, fill, self.pal["base_edge"], 1)
        if dm.unit.kind != "ranked":  # skirmishers carry their player colour on a ring
            self.draw_shape(dm.shape, None, player_colour(self.pal, dm.unit.player), 2)

    def ghost(self, mid: str, path: Sequence[Point]) -> None:
        self.c.tag = f"ghost:{mid}"
        dm = next((d for d in self.models if d.id == mid), None)
        if dm is None:
            return
        s = _shape_at(dm.unit, None, tuple(path[0])) if dm.unit.kind == "ranked" else _moved(dm.shape, path[-1], path[0])
        kind, data = self.shape_px(s)
        if kind == "circle":
            self.c.circle(data[0], data[1], fill=None, outline=self.pal["ghost"], width=1)
        else:
            self.c.line(list(data) + [data[0]], self.pal["ghost"], 1, dashed=True)

    def slots(self) -> None:
        extra = getattr(self.a, "extra", None) or {}
        centres = {dm.id: dm.shape.center for dm in self.models}
        for i, s in enumerate(extra.get("slots") or []):
            self.c.tag = f"slot:{s.get('model')}:{i}"
            c = self.v.to_px(tuple(s["at"]))
            r = max(3.0, (4.0 if s.get("size") == "large" else 3.0) * self.v.scale * 0.6)
            filled = s.get("filled_by")
            if filled and filled in centres:
                # a thin line from the slot to the allocated model that fills it
                self.c.line([c, self.v.to_px(centres[filled])], self.pal["slot_edge"], 1, dashed=True)
            self.c.circle(c, r, fill=self.pal["slot_filled"] if filled else self.pal["slot_free"],
                          outline=self.pal["slot_edge"], width=1)
            self.label_boxes.append((c[0] - r - 1, c[1] - r - 1, c[0] + r + 1, c[1] + r + 1))  # labels keep clear

    def differ_mark(self, dm: DrawnModel) -> None:
        """A model that fights differently under the compared ruleset: dark hatching over the
        base (its role colour still shows between the lines) and a yellow ring edged in black."""
        self.c.tag = f"differ:{dm.id}"
        s = dm.shape
        if isinstance(s, g.Circle):
            n = 20
            pts = [self.v.to_px((s.center[0] + s.radius_mm * math.cos(2 * math.pi * i / n),
                                 s.center[1] + s.radius_mm * math.sin(2 * math.pi * i / n))) for i in range(n)]
        else:
            pts = self.v.pts(s.points)
        spacing = 6.0
        for a, b in hatch_segments(pts, spacing):
            self.c.line([a, b], (20, 20, 20, 150), 1.5)
        col = self.pal.get("differ", DIFFER_COLOUR)
        self.draw_shape(s, None, (20, 20, 20), 5)
        self.draw_shape(s, None, col, 3)

    def outline_px(self, s: g.Shape) -> list[Point]:
        """The outline of a shape in canvas px (a circle as a 20-gon), for hatching."""
        if isinstance(s, g.Circle):
            n = 20
            return [self.v.to_px((s.center[0] + s.radius_mm * math.cos(2 * math.pi * i / n),
                                  s.center[1] + s.radius_mm * math.sin(2 * math.pi * i / n))) for i in range(n)]
        return self.v.pts(s.points)

    def overlap_mark(self, dm: DrawnModel) -> None:
        """A base that overlaps another: cross-hatched in black over its role colour, ringed
        black with a white dashed line on the ring (unlike any role, selection or compare mark)."""
        self.c.tag = f"overlap:{dm.id}"
        pts = self.outline_px(dm.shape)
        col, dash = self.pal.get("overlap", (15, 15, 15)), self.pal.get("overlap_dash", (255, 255, 255))
        _cross_hatch(self.c, pts, 7.0, col)
        self.draw_shape(dm.shape, None, col, 5)
        self.c.line(list(pts) + [pts[0]], dash, 2, dashed=True)

    def gap_link(self, a: str, b: str, pos: dict) -> None:
        self.c.tag = f"gap:{a}|{b}"
        if a in pos and b in pos:
            self.c.line([self.v.to_px(pos[a]), self.v.to_px(pos[b])], self.pal["gap_link"], 2, dashed=True)

    def move(self, mid: str, path: Sequence[Point]) -> None:
        self.c.tag = f"move:{mid}"
        if len(path) >= 2:
            self.c.arrow(self.v.pts(path), self.pal["move"], 3, head=max(8.0, 6.0 * self.v.scale))

    def front_marker(self, u: Unit) -> None:
        """A triangle pointing along the facing, just inside the middle of the front edge."""
        if u.kind != "ranked":
            return
        self.c.tag = f"front:{u.id}"
        d = min(u.base_d, u.base_w) * 0.8
        size_mm = max(d, 9.0 / max(self.v.scale, 1e-6))
        size_mm = min(size_mm, u.depth_mm * 0.9, u.width_mm * 0.5)
        f = g.forward(u.facing_deg)
        r = g.right(u.facing_deg)
        inset = (u.base_d - size_mm) / 2 if size_mm < u.base_d else 0.0
        # a long, narrow arrowhead: an equilateral triangle would look the same turned by 120 deg
        tip = g.add(u.front, g.scale(f, -inset - size_mm * 0.05))
        back = g.add(u.front, g.scale(f, -inset - size_mm * 0.95))
        left = g.add(back, g.scale(r, -size_mm * 0.3))
        right = g.add(back, g.scale(r, size_mm * 0.3))
        col = player_colour(self.pal, u.player)
        self.c.polygon(self.v.pts([tip, right, left]), fill=col, outline=(255, 255, 255), width=2)

    def unit_label(self, u: Unit) -> None:
        self.c.tag = f"label:{u.id}"
        text = f"{u.name} ({u.id})" if u.name and u.name != u.id else u.id
        size = self.size(13)
        tw, th = self.c.text_size(text, size, True)
        if self._unit_boxes is None:  # every unit's pixel box, once per drawing
            self._unit_boxes = {x.id: self.px_bbox(x) for x in self.b.units}
        boxes = list(self._unit_boxes.values())
        ub = self._unit_boxes.get(u.id) or self.px_bbox(u)
        cx, cy = (ub[0] + ub[2]) / 2, (ub[1] + ub[3]) / 2
        gap = 6
        # candidates: behind the unit (away from its front), then the other sides
        back = g.scale(g.forward(u.facing_deg), -1)
        cands = []
        # each side at increasing distances, so a crowded combat can push a label clear
        for k in range(4):
            step = k * (th + 6)
            for d in (back, (0, 1), (0, -1), g.forward(u.facing_deg), (1, 0), (-1, 0)):
                if abs(d[1]) >= abs(d[0]):
                    y = ub[3] + gap + step if d[1] > 0 else ub[1] - gap - th - step
                    cands.append((cx - tw / 2, y))
                else:
                    x = ub[2] + gap + step if d[0] > 0 else ub[0] - gap - tw - step
                    cands.append((x, cy - th / 2))
        tl, tt, tw_a, th_a = self.lay.table

        def score(p: Point) -> float:
            box = (p[0] - 3, p[1] - 2, p[0] + tw + 3, p[1] + th + 2)
            s = 0.0
            for b in boxes + self.label_boxes:
                s += _overlap(box, b)
            off = max(0, tl - box[0]) + max(0, box[2] - (tl + tw_a)) + max(0, tt - box[1]) + max(0, box[3] - (tt + th_a))
            return s + off * th * 2

        # the first free spot in preference order; if none is free, the least covered one
        scores = []
        best = None
        for p in cands:
            sc = score(p)
            if sc <= 0:
                best = p
                break
            scores.append(sc)
        if best is None:
            best = cands[min(range(len(scores)), key=lambda i: (scores[i], i))]
        self.label_boxes.append((best[0] - 3, best[1] - 2, best[0] + tw + 3, best[1] + th + 2))
        col = player_colour(self.pal, u.player)
        self.c.text(best, text, size, self.pal["label"], anchor="topleft", bold=True, background=self.pal["label_bg"])
        self.c.line([(best[0] - 3, best[1] + th + 2), (best[0] + tw + 3, best[1] + th + 2)], col, 3)

    def px_bbox(self, u: Unit) -> tuple:
        shapes = [u.tray()] if u.kind == "ranked" else [m.shape for m in u.models()]
        xs, ys = [], []
        for s in shapes:
            b = s.bbox()
            xs += [b[0], b[2]]
            ys += [b[1], b[3]]
        p0 = self.v.to_px((min(xs), min(ys)))
        p1 = self.v.to_px((max(xs), max(ys)))
        return (p0[0], p0[1], p1[0], p1[1])

    def badge(self, entry: dict) -> None:
        """The numbered fight-order badge (with "FF" for Fights First) at a corner of the unit,
        the first corner whose badge is clear of the labels already drawn (registered too)."""
        uid = entry.get("unit")
        self.c.tag = f"badge:{uid}"
        u = self.b.unit(uid)
        ub = self.px_bbox(u)
        r = self.size(11)
        ff_w = (self.c.text_size("FF", self.size(11), True)[0] + 4) if entry.get("fights_first") else 0

        def box(c: Point) -> tuple:
            return (c[0] - r - 1, c[1] - r - 1, c[0] + r + 2 + ff_w, c[1] + r + 1)

        corners = [(ub[0] + 2, ub[1] + 2), (ub[2] - 2 - ff_w, ub[1] + 2), (ub[0] + 2, ub[3] - 2),
                   (ub[2] - 2 - ff_w, ub[3] - 2)]
        out = 2 * r + 4  # then the same corners pushed outwards, clear of the unit
        corners += [(ub[0] - r, ub[1] - r), (ub[2] + r - ff_w, ub[1] - r), (ub[0] - r, ub[3] + r),
                    (ub[2] + r - ff_w, ub[3] + r), (ub[0] - r, ub[1] - r - out), (ub[2] + r - ff_w, ub[3] + r + out)]
        scores = [sum(_overlap(box(c), b) for b in self.label_boxes) for c in corners]
        c = corners[next((i for i, sc in enumerate(scores) if sc <= 0), min(range(len(scores)), key=scores.__getitem__))]
        self.label_boxes.append(box(c))
        self.c.circle(c, r, fill=self.pal["badge"], outline=self.pal["badge_text"], width=2)
        self.c.text(c, str(entry.get("order", "?")), self.size(13), self.pal["badge_text"], anchor="center", bold=True)
        if entry.get("fights_first"):
            self.c.text((c[0] + r + 2, c[1]), "FF", self.size(11), self.pal["label"], anchor="left", bold=True,
                        background=self.pal["label_bg"])

    def highlight(self) -> None:
        sel = set(self.o.selection or ())
        for u in self.b.units:
            if u.id not in sel:
                continue
            self.c.tag = f"selection:{u.id}"
            shapes = [u.tray()] if u.kind == "ranked" else [m.shape for m in u.models()]
            for s in shapes:
                self.draw_shape(s, None, self.pal["selection"], 3)
        if self.o.hover:
            dm = next((d for d in self.models if d.id == self.o.hover), None)
            r = (getattr(self.a, "models", None) or {}).get(self.o.hover)
            if dm is not None:
                self.c.tag = f"hover:{dm.id}"
                if r is not None:
                    for t in r.targets:
                        td = next((d for d in self.models if d.id == t), None)
                        if td is not None:
                            self.draw_shape(td.shape, None, self.pal["target"], 3)
                self.draw_shape(dm.shape, None, self.pal["hover"], 3)

    def overlay(self, item: Sequence[Any]) -> None:
        kind = item[0]
        self.c.tag = f"overlay:{kind}"
        if kind == "tape":
            _, p0, p1, text = item
            a, b = self.v.to_px(p0), self.v.to_px(p1)
            self.c.line([a, b], self.pal["tape"], 3)
            for p in (a, b):
                self.c.circle(p, 4, fill=self.pal["tape"])
            self.c.text(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - 6), text, self.size(14), self.pal["tape"],
                        anchor="bottom", bold=True, background=self.pal["label_bg"])
        elif kind == "ghost_unit":
            u = item[1]
            shapes = [u.tray()] if u.kind == "ranked" else [m.shape for m in u.models()]
            for s in shapes:
                kind2, data = self.shape_px(s)
                if kind2 == "circle":
                    self.c.circle(data[0], data[1], outline=self.pal["ghost"], width=1)
                else:
                    self.c.line(list(data) + [data[0]], self.pal["ghost"], 2, dashed=True)
        elif kind == "text":
            _, pos, text = item
            self.c.text(pos, text, self.size(14), self.pal["label"], anchor="topleft", background=self.pal["label_bg"])

    # -- panels --------------------------------------------------------------------------------
    def title(self) -> None:
        if not self.lay.title:
            return
        self.c.tag = "title"
        x, y, w, h = self.lay.title
        title = self.b.title if self.o.title is None else self.o.title
        self.c.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill=self.pal["title_bg"])
        rs = getattr(self.a, "ruleset", None) or self.b.ruleset
        right = f"ruleset: {rs}"
        rw = self.c.text_size(right, self.size(13))[0]
        text = ellipsize(self.c, str(title), self.size(18), w - rw - 48, bold=True)
        self.c.text((x + 12, y + h / 2), text, self.size(18), self.pal["title_text"], anchor="left", bold=True)
        self.c.text((x + w - 12, y + h / 2), right, self.size(13), self.pal["title_text"], anchor="right")

    def panel(self) -> None:
        if not self.lay.panel:
            return
        self.c.tag = "legend"
        x, y, w, h = self.lay.panel
        P = self.pal
        self.c.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill=P["panel"], outline=P["panel_edge"], width=1)
        pad = int(12 * self.fs)
        cx, cy = x + pad, y + pad
        sw = int(22 * self.fs)
        body = self.size(13)
        head = self.size(15)
        line_h = self.c.text_size("Ag", body)[1] + int(5 * self.fs)
        text_w = w - 2 * pad - sw - 8

        def heading(t: str) -> None:
            nonlocal cy
            self.c.text((cx, cy), t, head, P["panel_text"], bold=True)
            cy += self.c.text_size(t, head, True)[1] + int(6 * self.fs)

        def row(draw_swatch: Callable[[float, float], None], label: str, dim: bool = False) -> None:
            nonlocal cy
            lines = wrap(self.c, label, body, text_w)
            draw_swatch(cx, cy + line_h / 2 - 2)
            for ln in lines:
                self.c.text((cx + sw + 8, cy), ln, body, P["panel_dim"] if dim else P["panel_text"])
                cy += line_h
            cy += int(2 * self.fs)

        def para(t: str, dim: bool = False, indent: int = 0) -> None:
            nonlocal cy
            for ln in wrap(self.c, t, body, w - 2 * pad - indent):
                self.c.text((cx + indent, cy), ln, body, P["panel_dim"] if dim else P["panel_text"])
                cy += line_h

        def box(colour: Any) -> Callable[[float, float], None]:
            return lambda sx, sy: self.c.polygon([(sx, sy - 8), (sx + sw, sy - 8), (sx + sw, sy + 8), (sx, sy + 8)],
                                                 fill=colour, outline=P["base_edge"], width=1)

        counts = {"attack": 0, "support": 0, "none": 0}
        for dm in self.models:
            counts[dm.role if dm.role in counts else "none"] += 1
        heading("Legend")
        # rows for what this rule system has (the strategy's legend: a 40k legend lists no supports)
        legend = getattr(self.a, "legend", None)
        labels = legend.role_labels if legend is not None else {}
        always = legend.rows if legend is not None else frozenset({"support", "gap_links", "moves"})
        n_gaps = len(getattr(self.a, "gap_links", []) or [])
        n_moves = len(getattr(self.a, "moves", {}) or {})
        for role in ("attack", "support", "none"):
            if role == "support" and role not in always and not counts[role]:
                continue
            row(box(P[role]), f"{labels.get(role, ROLE_LABEL[role])} ({counts[role]})")
        if n_gaps or "gap_links" in always:
            row(lambda sx, sy: self.c.line([(sx, sy), (sx + sw, sy)], P["gap_link"], 2, dashed=True),
                f"Fights across a gap ({n_gaps})")
        if n_moves or "moves" in always:
            row(lambda sx, sy: self.c.arrow([(sx, sy), (sx + sw, sy)], P["move"], 3, head=8),
                f"Moved by a rule ({n_moves})")
        if any(u.kind == "ranked" for u in self.b.units):
            row(lambda sx, sy: self.c.polygon([(sx + sw / 2, sy - 8), (sx + sw / 2 + 8, sy + 5), (sx + sw / 2 - 8, sy + 5)],
                                              fill=P["panel_dim"], outline=P["base_edge"]), "Front of a unit")
        if self.o.differ:
            dcol = P.get("differ", DIFFER_COLOUR)

            def diff_swatch(sx: float, sy: float) -> None:
                pts = [(sx, sy - 8), (sx + sw, sy - 8), (sx + sw, sy + 8), (sx, sy + 8)]
                self.c.polygon(pts, fill=P["none"], outline=(20, 20, 20), width=5)
                for a, b in hatch_segments(pts, 6.0):
                    self.c.line([a, b], (20, 20, 20, 150), 1.5)
                self.c.polygon(pts, fill=None, outline=dcol, width=3)
            row(diff_swatch, f"{self.o.differ_label or 'Differs under the other ruleset'} ({len(self.o.differ)})")
        n_over = len(set(self.o.overlaps or ()))
        if n_over:
            def overlap_swatch(sx: float, sy: float) -> None:
                pts = [(sx, sy - 8), (sx + sw, sy - 8), (sx + sw, sy + 8), (sx, sy + 8)]
                col = P.get("overlap", (15, 15, 15))
                self.c.polygon(pts, fill=P["none"], outline=None)
                _cross_hatch(self.c, pts, 6.0, col)
                self.c.polygon(pts, fill=None, outline=col, width=4)
                self.c.line(pts + [pts[0]], P.get("overlap_dash", (255, 255, 255)), 1.5, dashed=True)
            row(overlap_swatch, f"Base overlaps another base ({n_over} model{'s' if n_over != 1 else ''}): "
                                "move them apart")
        extra = getattr(self.a, "extra", None) or {}
        if extra.get("slots"):
            row(lambda sx, sy: (self.c.circle((sx + 6, sy), 5, fill=P["slot_filled"], outline=P["slot_edge"]),
                                self.c.circle((sx + sw - 6, sy), 5, fill=P["slot_free"], outline=P["slot_edge"])),
                "Combat slot: filled / free")
        if extra.get("move_reach_mm"):
            row(lambda sx, sy: self.c.circle((sx + sw / 2, sy), 9, fill=P["reach"], outline=P["reach_edge"]),
                f"Move reach {float(extra['move_reach_mm']) / g.INCH_MM:.0f}\" from the start")
        players: dict[int, list[str]] = {}
        for u in self.b.units:
            players.setdefault(u.player, []).append(u.name or u.id)
        for p in sorted(players):
            col = player_colour(P, p)
            row(lambda sx, sy, col=col: self.c.polygon([(sx, sy - 8), (sx + sw, sy - 8), (sx + sw, sy + 8), (sx, sy + 8)],
                                                       fill=with_alpha(col, 60), outline=col, width=3),
                f"Player {p}: {', '.join(players[p])}")
        cy += int(8 * self.fs)
        so = getattr(self.a, "strike_order", None) or []
        names = {u.id: (u.name or u.id) for u in self.b.units}
        if so:
            heading("Strike order")
            for i, step in enumerate(so, start=1):
                per: dict[str, int] = {}
                for mid in step.get("models", []):
                    uid = mid.split(".", 1)[0]
                    per[uid] = per.get(uid, 0) + 1
                who = ", ".join(f"{names.get(k, k)} ({n})" for k, n in per.items())
                simul = " at the same time" if len(per) > 1 else ""
                para(f"{i}. {step.get('label', step.get('step'))}{simul}: {who}")
            cy += int(6 * self.fs)
        fs = extra.get("fight_sequence") or []
        if fs:
            heading("Fight sequence")
            for e in fs:
                tag = " (Fights First)" if e.get("fights_first") else ""
                para(f"{e.get('order')}. {names.get(e.get('unit'), e.get('unit'))}: {e.get('fight', 'normal')}{tag}")
            cy += int(6 * self.fs)
        alloc = extra.get("allocation") or {}
        if alloc:
            heading("Allocation to melee")
            for uid, d in alloc.items():
                if isinstance(d, dict):
                    para(_allocation_line(names.get(uid, uid), d))
                else:
                    para(f"{names.get(uid, uid)}: {d}")
            cy += int(6 * self.fs)
        for n in getattr(self.a, "notes", None) or []:
            para(str(n), dim=True)

    def scale_bar(self) -> None:
        """A bar of a whole number of inches (at least 70 px) in the bottom-left corner."""
        self.c.tag = "scale_bar"
        tl, tt, tw, th = self.lay.table
        inches = 1
        while inches * g.INCH_MM * self.v.scale < 70 * self.fs and inches < 48:
            inches *= 2
        L = inches * g.INCH_MM * self.v.scale
        x0, y0 = tl + 14 * self.fs, tt + th - 14 * self.fs
        self.c.line([(x0, y0), (x0 + L, y0)], self.pal["scale_bar"], 3 * self.fs)
        for x in (x0, x0 + L):
            self.c.line([(x, y0 - 5 * self.fs), (x, y0 + 1)], self.pal["scale_bar"], 2 * self.fs)
        self.c.text((x0 + L + 8 * self.fs, y0), f'{inches}" = {inches * g.INCH_MM:.1f} mm', self.size(11),
                    self.pal["scale_bar"], anchor="left", background=self.pal["label_bg"])

    def tooltip(self) -> None:
        mid, at = self.o.hover, self.o.hover_px
        if not mid or at is None:
            return
        self.c.tag = "tooltip"
        r = (getattr(self.a, "models", None) or {}).get(mid)
        uid = mid.split(".", 1)[0]
        name = next((u.name for u in self.b.units if u.id == uid), uid)
        lines = [(f"{mid}  ({name})", True)]
        if r is None:
            lines.append(("No analysis for this model.", False))
        else:
            n = f"{r.attacks} attack{'s' if r.attacks != 1 else ''}"
            lines.append((f"{ROLE_WORD.get(r.role, r.role).capitalize()}: {n}", False))
            if r.parts:
                lines.append(("Parts: " + ", ".join(f"{k} {v}" for k, v in r.parts.items()), False))
            if r.targets:
                tg = ", ".join(r.targets[:6]) + (f" +{len(r.targets) - 6} more" if len(r.targets) > 6 else "")
                lines.append((f"Targets: {tg}", False))
        size = self.size(13)
        maxw = int(min(420 * self.fs, self.c.width * 0.6))
        out: list[tuple[str, bool]] = []
        for t, bold in lines:
            out += [(ln, bold) for ln in wrap(self.c, t, size, maxw)]
        if r is not None and r.why:
            out += [(ln, False) for ln in wrap(self.c, r.why, size, maxw)]
        if mid in (self.o.differ or {}):
            out += [(ln, True) for ln in wrap(self.c, str(self.o.differ[mid]), size, maxw)]
        lh = self.c.text_size("Ag", size)[1] + 2
        w = max(self.c.text_size(t, size, bold)[0] for t, bold in out) + 16
        h = lh * len(out) + 12
        x, y = at[0] + 16, at[1] + 18
        if x + w > self.c.width:
            x = at[0] - 16 - w
        if y + h > self.c.height:
            y = at[1] - 12 - h
        x, y = max(0, x), max(0, y)
        self.c.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill=self.pal["tooltip_bg"],
                       outline=self.pal["tooltip_edge"], width=1)
        if r is not None:
            self.c.polygon([(x, y), (x + 5, y), (x + 5, y + h), (x, y + h)], fill=self.pal.get(r.role, self.pal["none"]))
        for i, (t, bold) in enumerate(out):
            self.c.text((x + 10, y + 6 + i * lh), t, size, self.pal["tooltip_text"], bold=bold)

    def status(self) -> None:
        if not self.lay.status:
            return
        self.c.tag = "status"
        x, y, w, h = self.lay.status
        self.c.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill=self.pal["status_bg"])
        text = ellipsize(self.c, self.o.status, self.size(13), w - 20)  # never past the right edge
        self.c.text((x + 10, y + h / 2), text, self.size(13), self.pal["status_text"], anchor="left")

    def banner(self) -> None:
        """The error banner (red) at the top of the table, then the warning line (amber) under it."""
        tl, tt, tw, _ = self.lay.table
        if self.o.banner:
            self.c.tag = "banner"
            tt += self._band(tt, self.o.banner, 4, self.pal["banner_bg"], self.pal["banner_text"])
        if self.o.warning:
            self.c.tag = "warning"
            self._band(tt, self.o.warning, 2, self.pal.get("warning_bg", (255, 204, 51)),
                       self.pal.get("warning_text", (25, 25, 25)))

    def _band(self, top: float, text: str, max_lines: int, bg: Any, fg: Any) -> float:
        """A full-width band of wrapped ``text`` across the table from ``top``; returns its height."""
        tl, _, tw, _ = self.lay.table
        size = self.size(14)
        lines = wrap(self.c, text, size, tw - 24, bold=True)  # the first line is bold
        if len(lines) > max_lines:
            lines = lines[:max_lines - 1] + [ellipsize(self.c, " ".join(lines[max_lines - 1:]), size, tw - 24)]
        lh = self.c.text_size("Ag", size)[1] + 2
        h = lh * len(lines) + 12
        self.c.polygon([(tl, top), (tl + tw, top), (tl + tw, top + h), (tl, top + h)], fill=bg)
        for i, ln in enumerate(lines):
            self.c.text((tl + 12, top + 6 + i * lh), ln, size, fg, bold=i == 0)
        return h


def _cross_hatch(canvas: Canvas, pts: Sequence[Point], spacing: float, colour: Any) -> None:
    """Hatch a polygon (canvas px) along both diagonals."""
    for a, b in hatch_segments(pts, spacing):
        canvas.line([a, b], colour, 1.5)
    for a, b in hatch_segments([(-x, y) for x, y in pts], spacing):  # mirrored: the other diagonal
        canvas.line([(-a[0], a[1]), (-b[0], b[1])], colour, 1.5)


def _moved(s: g.Shape, frm: Point, to: Point) -> g.Shape:
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    if isinstance(s, g.Circle):
        return g.Circle((s.center[0] + dx, s.center[1] + dy), s.radius_mm)
    return g.Poly(tuple((p[0] + dx, p[1] + dy) for p in s.points))


def _allocation_line(name: str, d: dict) -> str:
    """One readable line of a unit's melee allocation (slots ruleset): how many fight and how
    the number came about (share of which total, bonus, small-unit rule, slot limit)."""
    actual, final = d.get("actual", "?"), d.get("final", "?")
    if d.get("whole"):
        how = f"a small unit of {_fmt(d.get('models', final))}, allocated whole"
    elif "share" in d and "total" in d:
        how = f"{_fmt(d['share'])}% of {_fmt(d['total'])} = {_fmt(d.get('base', '?'))}"
    else:
        how = f"base {_fmt(d.get('base', '?'))}"
    if d.get("bonus"):
        how += f", +{_fmt(d['bonus'])} bonus"
    line = f"{name}: {_fmt(actual)} fight (allocated {_fmt(final)}: {how}"
    if actual != final:
        line += f"; only {_fmt(actual)} free combat slots"
    return line + ")"


def _overlap(a: tuple, b: tuple) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return str(v)


def ellipsize(canvas: Canvas, text: str, size: int, max_w: float, bold: bool = False) -> str:
    """``text`` cut at a word and ended with an ellipsis so it fits ``max_w`` px."""
    if canvas.text_size(text, size, bold)[0] <= max_w:
        return text
    words = text.split()
    while words and canvas.text_size(" ".join(words) + "…", size, bold)[0] > max_w:
        words.pop()
    return (" ".join(words) + "…") if words else text[: max(1, int(max_w / size))] + "…"


def wrap(canvas: Canvas, text: str, size: int, max_w: float, bold: bool = False) -> list[str]:
    """Greedy word wrap of ``text`` to lines no wider than ``max_w`` px at font ``size``
    (measured in the bold face when ``bold``)."""
    out: list[str] = []
    for para in str(text).split("\n"):
        cur = ""
        for word in para.split():
            trial = f"{cur} {word}" if cur else word
            if cur and canvas.text_size(trial, size, bold)[0] > max_w:
                out.append(cur)
                cur = word
            else:
                cur = trial
        out.append(cur)
    return out or [""]


def hatch_segments(points: Sequence[Point], spacing: float) -> list[tuple[Point, Point]]:
    """Diagonal hatch lines (45 degrees, ``spacing`` px apart) clipped to a simple polygon."""
    if len(points) < 3:
        return []
    vals = [p[0] + p[1] for p in points]
    lo, hi = min(vals), max(vals)
    out = []
    n = len(points)
    c = lo + spacing / 2
    while c < hi:
        xs = []
        for i in range(n):
            p, q = points[i], points[(i + 1) % n]
            fp, fq = p[0] + p[1] - c, q[0] + q[1] - c
            if (fp < 0) != (fq < 0):
                t = fp / (fp - fq)
                xs.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
        xs.sort()
        for a, b in zip(xs[::2], xs[1::2]):
            out.append((a, b))
        c += spacing
    return out


def draw_scene(canvas: Canvas, board: Board, analysis: Any, view: View, *, options: Optional[SceneOptions] = None,
               models: Optional[list[DrawnModel]] = None) -> list[str]:
    """Draw ``board`` with its ``analysis`` (may be ``None``) on ``canvas`` through ``view``.

    Returns the list of per-element errors (empty when everything drew); never raises for a
    bad board or analysis. See the module docstring for what is drawn.
    """
    o = options or SceneOptions()
    p = _Painter(canvas, board, analysis, view, o)
    p.safe("table", p.table)
    for t in board.terrain or []:
        p.safe("terrain", p.terrain, t)
    for i, pt in enumerate((board.context or {}).get("objectives", []) or []):
        p.safe("objective", p.objective, i, pt)
    p.safe("reach", p.reach)
    for u in board.units:
        p.safe(f"tray {u.id}", p.tray, u)
    # ``models``: drawn_models(board, analysis) already computed by the caller (the window
    # keeps them for hovering), so a frame does not build them twice
    p.models = models if models is not None else (p.safe("models", drawn_models, board, analysis) or [])
    for dm in p.models:
        p.safe(f"model {dm.id}", p.model, dm)
    moves = getattr(analysis, "moves", None) or {}
    for mid, path in moves.items():
        p.safe(f"ghost {mid}", p.ghost, mid, path)
    p.safe("slots", p.slots)
    for dm in p.models:
        if dm.id in (o.differ or {}):
            p.safe(f"differ {dm.id}", p.differ_mark, dm)
    over = set(o.overlaps or ())
    for dm in p.models:
        if dm.id in over:
            p.safe(f"overlap {dm.id}", p.overlap_mark, dm)
    pos = {dm.id: (dm.shape.center) for dm in p.models}
    for link in getattr(analysis, "gap_links", None) or []:
        p.safe("gap link", p.gap_link, link[0], link[1], pos)
    for mid, path in moves.items():
        p.safe(f"move {mid}", p.move, mid, path)
    for u in board.units:
        p.safe(f"tray {u.id}", p.tray, u, True)
        p.safe(f"front {u.id}", p.front_marker, u)
    p.safe("highlight", p.highlight)
    for item in o.overlays or []:
        p.safe("overlay", p.overlay, item)
    if o.labels:
        for u in board.units:
            p.safe(f"label {u.id}", p.unit_label, u)
    for e in ((getattr(analysis, "extra", None) or {}).get("fight_sequence") or []):
        p.safe("badge", p.badge, e)
    p.safe("scale bar", p.scale_bar)
    p.safe("panel", p.panel)
    p.safe("title", p.title)
    p.safe("status", p.status)
    p.safe("banner", p.banner)
    p.safe("tooltip", p.tooltip)
    canvas.tag = ""
    return p.errors
