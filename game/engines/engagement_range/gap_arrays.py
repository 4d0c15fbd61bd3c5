"""Signed distances and gaps of many points to many bases at once, on per-axis numpy arrays
(the kernels of :class:`.geom.CSpace`; numpy only). Lengths in table mm (x right, y down).

Every kernel does exactly the floating-point operations of the plain ``(N, M, k, 2)`` formulas
in the same order (tests/test_wh40k_geom_arrays.py checks them bit for bit), with a few
arrays reused in place instead of twenty made: a faster answer is never a different one.
"""
from __future__ import annotations

from typing import Optional

import numpy as np


def signed_dist(P: np.ndarray, V: np.ndarray) -> np.ndarray:
    """Signed distance from points ``P`` (N, 2) to the convex polygon or point ``V`` (k, 2):
    positive outside, negative inside (minus the depth)."""
    if len(V) == 1:
        return np.hypot(P[:, 0] - V[0, 0], P[:, 1] - V[0, 1])
    A = V
    B = np.roll(V, -1, axis=0)
    E = B - A  # (k, 2)
    L2 = np.maximum((E ** 2).sum(1), 1e-18)
    W = P[:, None, :] - A[None, :, :]  # (N, k, 2)
    t = np.clip((W * E[None]).sum(2) / L2[None], 0.0, 1.0)
    D = W - t[:, :, None] * E[None]
    dmin = np.sqrt((D ** 2).sum(2)).min(1)
    # outward normals: orientation from the signed area
    area = np.sum(A[:, 0] * B[:, 1] - B[:, 0] * A[:, 1])
    nrm = np.stack([E[:, 1], -E[:, 0]], 1) / np.sqrt(L2)[:, None]
    if area < 0:
        nrm = -nrm
    side = (W * nrm[None]).sum(2)  # (N, k) > 0 outside that edge
    inside = (side <= 0).all(1)
    return np.where(inside, side.max(1), dmin)


def signed_dist_many(P: np.ndarray, V: np.ndarray) -> np.ndarray:
    """Signed distances (N, M) from points ``P`` (N, 2) to M convex polygons ``V`` (M, k, 2)
    of the same vertex count, all wound the same way as their own signed area says."""
    return Convex(V).signed_dist(P)


class Convex:
    """M convex polygons ``V`` (M, k, 2) of the same vertex count, their edges computed once,
    kept per axis ((M, k) arrays): :meth:`signed_dist` gives the signed distances of points to
    each (positive outside, minus the depth inside), bit for bit what the (N, M, k, 2) form
    gives, at a fraction of the array set-up. :meth:`take` keeps some of the polygons."""

    __slots__ = ("ax", "ay", "ex", "ey", "L2", "nx", "ny")

    def __init__(self, V: Optional[np.ndarray]):
        if V is None:
            return
        A = V
        B = np.roll(V, -1, axis=1)
        E = B - A  # (M, k, 2)
        L2 = np.maximum((E ** 2).sum(2), 1e-18)  # (M, k)
        area = (A[..., 0] * B[..., 1] - B[..., 0] * A[..., 1]).sum(1)  # (M,)
        s = np.sqrt(L2)
        nx, ny = E[..., 1] / s, -E[..., 0] / s
        flip = (area < 0)[:, None]
        self.nx, self.ny = np.where(flip, -nx, nx), np.where(flip, -ny, ny)
        self.ax, self.ay = np.ascontiguousarray(A[..., 0]), np.ascontiguousarray(A[..., 1])
        self.ex, self.ey = np.ascontiguousarray(E[..., 0]), np.ascontiguousarray(E[..., 1])
        self.L2 = L2

    def take(self, rows: np.ndarray) -> "Convex":
        """The polygons ``rows`` (indices into M) only."""
        out = Convex(None)
        for k in Convex.__slots__:
            setattr(out, k, getattr(self, k)[rows])
        return out

    def signed_dist(self, P: np.ndarray) -> np.ndarray:
        """(N, M) signed distances of the points ``P`` (N, 2) to the polygons (mm)."""
        px = P[:, 0, None, None]
        py = P[:, 1, None, None]
        # four (N, M, k) arrays, the rest in place: the same operations in the same order
        Wx = px - self.ax[None]
        Wy = py - self.ay[None]
        ex, ey = self.ex[None], self.ey[None]
        t = Wx * ex
        u = Wy * ey
        t += u
        t /= self.L2[None]
        np.maximum(t, 0.0, out=t)
        np.minimum(t, 1.0, out=t)
        np.multiply(t, ex, out=u)
        np.subtract(Wx, u, out=u)  # u: Dx
        np.multiply(t, ey, out=t)
        np.subtract(Wy, t, out=t)  # t: Dy
        u *= u
        t *= t
        u += t
        # sqrt is monotonic (correctly rounded): the root of the least square is the least root
        dmin = np.sqrt(u.min(2))
        Wx *= self.nx[None]
        Wy *= self.ny[None]
        Wx += Wy  # (N, M, k) > 0 outside that edge
        smax = Wx.max(2)
        return np.where(smax <= 0, smax, dmin)


def round_gaps(P: np.ndarray, c0: np.ndarray, R: np.ndarray) -> np.ndarray:
    """(N, M) gaps from centres ``P`` (N, 2) to round obstacles: centres ``c0`` (M, 2), ``R`` (M,)."""
    dx = P[:, None, 0] - c0[None, :, 0]
    dy = P[:, None, 1] - c0[None, :, 1]
    np.hypot(dx, dy, out=dx)
    dx -= R[None]
    return dx


def rect_gaps(P: np.ndarray, axes: np.ndarray) -> np.ndarray:
    """(N, M) gaps from centres ``P`` (N, 2) to rectangular obstacles grown by ``R``: ``axes``
    (7, M) their centre x, y, unit axis x, y, half sizes and ``R``, per axis (no (N, M, 2) set-up)."""
    cx, cy, ux, uy, hx, hy, R = axes
    # three (N, M) arrays, the rest in place: the same operations in the same order
    Qx = P[:, 0, None] - cx[None]
    Qy = P[:, 1, None] - cy[None]
    x = Qx * ux[None]
    w = Qy * uy[None]
    x += w
    np.negative(Qx, out=Qx)
    Qx *= uy[None]
    Qy *= ux[None]
    Qx += Qy  # Qx: y
    np.abs(x, out=x)
    x -= hx[None]  # x: dx
    np.abs(Qx, out=Qx)
    Qx -= hy[None]  # Qx: dy
    np.maximum(x, Qx, out=w)
    np.minimum(w, 0, out=w)
    np.maximum(x, 0, out=x)
    np.maximum(Qx, 0, out=Qx)
    np.hypot(x, Qx, out=x)
    x += w
    x -= R[None]
    return x


def gaps_of(P: np.ndarray, part: tuple) -> np.ndarray:
    """The gaps of one part of a :meth:`.geom.CSpace._plan`."""
    kind, _, data = part
    if kind == "round":
        return round_gaps(P, *data)
    if kind == "rect":
        return rect_gaps(P, data)
    conv, R = data
    return conv.signed_dist(P) - R[None]
