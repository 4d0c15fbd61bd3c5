"""numpy's implementation of the rank-and-file gap kernels (chosen by :func:`game.core.arrays.twin`
only; the twin :mod:`.gap_arrays_py` gives the same bits with plain Python).

Used by :mod:`.tow_gaps` (box bounds of gaps to enemy bases) and :mod:`.gap_index` (enemy
bases seen along a facing). Elementwise float operations only, in the same order as the twin;
a box bound is ``sqrt(gx * gx + gy * gy)`` (each step correctly rounded, so both give the same
bits; ``hypot`` differs between libraries in the last bit).

Shapes: "cols" the boxes ``(x0, y0, x1, y1)`` of n bases as a ``(4, n)`` array (mm); a "row"
one float per base; a "grid" one row per asking model; "asking" four ``(k, 1)`` columns."""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np


# -- boxes of bases (tow_gaps) -----------------------------------------------------------------
def bbox_cols(bboxes: Sequence[Sequence[float]]) -> np.ndarray:
    """Cols of ``(x0, y0, x1, y1)`` boxes."""
    return np.array(bboxes, dtype=float).reshape(-1, 4).T.copy()


def centre_cols(centers: Any, lo: tuple[float, float], hi: tuple[float, float]) -> np.ndarray:
    """Cols of the boxes ``centre + lo`` .. ``centre + hi`` (centres: :mod:`game.core.arrays` points)."""
    c = centers
    return np.stack([c[:, 0] + lo[0], c[:, 1] + lo[1], c[:, 0] + hi[0], c[:, 1] + hi[1]])


def ncols(cols: np.ndarray) -> int:
    """How many boxes ``cols`` holds."""
    return int(cols.shape[1])


def max_abs(points: Any) -> float:
    """The largest absolute coordinate of points (mm; the points not empty)."""
    return float(np.abs(points).max())


def _bound(bx0, by0, bx1, by1, x0, y0, x1, y1):
    gx = np.maximum(np.maximum(bx0 - x1, x0 - bx1), 0.0)
    gy = np.maximum(np.maximum(by0 - y1, y0 - by1), 0.0)
    return np.sqrt(gx * gx + gy * gy)


def lower(cols: np.ndarray, box: Sequence[float]) -> np.ndarray:
    """The row of box gaps (mm) from the box ``(x0, y0, x1, y1)`` to each box of ``cols``."""
    bx0, by0, bx1, by1 = cols
    x0, y0, x1, y1 = box
    return _bound(bx0, by0, bx1, by1, x0, y0, x1, y1)


def argmin(row: Any) -> int:
    """The index of the first least value of a row."""
    return int(np.argmin(row))


def count_below(row: Any, v: float) -> int:
    """How many values of a row are below ``v``."""
    return int(np.count_nonzero(row < v))


def stable_order(row: Any) -> list[int]:
    """The indices of a row, least value first, ties in index order."""
    return np.argsort(row, kind="stable").tolist()


def second_least(row: Any) -> float:
    """The second least value of a row (inf when it has fewer than two)."""
    return float(np.partition(row, 1)[1]) if row.shape[0] > 1 else math.inf


def join(cols: list) -> np.ndarray:
    """Cols side by side."""
    return cols[0] if len(cols) == 1 else np.concatenate(cols, axis=1)


def asking(cols: np.ndarray, idx: list[int]) -> tuple:
    """The asking columns of the boxes ``idx`` of ``cols``."""
    sub = cols[:, idx]
    return sub[0][:, None], sub[1][:, None], sub[2][:, None], sub[3][:, None]


def asking_boxes(bboxes: Sequence[Sequence[float]]) -> tuple:
    """The asking columns of ``(x0, y0, x1, y1)`` boxes."""
    mb = np.array(bboxes, dtype=float).reshape(-1, 4)
    return tuple(mb[:, j:j + 1] for j in range(4))


def grid(cols: np.ndarray, ask: tuple) -> np.ndarray:
    """The grid of box gaps (mm) of each asking box (row) to each box of ``cols`` (column)."""
    bx0, by0, bx1, by1 = cols
    x0, y0, x1, y1 = ask
    return _bound(bx0, by0, bx1, by1, x0, y0, x1, y1)


def floors(gr: np.ndarray, starts: list[int]) -> tuple[np.ndarray, list[list[float]]]:
    """The least of each run of columns (runs begin at ``starts``) per grid row: ``(floors,
    the same as lists)``; ``floors`` for :func:`settle`."""
    fl = np.minimum.reduceat(gr, starts, axis=1) if len(starts) > 1 else gr.min(axis=1)[:, None]
    return fl, fl.tolist()


def grid_row(gr: np.ndarray, k: int, a: int, b: int) -> np.ndarray:
    """Columns ``a:b`` of grid row ``k`` (a row)."""
    return gr[k, a:b]


