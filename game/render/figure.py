"""Figures: the one pipeline from (board, analysis, spec) to PNG or SVG bytes.

:func:`game.figures.figure_file.render_figure` ``(board, analysis, spec) -> bytes`` draws a figure with the window's
drawing code (:func:`game.render.scene.draw_scene` plus :func:`game.render.marks.draw_marks`,
through :func:`draw_figure`) on an SVG canvas or an off-screen pygame surface (supersampled,
smoothly scaled down), chosen by ``spec.format`` (``"png"``/``"svg"``);
:func:`write_figure` picks the format from the output suffix and writes atomically
(:func:`game.core.atomic.write_atomic`). Same input, same bytes.

Print sizes: a size in mm at ``dpi`` gives ``dpi / 125`` px per design unit, so every stroke
width, marker and font size is a length (one unit is 1/125 inch = 0.2 mm = 0.58 pt; body text
13 units = 7.5 pt) and a 300-dpi figure carries the same ink as a 100-dpi one; the SVG uses
the same canvas px in its viewBox, so PNG and SVG match.

Bounded memory: a figure is at most :data:`MAX_SIDE_PX` px a side and :data:`MAX_PIXELS` px
in all; a figure sized from the board (no ``size``) is scaled down to fit, a requested size
over the cap or a board spanning more than :data:`MAX_SPAN_MM` (or with a coordinate that is
not a finite number) raises :class:`FigureError`, whose message the CLI prints as is.
"""
from __future__ import annotations

import io
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Optional

from game.core.analysis import Analysis
from game.core.board import Board, unit_of
from game.core.geometry import MM_PER_INCH
from game.core.parts import FightSequence

from game.render.canvas import Canvas
from game.render.pygame_canvas import PygameCanvas
from game.render.legend import layout_legend, legend_items
from game.render.marks import Marks, caption_box, draw_marks, point_marks_of
from game.render.table_marks import OBJECTIVE_MM
from game.render.palette import palette_named, style_palette
from game.render.drawn import DrawnModel, drawn_models
from game.render.options import LEGEND_MAX_SHARE, LEGEND_SHARE, SceneOptions
from game.render.scene import draw_scene, ruleset_of, scene_layout, title_lines, units_bbox, layout
from game.render.transform import View
from game.render.svg_canvas import SvgCanvas

if TYPE_CHECKING:
    import pygame

UNITS_PER_INCH = 125.0      # design units per inch in print (see the module doc)
MAX_SIDE_PX = 8000          # each side of a figure
MAX_PIXELS = 40_000_000     # a requested figure's area (px)
MAX_AUTO_PIXELS = 12_000_000  # a figure sized from the board holds at most this many pixels
DRAW_BUDGET = 40_000_000    # the supersampled drawing surface (160 MB); supersampling steps down to keep to it
MAX_SPAN_MM = 1_000_000.0   # 1 km: a board wider than this cannot be drawn usefully
DEFAULT_PX_PER_MM = 1.4
MIN_PRINT_PT = 6.0          # the smallest text a figure of a print size (mm) prints
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(px|mm)?\s*$", re.I)


class FigureError(ValueError):
    """A figure that cannot be drawn as asked: a bad option (size, dpi, palette, compare ids)
    or a board too large or with non-finite coordinates. ``str()`` is one readable line."""


def parse_size(text: str) -> tuple[float, float, str]:
    """``"180x120mm"`` -> ``(180.0, 120.0, "mm")``; ``"1200x800"`` / ``"1200x800px"`` -> px.
    Raises :class:`FigureError`."""
    m = _SIZE_RE.match(str(text))
    if not m:
        raise FigureError(f"size must look like 1200x800, 1200x800px or 180x120mm (got {text!r})")
    w, h, unit = float(m.group(1)), float(m.group(2)), (m.group(3) or "px").lower()
    if w <= 0 or h <= 0:
        raise FigureError(f"size must be positive (got {text!r})")
    return w, h, unit


