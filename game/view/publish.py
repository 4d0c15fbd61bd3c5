"""Print-ready figures: one scene (plus teaching marks) in PNG or SVG, sized in px or mm.

:func:`draw_figure` is the single drawing path of every figure, demo frame and book page: it
fits the view, calls :func:`game.view.scene.draw_scene` and then
:func:`game.view.marks.draw_marks` on whatever canvas it is given (pygame surface, SVG,
recording). :func:`render_figure` picks the back end from the output suffix (``.svg`` or
``.png``) and writes the file deterministically (same input, same bytes).
"""
from __future__ import annotations

import math

import io
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

from game.core.board import Board

from .canvas import Canvas
from .marks import Marks, caption_box, draw_marks
from .palette import palette_named
from .scene import SceneOptions, draw_scene, drawn_models, layout, units_bbox
from .transform import View

MM_PER_INCH = 25.4
_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(px|mm)?\s*$", re.I)


class FigureError(ValueError):
    """A bad figure option (size, palette, compare ids...)."""


MAX_SIDE_PX = 8000


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
    """How to draw one figure.

    ``size``: ``"WxH"`` px or ``"WxHmm"`` (None: sized from the units at 1.4 px/mm);
    ``dpi``: pixels per inch for mm sizes and the PNG's pHYs chunk; ``legend``, ``caption``
    (the title bar), ``labels`` (unit labels) on/off; ``title`` overrides the scenario title;
    ``crop``: fit the view to the engaged units plus ``crop_margin_mm``; ``palette``:
    ``default`` or ``colourblind`` (Okabe-Ito with role patterns); ``compare``: two ruleset
    ids, drawn as ``side`` (two panels) or ``overlay`` (one panel, differing models ringed);
    ``font_scale``: None picks one from the dpi for mm sizes (about 7.5 pt body text), else 1.
    """

    size: Optional[str] = None
    dpi: int = 150
    legend: bool = True
    caption: bool = True
    labels: bool = True
    title: Optional[str] = None
    crop: bool = False
    crop_margin_mm: float = 40.0
    palette: str = "default"
    compare: Optional[tuple[str, str]] = None
    compare_mode: str = "side"
    font_scale: Optional[float] = None
    supersample: int = 2
    marks: Marks = field(default_factory=Marks)

    def pixel_size(self) -> Optional[tuple[int, int]]:
        """Output size in px (None: derived from the board). Raises :class:`FigureError` for a
        dpi outside 1..2400, a font scale that is not a positive number up to 10, or a figure
        side over :data:`MAX_SIDE_PX` px (figures are drawn at twice that off-screen)."""
        if not (1 <= int(self.dpi) <= 2400):
            raise FigureError(f"--dpi must be from 1 to 2400 (got {self.dpi})")
        if self.font_scale is not None and not (math.isfinite(self.font_scale) and 0 < self.font_scale <= 10):
            raise FigureError(f"--font-scale must be a number above 0 and at most 10 (got {self.font_scale})")
        if not (math.isfinite(self.crop_margin_mm) and self.crop_margin_mm >= 0):
            raise FigureError(f"--crop-margin must be 0 mm or more (got {self.crop_margin_mm})")
        if not self.size:
            return None
        w, h, unit = parse_size(self.size)
        if unit == "mm":
            px = int(round(w / MM_PER_INCH * self.dpi)), int(round(h / MM_PER_INCH * self.dpi))
        else:
            px = int(round(w)), int(round(h))
        if max(px) > MAX_SIDE_PX or min(px) < 1:
            raise FigureError(f"the figure would be {px[0]}x{px[1]} px; each side must be from 1 to {MAX_SIDE_PX} px")
        return px

    def scale(self) -> float:
        """Text and line scale for this size."""
        if self.font_scale is not None:
            return float(self.font_scale)
        if self.size and parse_size(self.size)[2] == "mm":
            return self.dpi / 125.0
        return 1.0

    def svg_size_attrs(self) -> Optional[tuple[str, str]]:
        if self.size and parse_size(self.size)[2] == "mm":
            w, h, _ = parse_size(self.size)
            return (f"{w:g}mm", f"{h:g}mm")
        return None


