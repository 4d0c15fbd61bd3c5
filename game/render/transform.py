"""Pan and zoom: the map from table millimetres to canvas pixels.

``px = offset + mm * scale`` on both axes (no rotation: north stays up the page).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

Point = tuple[float, float]

MIN_SCALE, MAX_SCALE = 0.05, 40.0  # px per mm


@dataclass
class View:
    """``scale`` px per mm; ``offset_px`` the pixel position of table point (0, 0)."""

    scale: float = 1.0
    offset_px: Point = (0.0, 0.0)

    def to_px(self, p: Point) -> Point:
        """Table mm -> canvas px."""
        return (self.offset_px[0] + p[0] * self.scale, self.offset_px[1] + p[1] * self.scale)

    def pts(self, points: Iterable[Point]) -> list[Point]:
        """Many table points -> canvas px."""
        s, (ox, oy) = self.scale, self.offset_px
        return [(ox + x * s, oy + y * s) for x, y in points]

    def to_mm(self, p: Point) -> Point:
        """Canvas px -> table mm."""
        return ((p[0] - self.offset_px[0]) / self.scale, (p[1] - self.offset_px[1]) / self.scale)

    def len_px(self, mm: float) -> float:
        return mm * self.scale

    def pan(self, dx_px: float, dy_px: float) -> None:
        """Move the picture by (dx, dy) pixels."""
        self.offset_px = (self.offset_px[0] + dx_px, self.offset_px[1] + dy_px)

    def zoom_about(self, factor: float, anchor_px: Point) -> None:
        """Multiply the scale by ``factor`` keeping the table point under ``anchor_px`` fixed."""
        new = min(MAX_SCALE, max(MIN_SCALE, self.scale * factor))
        mm = self.to_mm(anchor_px)
        self.scale = new
        self.offset_px = (anchor_px[0] - mm[0] * new, anchor_px[1] - mm[1] * new)

    @classmethod
    def fit(cls, bbox_mm: Sequence[float], area_px: Sequence[float], margin_px: float = 40.0) -> "View":
        """The view showing table box ``(x0, y0, x1, y1)`` mm centred in the pixel area
        ``(left, top, width, height)`` with ``margin_px`` free on every side."""
        x0, y0, x1, y1 = bbox_mm
        left, top, w, h = area_px
        bw, bh = max(1.0, x1 - x0), max(1.0, y1 - y0)
        s = min(max(1.0, w - 2 * margin_px) / bw, max(1.0, h - 2 * margin_px) / bh)
        s = min(MAX_SCALE, max(MIN_SCALE, s))
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        return cls(s, (left + w / 2 - cx * s, top + h / 2 - cy * s))
