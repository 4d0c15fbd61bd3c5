"""Gaps (mm) from a model to an enemy unit's bases, for The Old World's fight (:mod:`.tow`):
"within its Movement" and Dividing Attacks' "closest enemy unit".

Each gap is the exact edge-to-edge :func:`game.core.geometry.gap_mm` to the nearest base of the
enemy unit; box bounds on arrays (per enemy unit: its bases' bounding boxes as columns, kept by
the identity of its model list, so an enemy standing still is not boxed again next frame) pick
the bases that may be nearest (:mod:`.base_boxes`), and only those get an exact gap. Pure: the
array work in the kernels :func:`game.core.arrays.twin` chooses (numpy, or plain Python with the
same bits).
"""
from __future__ import annotations

import math
from typing import Any, Optional

from game.core import geometry as g
from game.core.arrays import twin
from game.core.board import unit_of
from game.core.unit_models import ids_of
from game.core.lru import LRU
from game.engines.rank_and_file.base_boxes import EPS_MM as _EPS
from game.engines.rank_and_file.base_boxes import boxes, exact, kind_of, lower, unit_box_like

_K = twin("game.engines.rank_and_file.gap_arrays")
class Gaps:
    """Gaps from models to the enemy units of ``models`` (unit id -> its models).

    ``reads``: every question asked and its answer, per unit of the asking model (``{unit id:
    [("gap", model id, enemy, limit, gap) | ("closest", model id, enemies, tol, answer, slack,
    poses)]}``, :meth:`closest`):
    what the fight learnt of where enemy bases stand, so :func:`same_answers` can tell later
    whether an enemy that moved changed any of them."""

    def __init__(self, models: dict, units: Optional[dict] = None):
        self.models = models
        self.units = units or {}
        self.reads: dict[str, list[tuple]] = {}

    def boxes(self, enemy: str) -> Any:
        return boxes(self.models[enemy], self.units.get(enemy))

    def __call__(self, m: Any, enemy: str, limit: Optional[float]) -> float:
        """The gap to the nearest base of ``enemy``; once one is within ``limit`` that one."""
        ems = self.models[enemy]
        d = exact(m, ems, lower(m, ems, self.boxes(enemy)), limit)
        self.reads.setdefault(m.unit_id, []).append(("gap", m.id, enemy, limit, d))
        return d

    def closest(self, asks: list[tuple[Any, list[str]]], tol: float) -> list[list[str]]:
        """:meth:`_closest`, each answer kept in :attr:`reads` with its margin: ``slack`` (mm,
        or None) and ``poses`` (the :meth:`~game.core.board.Unit.pose_key` of the asking
        model's unit, then of each enemy unit, all standing as their poses say; or None), so a
        later recheck can tell from how far those units moved that the answer holds
        (:func:`same_answers`)."""
        slacks: list = []
        out = self._closest(asks, tol, slacks)
        poses: dict[str, Optional[tuple]] = {}
        shared: dict[tuple, tuple] = {}  # (unit, enemies) -> (enemies, their poses): one tuple for all its asks
        for (m, enemies), answer, slack in zip(asks, out, slacks):
            key = (m.unit_id, *enemies)
            got = shared.get(key)
            if got is None:
                held: Optional[tuple] = tuple(self._pose(uid, poses) for uid in key)
                got = shared[key] = (tuple(enemies), None if None in held else held)  # type: ignore[operator]
            held = got[1] if slack is not None else None
            self.reads.setdefault(m.unit_id, []).append(
                ("closest", m.id, got[0], tol, tuple(answer), slack if held is not None else None, held))
        return out

    def _pose(self, uid: str, seen: dict) -> Optional[tuple]:
        """The pose key of ranked unit ``uid`` when its models here are its own (as its pose
        gives them), else None; kept in ``seen``."""
        if uid not in seen:
            u = self.units.get(uid)
            key = u.pose_key() if u is not None and u.is_ranked else None
            seen[uid] = key if u is not None and key is not None and self.models.get(uid) is u.models(key) else None
        return seen[uid]

    def _closest(self, asks: list[tuple[Any, list[str]]], tol: float, slacks: Optional[list] = None) -> list[list[str]]:
        """For each ``(model, enemy unit ids)`` of ``asks``, those enemies whose gap from the
        model is within ``tol`` of the smallest (Dividing Attacks: the closest enemy units),
        in their order: the enemies ``e`` with ``gap(e) <= min(gaps) + tol``, the same answer
        as comparing every exact gap. Box bounds of every asking model to an enemy unit's
        bases are one array operation per enemy unit; when lower and upper bounds settle the
        answer (:meth:`_by_bounds`) no exact gap is needed; otherwise the exact gaps decide, an
        enemy whose bound is beyond the nearest one's exact gap plus ``tol`` left out (a bound
        of 0: the boxes meet, the bases may overlap by any depth: its exact gap decides)."""
        rows: dict[str, list[int]] = {}
        for k, (_m, enemies) in enumerate(asks):
            for e in enemies:
                rows.setdefault(e, []).append(k)
        mine = self._askers(asks)  # per ask: (its unit's list, index, box-like) from the arrays; or None
        boxy: dict[str, Optional[bool]] = {}  # enemy -> every base box-like (None: not known at once)
        # every asking box against every enemy base in one array operation (numpy calls cost far
        # more than these few hundred numbers): each enemy's boxes a run of columns
        spans, cols = [], []
        empty: set[str] = set()  # enemy units with no base
        at = 0
        for e, ks in rows.items():
            bx = self.boxes(e)
            n = _K.ncols(bx)
            if not n:
                empty.add(e)
                continue
            spans.append((e, ks, at, at + n))
            cols.append(bx)
            boxy[e] = unit_box_like(self.units.get(e), self.models[e])
            at += n
        every = len(asks)
        if slacks is not None:
            slacks[:] = [None] * every
        col = {e: j for j, (e, _ks, _a, _b) in enumerate(spans)}  # enemy -> its run's number
        grid: Any = None
        fl_rows: list = []  # per ask, its box bound to each enemy run (the least of the run's columns)
        settled: list = [None] * every
        if spans:
            grid = _K.grid(_K.join(cols), self._asking_boxes(asks, mine))
            floors, fl_rows = _K.floors(grid, [a for _e, _ks, a, _b in spans])  # every ask against every run
            if every > _MANY:
                member = [(ks, col[e]) for e, ks, _a, _b in spans]
                settled = _settle_boxes(asks, mine, boxy, floors, member, spans, tol, slacks)
        out = []
        for k, ((m, enemies), me, got) in enumerate(zip(asks, mine, settled)):
            if got is None and me is not None and me[2]:
                got = _by_floors(enemies, fl_rows[k] if spans else [], col, boxy, tol, slacks, k)
            if got is not None:
                out.append(got)
                continue
            lows = {e: _low(grid, fl_rows, col, spans, e, k) for e in enemies}
            got = self._by_bounds(m, enemies, lows, tol)
            if got is not None:
                out.append(got)
                continue
            first = min(enemies, key=lambda e: lows[e][0])
            dist = {first: self._exact(m, first, lows[first])}
            for e in enemies:
                if e not in dist and (lows[e][0] <= 0.0 or lows[e][0] <= dist[first] + tol + _EPS):  # 0: may overlap
                    dist[e] = self._exact(m, e, lows[e])
            best = min(dist.values())
            out.append([e for e in enemies if e in dist and dist[e] <= best + tol])
        return out

    def _askers(self, asks: list[tuple[Any, list[str]]]) -> list[Optional[tuple]]:
        """Per ask, ``(its unit's model list, its index there, whether every base of that list is
        box-like)`` when its model is one of ``self.models`` of a ranked unit standing as its
        pose says and :func:`unit_box_like` knows (its box is then read from the unit's arrays,
        no outline built); else None (its shape is read)."""
        out: list[Optional[tuple]] = []
        seen: dict[str, Optional[tuple]] = {}  # unit id -> (its list, {model id: index}, box-like) or None
        for m, _es in asks:
            uid = m.unit_id
            if uid in seen:
                got = seen[uid]
            else:
                ems = self.models.get(uid)
                kind = None if ems is None else kind_of(self.units.get(uid), ems)
                got = seen[uid] = None if kind is None or kind[0] is None else (ems, kind[1], kind[0])
            if got is None:
                out.append(None)
                continue
            ems, index, verdict = got
            i = index.get(m.id)
            out.append(None if i is None or not _is(ems, i, m) else (ems, i, verdict))
        return out

    def _asking_boxes(self, asks: list, mine: list) -> tuple:
        """The asking models' boxes as four (k, 1) columns x0, y0, x1, y1: taken from their
        unit's boxes (:func:`boxes`) when every ask is of one such list (:meth:`_askers`), else
        from each shape."""
        first = mine[0]
        if first is not None and all(me is not None and me[0] is first[0] for me in mine):
            return _K.asking(boxes(first[0], self.units.get(asks[0][0].unit_id)), [me[1] for me in mine])
        if all(me is not None for me in mine):  # asks of several such lists: their boxes side by side
            at: dict[int, int] = {}
            cols = []
            n = 0
            for (m, _es), me in zip(asks, mine):
                if id(me[0]) not in at:
                    at[id(me[0])] = n
                    cols.append(boxes(me[0], self.units.get(m.unit_id)))
                    n += _K.ncols(cols[-1])
            return _K.asking(_K.join(cols), [at[id(me[0])] + me[1] for me in mine])
        return _K.asking_boxes([m.shape.bbox() for m, _es in asks])

    def _by_bounds(self, m: Any, enemies: list[str], lows: dict[str, tuple], tol: float) -> Optional[list[str]]:
        """The answer of :meth:`closest` for one model from bounds alone, or None when they do
        not settle it. Per enemy unit ``e``: ``L`` its box bound, ``U`` an upper bound of its
        gap (its nearest box's base: that box's gap when both bases are square-on rectangles,
        :func:`geometry.box_like`, else their nearest corners). With every ``L > 0`` (no bases
        meeting, so no gap below its bound): ``e`` is in when ``U <= min L + tol``, out when
        ``L > min U + tol`` (margins of 1e-6 mm); any other case: None."""
        bounds = []
        for e in enemies:
            fl, i, _row = lows[e]
            if not fl > 0.0 or i < 0:
                return None  # bases meeting (or none): the exact gaps decide
            other = self.models[e][i].shape
            up = fl + _EPS if g.box_like(m.shape) and g.box_like(other) else _corners(m.shape, other)
            if up is None:
                return None
            bounds.append((e, fl, up))
        return _settle(bounds, tol)

    def _exact(self, m: Any, enemy: str, low: tuple) -> float:
        """:func:`exact` (no ``limit``) from a row's precomputed (min, argmin, its row of bounds)."""
        floor, i, row = low
        if i < 0:
            return math.inf
        ems = self.models[enemy]
        best = g.gap_mm(m.shape, ems[i].shape)
        if floor >= best:
            return best
        second = _K.second_least(row)
        if second >= best:  # no other box is below this exact gap
            return best
        return exact(m, ems, row, None)


