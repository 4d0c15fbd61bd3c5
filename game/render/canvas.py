"""The drawing protocol every back end implements, the recording back end, and the px helpers
the back ends share (anchors, dashes, arrow heads, clipping, wrapping text).

One drawing routine (:func:`game.render.scene.draw_scene`) talks only to a :class:`Canvas`;
the window, PNG figures and (later) SVG figures differ only in the canvas they pass, the way
pymunk's ``SpaceDebugDrawOptions`` is one protocol with a pygame, a pyglet and a recording
implementation.

All coordinates are **canvas pixels** (x right, y down); the scene converts table mm with a
:class:`game.render.transform.View`. Colours are ``(r, g, b)`` or ``(r, g, b, a)`` tuples of
0-255 ints; ``None`` means "do not draw that part". Sizes (``width``, ``size``) are pixels.

:class:`Canvas` itself records every call in ``calls`` (a list of :class:`Call`), which makes
it the recording back end used by structural tests; :class:`SubCanvas` is a window onto another
canvas (one panel of a multi-panel figure). The back ends subclass :class:`Canvas`:
:class:`game.render.pygame_canvas.PygameCanvas` draws on a ``pygame.Surface``,
:mod:`game.render.svg_canvas` appends SVG elements, :mod:`game.render.pdf_canvas` draws a PDF
page; ``text_size`` is the only query a back end must answer (the shipped font's metrics:
:mod:`game.render.text_metrics`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from game.core import geometry as g
from game.core.lru import LRU
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

    def polygon(self, points: Sequence[Point], fill: Colour = None, outline: Colour = None, width: float = 1) -> None:
        super().polygon(points, fill=fill, outline=outline, width=width)
        self._with_prefix(self.parent.polygon, self._ps(points), fill=fill, outline=outline, width=width)

    def circle(self, center: Point, radius: float, fill: Colour = None, outline: Colour = None, width: float = 1) -> None:
        super().circle(center, radius, fill=fill, outline=outline, width=width)
        self._with_prefix(self.parent.circle, self._p(center), radius, fill=fill, outline=outline, width=width)

    def line(self, points: Sequence[Point], colour: Colour, width: float = 1, dashed: "bool | str" = False) -> None:
        super().line(points, colour, width=width, dashed=dashed)
        self._with_prefix(self.parent.line, self._ps(points), colour, width=width, dashed=dashed)

    def arrow(self, points: Sequence[Point], colour: Colour, width: float = 2, head: float = 10) -> None:
        super().arrow(points, colour, width=width, head=head)
        self._with_prefix(self.parent.arrow, self._ps(points), colour, width=width, head=head)

    def text(self, pos: Point, string: str, size: int = 14, colour: Colour = (0, 0, 0), anchor: str = "topleft",
             bold: bool = False, background: Colour = None) -> None:
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
