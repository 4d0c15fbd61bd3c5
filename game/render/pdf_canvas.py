"""PDF back end of the drawing protocol (:class:`game.render.canvas.Canvas`): vector output
through reportlab, the third canvas beside pygame and SVG.

Why reportlab: it writes vector PDF directly (no SVG-to-PDF conversion step), embeds a
TrueType font as a subset with a ToUnicode map (the text stays text: a PDF reader can search
and copy it, ``pdftotext`` extracts it), sets the page size in points (so ``--size 180x120mm``
is a 180 x 120 mm page), has fill and stroke alpha, dashes and clipping paths, and CMYK
colours for a print shop (``cmyk=True``; CairoSVG, the usual alternative, cannot write CMYK).
It is a long-kept library (since 2000), pinned in ``requirements.txt``.

Coordinates: the canvas is ``width`` x ``height`` px (the figure's px at its dpi), y down,
like the other back ends; the page is ``page_pt`` points and one px is ``page_pt[0] / width``
points, set once as the page's transform, so every stroke and font size drawn in px lands
at the length the PNG and SVG give it. Text is measured with Pillow on the same DejaVu Sans
files as the SVG back end (the layout matches), drawn at its baseline (top + ascent).
Output is deterministic (reportlab's ``invariant`` mode: no dates or random ids).

Errors: reportlab missing raises ``ImportError`` with the install line.
"""
from __future__ import annotations

import io
import math
import re
from typing import Any, Optional, Sequence

from game.core.geometry import MM_PER_INCH
from game.core.paths import FONT_DIR
from game.render.canvas import Canvas, Colour, Point, anchored, arrow_head, dash_pattern, text_box
from game.render.text_metrics import pil_font

FONT, FONT_BOLD = "DejaVuSans", "DejaVuSans-Bold"
PT_PER_MM = 72.0 / MM_PER_INCH
_REGISTERED: list = []


_BFCHAR = re.compile(r"<([0-9A-F]{2})> <([0-9A-F]{5,6})>")


def utf16_hex(code: int) -> str:
    """A code point as a ToUnicode CMap destination: UTF-16BE hex, so a character beyond the
    Basic Multilingual Plane (an emoji, U+1F600) is its surrogate pair (``D83DDE00``)."""
    return chr(code).encode("utf-16-be").hex().upper()


def _astral_safe(make: Any) -> Any:
    """reportlab's ``makeToUnicodeCMap`` with every destination above U+FFFF rewritten as its
    UTF-16 surrogate pair: reportlab 5.1 writes ``<1F600>``, which a reader takes for a wrong
    character (copy and search of an emoji fail)."""
    def cmap(fontname: str, subset: Sequence[int]) -> str:
        return _BFCHAR.sub(lambda m: f"<{m.group(1)}> <{utf16_hex(int(m.group(2), 16))}>", make(fontname, subset))

    cmap.astral_safe = True  # type: ignore[attr-defined]
    return cmap