_MANY = 24  # asks above which :meth:`Gaps._closest` settles them on the arrays at once (else one by one)


def _low(grid: Any, fl_rows: list, col: dict, spans: list, e: str, k: int) -> tuple:
    """Ask ``k``'s bound to enemy ``e`` as :meth:`Gaps._closest` reads it: (its box bound,
    the index of that base (the first of the least), ask ``k``'s row of bounds to each base of
    ``e``); an enemy with no base ``(inf, -1, None)``."""
    j = col.get(e)
    if j is None:
        return (math.inf, -1, None)
    _e, _ks, a, b = spans[j]
    row = _K.grid_row(grid, k, a, b)
    return (fl_rows[k][j], _K.argmin(row), row)


def _by_floors(enemies: list[str], row: list, col: dict, boxy: dict, tol: float, slacks: Optional[list],
               k: int) -> Optional[list[str]]:
    """:func:`_settle` for a box-like asking base when every enemy's bases are box-like
    (``boxy``, :func:`unit_box_like`): each upper bound its box bound (``row[col[e]]``) plus
    1e-6 mm, no shape read. None when some enemy has no base or is not known box-like, a bound
    is not above 0 or the bounds do not settle it (the caller then asks :meth:`Gaps._by_bounds`).
    A settled answer's margin goes to ``slacks[k]`` (:func:`_margin`)."""
    bounds = []
    for e in enemies:
        j = col.get(e)
        if j is None or not boxy.get(e):
            return None
        fl = row[j]
        if not fl > 0.0:
            return None
        bounds.append((e, fl, fl + _EPS))
    keep = _settle(bounds, tol)
    if keep is not None and slacks is not None and len(set(enemies)) == len(enemies):
        slacks[k] = _margin(bounds, keep, tol)
    return keep


