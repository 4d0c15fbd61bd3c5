"""Plain Python's implementation of :mod:`game.core.arrays` (see there; chosen by it only).

The same floating-point operations in the same order as :mod:`game.core.arrays_np`, on
lists of ``(x, y)`` float tuples (mm); index sets are lists of ints."""
from __future__ import annotations

import heapq
import math
from typing import Iterable, Iterator, Sequence

Point = tuple[float, float]
Points = list


def slot_local(slots: Sequence[tuple[int, int]], base_w: float, base_d: float, files: int) -> Points:
    """Slot centres (across, back) mm from the middle of the front edge, for ``(rank, file)``
    slots of ``base_w`` x ``base_d`` mm bases in ``files`` files."""
    shift = files * base_w / 2
    return [((float(f) - 0.5) * base_w - shift, (float(r) - 0.5) * base_d) for r, f in slots]


def place(local: Points, front: Sequence[float], ax: tuple[float, float], bx: tuple[float, float]) -> Points:
    """Table points ``front + a * ax + b * bx`` of local ``(a, b)`` points (mm)."""
    fx, fy = float(front[0]), float(front[1])
    a0, a1 = ax
    b0, b1 = bx
    return [(a * a0 + b * b0 + fx, a * a1 + b * b1 + fy) for a, b in local]


def filled(n: int, x: float, y: float) -> Points:
    """``n`` copies of the point ``(x, y)``."""
    return [(float(x), float(y))] * n


def points(pts: Iterable[Sequence[float]]) -> Points:
    """Points from ``(x, y)`` pairs."""
    return [(float(p[0]), float(p[1])) for p in pts]


def from_bboxes(bboxes: Iterable[Sequence[float]]) -> tuple[Points, Points]:
    """``(centres, half sizes)`` of ``(x0, y0, x1, y1)`` boxes."""
    bs = [tuple(map(float, b)) for b in bboxes]
    return ([((x1 + x0) / 2, (y1 + y0) / 2) for x0, y0, x1, y1 in bs],
            [((x1 - x0) / 2, (y1 - y0) / 2) for x0, y0, x1, y1 in bs])


def first_repeated(p: Points, n: int) -> Points:
    """``n`` copies of the first point of ``p`` (zeros when ``p`` is empty)."""
    return [p[0] if p else (0.0, 0.0)] * n


def rows(p: Points) -> list[Point]:
    """The points as ``(x, y)`` float tuples."""
    return list(p)


def take(p: Points, idx: list[int]) -> Points:
    """The points at the indices ``idx`` (from :func:`near`)."""
    return [p[i] for i in idx]


def count(idx: list[int]) -> int:
    """How many indices ``idx`` holds."""
    return len(idx)


def boxes(centers: Points, half: Points) -> tuple:
    """``(low, high, lo, hi)``: each box's corners (``centers -/+ half``) and the box of all
    (``lo``/``hi``: ``(x, y)`` float tuples); empty sets give ``lo``/``hi`` of ``None``."""
    low = [(cx - hx, cy - hy) for (cx, cy), (hx, hy) in zip(centers, half)]
    high = [(cx + hx, cy + hy) for (cx, cy), (hx, hy) in zip(centers, half)]
    if not low:
        return low, high, None, None
    return (low, high, (min(p[0] for p in low), min(p[1] for p in low)),
            (max(p[0] for p in high), max(p[1] for p in high)))


def near(low: Points, high: Points, lo: Point, hi: Point, tol: float) -> list[int]:
    """Indices of boxes (``low``/``high`` corners) within ``tol`` of the box ``lo``..``hi`` on both axes."""
    x0, y0, x1, y1 = lo[0] - tol, lo[1] - tol, hi[0] + tol, hi[1] + tol
    return [i for i, (l, h) in enumerate(zip(low, high)) if h[0] >= x0 and l[0] <= x1 and h[1] >= y0 and l[1] <= y1]


def square_pairs(ca: Points, cb: Points, rx: float, ry: float, hsum: tuple[float, float], tol: float,
                 ia: list[int], ib: list[int]) -> tuple[list[tuple[int, int]], list[bool]]:
    """Pairs ``(ia[i], ib[j])`` of axis-aligned rectangles (centres ``ca``/``cb`` turned into
    the frame of right ``(rx, ry)``; half sizes summed ``hsum``) within ``tol`` mm, sorted,
    and for each whether no axis overlaps by more than ``tol`` (a corner touch)."""
    la = [(x * rx + y * ry, x * -ry + y * rx) for x, y in ca]
    lb = [(x * rx + y * ry, x * -ry + y * rx) for x, y in cb]
    sx, sy = hsum
    tt = tol * tol
    pairs, corner = [], []
    for i, (ax, ay) in zip(ia, la):
        for j, (bx, by) in zip(ib, lb):
            gx = abs(ax - bx) - sx
            gy = abs(ay - by) - sy
            c = gx >= -tol and gy >= -tol
            gx = max(gx, 0.0)
            gy = max(gy, 0.0)
            if gx * gx + gy * gy <= tt:
                pairs.append((i, j))
                corner.append(c)
    return pairs, corner


