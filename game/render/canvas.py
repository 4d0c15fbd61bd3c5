"""The drawing protocol every back end implements, and two back ends: recording and pygame.

One drawing routine (:func:`game.render.scene.draw_scene`) talks only to a :class:`Canvas`;
the window, PNG figures and (later) SVG figures differ only in the canvas they pass, the way
pymunk's ``SpaceDebugDrawOptions`` is one protocol with a pygame, a pyglet and a recording
implementation.

All coordinates are **canvas pixels** (x right, y down); the scene converts table mm with a
:class:`game.render.transform.View`. Colours are ``(r, g, b)`` or ``(r, g, b, a)`` tuples of
0-255 ints; ``None`` means "do not draw that part". Sizes (``width``, ``size``) are pixels.

:class:`Canvas` itself records every call in ``calls`` (a list of :class:`Call`), which makes
it the recording back end used by structural tests; :class:`PygameCanvas` draws on a
``pygame.Surface``. An SVG back end subclasses :class:`Canvas` the same way and appends
elements instead of blitting; ``text_size`` is the only query a back end must answer.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from game.core import geometry as g
from game.core.lru import LRU
from game.core.paths import FONT_DIR  # the shipped fonts, in a checkout or installed
from game.core.work import doing

Point = tuple[float, float]
Colour = Optional[tuple]
ANCHORS = ("topleft", "top", "topright", "left", "center", "right", "bottomleft", "bottom", "bottomright")


@dataclass
class Call:
    """One recorded drawing call: the method ``name``, its positional ``args`` and ``kwargs``."""

    name: str
    args: tuple
    kwargs: dict = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.kwargs.get(key, default)


class Canvas:
    """The drawing protocol; this base class records calls (the recording back end).

    Subclasses override the drawing methods and may call ``super()`` to keep the record.
    ``width`` and ``height`` are the canvas size in pixels. ``tag`` marks what the following
    calls draw (``"model:dwarfs.r1f1"``, ``"legend"``); recorded calls carry it so tests can
    find e.g. every polygon drawn for a model.
    """

    def __init__(self, width: int = 800, height: int = 600):
        self.width, self.height = int(width), int(height)
        self.calls: list[Call] = []
        self.tag: str = ""

    # -- queries -----------------------------------------------------------------------
    def measure_key(self) -> Optional[tuple]:
        """What this canvas's :meth:`text_size` depends on, when that is all it depends on (its
        text layouts may then be kept and shared); None: measured its own way each time."""
        return None

    def text_size(self, string: str, size: int, bold: bool = False) -> tuple[int, int]:
        """Width and height (px) ``string`` takes at font ``size`` px. Estimated here."""
        return (int(len(string) * size * (0.6 if bold else 0.55)) + 1, int(size * 1.17) + 1)

    # -- drawing -----------------------------------------------------------------------
    def _rec(self, name: str, *args: Any, **kwargs: Any) -> None:
        kwargs["tag"] = self.tag
        self.calls.append(Call(name, args, kwargs))

    def fill(self, colour: Colour) -> None:
        """Paint the whole canvas."""
        self._rec("fill", colour)

    def polygon(self, points: Sequence[Point], fill: Colour = None, outline: Colour = None, width: float = 1) -> None:
        """A closed polygon; ``fill`` and/or ``outline`` (line ``width`` px)."""
        self._rec("polygon", [tuple(p) for p in points], fill=fill, outline=outline, width=width)

    def polygons(self, polys: Sequence[Sequence[Point]], tags: Sequence[str], fill: Colour = None,
                 outline: Colour = None, width: float = 1) -> None:
        """Many closed polygons of one style, in order, each as :meth:`polygon` draws it under
        its tag (``tags[i]``); a back end may draw them faster (a unit's bases)."""
        for pts, tag in zip(polys, tags):
            self.tag = tag
            self.polygon(pts, fill=fill, outline=outline, width=width)

    def circle(self, center: Point, radius: float, fill: Colour = None, outline: Colour = None, width: float = 1) -> None:
        """A circle of ``radius`` px about ``center``."""
        self._rec("circle", tuple(center), radius, fill=fill, outline=outline, width=width)

    def line(self, points: Sequence[Point], colour: Colour, width: float = 1, dashed: "bool | str" = False) -> None:
        """An open polyline; ``dashed`` draws it in dashes (``"dot"``: in dots, :func:`dash_pattern`)."""
        self._rec("line", [tuple(p) for p in points], colour=colour, width=width, dashed=dashed)

    def arrow(self, points: Sequence[Point], colour: Colour, width: float = 2, head: float = 10) -> None:
        """A polyline ending in an arrow head ``head`` px long at its last point."""
        self._rec("arrow", [tuple(p) for p in points], colour=colour, width=width, head=head)

    def text(self, pos: Point, string: str, size: int = 14, colour: Colour = (0, 0, 0), anchor: str = "topleft",
             bold: bool = False, background: Colour = None) -> None:
        """One line of text whose ``anchor`` point (one of ``ANCHORS``) is at ``pos``."""
        self._rec("text", tuple(pos), string, size=size, colour=colour, anchor=anchor, bold=bold, background=background)

    def stamp(self, key: Any, box: Sequence[float], draw: Any) -> None:
        """Draw ``draw(canvas)``, which draws only inside the px ``box`` (x0, y0, x1, y1) and
        depends on nothing but ``key``. Here it is simply drawn; the pygame back end keeps it
        as a picture and only blits it while ``key`` stays the same (a drag's reach rings)."""
        draw(self)

    def push_clip(self, rect: Sequence[float]) -> None:
        """Clip what follows to ``rect`` ``(x, y, w, h)`` px until :meth:`pop_clip` (panels of
        a multi-panel figure keep their drawing inside their own box)."""
        self._rec("push_clip", tuple(rect))

    def pop_clip(self) -> None:
        """End the clip of the last :meth:`push_clip`."""
        self._rec("pop_clip")

    # -- helpers for tests ---------------------------------------------------------------
    def find(self, name: Optional[str] = None, tag_prefix: str = "") -> list[Call]:
        """Recorded calls of method ``name`` whose tag starts with ``tag_prefix``."""
        return [c for c in self.calls if (name is None or c.name == name) and c.get("tag", "").startswith(tag_prefix)]


RecordingCanvas = Canvas


class SubCanvas(Canvas):
    """A ``w`` x ``h`` px window onto ``parent`` at ``(x, y)``: every call is passed on with
    its points shifted, so ``draw_scene`` draws one panel of a multi-panel figure on any back
    end without knowing it. ``prefix`` (``"a"``) is handed to the parent while this panel
    draws (the SVG back end puts it before group ids: ``a-model-dwarfs.r1f1``). Calls are
    also recorded here, in the panel's own coordinates."""

    def __init__(self, parent: Canvas, x: float, y: float, w: float, h: float, prefix: str = ""):
        super().__init__(int(w), int(h))
        self.parent, self.ox, self.oy, self.prefix = parent, float(x), float(y), prefix
        self.ss = getattr(parent, "ss", 1)

    @property  # type: ignore[override]
    def tag(self) -> str:
        return self.parent.tag

    @tag.setter
    def tag(self, value: str) -> None:
        self.__dict__["_tag"] = value
        if hasattr(self, "parent"):
            self.parent.tag = value

    def _p(self, p: Point) -> Point:
        return (p[0] + self.ox, p[1] + self.oy)

    def _ps(self, pts: Sequence[Point]) -> list[Point]:
        return [(x + self.ox, y + self.oy) for x, y in pts]

    def _with_prefix(self, fn: Any, *args: Any, **kwargs: Any) -> None:
        old = getattr(self.parent, "id_prefix", "")
        self.parent.id_prefix = self.prefix  # type: ignore[attr-defined]
        try:
            fn(*args, **kwargs)
        finally:
            self.parent.id_prefix = old  # type: ignore[attr-defined]

    def text_size(self, string: str, size: int, bold: bool = False) -> tuple[int, int]:
        return self.parent.text_size(string, size, bold)

    def fill(self, colour: Colour) -> None:
        super().fill(colour)
        w, h = self.width, self.height
        self._with_prefix(self.parent.polygon, self._ps([(0, 0), (w, 0), (w, h), (0, h)]), fill=colour)

    def polygon(self, points, fill=None, outline=None, width=1) -> None:
        super().polygon(points, fill=fill, outline=outline, width=width)
        self._with_prefix(self.parent.polygon, self._ps(points), fill=fill, outline=outline, width=width)

    def circle(self, center, radius, fill=None, outline=None, width=1) -> None:
        super().circle(center, radius, fill=fill, outline=outline, width=width)
        self._with_prefix(self.parent.circle, self._p(center), radius, fill=fill, outline=outline, width=width)

    def line(self, points, colour, width=1, dashed=False) -> None:
        super().line(points, colour, width=width, dashed=dashed)
        self._with_prefix(self.parent.line, self._ps(points), colour, width=width, dashed=dashed)

    def arrow(self, points, colour, width=2, head=10) -> None:
        super().arrow(points, colour, width=width, head=head)
        self._with_prefix(self.parent.arrow, self._ps(points), colour, width=width, head=head)

    def text(self, pos, string, size=14, colour=(0, 0, 0), anchor="topleft", bold=False, background=None) -> None:
        super().text(pos, string, size=size, colour=colour, anchor=anchor, bold=bold, background=background)
        self._with_prefix(self.parent.text, self._p(pos), string, size=size, colour=colour, anchor=anchor, bold=bold,
                          background=background)

    def push_clip(self, rect: Sequence[float]) -> None:
        super().push_clip(rect)
        x, y, w, h = rect
        self.parent.push_clip((x + self.ox, y + self.oy, w, h))

    def pop_clip(self) -> None:
        super().pop_clip()
        self.parent.pop_clip()


def anchored(pos: Point, w: float, h: float, anchor: str) -> tuple[float, float]:
    """Top-left corner of a ``w`` x ``h`` box whose ``anchor`` point is at ``pos``."""
    x, y = pos
    if anchor.endswith("right"):
        x -= w
    elif anchor in ("top", "center", "bottom"):
        x -= w / 2
    if anchor.startswith("bottom"):
        y -= h
    elif anchor in ("left", "center", "right"):
        y -= h / 2
    return x, y


def dash_pattern(width: float, style: "bool | str" = True) -> tuple[float, float]:
    """(dash, gap) lengths in px of a dashed line ``width`` px wide: proportional to the width,
    so a dashed line looks the same at any dpi (every back end uses this). ``style`` True is
    the plain dash; ``"dot"`` short dots with wider gaps (where a model started a move, told
    apart from the dashed outline of an empty place)."""
    w = max(0.5, float(width))
    if style == "dot":
        return 1.2 * w + 0.8, 2.0 * w + 1.5
    return 4.0 * w + 2.0, 2.5 * w + 1.0


def text_pad(size: float) -> float:
    """Padding (px) of a text's background box at font ``size`` px."""
    return max(1.0, 0.22 * float(size))


def dash_segments(points: Sequence[Point], dash: float = 8.0, gap: float = 5.0) -> list[tuple[Point, Point]]:
    """Split a polyline into dash segments (``dash`` px on, ``gap`` px off)."""
    out = []
    on, left = True, dash
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        seg = math.hypot(x1 - x0, y1 - y0)
        t = 0.0
        while seg > 0 and t < seg:
            step = min(left, seg - t)
            if on:
                a, b = t / seg, (t + step) / seg
                out.append(((x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)))
            t += step
            left -= step
            if left <= 1e-9:
                on = not on
                left = dash if on else gap
    return out


def text_box(x: float, y: float, w: float, h: float, size: float) -> list[Point]:
    """The background rectangle (4 points, px) of a ``w`` x ``h`` text whose top-left is (x, y)."""
    pad = text_pad(size)
    return [(x - pad, y - pad * 0.6), (x + w + pad, y - pad * 0.6), (x + w + pad, y + h + pad * 0.6),
            (x - pad, y + h + pad * 0.6)]


def overlap_area(a: Sequence[float], b: Sequence[float]) -> float:
    """Area (px^2) shared by boxes ``(x0, y0, x1, y1)`` ``a`` and ``b``."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def ellipsize(canvas: "Canvas", text: str, size: int, max_w: float, bold: bool = False) -> str:
    """``text`` cut at a word and ended with an ellipsis so it fits ``max_w`` px (the window's
    status line only: figures wrap instead)."""
    if canvas.text_size(text, size, bold)[0] <= max_w:
        return text
    words = text.split()
    while words and canvas.text_size(" ".join(words) + "…", size, bold)[0] > max_w:
        words.pop()
    return (" ".join(words) + "…") if words else text[: max(1, int(max_w / max(size, 1)))] + "…"


_WRAPPED = LRU(4096)  # (how the canvas measures, text, size, width, bold) -> lines


def wrap(canvas: "Canvas", text: str, size: int, max_w: float, bold: bool = False) -> list[str]:
    """Greedy word wrap of ``text`` to lines no wider than ``max_w`` px at font ``size``
    (measured in the bold face when ``bold``); a word longer than a line is broken. A canvas
    whose measurements depend only on its :meth:`Canvas.measure_key` has its wraps kept (the
    legend is laid out again at several text scales, frame after frame)."""
    how = canvas.measure_key()
    key = (how, text, size, max_w, bold) if how is not None else None
    hit = _WRAPPED.get(key) if key is not None else None
    if hit is not None:
        return list(hit)
    with doing("laying out a text (a caption or label)", "the text is too long"):
        lines = _wrap(canvas, text, size, max_w, bold)
    if key is not None:
        _WRAPPED.put(key, tuple(lines))
    return lines


def _wrap(canvas: "Canvas", text: str, size: int, max_w: float, bold: bool) -> list[str]:
    out: list[str] = []
    for para in str(text).split("\n"):
        cur = ""
        for word in para.split():
            while len(word) > 1 and canvas.text_size(word, size, bold)[0] > max_w:
                lo, hi = 1, len(word) - 1  # the longest head that fits, by bisection (a 4,000-letter
                while lo < hi:             # word is cut in a dozen measurements per line, not thousands)
                    mid = (lo + hi + 1) // 2
                    if canvas.text_size(word[:mid], size, bold)[0] <= max_w:
                        lo = mid
                    else:
                        hi = mid - 1
                cut = lo
                if cur:
                    out.append(cur)
                    cur = ""
                out.append(word[:cut])
                word = word[cut:]
            trial = f"{cur} {word}" if cur else word
            if cur and canvas.text_size(trial, size, bold)[0] > max_w:
                out.append(cur)
                cur = word
            else:
                cur = trial
        out.append(cur)
    return out or [""]


def clip_polygon(pts: list[Point], w: float, h: float, margin: float) -> list[Point]:
    """``pts`` clipped to the canvas rectangle grown by ``margin`` px (Sutherland-Hodgman), so
    drawing costs what the canvas shows however far the polygon reaches (a table of 1e308 mm
    zoomed in). Points that are not finite give an empty polygon. Returns ``pts`` itself when
    it lies inside."""
    lo_x, lo_y, hi_x, hi_y = -margin, -margin, w + margin, h + margin
    if all(lo_x <= x <= hi_x and lo_y <= y <= hi_y for x, y in pts):
        return pts
    if not all(math.isfinite(x) and math.isfinite(y) for x, y in pts):
        return []
    return g.clip_to_box(pts, lo_x, lo_y, hi_x, hi_y)


def arrow_head(tip: Point, prev: Point, head: float) -> list[Point]:
    """Triangle (3 points) of an arrow head at ``tip`` coming from ``prev``."""
    dx, dy = tip[0] - prev[0], tip[1] - prev[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    bx, by = tip[0] - ux * head, tip[1] - uy * head
    w = head * 0.5
    return [tip, (bx - uy * w, by + ux * w), (bx + uy * w, by - ux * w)]


_PIL_FONTS: dict = {}


def pil_font(size: int, bold: bool):
    """The shipped DejaVu Sans at ``size`` px as a Pillow font (None when it cannot load)."""
    key = (max(6, int(size)), bool(bold))
    if key not in _PIL_FONTS:
        try:
            from PIL import ImageFont

            _PIL_FONTS[key] = ImageFont.truetype(str(FONT_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")),
                                                 key[0])
        except ImportError:  # a browser page: the table its build measured (game/render/font_table.py)
            from game.render.font_table import table_font

            _PIL_FONTS[key] = table_font(*key)
        except OSError:
            _PIL_FONTS[key] = None
    return _PIL_FONTS[key]


_MEASURED = LRU(16384)  # (string, size px, bold) -> (width, height) px: text measured once
_RENDERED = LRU(1024)   # (font path, string, size px, colour, bold) -> pygame.Surface of the text


def font_metrics(string: str, size: int, bold: bool = False):
    """(width, height) px of ``string`` in the shipped font at ``size`` px, or None.

    Measured once per string, size and weight (a bounded cache of the newest 16384: the
    legend, labels and figures measure the same strings frame after frame and figure after
    figure; FreeType's ``getlength`` is the cost)."""
    key = (string, int(size), bool(bold))
    hit = _MEASURED.get(key)
    if hit is not None:
        return hit
    f = pil_font(size, bold)
    if f is None:
        return None
    asc, desc = f.getmetrics()
    return _MEASURED.put(key, ((int(math.ceil(f.getlength(string))) if string else 0), asc + desc))


class PygameCanvas(Canvas):
    """Draws on a ``pygame.Surface`` (window or off-screen). Translucent colours (alpha < 255)
    are drawn through a temporary per-alpha surface. ``record=True`` also keeps the call log."""

    def __init__(self, surface, record: bool = False, font_path: Optional[str] = None, supersample: int = 1):
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        self.ss = max(1, int(supersample))  # drawn at ss times the final size: text measured at the final size
        super().__init__(surface.get_width(), surface.get_height())
        self.pg = pygame
        self.surface = surface
        self.record = record
        self.font_path = font_path
        self._fonts: dict = {}
        # while a list: receives ``(tag, pygame.Rect)`` of every drawing call, the px box it
        # may have changed (:class:`game.window.retained.RetainedScene` keeps where each unit lies)
        self.painted: Optional[list] = None

    # -- fonts -------------------------------------------------------------------------
    def font(self, size: int, bold: bool = False):
        key = (int(size), bold)
        f = self._fonts.get(key)
        if f is None:
            if not self.pg.font.get_init():
                self.pg.font.init()
            path = self.font_path
            if path is None:
                cand = FONT_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
                path = str(cand) if cand.exists() else None
            f = self.pg.font.Font(path, max(6, int(size)))
            if path is None:
                f.bold = bold
            self._fonts[key] = f
        return f

    def measure_key(self) -> Optional[tuple]:
        # the shipped font through font_metrics: measurements depend only on the supersampling
        own = type(self).text_size is PygameCanvas.text_size
        return ("shipped font", self.ss) if self.font_path is None and own else None

    def text_size(self, string: str, size: int, bold: bool = False) -> tuple[int, int]:
        """Measured like the SVG back end (FreeType through Pillow, same font file), so a
        figure wraps and places its text the same in PNG and SVG at any supersampling."""
        if self.font_path is None:
            m = font_metrics(string, max(1, round(size / self.ss)), bold)
            if m is not None:
                return m[0] * self.ss, m[1] * self.ss
        return self.font(size, bold).size(string)

    def _rec(self, name: str, *args: Any, **kwargs: Any) -> None:
        if self.record:
            super()._rec(name, *args, **kwargs)

    def _note(self, pts: Sequence[Point], pad: float) -> None:
        """Note the box of ``pts`` grown by ``pad`` px in :attr:`painted` (under the tag)."""
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        x0, y0 = int(math.floor(min(xs) - pad)), int(math.floor(min(ys) - pad))
        w, h = int(math.ceil(max(xs) + pad)) + 1 - x0, int(math.ceil(max(ys) + pad)) + 1 - y0
        self.painted.append((self.tag, self.pg.Rect(x0, y0, w, h)))  # type: ignore[union-attr]

    def stamp(self, key: Any, box: Sequence[float], draw: Any) -> None:
        """See :meth:`Canvas.stamp`: drawn once into a transparent picture of ``box`` (cut to
        the surface), then blitted while ``key`` and the surface size stay the same."""
        if self.record or self.ss != 1:
            draw(self)
            return
        memo = self.__dict__.setdefault("_stamps", {})
        full = (key, self.surface.get_size())
        hit = memo.get(full)
        if hit is None:
            x0, y0 = int(math.floor(box[0])) - 2, int(math.floor(box[1])) - 2
            r = self.pg.Rect(x0, y0, int(math.ceil(box[2])) + 3 - x0, int(math.ceil(box[3])) + 3 - y0)
            r = r.clip(self.surface.get_rect())
            if r.w <= 0 or r.h <= 0:
                return
            pic = self.pg.Surface((r.w, r.h), self.pg.SRCALPHA)
            draw(SubCanvas(PygameCanvas(pic, font_path=self.font_path), -r.x, -r.y, self.width, self.height))
            if len(memo) >= 4:  # a few pictures at most (a drag keeps one per reach)
                memo.clear()
            hit = memo[full] = (pic, r.topleft)
        r = self.surface.blit(hit[0], hit[1])
        if self.painted is not None:
            self.painted.append((self.tag, r))

    def push_clip(self, rect) -> None:
        self._rec("push_clip", tuple(rect))
        stack = self.__dict__.setdefault("_clips", [])
        stack.append(self.surface.get_clip())
        x, y, w, h = (int(round(v)) for v in rect)
        self.surface.set_clip(self.pg.Rect(x, y, max(0, w), max(0, h)).clip(stack[-1]))

    def pop_clip(self) -> None:
        self._rec("pop_clip")
        stack = self.__dict__.get("_clips") or []
        self.surface.set_clip(stack.pop() if stack else None)

    # -- alpha support -----------------------------------------------------------------
    def _target(self, colour: Colour, pts: Sequence[Point], pad: float):
        """(surface to draw on, offset, opaque colour, finish callback) for a maybe-translucent colour."""
        if colour is None or len(colour) < 4 or colour[3] >= 255:
            return self.surface, (0, 0), colour, None
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        x0, y0 = int(min(xs) - pad - 1), int(min(ys) - pad - 1)
        w, h = int(max(xs) + pad + 2) - x0, int(max(ys) + pad + 2) - y0
        clip = self.pg.Rect(x0, y0, max(1, w), max(1, h)).clip(self.surface.get_rect())
        if clip.w <= 0 or clip.h <= 0:
            return None, (0, 0), colour, None
        tmp = self.pg.Surface((clip.w, clip.h), self.pg.SRCALPHA)

        def finish() -> None:
            self.surface.blit(tmp, clip.topleft)

        return tmp, (clip.x, clip.y), tuple(colour), finish

    @staticmethod
    def _shift(pts: Sequence[Point], off: tuple[int, int]) -> list[Point]:
        return [(p[0] - off[0], p[1] - off[1]) for p in pts]

    # -- drawing -----------------------------------------------------------------------
    def fill(self, colour: Colour) -> None:
        self._rec("fill", colour)
        if colour is not None:
            self.surface.fill(colour[:3])
            if self.painted is not None:
                self.painted.append((self.tag, self.surface.get_rect()))

    def polygon(self, points, fill=None, outline=None, width=1) -> None:
        if self.record:
            self._rec("polygon", [tuple(p) for p in points], fill=fill, outline=outline, width=width)
        pts = clip_polygon([(float(x), float(y)) for x, y in points], self.width, self.height, 4 + 2 * float(width))
        if len(pts) < 3:
            return
        opaque_fill = fill is None or len(fill) < 4 or fill[3] >= 255
        opaque_line = outline is None or len(outline) < 4 or outline[3] >= 255
        note = self.painted
        if opaque_fill and opaque_line and width <= 1:
            # the common case (every base on the table): draw straight onto the surface
            if fill is not None:
                r = self.pg.draw.polygon(self.surface, fill, pts)
                if note is not None:
                    note.append((self.tag, r))
            if outline is not None and width > 0:
                r = self.pg.draw.aalines(self.surface, outline, True, pts)
                if note is not None:
                    note.append((self.tag, r))
            return
        if note is not None:
            self._note(pts, float(width) + 2)
        if fill is not None:
            surf, off, col, done = self._target(fill, pts, 0)
            if surf is not None:
                self.pg.draw.polygon(surf, col, self._shift(pts, off))
                if done:
                    done()
        if outline is not None and width > 0:
            surf, off, col, done = self._target(outline, pts, width)
            if surf is not None:
                sp = self._shift(pts, off)
                if width <= 1:
                    self.pg.draw.aalines(surf, col, True, sp)
                else:
                    self.pg.draw.lines(surf, col, True, sp, max(1, round(width)))
                    for p in sp:  # round the joints
                        self.pg.draw.circle(surf, col, p, max(1, round(width)) / 2 - 0.5)
                if done:
                    done()

    def polygons(self, polys, tags, fill=None, outline=None, width=1) -> None:
        """Opaque polygons with a thin outline (every base on the table), not recorded: each
        lying on the canvas is drawn straight with the calls :meth:`polygon` makes for it
        (nothing to clip), the others by :meth:`polygon`; the same pixels in a third of the time."""
        opaque = (fill is None or len(fill) < 4 or fill[3] >= 255) and \
            (outline is None or len(outline) < 4 or outline[3] >= 255)
        if self.record or not opaque or width > 1:
            super().polygons(polys, tags, fill=fill, outline=outline, width=width)
            return
        m = 4 + 2 * float(width)
        lo_x, lo_y, hi_x, hi_y = -m, -m, self.width + m, self.height + m
        surface, draw_poly, aalines = self.surface, self.pg.draw.polygon, self.pg.draw.aalines
        edge = outline is not None and width > 0
        note = self.painted  # (noting each polygon's box under its tag)
        for k, pts in enumerate(polys):
            if note is not None:
                self.tag = tags[k]
            if len(pts) < 3 or not all(lo_x <= x <= hi_x and lo_y <= y <= hi_y for x, y in pts):
                self.polygon(pts, fill=fill, outline=outline, width=width)  # cut to the canvas
                continue
            if fill is not None:
                r = draw_poly(surface, fill, pts)
                if note is not None:
                    note.append((tags[k], r))
            if edge:
                r = aalines(surface, outline, True, pts)
                if note is not None:
                    note.append((tags[k], r))

    def circle(self, center, radius, fill=None, outline=None, width=1) -> None:
        self._rec("circle", tuple(center), radius, fill=fill, outline=outline, width=width)
        cx, cy = center
        box = [(cx - radius, cy - radius), (cx + radius, cy + radius)]
        if self.painted is not None:
            self._note(box, float(width) + 2)
        if fill is not None:
            surf, off, col, done = self._target(fill, box, 1)
            if surf is not None:
                self.pg.draw.aacircle(surf, col, (cx - off[0], cy - off[1]), radius)
                self.pg.draw.circle(surf, col, (cx - off[0], cy - off[1]), radius)
                if done:
                    done()
        if outline is not None and width > 0:
            surf, off, col, done = self._target(outline, box, width + 1)
            if surf is not None:
                w = max(1, round(width))  # centred on the radius, as an SVG stroke is
                self.pg.draw.aacircle(surf, col, (cx - off[0], cy - off[1]), radius + w / 2, w)
                if done:
                    done()

    def line(self, points, colour, width=1, dashed=False) -> None:
        self._rec("line", [tuple(p) for p in points], colour=colour, width=width, dashed=dashed)
        pts = [(float(x), float(y)) for x, y in points]
        if len(pts) < 2 or colour is None:
            return
        if self.painted is not None:
            self._note(pts, float(width) + 2)
        surf, off, col, done = self._target(colour, pts, width + 1)
        if surf is None:
            return
        sp = self._shift(pts, off)
        w = max(1, round(width))
        segs = dash_segments(sp, *dash_pattern(width, dashed)) if dashed else list(zip(sp, sp[1:]))
        for a, b in segs:
            if width <= 1.2:
                self.pg.draw.aaline(surf, col, a, b)
            else:
                self.pg.draw.line(surf, col, a, b, w)
        if done:
            done()

    def arrow(self, points, colour, width=2, head=10) -> None:
        self._rec("arrow", [tuple(p) for p in points], colour=colour, width=width, head=head)
        pts = [(float(x), float(y)) for x, y in points]
        if len(pts) < 2 or colour is None:
            return
        # stop the shaft short of the tip so the head stays sharp
        tip, prev = pts[-1], pts[-2]
        tri = arrow_head(tip, prev, head)
        base = ((tri[1][0] + tri[2][0]) / 2, (tri[1][1] + tri[2][1]) / 2)
        if self.painted is not None:
            self._note(pts + tri, float(width) + 2)
        surf, off, col, done = self._target(colour, pts + tri, width + 1)
        if surf is None:
            return
        shaft = self._shift(pts[:-1] + [base], off)
        self.pg.draw.lines(surf, col, False, shaft, max(1, round(width)))
        self.pg.draw.polygon(surf, col, self._shift(tri, off))
        self.pg.draw.aalines(surf, col, True, self._shift(tri, off))
        if done:
            done()

    def text(self, pos, string, size=14, colour=(0, 0, 0), anchor="topleft", bold=False, background=None) -> None:
        self._rec("text", tuple(pos), string, size=size, colour=colour, anchor=anchor, bold=bold, background=background)
        if not string or colour is None:
            return
        key = (self.font_path, string, int(size), tuple(colour[:3]), bool(bold))
        img = _RENDERED.get(key)
        if img is None:  # rendered once per string, size, colour and font, across canvases
            img = _RENDERED.put(key, self.font(size, bold).render(string, True, colour[:3]))
        w, h = img.get_size()
        x, y = anchored(pos, w, h, anchor)
        if background is not None:
            self.polygon(text_box(x, y, w, h, size), fill=background)
        r = self.surface.blit(img, (round(x), round(y)))
        if self.painted is not None:
            self.painted.append((self.tag, r))