def _margin(bounds: list[tuple[str, float, float]], keep: list[str], tol: float) -> float:
    """The margin (mm) of a settled answer ``keep`` from its ``(unit id, L, U)`` bounds, as
    :func:`_settle_boxes` gives it: the least over the enemies of ``L' + tol - (U + 1e-6)``
    (kept; ``L'`` the least bound of the others) or ``L - (min U + tol + 1e-6)`` (left out)."""
    up_min = min(b[2] for b in bounds)
    worst = math.inf
    for n, (e, fl, up) in enumerate(bounds):
        if e in keep:
            others = min((b[1] for i, b in enumerate(bounds) if i != n), default=math.inf)
            m = (others + tol) - (up + _EPS)
        else:
            m = fl - ((up_min + tol) + _EPS)
        worst = min(worst, m)
    return worst


def _settle_boxes(asks: list, mine: list, boxy: dict, floors: Any, member: list, spans: list, tol: float,
                  slacks: Optional[list] = None) -> list:
    """:func:`_by_floors` of every ask at once on the arrays (``floors``: each ask's box bound to
    each enemy unit of ``spans``, from the kernels' ``floors``; ``member``: ``(asks, column)``
    of each enemy unit, the cells that are one of an ask's enemies; the others count as inf):
    per ask its answer, or None when :func:`_by_floors` would not settle it (the asking base or
    an enemy's bases not known box-like, a bound not above 0, an enemy twice, a bound in
    neither band) or it is not asked. The same float operations as :func:`_settle` on
    ``U = L + 1e-6``: ``e`` in when ``L + 1e-6 + 1e-6 <= min L + tol``, out when
    ``L > min U + tol + 1e-6``.

    ``slacks``: filled with each settled ask's margin (mm; None for the others): the least,
    over its enemies ``e``, of ``L' + tol - (U + 1e-6)`` with ``L'`` the least bound of the
    other enemies (``e`` kept: it is while its gap is within ``tol`` of every other one's) or
    ``L - (min U + tol + 1e-6)`` (``e`` left out). The exact gaps lie within these bounds
    (square-on rectangles: the box gap is the gap), so the answer by comparing every exact
    gap holds while each difference of two gaps moves by less than it (:func:`same_answers`)."""
    col = {e: j for j, (e, _ks, _a, _b) in enumerate(spans)}
    able = [me is not None and me[2] and len(set(es)) == len(es) and all(e in col and boxy.get(e) for e in es)
            for (_m, es), me in zip(asks, mine)]
    out: list = [None] * len(asks)
    if not any(able):
        return out
    ok, rows, margin = _K.settle(floors, member, tol, _EPS, slacks is not None)
    for k, ((_m, es), fit) in enumerate(zip(asks, able)):
        if fit and ok[k]:
            row = rows[k]
            out[k] = [e for e in es if row[col[e]]]
            if margin is not None and slacks is not None:
                slacks[k] = margin[k]
    return out