def _register_fonts() -> None:
    """Register the shipped DejaVu Sans (regular and bold) with reportlab once (and its
    ToUnicode maps made to write astral characters as surrogate pairs, :func:`_astral_safe`)."""
    if _REGISTERED:
        return
    from reportlab.pdfbase import pdfmetrics, ttfonts  # type: ignore[import-untyped]
    from reportlab.pdfbase.ttfonts import TTFont  # type: ignore[import-untyped]

    if not getattr(ttfonts.makeToUnicodeCMap, "astral_safe", False):
        ttfonts.makeToUnicodeCMap = _astral_safe(ttfonts.makeToUnicodeCMap)

    pdfmetrics.registerFont(TTFont(FONT, str(FONT_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, str(FONT_DIR / "DejaVuSans-Bold.ttf")))
    _REGISTERED.append(True)


def cmyk_of(rgb: Sequence[int]) -> tuple[float, float, float, float]:
    """A plain RGB (0-255) to CMYK (0-1) conversion (no colour profile): black is pure K, so
    black text and lines print on one plate."""
    r, g, b = (max(0, min(255, int(v))) / 255.0 for v in rgb[:3])
    k = 1.0 - max(r, g, b)
    if k >= 1.0 - 1e-9:
        return 0.0, 0.0, 0.0, 1.0
    return ((1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k)


def text_cmyk(rgb: Sequence[int]) -> tuple[float, float, float, float]:
    """The CMYK of a text colour: a dark neutral (black or near-black grey, as every figure's body
    text is) prints at 100 % K on the K plate alone, as print shops ask for small text; any other
    colour as :func:`cmyk_of`."""
    r, g, b = (max(0, min(255, int(v))) for v in rgb[:3])
    if max(r, g, b) <= 60 and max(r, g, b) - min(r, g, b) <= 12:
        return 0.0, 0.0, 0.0, 1.0
    return cmyk_of(rgb)


class PdfCanvas(Canvas):
    """Draws on one reportlab page; :meth:`to_pdf` returns the document bytes.

    ``width`` x ``height`` canvas px; ``page_pt`` the page size in points (default: 1 px =
    1 pt); ``title`` the document title; ``cmyk`` writes colours as CMYK; ``record=True`` also
    keeps the call log."""

    def __init__(self, width: int, height: int, *, page_pt: Optional[tuple[float, float]] = None,
                 title: str = "", cmyk: bool = False, record: bool = False):
        super().__init__(width, height)
        try:
            from reportlab.pdfgen.canvas import Canvas as RLCanvas  # type: ignore[import-untyped]
        except ImportError as exc:  # pragma: no cover - the pinned requirement
            raise ImportError("PDF figures need reportlab: pip install -r requirements.txt") from exc
        _register_fonts()
        self.record = record
        self.cmyk = cmyk
        self.page_pt = page_pt or (float(width), float(height))
        self._buf = io.BytesIO()
        c = RLCanvas(self._buf, pagesize=self.page_pt, invariant=1, pageCompression=1, initialFontName=FONT,
                     initialFontSize=10)
        if title:
            c.setTitle(title)
        c.setCreator("Melee Lens")
        k = self.page_pt[0] / max(1, self.width)
        c.translate(0, self.page_pt[1])
        c.scale(k, -k)  # canvas px, y down
        c.setLineJoin(1)
        self.rl = c
        self._depth = 0

    # -- queries ---------------------------------------------------------------------------
    def text_size(self, string: str, size: int, bold: bool = False) -> tuple[int, int]:
        f = pil_font(round(size), bold)
        if f is None:
            return super().text_size(string, size, bold)
        asc, desc = f.getmetrics()
        return (int(math.ceil(f.getlength(string))) if string else 0), asc + desc

    def _rec(self, name: str, *args: Any, **kwargs: Any) -> None:
        if self.record:
            super()._rec(name, *args, **kwargs)

    # -- colours ---------------------------------------------------------------------------
    def _fill(self, colour: Any, text: bool = False) -> None:
        if self.cmyk:
            self.rl.setFillColorCMYK(*(text_cmyk(colour) if text else cmyk_of(colour)))
        else:
            self.rl.setFillColorRGB(*(int(v) / 255.0 for v in colour[:3]))
        self.rl.setFillAlpha(int(colour[3]) / 255.0 if len(colour) > 3 else 1.0)

    def _stroke(self, colour: Any, width: float) -> None:
        if self.cmyk:
            self.rl.setStrokeColorCMYK(*cmyk_of(colour))
        else:
            self.rl.setStrokeColorRGB(*(int(v) / 255.0 for v in colour[:3]))
        self.rl.setStrokeAlpha(int(colour[3]) / 255.0 if len(colour) > 3 else 1.0)
        self.rl.setLineWidth(max(0.0, float(width)))

    def _path(self, points: Sequence[Point], close: bool) -> Any:
        p = self.rl.beginPath()
        p.moveTo(*points[0])
        for x, y in points[1:]:
            p.lineTo(x, y)
        if close:
            p.close()
        return p

    # -- drawing ---------------------------------------------------------------------------
    def fill(self, colour: Colour) -> None:
        self._rec("fill", colour)
        if colour is None:
            return
        self._fill(colour)
        self.rl.rect(0, 0, self.width, self.height, stroke=0, fill=1)

    def polygon(self, points: Sequence[Point], fill: Colour = None, outline: Colour = None, width: float = 1) -> None:
        self._rec("polygon", [tuple(p) for p in points], fill=fill, outline=outline, width=width)
        pts = [(float(x), float(y)) for x, y in points]
        if len(pts) < 3 or (fill is None and outline is None) or not all(map(math.isfinite, sum(pts, ()))):
            return
        if fill is not None:
            self._fill(fill)
        if outline is not None:
            self._stroke(outline, width)
            self.rl.setDash([])
        self.rl.drawPath(self._path(pts, True), stroke=1 if outline is not None else 0, fill=1 if fill is not None else 0)

    def circle(self, center: Point, radius: float, fill: Colour = None, outline: Colour = None, width: float = 1) -> None:
        self._rec("circle", tuple(center), radius, fill=fill, outline=outline, width=width)
        if (fill is None and outline is None) or not (math.isfinite(radius) and radius > 0):
            return
        if fill is not None:
            self._fill(fill)
        if outline is not None:
            self._stroke(outline, width)
            self.rl.setDash([])
        self.rl.circle(float(center[0]), float(center[1]), float(radius), stroke=1 if outline is not None else 0,
                       fill=1 if fill is not None else 0)

    def line(self, points: Sequence[Point], colour: Colour, width: float = 1, dashed: "bool | str" = False) -> None:
        self._rec("line", [tuple(p) for p in points], colour=colour, width=width, dashed=dashed)
        pts = [(float(x), float(y)) for x, y in points]
        if len(pts) < 2 or colour is None:
            return
        self._stroke(colour, width)
        self.rl.setLineCap(0)
        self.rl.setDash(list(dash_pattern(width, dashed)) if dashed else [])
        self.rl.drawPath(self._path(pts, False), stroke=1, fill=0)
        self.rl.setDash([])

    def arrow(self, points: Sequence[Point], colour: Colour, width: float = 2, head: float = 10) -> None:
        self._rec("arrow", [tuple(p) for p in points], colour=colour, width=width, head=head)
        pts = [(float(x), float(y)) for x, y in points]
        if len(pts) < 2 or colour is None:
            return
        tri = arrow_head(pts[-1], pts[-2], head)
        base = ((tri[1][0] + tri[2][0]) / 2, (tri[1][1] + tri[2][1]) / 2)
        self._stroke(colour, width)
        self.rl.setDash([])
        self.rl.drawPath(self._path(pts[:-1] + [base], False), stroke=1, fill=0)
        self._fill(colour)
        self.rl.drawPath(self._path(tri, True), stroke=0, fill=1)

    def text(self, pos: Point, string: str, size: int = 14, colour: Colour = (0, 0, 0), anchor: str = "topleft",
             bold: bool = False, background: Colour = None) -> None:
        self._rec("text", tuple(pos), string, size=size, colour=colour, anchor=anchor, bold=bold, background=background)
        if not string or colour is None:
            return
        w, h = self.text_size(string, size, bold)
        x, y = anchored(pos, w, h, anchor)
        if background is not None:
            self.polygon(text_box(x, y, w, h, size), fill=background)
        f = pil_font(round(size), bold)
        asc = f.getmetrics()[0] if f is not None else size * 0.93
        c = self.rl
        c.saveState()
        c.translate(x, y + asc)
        c.scale(1, -1)  # text upright in the y-down page
        self._fill(colour, text=True)
        c.setFont(FONT_BOLD if bold else FONT, max(6, round(size)))
        c.drawString(0, 0, string)
        c.restoreState()

    def push_clip(self, rect: Sequence[float]) -> None:
        self._rec("push_clip", tuple(rect))
        x, y, w, h = (float(v) for v in rect)
        self.rl.saveState()
        p = self.rl.beginPath()
        p.rect(x, y, w, h)
        self.rl.clipPath(p, stroke=0, fill=0)
        self._depth += 1

    def pop_clip(self) -> None:
        self._rec("pop_clip")
        if self._depth:
            self.rl.restoreState()
            self._depth -= 1

    # -- output ----------------------------------------------------------------------------
    def to_pdf(self) -> bytes:
        """The one-page document (closes the page; call once)."""
        while self._depth:
            self.pop_clip()
        self.rl.showPage()
        self.rl.save()
        return self._buf.getvalue()


def page_points(size_mm: Optional[tuple[float, float]], size_px: tuple[int, int], dpi: int) -> tuple[float, float]:
    """The page in points: ``size_mm`` when the figure was asked for in mm, else its px at ``dpi``."""
    if size_mm is not None:
        return size_mm[0] * PT_PER_MM, size_mm[1] * PT_PER_MM
    return size_px[0] * 72.0 / dpi, size_px[1] * 72.0 / dpi