@dataclass
class FigureOptions:
    """How to draw one figure (the ``spec`` of :func:`render_figure`).

    ``size``: ``"WxH"`` px or ``"WxHmm"`` (None: sized from the units at
    ``scale_px_per_mm``, default 1.4 px/mm); ``dpi``: pixels per inch for mm sizes and the
    PNG's pHYs chunk; ``format``: ``png`` or ``svg`` (None: from the output suffix, else png);
    ``legend``, ``caption`` (the title bar), ``labels`` (unit labels) on/off; ``ids``: labels
    add unit ids; ``letters``: units named ``A: name``...; ``counts``: ``×N`` where it teaches (a
    model whose attacks differ from its unit's usual; never ``×1``), ``count_all``: on every model
    making other than 1 attack (a figure about attacks); ``title`` overrides the scenario title; ``crop``: fit the view to the
    engaged units plus ``crop_margin_mm`` (the legend then lists and counts only what is in
    the picture); ``palette``: ``default``, ``colourblind`` (Okabe-Ito with role patterns) or
    ``greyscale`` (roles by shade and outline style); ``compare``: two ruleset ids, drawn as
    ``side`` (two panels) or ``overlay`` (one panel); ``font_scale``: None picks one from the
    dpi for mm sizes (dpi/125 px per unit), else 1; ``marks``: teaching marks; ``style``:
    ``print`` (white paper, no grid, print palette: :data:`game.render.palette.PRINT`) or
    ``screen`` (the window's look); ``table``: print style with the table tint and grid;
    ``legend_at``: ``key`` (the caption key under the picture: :mod:`game.render.caption_key`),
    ``right`` or ``below`` (a legend panel) (None: the key in the print style; in the screen style
    right of one panel, below several); ``sections``: the key adds the strike order, fight
    sequence, rank bonus and the analysis's notes;
    ``format`` may also be ``pdf`` (a vector page of ``size`` mm), whose colours ``cmyk``
    writes as CMYK (a plain conversion, black on the K plate only); ``columns``: panels per
    row of a multi-panel figure; ``reach``: draw the move reach rings in the print style too
    (off by default: on paper they bury the models; the screen style always draws them);
    ``ruleset_name``: the ruleset's display name in the title bar (the figure pipelines of
    :mod:`game.figures` look it up; empty: the ruleset's id).
    ``insets``: a cropped figure whose combats stand far apart draws each in its own panel at
    one scale (:mod:`game.render.insets`); off: one picture.
    """

    size: Optional[str] = None
    dpi: int = 150
    format: Optional[str] = None
    legend: bool = True
    caption: bool = True
    labels: bool = True
    ids: bool = False
    letters: bool = False
    counts: bool = True
    count_all: bool = False
    sections: bool = False
    title: Optional[str] = None
    crop: bool = False
    crop_margin_mm: float = 40.0
    palette: str = "default"
    compare: Optional[tuple[str, str]] = None
    compare_mode: str = "side"
    font_scale: Optional[float] = None
    scale_px_per_mm: Optional[float] = None
    supersample: int = 2
    marks: Marks = field(default_factory=Marks)
    style: str = "print"
    table: bool = False
    legend_at: Optional[str] = None
    columns: Optional[int] = None
    cmyk: bool = False
    reach: bool = False
    ruleset_name: str = ""
    insets: bool = True

    def validate(self) -> None:
        """Raise :class:`FigureError` for a dpi outside 1..2400, a font scale that is not a
        positive number up to 10, a negative crop margin, a bad palette or compare mode."""
        if not (1 <= int(self.dpi) <= 2400):
            raise FigureError(f"--dpi must be from 1 to 2400 (got {self.dpi})")
        if self.font_scale is not None and not (math.isfinite(self.font_scale) and 0 < self.font_scale <= 10):
            raise FigureError(f"--font-scale must be a number above 0 and at most 10 (got {self.font_scale})")
        if not (math.isfinite(self.crop_margin_mm) and self.crop_margin_mm >= 0):
            raise FigureError(f"--crop-margin must be 0 mm or more (got {self.crop_margin_mm})")
        if self.scale_px_per_mm is not None and not (math.isfinite(self.scale_px_per_mm) and 0 < self.scale_px_per_mm <= 20):
            raise FigureError(f"--scale must be a number of px per mm above 0 and at most 20 (got {self.scale_px_per_mm})")
        if self.compare_mode not in ("side", "overlay"):
            raise FigureError(f"compare mode must be side or overlay (got {self.compare_mode!r})")
        if self.format not in (None, "png", "svg", "pdf"):
            raise FigureError(f"format must be png, svg or pdf (got {self.format!r})")
        if self.style not in ("print", "screen"):
            raise FigureError(f"style must be print or screen (got {self.style!r})")
        if self.legend_at not in (None, "right", "below", "key"):
            raise FigureError(f"the legend is a key, or sits right or below (got {self.legend_at!r})")
        try:
            palette_named(self.palette)
        except ValueError as exc:
            raise FigureError(str(exc)) from None

    def pixel_size(self) -> Optional[tuple[int, int]]:
        """Output size in px (None: derived from the board). Raises :class:`FigureError` (see
        :meth:`validate`) and for a side over :data:`MAX_SIDE_PX` or an area over
        :data:`MAX_PIXELS`."""
        self.validate()
        if not self.size:
            return None
        w, h, unit = parse_size(self.size)
        if unit == "mm":
            px = int(round(w / MM_PER_INCH * self.dpi)), int(round(h / MM_PER_INCH * self.dpi))
        else:
            px = int(round(w)), int(round(h))
        if max(px) > MAX_SIDE_PX or min(px) < 1:
            raise FigureError(f"the figure would be {px[0]}x{px[1]} px; each side must be from 1 to {MAX_SIDE_PX} px")
        if px[0] * px[1] > MAX_PIXELS:
            raise FigureError(f"the figure would be {px[0]}x{px[1]} px; at most {MAX_PIXELS // 1_000_000} million "
                              "pixels in all (lower --dpi or the size)")
        return px

    def scale(self) -> float:
        """Px per design unit at the final size (text, strokes, markers)."""
        if self.font_scale is not None:
            return float(self.font_scale)
        if self.size and parse_size(self.size)[2] == "mm":
            return self.dpi / UNITS_PER_INCH
        return 1.0

    def svg_size_attrs(self) -> Optional[tuple[str, str]]:
        if self.size and parse_size(self.size)[2] == "mm":
            w, h, _ = parse_size(self.size)
            return (f"{w:g}mm", f"{h:g}mm")
        return None