def settle(fl: np.ndarray, member: list[tuple[list[int], int]], tol: float, eps: float,
           with_margin: bool) -> tuple[list[bool], list[list[bool]], Any]:
    """Every row of ``fl`` (from :func:`floors`; only the cells ``member`` names, ``(rows,
    column)`` each, count: the others are inf) settled on bounds ``L`` (the floor) and
    ``U = L + eps``: per row whether it settles (every ``L > 0`` and every enemy in, ``U + eps
    <= min L + tol``, or out, ``L > min U + tol + eps``), each cell in or not, and (with
    ``with_margin``) the row's margin: the least over its cells of ``L' + tol - (U + eps)``
    (in; ``L'`` the least other floor) or ``L - (min U + tol + eps)`` (out); else None."""
    mem = np.zeros(fl.shape, dtype=bool)
    for ks, j in member:
        mem[ks, j] = True
    floors_ = np.where(mem, fl, math.inf)
    up = floors_ + eps
    lo_min = floors_.min(axis=1)
    up_min = up.min(axis=1)
    keep = up + eps <= (lo_min + tol)[:, None]
    drop = floors_ > ((up_min + tol) + eps)[:, None]
    ok = ((floors_ > 0.0).all(axis=1) & (keep | drop).all(axis=1)).tolist()
    margin = None
    if with_margin:
        n = len(floors_)
        two = np.partition(floors_, 1, axis=1) if floors_.shape[1] > 1 else np.full((n, 2), math.inf)
        nearest = floors_.argmin(axis=1)[:, None] == np.arange(floors_.shape[1])[None, :]
        others = np.where(nearest, two[:, 1:2], two[:, 0:1])
        margin = np.where(keep, (others + tol) - (up + eps), floors_ - ((up_min + tol) + eps)[:, None])
        margin = margin.min(axis=1).tolist()
    return ok, keep.tolist(), margin


# -- enemy bases along a facing (gap_index) ------------------------------------------------------
def extents(polys: list[list[tuple[float, float]]], d: tuple[float, float]) -> tuple:
    """``(x, y, proj, s_lo, s_hi, a_lo, a_hi)`` of outlines (not empty): every vertex's
    coordinates and projection on ``d``; each outline's least and greatest projection on the
    side axis ``(-dy, dx)`` and on ``d`` (``a_lo``/``a_hi`` may be set item by item)."""
    side = (-d[1], d[0])
    sizes = [len(p) for p in polys]
    flat = np.array([p for poly in polys for p in poly], dtype=float).reshape(-1, 2)
    x, y = flat[:, 0].copy(), flat[:, 1].copy()
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.intp)
    proj = x * d[0] + y * d[1]
    across = x * side[0] + y * side[1]
    return (x, y, proj, np.minimum.reduceat(across, starts), np.maximum.reduceat(across, starts),
            np.minimum.reduceat(proj, starts), np.maximum.reduceat(proj, starts))


def sorted_by(s_lo: Any, s_hi: Any) -> tuple[Any, list[float], float]:
    """``(order, s_lo in that order as a list, the widest s_hi - s_lo)``; order stable."""
    order = np.argsort(s_lo, kind="stable")
    return order, s_lo[order].tolist(), float(np.max(s_hi - s_lo))


def far_from(x: Any, y: Any, proj: Any, centres: list, d: tuple[float, float], eps: float, block: int) -> list[float]:
    """Per centre ``c``: ``max((px - cx) * dx + (py - cy) * dy)`` over the vertices whose
    projection is within ``eps`` of the greatest (the others cannot be the largest)."""
    top = float(np.max(proj))
    keep = proj >= top - eps
    kx, ky = x[keep], y[keep]
    c = np.array(centres, dtype=float).reshape(-1, 2)
    out: list[float] = []
    step = max(1, block * 64 // max(1, len(kx)))
    dx, dy = d
    for i in range(0, len(c), step):
        cx, cy = c[i:i + step, 0:1], c[i:i + step, 1:2]
        out += ((kx[None, :] - cx) * dx + (ky[None, :] - cy) * dy).max(axis=1).tolist()
    return out


def ahead(order: Any, lo: int, hi: int, s_hi: Any, a_lo: Any, a_hi: Any, s_min: float, a_min: float,
          a_max: float, a1: float, tol: float, eps: float) -> list[tuple[float, int]]:
    """The outlines ``order[lo:hi]`` with ``s_hi > s_min``, ``a_hi >= a_min`` and ``a_lo <=
    a_max``, as ``(a_lo - a1 - tol - eps, index)`` sorted."""
    idx = order[lo:hi]
    ok = (s_hi[idx] > s_min) & (a_hi[idx] >= a_min) & (a_lo[idx] <= a_max)
    idx = idx[ok]
    if not len(idx):
        return []
    bound = a_lo[idx] - a1 - tol - eps
    o = np.lexsort((idx, bound))
    return list(zip(bound[o].tolist(), idx[o].tolist()))