def scene_options(board: Board, fo: FigureOptions, title: Optional[str] = None, k: float = 1.0) -> SceneOptions:
    """The :class:`SceneOptions` of a figure drawn at ``k`` times its final size."""
    t = title if title is not None else (fo.title if fo.title is not None else None)
    if not fo.caption:
        t = ""
    return SceneOptions(palette=palette_named(fo.palette), legend=fo.legend, title=t, labels=fo.labels,
                        font_scale=fo.scale() * k)


def engaged_bbox(board: Board, analysis: Any, margin_mm: float) -> tuple[float, float, float, float]:
    """Box (mm) around every unit in an engagement (else every fighting model's unit, else
    every unit), grown by ``margin_mm``; includes rule-mandated move paths."""
    ids: set[str] = set()
    for e in getattr(analysis, "engagements", None) or []:
        ids.update((e.get("unit"), e.get("enemy")))
    for e in (getattr(analysis, "extra", None) or {}).get("fight_sequence") or []:
        ids.add(e.get("unit"))  # wh40k: every unit selected to fight
    for mid in getattr(analysis, "moves", None) or {}:
        ids.add(mid.split(".", 1)[0])
    if not ids:
        ids = {mid.split(".", 1)[0] for mid, r in (getattr(analysis, "models", None) or {}).items() if r.role != "none"}
    sub = Board(units=[u for u in board.units if u.id in ids] or list(board.units), ruleset=board.ruleset,
                table=board.table)
    x0, y0, x1, y1 = units_bbox(sub)
    for dm in drawn_models(sub, analysis):
        b = dm.shape.bbox()
        x0, y0, x1, y1 = min(x0, b[0]), min(y0, b[1]), max(x1, b[2]), max(y1, b[3])
    for path in (getattr(analysis, "moves", None) or {}).values():
        for p in path:
            x0, y0, x1, y1 = min(x0, p[0]), min(y0, p[1]), max(x1, p[0]), max(y1, p[1])
    return (x0 - margin_mm, y0 - margin_mm, x1 + margin_mm, y1 + margin_mm)


def draw_figure(canvas: Canvas, board: Board, analysis: Any, fo: FigureOptions, *, marks: Optional[Marks] = None,
                title: Optional[str] = None, k: float = 1.0, view: Optional[View] = None,
                status: str = "", box_mm: Optional[tuple] = None, split_title: bool = False) -> tuple[View, list[str]]:
    """Fit the view (to ``box_mm`` (x0, y0, x1, y1) if given, else to the units or, with
    ``fo.crop``, the engaged units), draw the scene and the marks on ``canvas`` (whose size
    already includes the supersampling factor ``k``). ``split_title``: a title too long for the
    bar keeps its part before the colon there and is shown whole as a caption band.
    Returns ``(view, drawing errors)``."""
    so = scene_options(board, fo, title, k)
    so.status = status
    mk = marks if marks is not None else fo.marks
    if split_title and so.title != "" and not mk.caption:
        full = board.title if so.title is None else so.title
        head, sep, _ = str(full).partition(":")
        avail = canvas.width - canvas.text_size("ruleset: " + str(board.ruleset), max(7, round(13 * so.font_scale)))[0] - 48
        if sep and head.strip() and canvas.text_size(full, max(7, round(18 * so.font_scale)), True)[0] > avail:
            so.title = head.strip()  # a long title: the rule's name on the bar, the sentence as a caption
            mk = replace(mk, caption=str(full))
    if fo.palette == "colourblind" and not mk.patterns:
        mk = replace(mk, patterns=True)
    lay = layout(canvas.width, canvas.height, legend=so.legend, title=bool(board.title if so.title is None else so.title),
                 status=bool(so.status), panel_width=so.panel_width, font_scale=so.font_scale)
    if view is None:
        l, t, w, h = lay.table
        band = caption_box(canvas, mk.caption, w, so.font_scale)[3] if mk.caption else 0.0
        box = box_mm or (engaged_bbox(board, analysis, fo.crop_margin_mm) if fo.crop else units_bbox(board, margin_mm=60.0))
        view = View.fit(box, (l, t + band, w, h - band), margin_px=12 * so.font_scale)
    start = len(canvas.calls)
    errors = draw_scene(canvas, board, analysis, view, options=so)
    errors += draw_marks(canvas, board, analysis, view, mk, options=so, start=start)
    return view, errors


