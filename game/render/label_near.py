"""Whose label a spot reads as: is a label's candidate box (or its centre) nearer a drawn base
of another unit than every base of its own? Asked for every candidate spot of every unit label
of a figure, so it is answered from an index built once per drawing (:class:`BaseIndex`), not
by measuring every base of the table for every spot (1,000 units of 20 models: 300,000 spots
times 20,000 bases, minutes of CPU; now about a second).

Px boxes ``(x0, y0, x1, y1)``; the distance of two boxes is the length of the shortest segment
between them (0 when they overlap). The answer equals measuring every base with
:func:`box_dist` (numpy narrows the bases down; any spot whose nearest own and other bases
are within :data:`TIE_PX` of each other is measured again with :func:`box_dist` itself).
"""
from __future__ import annotations

import math
from typing import Sequence

try:
    import numpy as np
    HAVE_NUMPY = True
except ImportError:  # a browser page (python main.py live): every base measured, same answer
    HAVE_NUMPY = False

Box = tuple[float, float, float, float]

#: Spots whose nearest own and other bases differ by no more than this (px) are measured
#: again exactly (float rounding of numpy against :func:`math.hypot`)
TIE_PX = 1e-6


def box_dist(a: Sequence[float], b: Sequence[float]) -> float:
    """Px distance between two boxes (0 when they overlap)."""
    dx = max(0.0, a[0] - b[2], b[0] - a[2])
    dy = max(0.0, a[1] - b[3], b[1] - a[3])
    return math.hypot(dx, dy)


#: Most probe-by-base distances held at once (memory: a few arrays of this many floats)
CHUNK = 1 << 20


def min_dists(probes: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """``(K,)``: the distance of each of ``K`` probe boxes to the nearest of ``N`` boxes (both
    ``(.., 4)`` arrays, ``N`` > 0), worked out a block of probes at a time."""
    out = np.empty(len(probes))
    step = max(1, CHUNK // max(1, len(boxes)))
    b = boxes[None, :, :]
    for s in range(0, len(probes), step):
        p = probes[s:s + step, None, :]
        dx = np.maximum(0.0, np.maximum(p[..., 0] - b[..., 2], b[..., 0] - p[..., 2]))
        dy = np.maximum(0.0, np.maximum(p[..., 1] - b[..., 3], b[..., 1] - p[..., 3]))
        out[s:s + step] = np.hypot(dx, dy).min(axis=1)
    return out


def probes_of(bx: Box) -> list[Box]:
    """The two ways a spot is measured: as a box (a printer's check) and by its centre (a
    reader's eye), the centre as a box of no size."""
    cx, cy = (bx[0] + bx[2]) / 2, (bx[1] + bx[3]) / 2
    return [bx, (cx, cy, cx, cy)]


class BaseIndex:
    """The px boxes of a drawing's bases by unit (``bases``: unit id -> boxes), indexed for
    :meth:`nearer_other`."""

    def __init__(self, bases: dict[str, list[Box]]) -> None:
        self.bases = bases
        if not HAVE_NUMPY:
            return
        ids = list(bases)
        self._unit = {uid: i for i, uid in enumerate(ids)}
        rows = [b for uid in ids for b in bases[uid]]
        self._all = np.asarray(rows, dtype=float).reshape(-1, 4)
        self._owner = np.repeat(np.arange(len(ids)), [len(bases[uid]) for uid in ids])

    def __len__(self) -> int:
        return len(self.bases)

    def _plain(self, bx: Box, uid: str, mine: list) -> bool:
        """:meth:`nearer_other` of one spot, every base measured (no numpy)."""
        for pr in probes_of(bx):
            d_own = min(box_dist(pr, mb) for mb in mine)
            if any(box_dist(pr, ob) < d_own for o, obs in self.bases.items() if o != uid for ob in obs):
                return True
        return False

    def nearer_other(self, boxes: Sequence[Box], uid: str, own: Box) -> list[bool]:
        """For each spot of ``boxes``: is it, or its centre, nearer a base of a unit other than
        ``uid`` than every base of ``uid`` (``own``, the unit's drawn box, stands in when none
        of its bases is drawn)? One answer per spot, in order."""
        if not boxes:
            return []
        mine = self.bases.get(uid) or [own]
        probes = [pr for bx in boxes for pr in probes_of(bx)]
        if not HAVE_NUMPY:
            return [self._plain(bx, uid, mine) for bx in boxes]
        pa = np.asarray(probes, dtype=float)
        d_own = min_dists(pa, np.asarray(mine, dtype=float).reshape(-1, 4))
        reach = float(d_own.max()) + 2 * TIE_PX
        # a base nearer a probe than d_own lies within d_own of it on each axis: only bases
        # meeting the probes' joint box grown by the largest d_own can be nearer
        x0, y0 = pa[:, 0].min() - reach, pa[:, 1].min() - reach
        x1, y1 = pa[:, 2].max() + reach, pa[:, 3].max() + reach
        a = self._all
        keep = (a[:, 0] <= x1) & (a[:, 2] >= x0) & (a[:, 1] <= y1) & (a[:, 3] >= y0)
        me = self._unit.get(uid)
        if me is not None:
            keep &= self._owner != me
        others = a[keep]
        if len(others):
            d_other = min_dists(pa, others)
        else:
            d_other = np.full(len(probes), np.inf)
        near = d_other < d_own
        tie = np.abs(d_other - d_own) <= TIE_PX
        out: list[bool] = []
        for i in range(len(boxes)):
            hit = False
            for k in (2 * i, 2 * i + 1):
                if tie[k]:
                    pr = probes[k]
                    do = min(box_dist(pr, mb) for mb in mine)
                    hit = any(box_dist(pr, tuple(ob)) < do for ob in others)
                else:
                    hit = bool(near[k])
                if hit:
                    break
            out.append(hit)
        return out
