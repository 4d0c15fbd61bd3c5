"""The enemy bases of one engagement indexed for the t9a gap search (Fighting over Gaps).

:func:`game.engines.rank_and_file.gaps.gaps_extend` stretches each model's base along the
engaged facing (unit vector ``d``, table mm) and looks for the first enemy base it meets face
to face. Testing every enemy base for every model grows as N^2 (two skirmish units of 10,000
bases: 10^8 tests); :class:`EnemyAhead` answers each model with only the enemy bases that can
be met, nearest first, so the search stops after the first few:

* a base is met face to face only when its extent across ``d`` (the ``side`` axis) overlaps
  the model's by more than the tolerance: the bases are sorted by the low end of that extent,
  and a model looks only at those within one widest base of its own extent (bisection);
* the extension reaches a base no sooner than the gap between the model's front and the base's
  back along ``d`` less the tolerance: the bases left are ordered by that lower bound, and the
  caller stops once it exceeds the shortest reach found plus the tolerance (a base reached
  later is never linked).

Every bound is widened by :data:`EPS_MM`, far beyond the rounding of table coordinates, so
the bases dropped are only those the exact tests would reject: the links are the same as
testing every base (a property test checks it against that brute force). :meth:`far_from` gives
the search's extension length past every enemy base with the same float operations as the
plain maximum over all of their vertices. Pure: the array work in the kernels
:func:`game.core.arrays.twin` chooses (numpy, or plain Python with the same bits).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right

from game.core import geometry as g
from game.core.arrays import twin

_K = twin("game.engines.rank_and_file.gap_arrays")

#: mm added to every bound: coordinates are within 20,000 mm, so rounding is below 1e-10 mm.
EPS_MM = 1e-6
#: models per block when the extension lengths are worked out together (bounded memory).
_BLOCK = 2048


class EnemyAhead:
    """The enemy bases of one engagement (``shapes`` and their outlines ``polys``, as
    :func:`game.core.engagement.as_poly` gives them, in the enemy unit's order) seen along the
    unit vector ``d``; ``tol`` the contact tolerance (mm)."""

    def __init__(self, shapes: list[g.Shape], polys: list[list[g.Point]], d: g.Point, tol: float):
        self.d = d
        self.tol = tol
        self.n = len(shapes)
        self._s_sorted: list[float] = []
        self._wmax = 0.0
        if not self.n:
            return
        # projections on d (along the extension) and on the side axis (across it)
        self._x, self._y, self._proj, self.s_lo, self.s_hi, a_lo, a_hi = _K.extents(polys, d)
        for j, sh in enumerate(shapes):
            if isinstance(sh, g.Circle):  # the exact gap sees the round base, not its outline
                c = sh.center[0] * d[0] + sh.center[1] * d[1]
                a_lo[j], a_hi[j] = c - sh.radius_mm, c + sh.radius_mm
        self.a_lo, self.a_hi = a_lo, a_hi
        self._order, self._s_sorted, self._wmax = _K.sorted_by(self.s_lo, self.s_hi)

    def far_from(self, centres: list[g.Point]) -> list[float]:
        """For each centre ``c``: ``max(dot(p - c, d))`` over every vertex ``p`` of every enemy
        outline (mm; how far ahead of ``c`` the enemy reaches), the same floats as that plain
        maximum: only the vertices within :data:`EPS_MM` of the furthest can be the largest,
        and those are evaluated with the same operations, ``(px - cx) * dx + (py - cy) * dy``."""
        if not centres:
            return []
        if not self.n:
            raise ValueError("max() arg is an empty sequence")  # what the plain maximum raises
        return _K.far_from(self._x, self._y, self._proj, centres, self.d, EPS_MM, _BLOCK)

    def ahead(self, mine_s: tuple[float, float], mine_a: tuple[float, float], length_mm: float) -> list[tuple[float, int]]:
        """The enemy bases a model may meet, as ``(lower bound of the reach in mm, index)``,
        nearest first (ties by index). ``mine_s``: the model's extent across ``d`` (min, max of
        its outline's projections on the side axis ``(-dy, dx)``); ``mine_a``: its extent along
        ``d``; ``length_mm``: how far it is stretched. Kept: bases overlapping it sideways by
        more than ``tol`` (less :data:`EPS_MM`), not wholly behind it and not beyond the
        stretch by more than ``tol``; every base the exact tests could accept is among them."""
        if not self.n:
            return []
        tol, eps = self.tol, EPS_MM
        s0, s1 = mine_s
        a0, a1 = mine_a
        lo = bisect_left(self._s_sorted, s0 + tol - self._wmax - eps)
        hi = bisect_right(self._s_sorted, s1 - tol + eps)
        if lo >= hi:
            return []
        return _K.ahead(self._order, lo, hi, self.s_hi, self.a_lo, self.a_hi, s0 + tol - eps, a0 - tol - eps,
                        a1 + length_mm + tol + eps, a1, tol, eps)