FigureSpec = FigureOptions


@dataclass
class Figure:
    """A rendered figure: ``data`` (PNG or SVG bytes), ``errors`` (drawing warnings), ``size`` px."""

    data: bytes
    errors: list
    size: tuple


def scene_options(board: Board, fo: FigureOptions, title: Optional[str] = None, k: float = 1.0) -> SceneOptions:
    """The :class:`SceneOptions` of a figure drawn at ``k`` times its final size."""
    t = title if title is not None else fo.title
    if not fo.caption:
        t = ""
    pal = style_palette(fo.style, fo.palette, fo.table)
    min_px = min_print_px(fo)
    return SceneOptions(min_font_px=min_px, palette=pal, legend=fo.legend, title=t, labels=fo.labels, font_scale=fo.scale() * k,
                        wrap_title=True, ids=fo.ids, letters=fo.letters, counts=fo.counts, count_all=fo.count_all,
                        legend_share=LEGEND_SHARE, reach=fo.reach, ruleset_name=fo.ruleset_name)


def min_print_px(fo: FigureOptions) -> int:
    """The smallest font size (px at the final size) that prints at :data:`MIN_PRINT_PT` on a figure
    of a print size (``WxHmm``), measured as the page is: its px width over its mm width (the px
    are whole, so slightly off the dpi); 0 for a px size."""
    if not fo.svg_size_attrs():
        return 0
    px = fo.pixel_size()
    w_mm = parse_size(str(fo.size))[0]
    if px is None or w_mm <= 0:
        return 0
    return math.ceil(MIN_PRINT_PT / 72 * MM_PER_INCH * px[0] / w_mm - 1e-9)