def _is(ems: list, i: int, m: Any) -> bool:
    """Whether ``m`` stands for the ``i``-th model of ``ems`` (the model itself, or a
    :class:`_Ref` to it)."""
    if isinstance(m, _Ref):
        return m.ems is ems and m.i == i
    return ems[i] is m


def _settle(bounds: list[tuple[str, float, float]], tol: float) -> Optional[list[str]]:
    """The enemy units kept from ``(unit id, L, U)`` bounds (as :meth:`Gaps._by_bounds` tells):
    ``e`` is in when ``U <= min L + tol``, out when ``L > min U + tol`` (margins of 1e-6 mm);
    None when some unit is neither."""
    lo_min = min(b[1] for b in bounds)
    up_min = min(b[2] for b in bounds)
    keep = []
    for e, fl, up in bounds:
        if up + _EPS <= lo_min + tol:
            keep.append(e)
        elif not fl > up_min + tol + _EPS:
            return None
    return keep


class _Ref:
    """Model ``i`` of the list ``ems`` (its ``id`` and ``unit_id``), its shape made only when
    read: what :func:`same_answers` asks about, so a recheck settled by the arrays makes no
    model."""

    __slots__ = ("ems", "i", "id", "unit_id")

    def __init__(self, ems: list, i: int, mid: str, uid: str) -> None:
        self.ems, self.i, self.id, self.unit_id = ems, i, mid, uid

    @property
    def shape(self) -> Any:
        return self.ems[self.i].shape


