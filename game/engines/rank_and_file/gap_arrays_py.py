"""Plain Python's implementation of the rank-and-file gap kernels (see :mod:`.gap_arrays_np`:
the same functions, the same floats in the same order; chosen by :func:`game.core.arrays.twin`).

Shapes: "cols" a tuple of four lists ``(x0s, y0s, x1s, y1s)`` (mm); a "row" a list of floats;
a "grid" a list of rows; "asking" four lists (one value per asking model)."""
from __future__ import annotations

import math
from typing import Any, Sequence

Cols = tuple


# -- boxes of bases (tow_gaps) -----------------------------------------------------------------
def bbox_cols(bboxes: Sequence[Sequence[float]]) -> Cols:
    """Cols of ``(x0, y0, x1, y1)`` boxes."""
    bs = [tuple(map(float, b)) for b in bboxes]
    return ([b[0] for b in bs], [b[1] for b in bs], [b[2] for b in bs], [b[3] for b in bs])


def centre_cols(centers: Any, lo: tuple[float, float], hi: tuple[float, float]) -> Cols:
    """Cols of the boxes ``centre + lo`` .. ``centre + hi`` (centres: ``(x, y)`` tuples)."""
    lx, ly = lo
    hx, hy = hi
    return ([x + lx for x, _y in centers], [y + ly for _x, y in centers],
            [x + hx for x, _y in centers], [y + hy for _x, y in centers])


def ncols(cols: Cols) -> int:
    """How many boxes ``cols`` holds."""
    return len(cols[0])


def max_abs(points: Any) -> float:
    """The largest absolute coordinate of points (mm; the points not empty)."""
    return max(max(abs(x), abs(y)) for x, y in points)


def _row(cols: Cols, x0: float, y0: float, x1: float, y1: float) -> list[float]:
    """Box gaps (mm) from the box ``x0, y0, x1, y1`` to each box of ``cols``: per axis
    ``max(max(b0 - x1, x0 - b1), 0.0)`` (list by list: the fastest plain Python found; a zero's
    sign may differ from numpy's, its square does not), then ``sqrt(gx * gx + gy * gy)``."""
    bx0, by0, bx1, by1 = cols
    sqrt = math.sqrt
    gxs = [p if p > q else q for p, q in zip([a - x1 for a in bx0], [x0 - c for c in bx1])]
    gys = [p if p > q else q for p, q in zip([b - y1 for b in by0], [y0 - d for d in by1])]
    return [sqrt(p * p + q * q) for p, q in zip([p if p > 0.0 else 0.0 for p in gxs], [q if q > 0.0 else 0.0 for q in gys])]


def lower(cols: Cols, box: Sequence[float]) -> list[float]:
    """The row of box gaps (mm) from the box ``(x0, y0, x1, y1)`` to each box of ``cols``."""
    x0, y0, x1, y1 = box
    return _row(cols, x0, y0, x1, y1)


def argmin(row: list[float]) -> int:
    """The index of the first least value of a row."""
    return row.index(min(row))


def count_below(row: list[float], v: float) -> int:
    """How many values of a row are below ``v``."""
    return sum(1 for x in row if x < v)


def stable_order(row: list[float]) -> list[int]:
    """The indices of a row, least value first, ties in index order."""
    return sorted(range(len(row)), key=row.__getitem__)


def second_least(row: list[float]) -> float:
    """The second least value of a row (inf when it has fewer than two)."""
    return sorted(row)[1] if len(row) > 1 else math.inf


def join(cols: list) -> Cols:
    """Cols side by side."""
    if len(cols) == 1:
        return cols[0]
    return tuple([v for c in cols for v in c[j]] for j in range(4))


def asking(cols: Cols, idx: list[int]) -> tuple:
    """The asking columns of the boxes ``idx`` of ``cols``."""
    return tuple([c[i] for i in idx] for c in cols)


def asking_boxes(bboxes: Sequence[Sequence[float]]) -> tuple:
    """The asking columns of ``(x0, y0, x1, y1)`` boxes."""
    return bbox_cols(bboxes)


def grid(cols: Cols, ask: tuple) -> list[list[float]]:
    """The grid of box gaps (mm) of each asking box (row) to each box of ``cols`` (column)."""
    return [_row(cols, x0, y0, x1, y1) for x0, y0, x1, y1 in zip(*ask)]


