"""numpy's implementation of :mod:`game.core.arrays` (see there; chosen by it only).

Every function does the same floating-point operations, in the same order, as its twin in
:mod:`game.core.arrays_py` (elementwise only: no matrix product, no summation that numpy
would reorder), so both give the same bits. Points: ``(n, 2)`` float arrays in mm."""
from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

Points = np.ndarray
#: indices into a :data:`Points` array (an integer array)
Indices = np.ndarray


def slot_local(slots: Sequence[tuple[int, int]], base_w: float, base_d: float, files: int) -> Points:
    """Slot centres (across, back) mm from the middle of the front edge, for ``(rank, file)``
    slots of ``base_w`` x ``base_d`` mm bases in ``files`` files."""
    rf = np.array(slots, dtype=float).reshape(-1, 2)
    local = np.empty((len(slots), 2))
    local[:, 0] = (rf[:, 1] - 0.5) * base_w - files * base_w / 2
    local[:, 1] = (rf[:, 0] - 0.5) * base_d
    return local


def place(local: Points, front: Sequence[float], ax: tuple[float, float], bx: tuple[float, float]) -> Points:
    """Table points ``front + a * ax + b * bx`` of local ``(a, b)`` points (mm)."""
    out = local[:, :1] * np.array(ax) + local[:, 1:] * np.array(bx)
    out += np.asarray(front, dtype=float)
    return out


def filled(n: int, x: float, y: float) -> Points:
    """``n`` copies of the point ``(x, y)``."""
    out = np.empty((n, 2))
    out[:, 0] = x
    out[:, 1] = y
    return out


def points(pts: Iterable[Sequence[float]]) -> Points:
    """Points from ``(x, y)`` pairs."""
    return np.array(list(pts), dtype=float).reshape(-1, 2)


def from_bboxes(bboxes: Iterable[Sequence[float]]) -> tuple[Points, Points]:
    """``(centres, half sizes)`` of ``(x0, y0, x1, y1)`` boxes."""
    b = np.array(list(bboxes), dtype=float).reshape(-1, 4)
    return (b[:, 2:] + b[:, :2]) / 2, (b[:, 2:] - b[:, :2]) / 2


def first_repeated(p: Points, n: int) -> Points:
    """``n`` copies of the first point of ``p`` (zeros when ``p`` is empty); read-only."""
    return np.broadcast_to(p[:1], (n, 2)) if len(p) else np.zeros((n, 2))


def rows(p: Points) -> list[tuple[float, float]]:
    """The points as ``(x, y)`` float tuples."""
    return list(zip(*p.T.tolist())) if len(p) else []


def take(p: Points, idx: Indices) -> Points:
    """The points at the indices ``idx`` (from :func:`near`)."""
    return p[idx]


def count(idx: Indices) -> int:
    """How many indices ``idx`` holds."""
    return len(idx)


def boxes(centers: Points, half: Points) -> tuple:
    """``(low, high, lo, hi)``: each box's corners (``centers -/+ half``) and the box of all
    (``lo``/``hi``: ``(x, y)`` float tuples); empty sets give ``lo``/``hi`` of ``None``."""
    low, high = centers - half, centers + half
    if not len(low):
        return low, high, None, None
    lo, hi = low.min(axis=0), high.max(axis=0)
    return low, high, (float(lo[0]), float(lo[1])), (float(hi[0]), float(hi[1]))


def near(low: Points, high: Points, lo: tuple[float, float], hi: tuple[float, float], tol: float) -> Indices:
    """Indices of boxes (``low``/``high`` corners) within ``tol`` of the box ``lo``..``hi`` on both axes."""
    m = ((high[:, 0] >= lo[0] - tol) & (low[:, 0] <= hi[0] + tol)
         & (high[:, 1] >= lo[1] - tol) & (low[:, 1] <= hi[1] + tol))
    return np.nonzero(m)[0]


def square_pairs(ca: Points, cb: Points, rx: float, ry: float, hsum: tuple[float, float], tol: float,
                 ia: Indices, ib: Indices) -> tuple[list[tuple[int, int]], list[bool]]:
    """Pairs ``(ia[i], ib[j])`` of axis-aligned rectangles (centres ``ca``/``cb`` turned into
    the frame of right ``(rx, ry)``; half sizes summed ``hsum``) within ``tol`` mm, sorted,
    and for each whether no axis overlaps by more than ``tol`` (a corner touch)."""
    la = ca[:, :1] * np.array((rx, -ry)) + ca[:, 1:] * np.array((ry, rx))
    lb = cb[:, :1] * np.array((rx, -ry)) + cb[:, 1:] * np.array((ry, rx))
    gap = np.abs(la[:, None, :] - lb[None, :, :])
    gap -= np.array(hsum)
    corner = (gap[:, :, 0] >= -tol) & (gap[:, :, 1] >= -tol)
    np.maximum(gap, 0.0, out=gap)
    gap *= gap
    pi, pj = np.nonzero(gap[:, :, 0] + gap[:, :, 1] <= tol * tol)
    return list(zip(ia[pi].tolist(), ib[pj].tolist())), corner[pi, pj].tolist()