def check_extent(box: tuple) -> None:
    """Raise :class:`FigureError` unless the box (mm) is finite and spans at most :data:`MAX_SPAN_MM`."""
    if not all(math.isfinite(v) for v in box):
        raise FigureError("a unit has a coordinate that is not a finite number; the figure cannot be drawn")
    span = max(box[2] - box[0], box[3] - box[1])
    if span > MAX_SPAN_MM:
        raise FigureError(f"the units span {span / 1000:.0f} m; a figure can show at most "
                          f"{MAX_SPAN_MM / 1000:.0f} m (move the units closer or use --crop)")


def engaged_bbox(board: Board, analysis: Optional[Analysis], margin_mm: float) -> tuple[float, float, float, float]:
    """Box (mm) around every unit in an engagement (else every fighting model's unit, else
    every unit), grown by ``margin_mm``; includes rule-mandated move paths."""
    ids: set[str] = set()
    a = analysis
    for e in (a.engagements if a is not None else []):
        ids.update((e.unit, e.enemy))
    seq = a.part(FightSequence) if a is not None else None
    ids.update(e.unit for e in (seq.entries if seq is not None else ()))  # every unit selected to fight
    for mid in (a.moves if a is not None else {}):
        ids.add(unit_of(mid))
    if not ids and a is not None:
        ids = {unit_of(mid) for mid, r in a.models.items() if r.role != "none"}
    sub = Board(units=tuple(u for u in board.units if u.id in ids) or board.units, ruleset=board.ruleset,
                table=board.table)
    x0, y0, x1, y1 = units_bbox(sub)
    for dm in drawn_models(sub, analysis):
        b = dm.shape.bbox()
        x0, y0, x1, y1 = min(x0, b[0]), min(y0, b[1]), max(x1, b[2]), max(y1, b[3])
    for path in (a.moves if a is not None else {}).values():
        for p in path:
            x0, y0, x1, y1 = min(x0, p[0]), min(y0, p[1]), max(x1, p[0]), max(y1, p[1])
    return (x0 - margin_mm, y0 - margin_mm, x1 + margin_mm, y1 + margin_mm)


def figure_box(board: Board, analysis: Optional[Analysis], fo: FigureOptions) -> tuple:
    """The table box (mm) the figure shows: the engaged units with ``crop`` (and every unit the
    title names: :func:`titled_units`), else every unit plus 60 mm. Raises :class:`FigureError` (see :func:`check_extent`)."""
    check_extent(units_bbox(board))
    box = engaged_bbox(board, analysis, fo.crop_margin_mm) if fo.crop else units_bbox(board, margin_mm=60.0)
    named = titled_units(fo.title if fo.title is not None else board.title, board) if fo.crop else []
    if named:  # a title never names a unit the crop leaves out: the box grows to hold it
        sub = Board(units=tuple(named), ruleset=board.ruleset, table=board.table)
        n = units_bbox(sub, margin_mm=fo.crop_margin_mm)
        box = (min(box[0], n[0]), min(box[1], n[1]), max(box[2], n[2]), max(box[3], n[3]))
    if fo.crop:
        box = with_objectives(board, box)
    check_extent(box)
    return box


def with_objectives(board: Board, box: tuple) -> tuple:
    """``box`` (mm) grown so that an objective it would cut is shown whole (its rings are
    ``OBJECTIVE_MM`` round it)."""
    for pt in (board.context or {}).get("objectives") or []:
        x, y = float(pt[0]), float(pt[1])
        r = OBJECTIVE_MM + 5.0
        if x + r > box[0] and x - r < box[2] and y + r > box[1] and y - r < box[3]:
            box = (min(box[0], x - r), min(box[1], y - r), max(box[2], x + r), max(box[3], y + r))
    return box


def titled_units(title: str, board: Board) -> list:
    """The units of ``board`` whose name (``Unit.name``, three characters or more) the ``title``
    names, as whole words, whatever the capitals."""
    low = (title or "").casefold()
    out = []
    for u in board.units:
        name = (u.name or "").strip().casefold()
        if len(name) >= 3 and re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", low):
            out.append(u)
    return out


def visible_ids(models: list, box: tuple) -> set:
    """Ids of the drawn models whose base lies (at least partly) inside the box (mm)."""
    out = set()
    for dm in models:
        b = dm.shape.bbox()
        if b[2] >= box[0] and b[0] <= box[2] and b[3] >= box[1] and b[1] <= box[3]:
            out.add(dm.id)
    return out