def floors(gr: list[list[float]], starts: list[int]) -> tuple[list[list[float]], list[list[float]]]:
    """The least of each run of columns (runs begin at ``starts``) per grid row: ``(floors,
    the same as lists)``."""
    ends = starts[1:] + [None]
    fl = [[min(r[a:b]) for a, b in zip(starts, ends)] for r in gr]
    return fl, fl


def grid_row(gr: list[list[float]], k: int, a: int, b: int) -> list[float]:
    """Columns ``a:b`` of grid row ``k`` (a row)."""
    return gr[k][a:b]


def settle(fl: list[list[float]], member: list[tuple[list[int], int]], tol: float, eps: float,
           with_margin: bool) -> tuple[list[bool], list[list[bool]], Any]:
    """See :func:`.gap_arrays_np.settle`."""
    n = len(fl)
    width = len(fl[0]) if n else 0
    rows = [[math.inf] * width for _ in range(n)]
    for ks, j in member:
        for k in ks:
            rows[k][j] = fl[k][j]
    oks: list[bool] = []
    keeps: list[list[bool]] = []
    margins: list[float] = []
    for row in rows:
        up = [v + eps for v in row]
        lo_min = min(row)
        up_min = min(up)
        lim_keep = lo_min + tol
        lim_drop = (up_min + tol) + eps
        keep = [u + eps <= lim_keep for u in up]
        drop = [v > lim_drop for v in row]
        oks.append(all(v > 0.0 for v in row) and all(k or d for k, d in zip(keep, drop)))
        keeps.append(keep)
        if with_margin:
            least, second = (min(row), sorted(row)[1]) if width > 1 else (math.inf, math.inf)
            first = row.index(min(row))
            ms = [(((second if j == first else least) + tol) - (u + eps)) if k else v - lim_drop
                  for j, (v, u, k) in enumerate(zip(row, up, keep))]
            margins.append(math.nan if any(m != m for m in ms) else min(ms))  # (numpy's min: nan wins)
    return oks, keeps, margins if with_margin else None


# -- enemy bases along a facing (gap_index) ------------------------------------------------------
def extents(polys: list[list[tuple[float, float]]], d: tuple[float, float]) -> tuple:
    """See :func:`.gap_arrays_np.extents`."""
    sx, sy = -d[1], d[0]
    dx, dy = d
    x: list[float] = []
    y: list[float] = []
    proj: list[float] = []
    s_lo, s_hi, a_lo, a_hi = [], [], [], []
    for poly in polys:
        pts = [(float(p[0]), float(p[1])) for p in poly]
        x += [p[0] for p in pts]
        y += [p[1] for p in pts]
        pr = [px * dx + py * dy for px, py in pts]
        ac = [px * sx + py * sy for px, py in pts]
        proj += pr
        s_lo.append(min(ac))
        s_hi.append(max(ac))
        a_lo.append(min(pr))
        a_hi.append(max(pr))
    return x, y, proj, s_lo, s_hi, a_lo, a_hi


def sorted_by(s_lo: list[float], s_hi: list[float]) -> tuple[list[int], list[float], float]:
    """See :func:`.gap_arrays_np.sorted_by`."""
    order = sorted(range(len(s_lo)), key=s_lo.__getitem__)
    return order, [s_lo[i] for i in order], max(b - a for a, b in zip(s_lo, s_hi))


def far_from(x: list[float], y: list[float], proj: list[float], centres: list, d: tuple[float, float],
             eps: float, block: int) -> list[float]:
    """See :func:`.gap_arrays_np.far_from` (``block``: unused)."""
    lim = max(proj) - eps
    kept = [(px, py) for px, py, p in zip(x, y, proj) if p >= lim]
    dx, dy = d
    return [max((px - cx) * dx + (py - cy) * dy for px, py in kept) for cx, cy in centres]


def ahead(order: list[int], lo: int, hi: int, s_hi: list[float], a_lo: list[float], a_hi: list[float],
          s_min: float, a_min: float, a_max: float, a1: float, tol: float, eps: float) -> list[tuple[float, int]]:
    """See :func:`.gap_arrays_np.ahead`."""
    return sorted((a_lo[i] - a1 - tol - eps, i) for i in order[lo:hi]
                  if s_hi[i] > s_min and a_hi[i] >= a_min and a_lo[i] <= a_max)
