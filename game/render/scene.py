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

from typing import Any, Optional

from game.core.analysis import Analysis
from game.core.board import Board
from game.core.parts import OffTable

from game.render import gap_marks, labels, move_marks
from game.render import part_marks  # noqa: F401 - registers the drawers of the core part types
from game.render import table_marks as tm, unit_marks as um, window_layers as wl
from game.render.canvas import Canvas, ellipsize, wrap
from game.render.drawers import drawn_parts
from game.render.drawn import DrawnModel, drawn_models, font_px
from game.render.attack_badges import badged
from game.render.legend import divides, draw_panel
from game.render.options import Layout, SceneOptions
from game.render.painter import Paint
from game.render.palette import LINE_UNITS, PALETTE
from game.render.placer import Placer, UnitBoxes, moved_units
from game.render.transform import View

Point = tuple[float, float]
TITLE_SIZE, TITLE_LINE = 18, 22  # title font and extra line height (units)


def layout(width: int, height: int, *, legend: bool = True, title: bool = True, status: bool = False,
           panel_width: int = 270, font_scale: float = 1.0, top_inset: int = 0, title_lines: int = 1,
           max_share: float = 0.45) -> Layout:
    """Split a ``width`` x ``height`` canvas into the table area, the legend panel on the right,
    a title bar on top (``title_lines`` lines, plus ``top_inset`` px under it) and a status
    line at the bottom; the panel takes at most ``max_share`` of the width."""
    th = (int((34 + TITLE_LINE * (max(1, title_lines) - 1)) * font_scale) if title else 0) + int(top_inset)
    sh = int(24 * font_scale) if status else 0
    pw = int(min(panel_width * font_scale, width * max_share)) if legend else 0
    return Layout(table=(0, th, width - pw, height - th - sh),
                  panel=(width - pw, th, pw, height - th - sh) if legend else None,
                  title=(0, 0, width, th - int(top_inset)) if title else None,
                  status=(0, height - sh, width, sh) if status else None)


def ruleset_text(options: SceneOptions, ruleset_id: Optional[str]) -> str:
    """What the title bar says of the ruleset: a figure (``wrap_title``) its display name
    (``options.ruleset_name``; the id when the caller gave none), the window ``ruleset: <id>``."""
    if options.wrap_title:
        return options.ruleset_name or str(ruleset_id)
    return f"ruleset: {ruleset_id}"


def ruleset_inline(canvas: Canvas, options: SceneOptions, ruleset_id: Optional[str]) -> bool:
    """Does the ruleset's name fit on the right of the title bar (at most 30 % of the width)?
    A figure too narrow for it puts the name on a line of its own under the title."""
    if not options.wrap_title:
        return True
    rw = canvas.text_size(ruleset_text(options, ruleset_id), font_px(13 * options.font_scale, options.supersample))[0]
    return rw <= 0.3 * canvas.width


def title_lines(canvas: Canvas, board: Board, options: SceneOptions, ruleset: Optional[str] = None) -> list[str]:
    """The title as drawn: one line (cut with an ellipsis) in the window, wrapped in figures;
    ``ruleset``: the id of the ruleset named on the right (None: the board's)."""
    title = str(board.title if options.title is None else options.title)
    if not title:
        return []
    fs = options.font_scale
    size = font_px(TITLE_SIZE * fs, options.supersample)
    rs = ruleset or board.ruleset
    right = ruleset_text(options, rs)
    rw = canvas.text_size(right, font_px(13 * fs, options.supersample))[0] if ruleset_inline(canvas, options, rs) else 0
    avail = canvas.width - rw - 52 * fs
    if not options.wrap_title:
        return [ellipsize(canvas, title, size, avail, bold=True)]
    return wrap(canvas, title, size, avail, bold=True)


def scene_layout(canvas: Canvas, board: Board, options: SceneOptions, ruleset: Optional[str] = None) -> Layout:
    """The :func:`layout` ``draw_scene`` uses for these options (``ruleset``: the id of the
    analysis' ruleset, None: the board's)."""
    title = board.title if options.title is None else options.title
    n = len(title_lines(canvas, board, options, ruleset)) if (title and options.wrap_title) else 1
    rs = ruleset or board.ruleset
    if title and not ruleset_inline(canvas, options, rs) and title_lines(canvas, board, options, rs) != [ruleset_text(options, rs)]:
        n += 1  # the ruleset's name on a line of its own
    return layout(canvas.width, canvas.height, legend=options.legend, title=bool(title), status=bool(options.status),
                  panel_width=options.panel_width, font_scale=options.font_scale, top_inset=options.top_inset,
                  title_lines=n, max_share=options.legend_share)


