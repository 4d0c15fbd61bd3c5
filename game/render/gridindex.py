"""A uniform grid over pixel boxes: which stored boxes may overlap a query box, in O(1) cells.

Label placement asks, for each candidate spot of each label, how much it overlaps every unit,
label and marker already on the table; with the boxes in a grid only the few in the cells the
spot covers are looked at (a big table has hundreds of units: that search was quadratic).
Boxes are ``(x0, y0, x1, y1)`` px; ``cell_px`` is the cell size.
"""
from __future__ import annotations

import math
from typing import Iterable, Sequence

Box = Sequence[float]


class GridIndex:
    """Boxes in a uniform grid; :meth:`near` yields each stored box whose cells meet the query's
    (a superset of the boxes overlapping it, each once, in insertion order)."""

    __slots__ = ("cell", "cells", "boxes", "big")

    def __init__(self, boxes: Iterable[Box] = (), cell_px: float = 64.0) -> None:
        self.cell = float(cell_px)
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.boxes: list[Box] = []
        self.big: list[int] = []  # boxes over many cells: always candidates
        for b in boxes:
            self.add(b)

    def _span(self, b: Box) -> tuple[int, int, int, int]:
        c = self.cell
        return (math.floor(b[0] / c), math.floor(b[1] / c), math.floor(b[2] / c), math.floor(b[3] / c))

    def add(self, box: Box) -> None:
        i = len(self.boxes)
        self.boxes.append(box)
        x0, y0, x1, y1 = self._span(box)
        if (x1 - x0 + 1) * (y1 - y0 + 1) > 256:
            self.big.append(i)
            return
        cells = self.cells
        for cx in range(x0, x1 + 1):
            for cy in range(y0, y1 + 1):
                cells.setdefault((cx, cy), []).append(i)

    def near(self, box: Box) -> list[Box]:
        boxes = self.boxes
        return [boxes[i] for i in self.near_ids(box)]

    def near_ids(self, box: Box) -> list[int]:
        """Indices (in insertion order) of the stored boxes :meth:`near` gives."""
        x0, y0, x1, y1 = self._span(box)
        if (x1 - x0 + 1) * (y1 - y0 + 1) > 256:
            return list(range(len(self.boxes)))
        seen: set[int] = set(self.big)
        cells = self.cells
        for cx in range(x0, x1 + 1):
            for cy in range(y0, y1 + 1):
                ids = cells.get((cx, cy))
                if ids:
                    seen.update(ids)
        return sorted(seen)

    def __len__(self) -> int:
        return len(self.boxes)