def in_box(board: Board, models: list, visible: set) -> tuple[Board, list]:
    """``board`` and its drawn ``models`` without the units none of whose models are
    ``visible`` (ids inside the figure's box, :func:`visible_ids`): a unit the crop leaves out
    is not drawn as a sliver at the page's edge, where the page is wider than the box. The
    same board when every unit has a visible model."""
    keep = {dm.unit.id for dm in models if dm.id in visible}
    if all(u.id in keep for u in board.units):
        return board, models
    return (board.with_units(u for u in board.units if u.id in keep),
            [dm for dm in models if dm.unit.id in keep])


def _measure() -> Canvas:
    """A canvas that measures text with the shipped fonts and draws nothing."""
    return SvgCanvas(1000, 1000)


def default_size(board: Board, fo: FigureOptions, analysis: Optional[Analysis] = None) -> tuple[int, int]:
    """Pixel size of a figure without ``size``: its box at ``scale_px_per_mm`` (1.4) plus the
    panels, tall enough for the whole legend (measured, nothing drawn), scaled down to
    :data:`MAX_SIDE_PX` / :data:`MAX_AUTO_PIXELS`. Raises :class:`FigureError`."""
    box = figure_box(board, analysis, fo)
    so = scene_options(board, fo)
    fs = so.font_scale
    pxmm = fo.scale_px_per_mm or DEFAULT_PX_PER_MM
    m = _measure()
    pw = so.panel_width * fs if so.legend else 0.0
    legend_h = 0.0
    if so.legend:
        models = drawn_models(board, analysis)
        so.visible = visible_ids(models, box)
        legend_h = layout_legend(m, legend_items(board, analysis, models, so), (0, 0, pw, 0), fs)[1]
    bw, bh = box[2] - box[0], box[3] - box[1]
    min_w, min_h = (960, 600) if so.legend else (640, 400)
    for _ in range(3):
        W = int(max(min_w, bw * pxmm + 24 * fs + pw))
        m.width = W
        lines = len(title_lines(m, board, so, ruleset_of(analysis))) if so.title != "" and (board.title or so.title) else 0
        th = layout(W, 1000, legend=False, title=lines > 0, font_scale=fs, title_lines=max(1, lines)).table[1]
        H = int(max(min_h, th + max(bh * pxmm + 24 * fs, legend_h)))
        k = min(1.0, MAX_SIDE_PX / W, MAX_SIDE_PX / H, math.sqrt(MAX_AUTO_PIXELS / (W * H)))
        if k >= 1.0:
            return W, H
        pxmm *= k * 0.98
        legend_h = min(legend_h, MAX_SIDE_PX - th)
    W, H = min(W, MAX_SIDE_PX), min(H, MAX_SIDE_PX)
    k = min(1.0, math.sqrt(MAX_AUTO_PIXELS / (W * H)))
    return max(1, int(W * k)), max(1, int(H * k))


def fit_legend_panel(canvas: Canvas, board: Board, analysis: Optional[Analysis], so: SceneOptions, models: list[DrawnModel],
                     widen: bool = True) -> tuple[Any, bool]:
    """The scene layout with the legend panel on the right just wide enough for the legend's
    text at 80 % or more (``so.panel_width`` set), never wider than ``so.legend_share`` of the
    canvas (``widen``: then up to ``LEGEND_MAX_SHARE`` rather than lose a line); and whether
    the legend fits at 80 %. Without a legend: the layout, True."""
    rs = ruleset_of(analysis)
    lay = scene_layout(canvas, board, so, rs)
    if not so.legend:
        return lay, True
    items = legend_items(board, analysis, models, so)
    fits = False
    for share in ((so.legend_share, LEGEND_MAX_SHARE) if widen else (so.legend_share,)):
        so.legend_share = max(share, so.legend_share)
        for pw in (270, 320, 380, 460, 560):
            so.panel_width = pw
            lay = scene_layout(canvas, board, so, rs)
            assert lay.panel is not None  # so.legend: the layout has a panel
            fits = layout_legend(canvas, items, lay.panel, so.font_scale, 0.8, so.supersample)[1] <= lay.panel[3]
            if fits or lay.panel[2] < pw * so.font_scale - 1:  # fits, or the share caps it
                break
        if fits:
            break
    return lay, fits


