"""The physical floor of an analysis: every base contact on a table found by a numpy grid hash.

:func:`grid_contacts` takes every base of a board (centres and half extents of their boxes,
table mm, from each unit's arrays) and returns the index pairs whose boxes are within ``tol``
mm: bases hashed into square cells at least one base plus the tolerance wide, each cell
compared with itself and four neighbours (so each pair once), all on arrays. It is what any
analysis has to do at least (find who touches whom), with no rule and no Python per model:
:func:`reference_ms` times it on a board, reading the bases from scratch, as the reference the
full analysis is compared with in the same run (``bench_analysis.py``).
"""
from __future__ import annotations

import time

import numpy as np

import common  # noqa: F401  (puts the project on sys.path)
from game.core.board import Board  # noqa: E402

_OFFSETS = ((0, 0), (1, -1), (1, 0), (1, 1), (0, 1))


def bases(board: Board) -> tuple[np.ndarray, np.ndarray]:
    """(centres, half extents) of every base on ``board``: two (n, 2) float arrays, table mm."""
    geoms = [u.geom() for u in board.units]
    return np.concatenate([g.centers for g in geoms]), np.concatenate([g.half for g in geoms])


def grid_contacts(centers: np.ndarray, half: np.ndarray, tol: float) -> np.ndarray:
    """(k, 2) index pairs (i < j) of bases whose boxes are within ``tol`` mm (box gap)."""
    n = len(centers)
    if n < 2:
        return np.empty((0, 2), dtype=np.int64)
    cell = float(2 * half.max() + tol)
    ij = np.floor(centers / cell).astype(np.int64)
    ij -= ij.min(axis=0)
    width = int(ij[:, 1].max()) + 3
    key = ij[:, 0] * width + ij[:, 1] + 1
    order = np.argsort(key, kind="stable")
    skey = key[order]
    out = []
    for dx, dy in _OFFSETS:
        want = key + dx * width + dy
        lo = np.searchsorted(skey, want, "left")
        hi = np.searchsorted(skey, want, "right")
        counts = hi - lo
        total = int(counts.sum())
        if not total:
            continue
        i = np.repeat(np.arange(n), counts)
        first = np.repeat(lo - (np.cumsum(counts) - counts), counts)
        j = order[first + np.arange(total)]
        if (dx, dy) == (0, 0):
            keep = i < j
            i, j = i[keep], j[keep]
        gap = np.maximum(np.abs(centers[i] - centers[j]) - (half[i] + half[j]), 0.0)
        hit = (gap * gap).sum(axis=1) <= tol * tol
        out.append(np.stack([np.minimum(i[hit], j[hit]), np.maximum(i[hit], j[hit])], axis=1))
    return np.concatenate(out) if out else np.empty((0, 2), dtype=np.int64)


def reference_ms(board: Board, tol: float) -> float:
    """CPU ms of reading every base of ``board`` (a fresh table: its arrays are built) and
    finding every base contact on it with :func:`grid_contacts`."""
    t = time.process_time()
    c, h = bases(board)
    grid_contacts(c, h, tol)
    return (time.process_time() - t) * 1000