def _corners(a: Any, b: Any) -> Optional[float]:
    """An upper bound (mm) of ``gap_mm(a, b)`` for two polygons: the distance between their
    nearest corners (None for a round base)."""
    if not (isinstance(a, g.Poly) and isinstance(b, g.Poly)):
        return None
    return math.sqrt(min((px - qx) * (px - qx) + (py - qy) * (py - qy) for px, py in a.points for qx, qy in b.points))


_GROUPS = LRU(256)  # id(reads list) -> (the list, its margin groups, its other reads)


def _groups(reads: list) -> tuple:
    """A reads list's closest-units reads that carry a margin, grouped by their poses (one
    tuple shared by the asks of one unit against the same enemies, :meth:`Gaps.closest`):
    ``(poses, enemies, asking unit, least margin, the reads)`` each; and the other reads, in
    order. Kept per list (a record's reads are only ever added to while it is decided)."""
    hit = _GROUPS.get(id(reads))
    if hit is None or hit[0] is not reads or hit[3] != len(reads):
        by: dict[int, list] = {}
        other = []
        for read in reads:
            if read[0] == "closest" and read[5] is not None and read[6] is not None:
                g_ = by.get(id(read[6]))
                if g_ is None:
                    g_ = by[id(read[6])] = [read[6], read[2], unit_of(read[1]), read[5], []]
                elif read[2] != g_[1] or unit_of(read[1]) != g_[2]:
                    other.append(read)  # (the same poses for other units: measured as it is)
                    continue
                g_[3] = min(g_[3], read[5])
                g_[4].append(read)
            else:
                other.append(read)
        hit = _GROUPS.put(id(reads), (reads, [tuple(g_) for g_ in by.values()], other, len(reads)))
    return hit[1], hit[2]


def _grouped(reads: list) -> list:
    return _groups(reads)[0]


def _unmargined(reads: list) -> list:
    return _groups(reads)[1]


def _moved_by(poses: tuple, uids: tuple, models: dict, units: dict, shift: dict) -> Optional[float]:
    """The asking unit's shift plus the largest enemy unit's (mm) since a read taken with those
    units at ``poses`` (``uids``: the asking model's unit, then its enemies): each now standing
    as its pose says, its pose the same but for its front (the same bases, each moved by the
    front's shift: every gap from a base moves by at most the sum of the two units' shifts);
    None when some unit is not so."""
    worst = 0.0
    for n, (uid, then) in enumerate(zip(uids, poses)):
        key = (uid, id(then))
        d = shift.get(key, -1.0)
        if d == -1.0:
            d = shift[key] = _shift(units.get(uid), models.get(uid), then)
        if d is None:
            return None
        if n == 0:
            mine = d
        elif d > worst:
            worst = d
    return mine + worst


def _shift(u: Any, ms: Any, then: tuple) -> Optional[float]:
    """How far (mm) ranked unit ``u`` (models ``ms``) moved from pose key ``then``: the length
    of its front's shift when only the front changed and ``ms`` are its own models; else None."""
    if u is None or not u.is_ranked:
        return None
    now = u.pose_key()
    if ms is not u.models(now):
        return None
    if now is then or now == then:
        return 0.0
    if now[:7] != then[:7] or now[8:] != then[8:]:
        return None
    (x, y), (x0, y0) = now[7], then[7]
    return math.hypot(x - x0, y - y0)