def right_legend_fits(board: Board, analysis: Optional[Analysis], fo: FigureOptions, size: tuple[int, int],
                      widen: bool = False) -> bool:
    """Does the legend fit on the right of a ``size`` px figure within the legend share (``widen``:
    up to ``LEGEND_MAX_SHARE``), its text at 80 % or more? (Measured with the SVG back end's
    metrics: the same font file.)"""
    c = SvgCanvas(size[0], size[1])
    so = scene_options(board, fo)
    models = drawn_models(board, analysis)
    so.visible = visible_ids(models, figure_box(board, analysis, fo))
    mk = fo.marks
    if mk.notes and mk.numbered:
        so.callouts = [t for _, t in mk.notes]
    so.point_marks = point_marks_of(board, mk)
    return fit_legend_panel(c, board, analysis, so, models, widen=widen)[1]


def draw_figure(canvas: Canvas, board: Board, analysis: Optional[Analysis], fo: FigureOptions, *, marks: Optional[Marks] = None,
                title: Optional[str] = None, k: float = 1.0, view: Optional[View] = None,
                status: str = "", box_mm: Optional[tuple] = None, split_title: bool = False,
                differ: Optional[dict] = None, differ_label: str = "",
                gap_letter_start: int = 0, gap_lettered: Optional[bool] = None) -> tuple[View, list[str]]:
    """Fit the view (to ``box_mm`` (x0, y0, x1, y1) if given, else :func:`figure_box`), draw
    the scene and the marks on ``canvas`` (whose size already includes the supersampling
    factor ``k``). The legend panel widens (up to 45 % of the width) when its text would
    otherwise shrink below 80 %. ``differ``/``differ_label``: compare marks (see
    :class:`SceneOptions`). ``split_title`` is accepted for old callers (titles wrap now).
    Returns ``(view, drawing errors)``."""
    so = scene_options(board, fo, title, k)
    so.supersample = max(1, int(round(k)))
    so.status = status
    so.differ, so.differ_label = dict(differ or {}), differ_label
    if fo.letters and gap_letter_start == 0:  # unit tags A, B...: the arrows go on after them (one meaning per letter)
        gap_letter_start = len(board.units)
    so.gap_letter_start, so.gap_lettered = gap_letter_start, gap_lettered
    mk = marks if marks is not None else fo.marks
    so.rings = tuple(mk.highlight)  # rings drawn with the bases: under the gap letters and labels
    if mk.patterns:
        so.palette["patterns"] = (1,)
    box = box_mm or figure_box(board, analysis, fo)
    models = drawn_models(board, analysis)
    so.visible = visible_ids(models, box)
    board, models = in_box(board, models, so.visible)
    if mk.notes and mk.numbered:
        so.callouts = [t for _, t in mk.notes]
    so.point_marks = point_marks_of(board, mk)
    lay, _ = fit_legend_panel(canvas, board, analysis, so, models)
    l, t, w, h = lay.table
    band = caption_box(canvas, mk.caption, w, so.font_scale, so.supersample)[3] if mk.caption else 0.0
    so.caption_band = band
    if view is None:
        view = View.fit(box, (l, t + band, w, h - band), margin_px=12 * so.font_scale)
    start = len(canvas.calls)
    so.placed = []
    errors = draw_scene(canvas, board, analysis, view, options=so, models=models)
    errors += draw_marks(canvas, board, analysis, view, mk, options=so, start=start, avoid=so.placed)
    return view, errors


# -- back ends ---------------------------------------------------------------------------------
def _pygame() -> ModuleType:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    return pygame


def supersample_for(fo: FigureOptions, size: tuple[int, int]) -> int:
    """The supersampling factor: ``fo.supersample`` while the drawing surface stays within
    :data:`DRAW_BUDGET` px, else 1."""
    k = max(1, int(fo.supersample))
    while k > 1 and size[0] * size[1] * k * k > DRAW_BUDGET:
        k -= 1
    return k