def box_near_pairs(ca: Points, ha: Points, cb: Points, hb: Points, tol: float, ia: Indices,
                   ib: Indices) -> list[tuple[int, int]]:
    """Pairs ``(ia[i], ib[j])`` whose boxes (centres, half sizes) are within ``tol`` mm, row-major."""
    gx = np.maximum(np.abs(ca[:, None, 0] - cb[None, :, 0]) - (ha[:, None, 0] + hb[None, :, 0]), 0.0)
    gy = np.maximum(np.abs(ca[:, None, 1] - cb[None, :, 1]) - (ha[:, None, 1] + hb[None, :, 1]), 0.0)
    pi, pj = np.nonzero(gx * gx + gy * gy <= tol * tol)
    return list(zip(ia[pi].tolist(), ib[pj].tolist()))


def box_pairs(ca: Points, ha: Points, cb: Points, hb: Points, same: bool,
              rows: int = 256) -> Iterable[tuple[int, int]]:
    """Index pairs ``(i, j)`` of boxes (centres ``ca`` / ``cb`` and half sizes ``ha`` / ``hb``,
    ``(n, 2)`` mm arrays) that overlap or touch; with ``same`` (one set against itself) only
    ``i < j``. Sorted by ``(i, j)``, in blocks of ``rows`` rows.

    A uniform grid of cells as large as the largest box: boxes that meet have centres at most
    one cell apart on each axis, so only the 3 x 3 cells around each box are compared (every
    box against every other was 10^8 tests for two 10,000-model units)."""
    na, nb = len(ca), len(cb)
    if not na or not nb:
        return
    cell = max(float(2 * ha.max()), float(2 * hb.max()), 1e-6) * (1 + 1e-9) + 1e-9  # margin: rounding
    ka = np.floor(ca / cell).astype(np.int64)
    kb = np.floor(cb / cell).astype(np.int64)
    lo_k = np.minimum(ka.min(axis=0), kb.min(axis=0)) - 1
    span = int(max(ka.max(axis=0).max(), kb.max(axis=0).max()) - lo_k.min()) + 3
    key_b = (kb[:, 0] - lo_k[0]) * span + (kb[:, 1] - lo_k[1])
    order = np.argsort(key_b, kind="stable")
    sk = key_b[order]
    for r0 in range(0, na, rows):
        kr = ka[r0:r0 + rows]
        ii_parts, jj_parts = [], []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                q = (kr[:, 0] + dx - lo_k[0]) * span + (kr[:, 1] + dy - lo_k[1])
                lo = np.searchsorted(sk, q, "left")
                counts = np.searchsorted(sk, q, "right") - lo
                total = int(counts.sum())
                if not total:
                    continue
                starts = np.repeat(lo - (np.cumsum(counts) - counts), counts)
                jj_parts.append(order[starts + np.arange(total)])
                ii_parts.append(np.repeat(np.arange(r0, r0 + len(kr)), counts))
        if not ii_parts:
            continue
        ii, jj = np.concatenate(ii_parts), np.concatenate(jj_parts)
        hit = np.all(np.abs(ca[ii] - cb[jj]) <= ha[ii] + hb[jj], axis=1)
        if same:
            hit &= ii < jj
        ii, jj = ii[hit], jj[hit]
        o = np.lexsort((jj, ii))
        yield from zip(ii[o].tolist(), jj[o].tolist())


def floats(values: Iterable[float]) -> np.ndarray:
    """A column of floats."""
    return np.fromiter(values, float)


def flags(values: Iterable[bool]) -> np.ndarray:
    """A column of booleans (set one with ``col[i] = False``)."""
    return np.array(list(values), dtype=bool)


def nearest_free(xs: np.ndarray, ys: np.ndarray, free: np.ndarray, at: Sequence[float], k: int) -> list[int]:
    """Indices of the free points (``xs``/``ys`` mm, ``free`` flags) no farther from ``at``
    than the ``k``-th nearest free one plus 1e-4 mm (a superset of the ``k`` nearest, for
    exact keys to sort); ``k`` at most the number free."""
    d = np.hypot(xs - at[0], ys - at[1])
    d[~free] = np.inf
    kth = np.partition(d, k - 1)[k - 1]
    return np.nonzero(d <= kth + 1e-4)[0].tolist()


def nearest_free_many(xs: np.ndarray, ys: np.ndarray, free: np.ndarray, pts: Sequence[Sequence[float]],
                      k: int) -> list[list[int]]:
    """:func:`nearest_free` of every point of ``pts`` at once (one k-d tree of the free points)."""
    from scipy.spatial import cKDTree

    idx = np.nonzero(free)[0]
    tree = cKDTree(np.column_stack((xs[idx], ys[idx])))
    at = np.array(pts, dtype=float).reshape(-1, 2)
    dist, _ = tree.query(at, k=k)
    kth = dist if k == 1 else dist[:, -1]
    near = tree.query_ball_point(at, kth + 1e-4)
    return [idx[np.asarray(near[pi], dtype=int)].tolist() for pi in range(len(at))]


def touching_boxes(b: np.ndarray, box: Sequence[float]) -> list[int]:
    """Indices of the ``(x0, y0, x1, y1)`` rows of ``b`` (from :func:`box_rows`) touching ``box``."""
    return np.flatnonzero((b[:, 0] <= box[2]) & (b[:, 2] >= box[0]) & (b[:, 1] <= box[3]) & (b[:, 3] >= box[1])).tolist()


def box_rows(boxes: Iterable[Sequence[float]]) -> np.ndarray:
    """``(x0, y0, x1, y1)`` boxes as rows, for :func:`touching_boxes`."""
    return np.array(list(boxes), dtype=float).reshape(-1, 4)
