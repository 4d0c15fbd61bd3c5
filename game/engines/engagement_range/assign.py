"""Optimal assignment (the rectangular linear sum assignment problem) in numpy.

The pile-in solver matches movers to end spots with it (:mod:`.solver`). scipy's
``linear_sum_assignment`` gives the same optimum but importing ``scipy.optimize`` costs about
0.3 s of CPU per command; the matrices here are small (movers x spots, a few hundred columns).

Algorithm: shortest augmenting paths with dual potentials (Jonker-Volgenant as described by
Crouse, "On implementing 2D rectangular assignment algorithms", 2016), one row at a time, each
Dijkstra step vectorised over the columns. Ties between equal reduced costs go to the column of
lowest index that is still free, then the lowest index: the answer depends only on the matrix.
"""
from __future__ import annotations

import numpy as np


def linear_sum_assignment(cost) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, cols)``: a minimum-cost assignment of every row of ``cost`` (n, m) to a distinct
    column when n <= m (of every column to a distinct row when n > m), rows ascending, like
    ``scipy.optimize.linear_sum_assignment``. Costs must be finite (use a large value for a
    forbidden pair). Raises ``ValueError`` for a non-2-D or non-finite matrix."""
    C = np.asarray(cost, float)
    if C.ndim != 2:
        raise ValueError(f"cost must be a 2-D matrix, not of shape {C.shape}")
    if C.size == 0:
        return np.zeros(0, int), np.zeros(0, int)
    if not np.isfinite(C).all():
        raise ValueError("cost holds a non-finite value")
    if C.shape[0] > C.shape[1]:
        cols, rows = _lsap(C.T)
        order = np.argsort(rows, kind="stable")
        return rows[order], cols[order]
    return _lsap(C)


def _lsap(C: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n, m = C.shape
    u = np.zeros(n)
    v = np.zeros(m)
    col4row = np.full(n, -1, int)
    row4col = np.full(m, -1, int)
    idx = np.arange(m)
    for cur in range(n):
        shortest = np.full(m, np.inf)
        path = np.full(m, -1, int)
        done = np.zeros(m, bool)
        rows_seen = [cur]
        i, low, sink = cur, 0.0, -1
        while sink < 0:
            r = low + C[i] - u[i] - v
            better = ~done & (r < shortest)
            path[better] = i
            shortest[better] = r[better]
            s = np.where(done, np.inf, shortest)
            low = float(s.min())
            ties = idx[s == low]
            free = ties[row4col[ties] < 0]
            j = int(free[0] if len(free) else ties[0])
            done[j] = True
            if row4col[j] < 0:
                sink = j
            else:
                i = int(row4col[j])
                rows_seen.append(i)
        u[cur] += low
        for i in rows_seen[1:]:
            u[i] += low - shortest[col4row[i]]
        v[done] -= low - shortest[done]
        j = sink
        while True:
            i = int(path[j])
            row4col[j] = i
            col4row[i], j = j, col4row[i]
            if i == cur:
                break
    return np.arange(n), col4row.copy()