def same_answers(models: dict, units: dict, reads: list[tuple]) -> bool:
    """Whether every question of ``reads`` (:attr:`Gaps.reads` of one unit) gets the same
    answer from the bases as they stand now (``models``: unit id -> models, ``units``: unit id
    -> Unit): a gap beyond its limit the same number (it is written in an explanation), one
    within it within it again, the same closest enemy units (asked all at once). A model or
    an enemy unit no longer there: False.

    A closest-units answer recorded with a margin (``slack``, :meth:`Gaps.closest`) holds
    without measuring when its units only slid since (:func:`_moved_by`) by less than half of
    that margin in all (each exact gap moves by at most the asking unit's shift plus its
    enemy's, so every comparison keeps its side)."""
    return same_answers_many(models, units, [reads])[0]


def same_answers_many(models: dict, units: dict, batch: list[list[tuple]]) -> list[bool]:
    """:func:`same_answers` of each reads list of ``batch`` on the same bases, the closest-units
    questions of them all asked at once (one array operation per tolerance, not one per list:
    the answers are each ask's own, whatever is asked with it)."""
    gaps = Gaps(models, units)
    shift: dict[tuple, Optional[float]] = {}  # (unit id, id(pose)) -> how far it moved since (:func:`_moved_by`)
    by_id: dict[str, Any] = {}  # model id -> a _Ref to it
    lists: dict[str, tuple] = {}  # unit id -> (its models, {model id: index})
    asks: dict[float, list[tuple[int, Any, list[str], tuple]]] = {}  # tol -> (list index, model, enemies, answer)
    ok = [True] * len(batch)
    moved: dict[int, tuple] = {}  # id(poses) -> (poses, how far its units moved, :func:`_moved_by`)
    for n, reads in enumerate(batch):
        mine: list[tuple[float, tuple]] = []
        left: list[tuple] = []  # the reads no margin settles, in order
        for poses, enemies, asker, least, group in _grouped(reads):
            # the margins first: units slid within them keep their models and the answers hold
            if any(e not in models for e in enemies):
                ok[n] = False
                break
            hit = moved.get(id(poses))
            if hit is None or hit[0] is not poses:
                hit = moved[id(poses)] = (poses, _moved_by(poses, (asker, *enemies), models, units, shift))
            if hit[1] is not None and least > 2.0 * hit[1] + _EPS:
                continue  # no gap moved by half the least margin of the group: every answer holds
            left += [read for read in group if not (hit[1] is not None and read[5] > 2.0 * hit[1] + _EPS)]
        if not ok[n]:
            continue
        for read in _unmargined(reads) + left:
            kind, mid = read[0], read[1]
            m = by_id.get(mid)
            if m is None:
                uid = unit_of(mid)
                lst = lists.get(uid)
                if lst is None:
                    ems = models.get(uid, ())
                    known = kind_of(units.get(uid), ems)
                    lst = lists[uid] = (ems, known[1] if known is not None else {x: i for i, x in enumerate(ids_of(ems))})
                i = lst[1].get(mid)
                if i is None:
                    ok[n] = False
                    break
                m = by_id[mid] = _Ref(lst[0], i, mid, uid)
            if kind == "gap":
                _k, _mid, e, limit, d = read
                if e not in models:
                    ok[n] = False
                    break
                now = gaps(m, e, limit)
                if limit is None or d > limit or now > limit:
                    if now != d:
                        ok[n] = False
                        break
            else:
                _k, _mid, enemies, tol, answer, _slack, _poses = read
                if any(e not in models for e in enemies):
                    ok[n] = False
                    break
                mine.append((tol, (n, m, list(enemies), answer)))
        if ok[n]:
            for tol, ask in mine:
                asks.setdefault(tol, []).append(ask)
    for tol, group in asks.items():
        got = gaps._closest([(m, es) for _n, m, es, _a in group], tol)
        for x, (n, _m, _es, a) in zip(got, group):
            if tuple(x) != a:
                ok[n] = False
    return ok
