"""Answers of the wh40k move solver kept by every input it reads, so a drag re-solves only the
moves it changes (the units whose surroundings did not change are not solved again), and a kept
answer is exactly what a cold solve gives.
"""
from __future__ import annotations

import numpy as np

from game.engines.engagement_range.optimality import engaged_bound
from game.engines.engagement_range.solver import MoveSolver
from game.engines.engagement_range.table import Params, Table

_SOLVED: dict = {}  # solve_move's answers by everything they depend on (see solve_move)
_BOUNDS: dict = {}  # kept_bound's answers, by the same keys
SOLVED_MAX = 256


def _move_key(table: Table, uid: str, p: Params, kw: dict) -> tuple:
    """Everything one unit's move depends on: the parameters, the move's options, the unit's
    models, every target model, every other base near enough to matter (within the move, the
    Engagement Range, two bases and the path search's margin of any of the unit's models), in
    table order, the table's size and its terrain."""
    mine = [table.pieces[i] for i in table.by_unit.get(uid, [])]
    if not mine:
        return ()
    C = np.array([pc.shape.center for pc in mine], float)
    ext = max(pc.foot.extent() for pc in mine)
    lo, hi = C.min(0), C.max(0)
    targets = set(kw.get("targets") or ())
    near = []
    for pc in table.pieces.values():
        if pc.unit_id == uid:
            continue
        x, y = pc.shape.center
        pad = kw["max_mm"] + p.er_mm + ext + pc.foot.extent() + 80.0
        if pc.unit_id in targets or (lo[0] - pad <= x <= hi[0] + pad and lo[1] - pad <= y <= hi[1] + pad):
            near.append((pc.id, pc.unit_id, pc.player, pc.foot, pc.shape.center))
    opts = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in kw.items()))
    return (uid, p, opts, tuple((pc.id, pc.player, pc.foot, pc.shape.center) for pc in mine), tuple(near),
            tuple(table.board.table), tuple(tuple(t.points) for t in table.terrain))


def solve_move(table: Table, uid: str, p: Params, **kw) -> tuple[dict[str, list], list[str]]:
    """Plan one unit's move (see :class:`MoveSolver`); the table is not changed. Returns the
    paths and the models locked in base contact (they may not move).

    Answers are kept by :func:`_move_key` (the last ``SOLVED_MAX``): while a drag moves one unit,
    the units whose surroundings did not change are not solved again, and the answer is the one
    a cold solve gives (the key holds every input the solver reads)."""
    key = _move_key(table, uid, p, kw)
    hit = _SOLVED.get(key) if key else None
    if hit is None:
        ms = MoveSolver(table, uid, p, **kw)
        hit = (ms.solve(), list(ms.locked))
        if key:
            if len(_SOLVED) >= SOLVED_MAX:
                _SOLVED.pop(next(iter(_SOLVED)))
            _SOLVED[key] = hit
    paths, locked = hit
    return {mid: list(path) for mid, path in paths.items()}, list(locked)


def kept_bound(table: Table, uid: str, p: Params, **kw) -> int:
    """:func:`.optimality.engaged_bound` of the move :func:`solve_move` plans with the same
    ``kw`` (``max_mm``, ``contact_stays``, ``targets``), kept by :func:`_move_key`: the bound
    reads only the unit's models, the targets' models and the bases within a move and two
    bases of the unit, all in the key, so a kept answer is exactly what a cold one gives."""
    key = ("bound",) + _move_key(table, uid, p, kw)
    hit = _BOUNDS.get(key)
    if hit is None:
        hit = engaged_bound(table, uid, list(kw["targets"]), kw["max_mm"], p, contact_stays=kw["contact_stays"])
        if len(_BOUNDS) >= SOLVED_MAX:
            _BOUNDS.pop(next(iter(_BOUNDS)))
        _BOUNDS[key] = hit
    return hit
