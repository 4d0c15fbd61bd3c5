"""The pygame back end of the drawing protocol (:class:`game.render.canvas.Canvas`): draws on a
``pygame.Surface`` (the window, PNG figures), measuring text as the SVG back end does
(:func:`game.render.text_metrics.font_metrics`)."""
from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from game.core.lru import LRU
from game.core.paths import FONT_DIR  # the shipped fonts, in a checkout or installed
from game.render.canvas import (Canvas, Colour, Point, SubCanvas, anchored, arrow_head, clip_polygon, dash_pattern,
                                dash_segments, text_box)
from game.render.text_metrics import font_metrics

if TYPE_CHECKING:
    import pygame

_RENDERED = LRU(1024)   # (font path, string, size px, colour, bold) -> pygame.Surface of the text


class PygameCanvas(Canvas):
    """Draws on a ``pygame.Surface`` (window or off-screen). Translucent colours (alpha < 255)
    are drawn through a temporary per-alpha surface. ``record=True`` also keeps the call log."""

    def __init__(self, surface: "pygame.Surface", record: bool = False, font_path: Optional[str] = None,
                 supersample: int = 1) -> None:
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
    def font(self, size: int, bold: bool = False) -> "pygame.font.Font":
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

    def push_clip(self, rect: Sequence[float]) -> None:
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
    def _target(self, colour: tuple, pts: Sequence[Point], pad: float) \
            -> tuple[Optional["pygame.Surface"], tuple[int, int], tuple, Optional[Callable[[], None]]]:
        """(surface to draw on, offset, opaque colour, finish callback) for a maybe-translucent colour."""
        if len(colour) < 4 or colour[3] >= 255:
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

    def polygon(self, points: Sequence[Point], fill: Colour = None, outline: Colour = None, width: float = 1) -> None:
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

    def polygons(self, polys: Sequence[Sequence[Point]], tags: Sequence[str], fill: Colour = None,
                 outline: Colour = None, width: float = 1) -> None:
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
            if edge and outline is not None:
                r = aalines(surface, outline, True, pts)
                if note is not None:
                    note.append((tags[k], r))

    def circle(self, center: Point, radius: float, fill: Colour = None, outline: Colour = None, width: float = 1) -> None:
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

    def line(self, points: Sequence[Point], colour: Colour, width: float = 1, dashed: "bool | str" = False) -> None:
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

    def arrow(self, points: Sequence[Point], colour: Colour, width: float = 2, head: float = 10) -> None:
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

    def text(self, pos: Point, string: str, size: int = 14, colour: Colour = (0, 0, 0), anchor: str = "topleft",
             bold: bool = False, background: Colour = None) -> None:
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