def default_size(board: Board, fo: FigureOptions, analysis: Any = None) -> tuple[int, int]:
    """Pixel size of a figure without ``size``: the units at 1.4 px/mm plus the panels
    (tall enough for the legend of ``analysis``)."""
    from .figure import figure_size

    so = scene_options(board, fo)
    return figure_size(board, so, 1.4, analysis=analysis)


# -- back ends ---------------------------------------------------------------------------------
def _pygame():
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    return pygame


def render_png_surface(board: Board, analysis: Any, fo: FigureOptions, size: tuple[int, int], *,
                       marks: Optional[Marks] = None, title: Optional[str] = None, status: str = "",
                       box_mm: Optional[tuple] = None, split_title: bool = False):
    """Draw on an off-screen surface ``size`` px (supersampled, smoothly scaled down).
    Returns ``(surface, errors)``."""
    pg = _pygame()
    from .canvas import PygameCanvas

    from .figure import supersample_for

    k = supersample_for(size[0], size[1], fo.supersample)
    W, H = size[0] * k, size[1] * k
    surf = pg.Surface((W, H))
    need_record = fo.palette == "colourblind" or (marks and marks.patterns)
    _, errors = draw_figure(PygameCanvas(surf, record=bool(need_record)), board, analysis, fo, marks=marks,
                            title=title, k=k, status=status, box_mm=box_mm, split_title=split_title)
    if k > 1:
        surf = pg.transform.smoothscale(surf, size)
    return surf, errors


def png_bytes(surface, dpi: int) -> bytes:
    """The surface as PNG bytes via Pillow (pHYs = ``dpi``; no time or text chunks)."""
    pg = _pygame()
    from PIL import Image

    img = Image.frombytes("RGB", surface.get_size(), pg.image.tobytes(surface, "RGB"))
    buf = io.BytesIO()
    img.save(buf, format="PNG", dpi=(dpi, dpi), optimize=False, compress_level=6)
    return buf.getvalue()


def svg_text(board: Board, analysis: Any, fo: FigureOptions, size: tuple[int, int], *, marks: Optional[Marks] = None,
             title: Optional[str] = None) -> tuple[str, list[str]]:
    """The figure as an SVG document; models carry ``class="model <role>"``."""
    from .svg_canvas import SvgCanvas

    classes = {f"model:{dm.id}": dm.role for dm in drawn_models(board, analysis)}
    c = SvgCanvas(size[0], size[1], classes=classes, size_attrs=fo.svg_size_attrs(), record=True)
    _, errors = draw_figure(c, board, analysis, fo, marks=marks, title=title, split_title=True)
    return c.to_svg(title=board.title or ""), errors


def _write(path: Path, data: bytes) -> None:
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def render_figure(board: Board, rs: Any, out: str | os.PathLike, fo: Optional[FigureOptions] = None,
                  *, services: Optional[dict] = None, analysis: Any = None) -> list[str]:
    """Analyse ``board`` under ruleset ``rs`` (unless ``analysis`` is given) and write the
    figure to ``out`` (``.svg`` -> SVG, anything else PNG). With ``fo.compare`` the board is
    analysed under both rulesets (:func:`game.core.compare.compare`). Returns drawing errors.
    Raises :class:`FigureError` for bad options, ``RulesetError`` for unknown ids, ``OSError``."""
    from game.core.analysis import analyse

    fo = fo or FigureOptions()
    palette_named(fo.palette)  # validates
    services = services if services is not None else _services()
    out = Path(out)
    svg = out.suffix.lower() == ".svg"
    if fo.compare:
        return _render_compare(board, fo, out, svg, services)
    a = analysis if analysis is not None else analyse(board, rs, **services)
    size = fo.pixel_size() or default_size(board, fo, a)
    if svg:
        text, errors = svg_text(board, a, fo, size)
        _write(out, text.encode("utf-8"))
    else:
        surf, errors = render_png_surface(board, a, fo, size, split_title=True)
        _write(out, png_bytes(surf, fo.dpi))
    return errors


