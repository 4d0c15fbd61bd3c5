"""Teaching marks drawn on top of a scene, through the same :class:`~game.render.canvas.Canvas`
protocol (so window, PNG and SVG agree): dimmed models (an Initiative / Agility step shows
only the models striking at it), highlight rings, text callouts next to models, difference
rings (``render --compare``), a caption band, and the colour-blind palette's role patterns.

Call :func:`draw_marks` right after :func:`game.render.scene.draw_scene` with the same board,
analysis and view. Model positions come from :func:`game.render.scene.drawn_models` (after any
rule-mandated move), so marks sit on the bases as drawn.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from game.core.analysis import Analysis
from game.core.board import Board
from game.core import geometry as g
from game.core.point_marks import board_point_marks

from game.render.canvas import Canvas, wrap
from game.render.hatching import hatch_segments
from game.render.palette import PALETTE, lw
from game.render.drawn import DrawnModel, drawn_models, font_px
from game.render.options import SceneOptions
from game.render.point_marks import draw_point_marks
from game.render.scene import scene_layout
from game.render.transform import View
from game.render.unit_marks import RING_COLOUR

DIM_ALPHA = 200
HIGHLIGHT = RING_COLOUR
DIFF = (255, 210, 0)


@dataclass
class Marks:
    """What to mark: ``dim`` model ids drawn faded; ``highlight`` model ids ringed;
    ``notes`` ``[(model id, text)]`` callouts (``numbered``: a numbered badge by the model,
    the text listed under "Notes" in the legend, or in the caption band without a legend);
    ``diff`` model ids ringed as differing between two rulesets; ``fallen`` model ids crossed
    out (casualties of a combat round's step); ``caption`` a wrapped text
    band at the top of the table area (never cut: the band grows); ``patterns``: role
    patterns (kept for old callers; the colour-blind and greyscale palettes carry them);
    ``listed``: the numbered notes are listed elsewhere (a multi-panel figure's one legend),
    so no caption band repeats them; ``points``: pointing marks (:mod:`game.core.point_marks`)
    of a book figure, drawn after the board's own (:func:`point_marks_of`)."""

    dim: Sequence[str] = ()
    highlight: Sequence[str] = ()
    notes: Sequence[tuple[str, str]] = ()
    diff: Sequence[str] = ()
    caption: str = ""
    patterns: bool = False
    numbered: bool = False
    extra: dict = field(default_factory=dict)
    fallen: Sequence[str] = ()
    listed: bool = False
    points: Sequence[Any] = ()


def point_marks_of(board: Board, marks: Optional["Marks"] = None) -> tuple:
    """The pointing marks a figure of ``board`` draws: the board's own (its file's ``marks``) then
    those of ``marks`` (a book figure's), as :class:`game.core.point_marks.PointMark` records."""
    return board_point_marks(board) + tuple(marks.points if marks is not None else ())


def _shape_pts(view: View, s: g.Shape) -> list[tuple[float, float]]:
    if isinstance(s, g.Circle):
        c = view.to_px(s.center)
        r = s.radius_mm * view.scale
        return [(c[0] + r * math.cos(2 * math.pi * i / 24), c[1] + r * math.sin(2 * math.pi * i / 24)) for i in range(24)]
    return view.pts(s.points)


def _ring(c: Canvas, view: View, s: g.Shape, colour: Any, width: float) -> None:
    if isinstance(s, g.Circle):
        c.circle(view.to_px(s.center), s.radius_mm * view.scale + width / 2, outline=colour, width=width)
    else:
        c.polygon(view.pts(s.points), outline=colour, width=width)


def _cross(c: Canvas, view: View, s: g.Shape, fs: float) -> None:
    """A casualty: a white-edged black X corner to corner over the base."""
    b = s.bbox()
    k = 0.18
    x0, y0 = b[0] + (b[2] - b[0]) * k, b[1] + (b[3] - b[1]) * k
    x1, y1 = b[2] - (b[2] - b[0]) * k, b[3] - (b[3] - b[1]) * k
    for a, z in (((x0, y0), (x1, y1)), ((x0, y1), (x1, y0))):
        pa, pz = view.to_px(a), view.to_px(z)
        c.line([pa, pz], (255, 255, 255), lw("bold", casing=True) * fs)
        c.line([pa, pz], (20, 20, 20), lw("bold") * fs)


def caption_box(canvas: Canvas, text: str, width_px: float, font_scale: float,
                ss: int = 1) -> tuple[int, list[str], float, float]:
    """(font size, wrapped lines, line height, band height) of a caption band
    ``width_px`` wide at the top of the table area."""
    size = font_px(15 * font_scale, ss)
    lines = wrap(canvas, text, size, width_px - 32 * font_scale)
    lh = canvas.text_size("Ag", size)[1] + 3 * font_scale
    return size, lines, lh, lh * len(lines) + 14 * font_scale


@dataclass
class _Room:
    """Where callouts and notes may go (px): the table area below the caption band
    (``left``, ``top``, ``width``, ``height``) and what they keep clear of, worst first: the
    boxes the scene placed (``scene_boxes``) and the callouts placed so far (``placed``), the
    bases they do not point at (``model_boxes``), the units (``unit_boxes``)."""

    left: float
    top: float
    width: float
    height: float
    scene_boxes: list
    model_boxes: dict
    unit_boxes: list
    placed: list = field(default_factory=list)

    def cost(self, bx: Sequence[float], mid: str) -> float:
        """How bad a callout or note box is: over other marks, over bases it does not point at."""
        hard = sum(_area(bx, q) for q in self.scene_boxes) + sum(_area(bx, q) for q in self.placed)
        others = sum(_area(bx, q) for m, q in self.model_boxes.items() if m != mid)
        own = sum(_area(bx, q) for q in self.unit_boxes)
        return hard * 1000 + others * 50 + own


def _area(a: Sequence[float], q: Sequence[float]) -> float:
    return max(0.0, min(a[2], q[2]) - max(a[0], q[0])) * max(0.0, min(a[3], q[3]) - max(a[1], q[1]))


def _room(view: View, dms: Sequence[DrawnModel], avoid: Sequence, table: tuple, band: float) -> _Room:
    """The :class:`_Room` of a scene: its drawn models ``dms``, the px boxes it placed
    (``avoid``), its table area ``table`` (left, top, width, height) under a caption ``band``."""
    ub: dict[str, list[float]] = {}
    for dm in dms:  # px boxes of every unit as drawn: callouts avoid covering them
        b = dm.shape.bbox()
        q = ub.setdefault(dm.unit.id, [b[0], b[1], b[2], b[3]])
        q[0], q[1], q[2], q[3] = min(q[0], b[0]), min(q[1], b[1]), max(q[2], b[2]), max(q[3], b[3])
    unit_boxes = [(*view.to_px((q[0], q[1])), *view.to_px((q[2], q[3]))) for q in ub.values()]
    model_boxes = {dm.id: (*view.to_px(dm.shape.bbox()[:2]), *view.to_px(dm.shape.bbox()[2:])) for dm in dms}
    tl, tt, tw, th = table
    return _Room(tl, tt + band, tw, th - band, [tuple(b) for b in avoid], model_boxes, unit_boxes)


def draw_marks(canvas: Canvas, board: Board, analysis: Optional[Analysis], view: View, marks: Marks, *,
               options: Optional[SceneOptions] = None, start: int = 0, avoid: Sequence = ()) -> list[str]:
    """Draw ``marks`` over a scene already drawn on ``canvas``; callouts and notes keep clear
    of ``avoid`` (px boxes the scene placed: labels, badges, markers), of one another and of
    every base but the one they point at. Returns error strings (never raises for an unknown
    model id: it is reported and skipped)."""
    o = options or SceneOptions()
    pal = dict(PALETTE)
    pal.update(o.palette or {})
    fs = o.font_scale
    dms = drawn_models(board, analysis)
    shapes = {dm.id: dm.shape for dm in dms}
    lay = scene_layout(canvas, board, o)
    caption = marks.caption
    if marks.numbered and marks.notes and not o.legend and not marks.listed:
        caption = (caption + " " if caption else "") + " ".join(f"({i}) {t}" for i, (_, t) in enumerate(marks.notes, 1))
    band = caption_box(canvas, caption, lay.table[2], fs, o.supersample)[3] if caption else 0.0
    room = _room(view, dms, avoid, lay.table, band)  # callouts stay below the caption band
    errors = _model_marks(canvas, view, shapes, marks, o, pal)
    errors += draw_point_marks(canvas, view, shapes, point_marks_of(board, marks), pal, fs)
    if marks.numbered:
        errors += _numbered(canvas, view, shapes, marks.notes, room, fs, o.supersample)
    else:
        errors += _notes(canvas, view, shapes, marks.notes, room, fs, o.supersample)
    if caption:
        _caption_band(canvas, caption, lay.table, pal, fs, o.supersample)
    canvas.tag = ""
    return errors


def _model_marks(canvas: Canvas, view: View, shapes: dict[str, g.Shape], marks: Marks, o: SceneOptions,
                 pal: dict) -> list[str]:
    """The marks on the bases: dimmed models, difference rings, highlight rings (those the
    scene did not ring already: ``o.rings``), casualties crossed out. Returns error strings."""
    errors: list[str] = []
    fs = o.font_scale
    table_col = tuple(pal["table"][:3])
    for mid in marks.dim:
        s = shapes.get(mid)
        if s is None:
            continue
        canvas.tag = f"dim:{mid}"
        canvas.polygon(_shape_pts(view, s), fill=table_col + (DIM_ALPHA,))
    for mid in marks.diff:
        s = shapes.get(mid)
        if s is None:
            errors.append(f"diff: no model {mid}")
            continue
        canvas.tag = f"diff:{mid}"
        _ring(canvas, view, s, (0, 0, 0), lw("bold", casing=True) * fs)
        _ring(canvas, view, s, DIFF, lw("bold") * fs)
    for mid in marks.highlight:
        s = shapes.get(mid)
        if s is None:
            errors.append(f"highlight: no model {mid}")
            continue
        if mid in o.rings:
            continue  # drawn by the scene, under its gap letters and labels
        canvas.tag = f"highlight:{mid}"
        _ring(canvas, view, s, (255, 255, 255), lw("bold", casing=True) * fs)
        _ring(canvas, view, s, HIGHLIGHT, lw("bold") * fs)
    for mid in marks.fallen:
        s = shapes.get(mid)
        if s is None:
            errors.append(f"fallen: no model {mid}")
            continue
        canvas.tag = f"fallen:{mid}"
        _cross(canvas, view, s, fs)
    return errors


def _numbered(canvas: Canvas, view: View, shapes: dict[str, g.Shape], notes: Sequence[tuple[str, str]], room: _Room,
              fs: float, ss: int) -> list[str]:
    """A numbered badge by each noted model (the texts are listed elsewhere), at the first of
    its candidate places (corners, further out) that covers least (:meth:`_Room.cost`)."""
    errors: list[str] = []
    tl, tw, nt, nh = room.left, room.width, room.top, room.height
    for i, (mid, _) in enumerate(notes, start=1):
        s = shapes.get(mid)
        if s is None:
            errors.append(f"annotate: no model {mid}")
            continue
        canvas.tag = f"callout:{i}:{mid}"
        b = s.bbox()
        p0, p1 = view.to_px((b[0], b[1])), view.to_px((b[2], b[3]))
        r = 9 * fs
        cands = []
        for k in (1.0, 2.2, 3.5):
            cands += [(p1[0] + r * k, p0[1] - r * k), (p0[0] - r * k, p0[1] - r * k), (p1[0] + r * k, p1[1] + r * k),
                      (p0[0] - r * k, p1[1] + r * k)]
        cands = [(min(max(x, tl + r + 2), tl + tw - r - 2), min(max(y, nt + r + 2), nt + nh - r - 2)) for x, y in cands]
        x, y = min(cands, key=lambda q: (room.cost((q[0] - r, q[1] - r, q[0] + r, q[1] + r), mid), cands.index(q)))
        room.placed.append((x - r, y - r, x + r, y + r))
        canvas.circle((x, y), r, fill=(20, 20, 20), outline=(255, 255, 255), width=lw("thin") * fs)
        canvas.text((x, y), str(i), font_px(12 * fs, ss), (255, 255, 255), anchor="center", bold=True)
    return errors


def _notes(canvas: Canvas, view: View, shapes: dict[str, g.Shape], notes: Sequence[tuple[str, str]], room: _Room,
           fs: float, ss: int) -> list[str]:
    """A boxed text by each noted model, joined to it by a line, at the first of its candidate
    places (around the base, further out) that covers least (:meth:`_Room.cost`)."""
    errors: list[str] = []
    tl, tw, nt, nh = room.left, room.width, room.top, room.height
    size = font_px(13 * fs, ss)
    for mid, text in notes:
        s = shapes.get(mid)
        if s is None:
            errors.append(f"annotate: no model {mid}")
            continue
        canvas.tag = f"note:{mid}"
        b = s.bbox()
        p0, p1 = view.to_px((b[0], b[1])), view.to_px((b[2], b[3]))
        lines = wrap(canvas, text, size, 260 * fs)
        lh = canvas.text_size("Ag", size)[1] + 2 * fs
        w = max(canvas.text_size(ln, size)[0] for ln in lines) + 12 * fs
        h = lh * len(lines) + 8 * fs
        cands = []
        for off in (22 * fs, 60 * fs, 120 * fs, 200 * fs, 300 * fs):
            cands += [(p1[0] + off, p0[1] - off - h), (p0[0] - off - w, p0[1] - off - h),
                      (p1[0] + off, p1[1] + off), (p0[0] - off - w, p1[1] + off),
                      (p1[0] + off, (p0[1] + p1[1] - h) / 2), (p0[0] - off - w, (p0[1] + p1[1] - h) / 2),
                      ((p0[0] + p1[0] - w) / 2, p0[1] - off - h), ((p0[0] + p1[0] - w) / 2, p1[1] + off)]
        # kept inside the table first, then scored where they would really be drawn
        cands = [(min(max(x, tl + 2 * fs), tl + tw - w - 2 * fs), min(max(y, nt + 2 * fs), nt + nh - h - 2 * fs))
                 for x, y in cands]
        x, y = min(cands, key=lambda q: (room.cost((q[0], q[1], q[0] + w, q[1] + h), mid), cands.index(q)))
        room.placed.append((x, y, x + w, y + h))
        cx, cy = (p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2
        ax = min(max(cx, x), x + w)
        ay = min(max(cy, y), y + h)
        canvas.line([(cx, cy), (ax, ay)], (20, 20, 20), lw("thin") * fs)
        canvas.circle((cx, cy), 3 * fs, fill=(20, 20, 20))
        canvas.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill=(255, 255, 240), outline=(20, 20, 20),
                       width=lw("thin") * fs)
        for k, ln in enumerate(lines):
            canvas.text((x + 6 * fs, y + 4 * fs + k * lh), ln, size, (20, 20, 20))
    return errors


def _caption_band(canvas: Canvas, caption: str, table: tuple, pal: dict, fs: float, ss: int) -> None:
    """The caption, wrapped in a band across the top of the table area (``table``: left, top,
    width, height px; print: a white band ruled off from the table)."""
    tl, tt, tw, _ = table
    canvas.tag = "caption"
    size, lines, lh, h = caption_box(canvas, caption, tw, fs, ss)
    canvas.polygon([(tl, tt), (tl + tw, tt), (tl + tw, tt + h), (tl, tt + h)], fill=pal["caption_bg"])
    if pal.get("caption_edge") is not None:
        canvas.line([(tl, tt + h), (tl + tw, tt + h)], pal["caption_edge"], lw("thin") * fs)
    for k, ln in enumerate(lines):
        canvas.text((tl + 16 * fs, tt + 7 * fs + k * lh), ln, size, pal["caption_text"])