def box_near_pairs(ca: Points, ha: Points, cb: Points, hb: Points, tol: float,
                   ia: list[int], ib: list[int]) -> list[tuple[int, int]]:
    """Pairs ``(ia[i], ib[j])`` whose boxes (centres, half sizes) are within ``tol`` mm, row-major."""
    tt = tol * tol
    out = []
    for i, (ax, ay), (hax, hay) in zip(ia, ca, ha):
        for j, (bx, by), (hbx, hby) in zip(ib, cb, hb):
            gx = max(abs(ax - bx) - (hax + hbx), 0.0)
            gy = max(abs(ay - by) - (hay + hby), 0.0)
            if gx * gx + gy * gy <= tt:
                out.append((i, j))
    return out


def box_pairs(ca: Points, ha: Points, cb: Points, hb: Points, same: bool,
              rows: int = 256) -> Iterator[tuple[int, int]]:
    """Index pairs ``(i, j)`` of boxes (centres ``ca``/``cb``, half sizes ``ha``/``hb``) that
    overlap or touch; with ``same`` only ``i < j``; sorted by ``(i, j)`` (``rows``: unused,
    kept for the numpy twin's signature). A grid of cells as large as the largest box: only
    the 3 x 3 cells around each box are compared."""
    if not ca or not cb:
        return
    big = max(max(max(h) for h in ha) * 2, max(max(h) for h in hb) * 2, 1e-6)
    cell = big * (1 + 1e-9) + 1e-9
    grid: dict[tuple[int, int], list[int]] = {}
    for j, (x, y) in enumerate(cb):
        grid.setdefault((math.floor(x / cell), math.floor(y / cell)), []).append(j)
    for i, ((x, y), (hx, hy)) in enumerate(zip(ca, ha)):
        kx, ky = math.floor(x / cell), math.floor(y / cell)
        hits = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for j in grid.get((kx + dx, ky + dy), ()):
                    if same and j <= i:
                        continue
                    (bx, by), (hbx, hby) = cb[j], hb[j]
                    if abs(x - bx) <= hx + hbx and abs(y - by) <= hy + hby:
                        hits.append(j)
        hits.sort()
        for j in hits:
            yield i, j


def floats(values: Iterable[float]) -> list[float]:
    """A column of floats."""
    return [float(v) for v in values]


def flags(values: Iterable[bool]) -> list[bool]:
    """A column of booleans (set one with ``col[i] = False``)."""
    return [bool(v) for v in values]


def nearest_free(xs: list[float], ys: list[float], free: list[bool], at: Sequence[float], k: int) -> list[int]:
    """Indices of the free points (``xs``/``ys`` mm, ``free`` flags) no farther from ``at``
    than the ``k``-th nearest free one plus 1e-4 mm (a superset of the ``k`` nearest, for
    exact keys to sort); ``k`` at most the number free."""
    ax, ay = at[0], at[1]
    d = [math.hypot(x - ax, y - ay) if f else math.inf for x, y, f in zip(xs, ys, free)]
    kth = heapq.nsmallest(k, d)[-1] + 1e-4
    return [i for i, v in enumerate(d) if v <= kth]


def nearest_free_many(xs: list[float], ys: list[float], free: list[bool], pts: Sequence[Sequence[float]],
                      k: int) -> list[list[int]]:
    """:func:`nearest_free` of every point of ``pts``."""
    return [nearest_free(xs, ys, free, at, k) for at in pts]


def touching_boxes(b: list, box: Sequence[float]) -> list[int]:
    """Indices of the ``(x0, y0, x1, y1)`` rows of ``b`` (from :func:`box_rows`) touching ``box``."""
    return [i for i, r in enumerate(b) if r[0] <= box[2] and r[2] >= box[0] and r[1] <= box[3] and r[3] >= box[1]]


def box_rows(boxes: Iterable[Sequence[float]]) -> list:
    """``(x0, y0, x1, y1)`` boxes as rows, for :func:`touching_boxes`."""
    return [tuple(map(float, b)) for b in boxes]
