"""Closing up: keeping a fight going when casualties open a gap between two units.

Scenario key ``context.combats: [[mover, enemy], ...]`` (see the scenario contract) lists the
units still locked in combat. When a listed pair no longer touches, the ruleset's ``close_up``
parameter names the policy that restores contact by moving ``mover``:

* ``advance_along_facing`` (whfb8, seed 000 "Incomplete Ranks": "move the unit forward to
  maximise contact"): the mover advances straight along its facing until its boundary meets
  the enemy's. It does not turn or slide, so the contact it reaches is the most a straight
  advance gives.
* ``shortest_translation`` (t9a: moved back into contact without changing facing; tow.md 3.6
  "Shrinking units": moved the smallest amount that restores contact, without changing facing):
  the mover slides the shortest distance, in any direction, that makes the two boundaries touch.
* ``none``: nothing moves (a ruleset with no such rule).

A move that would run into another unit or impassable terrain before contact is not made; the
reason is reported in ``notes``. A unit's boundary is its movement tray (ranked) or its
models' bases (skirmish). Lengths in table mm.

Pure: stdlib and ``game.core`` only.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional, Sequence

from game.core import geometry as g
from game.core.board import Board, Unit
from game.core.ruleset import Ruleset

POLICIES = ("advance_along_facing", "shortest_translation", "none")


@dataclass
class CloseUp:
    """The outcome of closing up: the ``board`` after the moves (a copy when anything moved),
    ``moves`` ``{model id: [from, to]}`` (table mm) for every model of a unit that moved,
    ``moved`` ``{unit id: (dx, dy)}`` and ``notes`` (one line per pair that could not close up)."""

    board: Board
    moves: dict[str, list[g.Point]] = field(default_factory=dict)
    moved: dict[str, g.Point] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def polygons(unit: Unit) -> list[list[g.Point]]:
    """The unit's boundary as convex polygons: its tray (ranked) or each base (skirmish; round
    bases as 48-gons, within 0.3% of the radius)."""
    if unit.is_ranked:
        return [list(unit.tray().points)]
    out = []
    for m in unit.models():
        s = m.shape
        if isinstance(s, g.Circle):
            out.append([(s.center[0] + s.radius_mm * math.cos(2 * math.pi * i / 48),
                         s.center[1] + s.radius_mm * math.sin(2 * math.pi * i / 48)) for i in range(48)])
        else:
            out.append(list(s.points))
    return out


def _shape(pts: list[g.Point]) -> g.Poly:
    return g.Poly(tuple(pts))


def gap_between(a: list[list[g.Point]], b: list[list[g.Point]]) -> float:
    """Smallest edge-to-edge gap (mm) between two sets of convex polygons; <= 0 when touching."""
    return min(g.gap_mm(_shape(p), _shape(q)) for p in a for q in b)


def sweep_mm(a: list[list[g.Point]], b: list[list[g.Point]], d: g.Point) -> Optional[float]:
    """How far the polygons ``a`` can travel along unit vector ``d`` before touching ``b``
    (mm, 0 if they already touch); None if they never meet. Convex polygons: the first
    contact is a vertex of one meeting an edge of the other."""
    best: Optional[float] = None
    back = (-d[0], -d[1])
    for p in a:
        for q in b:
            for src, dst, v in ((p, q, d), (q, p, back)):
                n = len(dst)
                for pt in src:
                    for i in range(n):
                        t = g.ray_segment_mm(pt, v, dst[i], dst[(i + 1) % n])
                        if t is not None and (best is None or t < best):
                            best = t
    return best


def _nearest_on_seg(p: g.Point, a: g.Point, b: g.Point) -> g.Point:
    ab = g.sub(b, a)
    L2 = g.dot(ab, ab)
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, g.dot(g.sub(p, a), ab) / L2))
    return (a[0] + ab[0] * t, a[1] + ab[1] * t)


def shortest_vector(a: list[list[g.Point]], b: list[list[g.Point]]) -> g.Point:
    """The shortest translation (dx, dy) of ``a`` that makes it touch ``b`` (convex polygons
    apart: from the closest point of ``a`` to the closest point of ``b``)."""
    best, vec = math.inf, (0.0, 0.0)
    for p in a:
        for q in b:
            for src, dst, sign in ((p, q, 1.0), (q, p, -1.0)):
                n = len(dst)
                for pt in src:
                    for i in range(n):
                        c = _nearest_on_seg(pt, dst[i], dst[(i + 1) % n])
                        d = g.dist(pt, c)
                        if d < best:
                            best = d
                            vec = ((c[0] - pt[0]) * sign, (c[1] - pt[1]) * sign)
    return vec


def _obstacles(board: Board, mover: Unit, enemy_id: str) -> list[tuple[str, list[list[g.Point]]]]:
    out = [(u.name or u.id, polygons(u)) for u in board.units if u.id not in (mover.id, enemy_id)]
    out += [(t.get("name", "terrain"), [[tuple(p) for p in t["points"]]]) for t in board.terrain]
    return out


def _swept(polys: list[list[g.Point]], v: g.Point) -> list[list[g.Point]]:
    """The area each convex polygon sweeps moving by ``v`` (the hull of start and end)."""
    return [g.convex_hull(p + [(x + v[0], y + v[1]) for x, y in p]) for p in polys]



def _blocker(board: Board, mover: Unit, enemy_id: str, v: g.Point, tol: float) -> Optional[str]:
    """The name of a unit or terrain piece the move ``v`` of ``mover`` would run into (one it
    does not already overlap), or None."""
    now = polygons(mover)
    path = _swept(now, v)
    for name, obs in _obstacles(board, mover, enemy_id):
        if gap_between(path, obs) < -tol and gap_between(now, obs) >= -tol:
            return name
    return None


def _advance(board: Board, mover: Unit, enemy: Unit, tol: float) -> tuple[Optional[g.Point], str]:
    d = g.forward(mover.facing_deg)
    t = sweep_mm(polygons(mover), polygons(enemy), d)
    if t is None:
        return None, (f"{mover.id} cannot regain contact with {enemy.id} by moving straight forward "
                      f"(the enemy is not ahead of it); it stays.")
    v = (d[0] * t, d[1] * t)
    name = _blocker(board, mover, enemy.id, v, tol)
    if name is not None:
        return None, f"{mover.id} cannot move forward into contact with {enemy.id}: {name} is in the way."
    return v, ""


def _shortest(board: Board, mover: Unit, enemy: Unit, tol: float) -> tuple[Optional[g.Point], str]:
    v = shortest_vector(polygons(mover), polygons(enemy))
    name = _blocker(board, mover, enemy.id, v, tol)
    if name is not None:
        return None, f"{mover.id} cannot slide back into contact with {enemy.id}: {name} is in the way."
    return v, ""


_MOVERS: dict[str, Callable[[Board, Unit, Unit, float], tuple[Optional[g.Point], str]]] = {
    "advance_along_facing": _advance,
    "shortest_translation": _shortest,
}


def close_up(board: Board, rs: Ruleset, pairs: list, tol: Optional[float] = None) -> CloseUp:
    """Restore contact for each ``[mover, enemy]`` pair of ``pairs`` that no longer touches,
    by the ruleset's ``close_up`` policy (see the module docstring). Pairs are handled in
    order, each on the board left by the ones before. Never raises: a pair naming a unit not
    on the board, or a policy this module does not know, is reported in ``notes``."""
    policy = rs.p("close_up")
    tol = rs.p("contact_tolerance_mm") if tol is None else tol
    out = CloseUp(board)
    if policy == "none" or not pairs:
        return out
    mover_fn = _MOVERS.get(policy)
    if mover_fn is None:
        out.notes.append(f"close_up policy {policy!r} is unknown (known: {', '.join(POLICIES)}); nothing moved.")
        return out
    ids = {u.id for u in board.units}
    work = board
    start: dict[str, dict[str, g.Point]] = {}
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            out.notes.append(f"context.combats entry {pair!r} is not a [mover, enemy] pair; ignored.")
            continue
        a, b = pair
        if a not in ids or b not in ids:
            continue  # a destroyed unit: nothing to keep in contact
        mover, enemy = work.unit(a), work.unit(b)
        if not mover.models() or not enemy.models():
            continue
        if gap_between(polygons(mover), polygons(enemy)) <= tol:
            continue
        vec, why = mover_fn(work, mover, enemy, tol)
        if vec is None:
            out.notes.append(why)
            continue
        start.setdefault(a, {m.id: m.center for m in mover.models()})
        work = work.with_unit(mover.translated(*vec))
        dx, dy = out.moved.get(a, (0.0, 0.0))
        out.moved[a] = (dx + vec[0], dy + vec[1])
    out.board = work
    for uid, before in start.items():
        for m in work.unit(uid).models():
            if m.id in before and g.dist(before[m.id], m.center) > 1e-9:
                out.moves[m.id] = [before[m.id], m.center]
    return out


def merge_moves(first: Mapping[str, Sequence[g.Point]], then: Mapping[str, Sequence[g.Point]]) -> dict[str, list[g.Point]]:
    """Join closing-up moves (``first``) with the moves an analysis of the moved board makes
    (``then``, e.g. an incomplete rank shuffling): a model moved by both gets one path, under
    the id it ends with."""
    out = {k: list(v) for k, v in first.items()}
    for mid, path in then.items():
        src = next((k for k, v in out.items() if path and g.dist(v[-1], path[0]) < 1e-6), None)
        if src is None:
            out[mid] = list(path)
            continue
        joined = out.pop(src)[:-1] + list(path)
        out[mid] = joined
    return out