def units_bbox(board: Board, analysis: Optional[Analysis] = None, margin_mm: float = 0.0) -> tuple[float, float, float, float]:
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


def paint_for(canvas: Canvas, board: Board, analysis: Optional[Analysis], view: View, options: SceneOptions) -> Paint:
    """The :class:`Paint` of one drawing: palette merged over :data:`PALETTE`, the layout of
    these options, a placer over the table area (inside a 3-unit margin, below a
    ``caption_band``) holding only the options' ``keep_off`` boxes (taken) and ``keep_clear``
    boxes (avoided where possible), and the units' boxes."""
    pal = dict(PALETTE)
    pal.update(options.palette or {})
    fs = options.font_scale
    lay = scene_layout(canvas, board, options, ruleset_of(analysis))
    tl, tt, tw, th = lay.table
    top = tt + options.caption_band
    m = 3 * fs
    placer = Placer((tl + m, top + m, tl + tw - m, tt + th - m))
    for box in options.keep_off:
        placer.add(tuple(box))
    for box in options.keep_clear:
        placer.add(tuple(box), soft=True)
    if options.placements is not None:
        placer.memo = options.placements
        options.placements.canvas = canvas
    return Paint(canvas, board, analysis, view, options, pal, fs, lay, placer,
                 UnitBoxes(board, view, moved_units(analysis)))


def title(p: Paint) -> None:
    """The title bar: the (wrapped) title on the left, the ruleset's name on the right or under it."""
    if not p.lay.title:
        return
    p.c.tag = "title"
    x, y, w, h = p.lay.title
    p.c.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill=p.pal["title_bg"])
    rs = ruleset_of(p.a) or p.b.ruleset
    right = ruleset_text(p.o, rs)
    lines = title_lines(p.c, p.b, p.o, rs)
    if lines == [right]:
        right = ""  # a compare panel: its title is the ruleset's name
    below = bool(right) and not ruleset_inline(p.c, p.o, rs)
    size = p.size(TITLE_SIZE)
    lh = TITLE_LINE * p.fs
    n = len(lines) + (1 if below else 0)
    top = y + h / 2 - lh * (n - 1) / 2
    if p.pal.get("title_rule") is not None:  # print: black on white, ruled off from the table
        p.c.line([(x, y + h - p.u(0.5)), (x + w, y + h - p.u(0.5))], p.pal["title_rule"],
                 p.u(LINE_UNITS["thin"]))
    for i, ln in enumerate(lines):
        p.c.text((x + p.u(14), top + i * lh), ln, size, p.pal["title_text"], anchor="left", bold=True)
    if below:
        p.c.text((x + p.u(14), top + len(lines) * lh), right, p.size(13), p.pal["title_text"], anchor="left")
    else:
        p.c.text((x + w - p.u(14), y + h / 2), right, p.size(13), p.pal["title_text"], anchor="right")


def legend_painter(canvas: Canvas, board: Board, analysis: Optional[Analysis], options: SceneOptions) -> Paint:
    """A scene :class:`Paint` on ``canvas`` for drawing legend swatches outside a scene (the one
    legend of a multi-panel figure: :mod:`game.render.figure_panels`)."""
    return paint_for(canvas, board, analysis, View(), options)