def render_png_surface(board: Board, analysis: Optional[Analysis], fo: FigureOptions, size: tuple[int, int], *,
                       marks: Optional[Marks] = None, title: Optional[str] = None, status: str = "",
                       box_mm: Optional[tuple] = None, split_title: bool = False,
                       differ: Optional[dict] = None, differ_label: str = "") -> tuple["pygame.Surface", list[str]]:
    """Draw on an off-screen surface ``size`` px (supersampled, smoothly scaled down).
    Returns ``(surface, errors)``."""
    pg = _pygame()
    k = supersample_for(fo, size)
    surf = pg.Surface((size[0] * k, size[1] * k))
    _, errors = draw_figure(PygameCanvas(surf, supersample=k), board, analysis, fo, marks=marks, title=title, k=k, status=status,
                            box_mm=box_mm, differ=differ, differ_label=differ_label)
    if k > 1:
        surf = pg.transform.smoothscale(surf, size)
    return surf, errors


def png_bytes(surface: "pygame.Surface", dpi: int) -> bytes:
    """The surface as PNG bytes via Pillow (pHYs = ``dpi``; no time or text chunks)."""
    pg = _pygame()
    from PIL import Image

    img = Image.frombytes("RGB", surface.get_size(), pg.image.tobytes(surface, "RGB"))
    buf = io.BytesIO()
    # zlib level 3: the same pixels as level 6 in 0.7x the time, files about 6% larger
    img.save(buf, format="PNG", dpi=(dpi, dpi), optimize=False, compress_level=3)
    return buf.getvalue()


def svg_canvas(board: Board, analysis: Optional[Analysis], fo: FigureOptions, size: tuple[int, int]) -> SvgCanvas:
    classes = {f"model:{dm.id}": dm.role for dm in drawn_models(board, analysis)}
    return SvgCanvas(size[0], size[1], classes=classes, size_attrs=fo.svg_size_attrs(), record=True)


def svg_text(board: Board, analysis: Optional[Analysis], fo: FigureOptions, size: tuple[int, int], *, marks: Optional[Marks] = None,
             title: Optional[str] = None, differ: Optional[dict] = None, differ_label: str = "") -> tuple[str, list[str]]:
    """The figure as an SVG document; models carry ``class="model <role>"``."""
    c = svg_canvas(board, analysis, fo, size)
    _, errors = draw_figure(c, board, analysis, fo, marks=marks, title=title, differ=differ, differ_label=differ_label)
    return c.to_svg(title=board.title or ""), errors


@dataclass
class Target:
    """A canvas of one back end and how to finish it: ``canvas`` (drawn at ``k`` times the
    final size), ``finish()`` -> the file's bytes."""

    canvas: Canvas
    k: int
    finish: Any


def target_for(fmt: str, size: tuple[int, int], fo: FigureOptions, *, classes: Optional[dict] = None,
               title: str = "") -> Target:
    """A fresh canvas of ``size`` px for format ``fmt`` (``png``: supersampled pygame surface,
    ``svg``, ``pdf``: a page of ``fo.size`` mm, else the px at ``fo.dpi``)."""
    if fmt == "svg":
        c = SvgCanvas(size[0], size[1], classes=classes, size_attrs=fo.svg_size_attrs(), record=True)
        return Target(c, 1, lambda: c.to_svg(title=title).encode("utf-8"))
    if fmt == "pdf":
        from game.render.pdf_canvas import PdfCanvas, page_points  # reportlab's side: only for a PDF

        mm = parse_size(fo.size)[:2] if fo.size and parse_size(fo.size)[2] == "mm" else None
        pc = PdfCanvas(size[0], size[1], page_pt=page_points(mm, size, fo.dpi), title=title, cmyk=fo.cmyk, record=True)
        return Target(pc, 1, pc.to_pdf)
    pg = _pygame()
    k = supersample_for(fo, size)
    surf = pg.Surface((size[0] * k, size[1] * k))

    def finish() -> bytes:
        out = pg.transform.smoothscale(surf, size) if k > 1 else surf
        return png_bytes(out, fo.dpi)

    return Target(PygameCanvas(surf, supersample=k, record=True), k, finish)
