"""The context of one :func:`game.render.scene.draw_scene` call, :class:`Paint`: what every
layer of the scene draws with (canvas, board, analysis, view, options, palette, layout) and
what the drawing has produced so far (the drawn models, the boxes taken, the error log), plus
the length and shape helpers every layer uses.

The layers are modules of functions taking a ``Paint`` (``p``), each with one job: the table
(:mod:`game.render.table_marks`), the units and their marks (:mod:`game.render.unit_marks`),
placed text (:mod:`game.render.labels`), the legend panel (:mod:`game.render.legend`), the
window's layers (:mod:`game.render.window_layers`) and the part drawers
(:mod:`game.render.part_marks`). None keeps state on another's object: a ``Paint`` has fixed
slots, and the state a layer needs is an object of its own (:class:`~game.render.placer.Placer`,
:class:`~game.render.placer.UnitBoxes`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from game.core import geometry as g
from game.core.analysis import Analysis
from game.core.board import Board
from game.render.canvas import Canvas
from game.render.drawn import DrawnModel, circle_pts, font_px
from game.render.options import Layout, SceneOptions
from game.render.placer import Placer, UnitBoxes
from game.render.transform import View

Point = tuple[float, float]


@dataclass(slots=True, eq=False)
class Paint:
    """One drawing of the scene: canvas ``c`` (px), board ``b``, analysis ``a`` (None: an
    unanalysed board), view ``v`` (mm to px), options ``o``, palette ``pal`` (merged over
    :data:`~game.render.palette.PALETTE`), length scale ``fs`` (px per design unit), layout
    ``lay``; ``placer`` (px boxes taken on the table), ``boxes`` (the units' px boxes), the
    ``models`` as drawn (set by the scene once built) and ``errors`` (one line per element
    that failed to draw)."""

    c: Canvas
    b: Board
    a: Optional[Analysis]
    v: View
    o: SceneOptions
    pal: dict
    fs: float
    lay: Layout
    placer: Placer
    boxes: UnitBoxes
    models: list[DrawnModel] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def u(self, units: float) -> float:
        """A length in design units as canvas px (see :mod:`game.render.scene`)."""
        return units * self.fs

    def size(self, units: float) -> int:
        """A font size in design units as canvas px: whole px at the final size, at least 6 px and
        at least the options' ``min_font_px`` (a print figure: 6 pt at its dpi)."""
        ss = self.o.supersample
        return max(font_px(units * self.fs, ss), int(self.o.min_font_px) * max(1, int(ss)))

    def shape_px(self, s: g.Shape) -> tuple[str, Any]:
        """``("circle", (centre px, radius px))`` or ``("poly", points px)`` of shape ``s``."""
        if isinstance(s, g.Circle):
            return "circle", (self.v.to_px(s.center), s.radius_mm * self.v.scale)
        return "poly", self.v.pts(s.points)

    def draw_shape(self, s: g.Shape, fill: Any, outline: Any, width: float) -> None:
        kind, data = self.shape_px(s)
        if kind == "circle":
            self.c.circle(data[0], data[1], fill=fill, outline=outline, width=width)
        else:
            self.c.polygon(data, fill=fill, outline=outline, width=width)

    def outline_px(self, s: g.Shape) -> list[Point]:
        """The outline of a shape in canvas px (a circle as a 24-gon), for hatching."""
        kind, data = self.shape_px(s)
        return circle_pts(*data) if kind == "circle" else data

    def safe(self, what: str, fn: Callable, *args: Any) -> Any:
        """``fn(*args)``; a failure is logged in ``errors`` (``what: Type: message``) and
        drawing goes on (returns None); the canvas tag is restored either way."""
        tag = self.c.tag
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 - never let one element kill the frame
            self.errors.append(f"{what}: {type(exc).__name__}: {exc}")
            return None
        finally:
            self.c.tag = tag