def draw_scene(canvas: Canvas, board: Board, analysis: Optional[Analysis], view: View, *, options: Optional[SceneOptions] = None,
               models: Optional[list[DrawnModel]] = None) -> list[str]:
    """Draw ``board`` with its ``analysis`` (may be ``None``) on ``canvas`` through ``view``; the
    ruleset is named in a figure's title by ``options.ruleset_name`` (nothing is loaded here).

    Returns the list of per-element errors (empty when everything drew); never raises for a
    bad board or analysis, but raises :class:`game.render.drawers.NoDrawer` for a part of a
    type nothing can draw (a missing drawer is a defect, not a board's oddity). See the module
    docstring for what is drawn.
    """
    o = options or SceneOptions()
    p = paint_for(canvas, board, analysis, view, o)
    layer = o.layer
    if layer in ("all", "base", "table"):
        p.safe("table", tm.table, p)
        p.safe("scale bar", tm.scale_bar, p)  # placed first: labels keep off it
        for t in board.terrain or []:
            p.safe("terrain", tm.terrain, p, t)
        for i, pt in enumerate((board.context or {}).get("objectives", []) or []):
            p.safe("objective", tm.objective, p, i, pt)
        stage(p, analysis, "table")
    if layer in ("top", "panel"):
        p.models = models if models is not None else (p.safe("models", drawn_models, board, analysis) or [])
    else:
        _draw_units(p, board, analysis, o, models)
    if layer in ("all", "top"):
        p.safe("highlight", wl.highlight, p)
        for item in o.overlays or []:
            p.safe("overlay", wl.overlay, p, item)
    if layer in ("all", "base", "table", "units"):
        stage(p, analysis, "labels")
        shown = None if o.visible is None else {dm.unit.id for dm in p.models if dm.id in o.visible}
        off = analysis.part(OffTable) if analysis is not None else None
        if o.labels:
            for i, u in enumerate(board.units):
                if off is not None and off.whole_unit([m.id for m in part_marks._models(u)]):
                    continue  # embarked or destroyed: not on the table, no label
                if shown is None or u.id in shown:  # a unit cropped out of the figure gets no label
                    p.safe(f"label {u.id}", labels.unit_label, p, u, i)
    if layer in ("all", "base", "panel"):
        p.safe("panel", draw_panel, p)
    if layer in ("all", "top"):
        p.safe("title", title, p)
        p.safe("status", wl.status, p)
        p.safe("banner", wl.banner, p)
        p.safe("tooltip", wl.tooltip, p)
    if o.placed is not None:
        o.placed.extend(p.placer.taken)
    canvas.tag = ""
    return p.errors


def _draw_units(p: Paint, board: Board, analysis: Optional[Analysis], o: SceneOptions, models: Optional[list[DrawnModel]]) -> None:
    """Trays, bases and every mark drawn on or between them: the parts at stages ``under``,
    ``moves`` (move arrows), ``over``, ``ranks`` and ``gaps`` (gap links), and the marks of the
    core model results (compare, overlap, dividing attacks, ``×N`` counts), fronts."""
    shown = {u.id: move_marks.moved_alike(u, analysis) for u in board.units}  # a unit moved alike: its frame too
    for u in board.units:
        p.safe(f"tray {u.id}", um.tray, p, shown[u.id])
    stage(p, analysis, "under")
    # ``models``: drawn_models(board, analysis) already computed by the caller (the window
    # keeps them for hovering), so a frame does not build them twice
    p.models = models if models is not None else (p.safe("models", drawn_models, board, analysis) or [])
    by_id = {dm.id: dm for dm in p.models}
    um.models(p, p.models)
    for dm in p.models:
        if dm.slot_from is not None:
            p.safe(f"slot move {dm.id}", um.slot_move, p, dm, dm.slot_from, dm.shape.center)
    for dm in p.models:
        if dm.id in (o.differ or {}):
            p.safe(f"differ {dm.id}", um.differ_mark, p, dm)
    over = set(o.overlaps or ())
    for dm in p.models:
        if dm.id in over:
            p.safe(f"overlap {dm.id}", um.overlap_mark, p, dm)
    rings = set(o.rings or ())
    for dm in p.models:
        if dm.id in rings:  # under the gap arrows, letters and counts drawn below
            p.safe(f"ring {dm.id}", um.ring_mark, p, dm)
    for dm in p.models:
        if divides(analysis, dm.id) > 1:
            p.safe(f"divide {dm.id}", labels.divide_mark, p, dm, divides(analysis, dm.id))
    stage(p, analysis, "moves")
    stage(p, analysis, "over")
    for u in board.units:
        p.safe(f"tray {u.id}", um.tray, p, shown[u.id], True)
        p.safe(f"front {u.id}", um.front_marker, p, shown[u.id])
    numbered = stage(p, analysis, "ranks")
    if o.counts:
        badges = {mid: n for mid, n in badged(p.models, analysis, o.count_all).items() if mid not in numbered}
        arrows = gap_marks.arrow_boxes(p, analysis) if badges else []  # drawn next, over the models
        for mid, n in badges.items():
            p.safe(f"count {mid}", labels.count_mark, p, by_id[mid], n, arrows)
    stage(p, analysis, "gaps")


def stage(p: Paint, analysis: Optional[Analysis], at: str) -> set[str]:
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


def ruleset_of(analysis: Optional[Analysis]) -> Optional[str]:
    """The ruleset id an analysis was made under (None: no analysis)."""
    return analysis.ruleset if analysis is not None else None