def _services() -> dict:
    from game.services import default_services

    return default_services()


def _render_compare(board: Board, fo: FigureOptions, out: Path, svg: bool, services: dict) -> list[str]:
    from game.core.compare import compare
    from game.core.ruleset import load_ruleset

    ida, idb = fo.compare
    ra_rs, rb_rs = load_ruleset(ida), load_ruleset(idb)
    ra, rb, diffs = compare(board, ra_rs, rb_rs, **services)
    diff_ids = [d.model for d in diffs]
    base_title = fo.title if fo.title is not None else (board.title or "")
    summary = (f"{len(diffs)} model(s) fight differently under {ida} and {idb} (ringed in yellow)" if diffs
               else f"every model fights the same under {ida} and {idb}")
    if fo.compare_mode == "overlay":
        lst = "; ".join(d.describe(ida, idb) for d in diffs[:6]) + (f"; +{len(diffs) - 6} more" if len(diffs) > 6 else "")
        mk = replace(fo.marks, diff=diff_ids, caption=summary + (": " + lst if diffs else "."))
        b = board.copy()
        b.ruleset = ida
        size = fo.pixel_size() or default_size(board, fo, ra)
        if svg:
            text, errors = svg_text(b, ra, fo, size, marks=mk)
            _write(out, text.encode("utf-8"))
        else:
            surf, errors = render_png_surface(b, ra, fo, size, marks=mk)
            _write(out, png_bytes(surf, fo.dpi))
        return errors
    if fo.compare_mode != "side":
        raise FigureError(f"compare mode must be side or overlay (got {fo.compare_mode!r})")
    # two panels side by side, each half the width, same view (same board and layout)
    full = fo.pixel_size()
    if full is None:
        w1, h1 = default_size(board, fo, ra)
        full = (w1 * 2, h1)
    half = (full[0] // 2, full[1])
    errors: list[str] = []
    panels = []
    for rid, a in ((ida, ra), (idb, rb)):
        b = board.copy()
        b.ruleset = rid
        lst = "; ".join(f"{d.model} {(d.a if rid == ida else d.b)[0]} x{(d.a if rid == ida else d.b)[1]}"
                        for d in diffs[:4]) + (f"; +{len(diffs) - 4} more" if len(diffs) > 4 else "")
        mk = replace(fo.marks, diff=diff_ids, caption=f"Under {rid}: {summary}" + (f": {lst}." if diffs else "."))
        title = f"{base_title}" if base_title else rid
        if svg:
            from .svg_canvas import SvgCanvas

            classes = {f"model:{dm.id}": dm.role for dm in drawn_models(b, a)}
            c = SvgCanvas(half[0], half[1], classes=classes, record=True)
            _, e = draw_figure(c, b, a, fo, marks=mk, title=title)
            panels.append(c.body())
        else:
            surf, e = render_png_surface(b, a, fo, half, marks=mk, title=title)
            panels.append(surf)
        errors += [f"{rid}: {x}" for x in e]
    if svg:
        from .svg_canvas import svg_document

        body = "\n".join(f'<g id="panel-{rid}" class="panel" transform="translate({i * half[0]},0)">\n{p}\n</g>'
                         for i, (rid, p) in enumerate(zip((ida, idb), panels)))
        sa = fo.svg_size_attrs()
        _write(out, svg_document(half[0] * 2, half[1], body, title=board.title or "", size_attrs=sa).encode("utf-8"))
    else:
        pg = _pygame()
        surf = pg.Surface((half[0] * 2, half[1]))
        surf.blit(panels[0], (0, 0))
        surf.blit(panels[1], (half[0], 0))
        pg.draw.line(surf, (20, 20, 20), (half[0], 0), (half[0], half[1]), max(1, int(2 * fo.scale())))
        _write(out, png_bytes(surf, fo.dpi))
    return errors
