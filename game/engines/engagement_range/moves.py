"""Warhammer 40,000 Pile-in Moves and Consolidation Moves, per unit and per step (seeds/003).

Each move is planned by :class:`~.wh40k_solver.MoveSolver` (the optimisation) and applied to
the :class:`~.wh40k_table.Table` here; the unit-level conditions after moving ("your unit
must be engaged", "engaged with all of the selected enemy units", "within range of the
selected objective") are checked here, and a unit that cannot meet them does not move.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

from game.core import geometry as g
from game.engines.engagement_range.optimality import move_status
from game.engines.engagement_range.memo import kept_bound, solve_move
from game.engines.engagement_range.table import Params, Table, gap, moved_shape, other


@dataclass
class MoveReport:
    """Result of moving one unit: ``paths`` {model id: polyline (mm)}, ``notes`` in our words,
    ``mode`` (``pile_in``, ``ongoing``, ``engaging``, ``objective``, ``none``), ``targets``."""

    paths: dict[str, list[g.Point]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    mode: str = ""
    targets: list[str] = field(default_factory=list)
    locked: list[str] = field(default_factory=list)  # in base contact with an enemy: may not move
    status: dict = field(default_factory=dict)  # proven optimal or best found (:mod:`.optimality`)


def _apply(table: Table, paths: dict[str, list[g.Point]]) -> None:
    for mid, path in paths.items():
        pc = table.pieces[mid]
        pc.shape = moved_shape(pc.shape, path[-1])


def _undo(table: Table, paths: dict[str, list[g.Point]]) -> None:
    for mid, path in paths.items():
        pc = table.pieces[mid]
        pc.shape = moved_shape(pc.shape, path[0])


def pile_in_unit(table: Table, uid: str, p: Params) -> MoveReport:
    """Warhammer 40,000 "Pile-in Moves" for one unit, applied to ``table`` in place.

    Targets: every enemy unit ``uid`` is engaged with, else every enemy unit within the
    pile-in target radius (5"). Returns the paths (each at most 3") and notes; the unit does
    not move at all if it could not end engaged ("After moving: your unit must be engaged").
    """
    rep = MoveReport(mode="pile_in")
    engaged = table.engaged_with(uid, p.er_mm)
    targets = engaged or [e for e in table.enemy_units(uid) if table.unit_gap(uid, e) <= p.pile_in_radius_mm]
    rep.targets = targets
    if not targets:
        rep.notes.append(f"{uid}: no enemy unit within {p.say_in('pile_in_target_radius_in')}, so it has no pile-in "
                         f"target ({p.rules['pile_in_target_radius_in']}).")
        return rep
    bound = kept_bound(table, uid, p, max_mm=p.pile_in_mm, contact_stays=True, targets=targets)
    rep.paths, rep.locked = solve_move(table, uid, p, max_mm=p.pile_in_mm, contact_stays=True, targets=targets)
    _apply(table, rep.paths)
    if not table.engaged_with(uid, p.er_mm):
        _undo(table, rep.paths)
        rep.paths = {}
        rep.status = move_status(table, uid, targets, bound, p)
        rep.notes.append(f"{uid}: could not end engaged, so it does not pile in ({p.rules['pile_in_in']}: the unit must "
                         "end engaged).")
        return rep
    rep.status = move_status(table, uid, targets, bound, p)
    return rep


def consolidate_unit(table: Table, uid: str, p: Params, objectives: list[g.Point]) -> MoveReport:
    """Warhammer 40,000 "Consolidation Moves" for one unit, applied to ``table`` in place.

    Mode: ``ongoing`` (engaged: towards every engaged enemy unit, base-contact models stay,
    engaged models stay engaged), else ``engaging`` (enemy units within 3": the unit must end
    engaged with every selected unit, so the selection shrinks to those it can reach), else
    ``objective`` (an objective marker within 3": the closest one; the unit must end within
    range of it), else ``none``. Paths are at most 3".
    """
    rep = MoveReport()
    engaged = table.engaged_with(uid, p.er_mm)
    if engaged:
        rep.mode, rep.targets = "ongoing", engaged
        bound = kept_bound(table, uid, p, max_mm=p.consolidate_mm, contact_stays=True, targets=engaged)
        rep.paths, rep.locked = solve_move(table, uid, p, max_mm=p.consolidate_mm, contact_stays=True, targets=engaged)
        _apply(table, rep.paths)
        rep.status = move_status(table, uid, engaged, bound, p)
        return rep
    near = [e for e in table.enemy_units(uid) if table.unit_gap(uid, e) <= p.consolidate_enemy_mm]
    if near:
        rep.mode = "engaging"
        sel = list(near)
        while sel:
            bound = kept_bound(table, uid, p, max_mm=p.consolidate_mm, contact_stays=False, targets=sel)
            paths, _ = solve_move(table, uid, p, max_mm=p.consolidate_mm, contact_stays=False, targets=sel)
            _apply(table, paths)
            reached = [e for e in sel if table.unit_gap(uid, e) <= p.er_mm]
            if reached == sel:
                rep.paths, rep.targets = paths, sel
                rep.status = move_status(table, uid, sel, bound, p)
                return rep
            _undo(table, paths)
            sel = reached
        rep.notes.append(f"{uid}: cannot end engaged with the enemy within {p.say_in('consolidate_enemy_radius_in')}, so "
                         f"it stays ({p.rules['consolidate_enemy_radius_in']}).")
        return rep
    marker = lambda o: g.Circle(tuple(o), p.marker_radius_mm)  # noqa: E731
    objs = [tuple(o) for o in objectives
            if min((gap(q.shape, marker(o)) for q in table.models_of(uid)), default=math.inf) <= p.consolidate_objective_mm]
    if objs:
        rep.mode = "objective"
        obj = min(objs, key=lambda o: min(gap(q.shape, marker(o)) for q in table.models_of(uid)))
        rep.targets = [f"objective at ({obj[0]:.0f}, {obj[1]:.0f})"]
        rep.paths, _ = solve_move(table, uid, p, max_mm=p.consolidate_mm, contact_stays=False, targets=[], objective=obj)
        _apply(table, rep.paths)
        if min(gap(q.shape, marker(obj)) for q in table.models_of(uid)) > p.objective_range_mm:
            _undo(table, rep.paths)
            rep.paths = {}
            rep.notes.append(f"{uid}: cannot end within range of the objective, so it stays "
                             f"({p.rules['consolidate_objective_radius_in']}).")
        return rep
    rep.mode = "none"
    return rep


def pile_in_step(table: Table, p: Params, ctx: dict, players: Optional[list[int]] = None,
                 overrun: tuple = ()) -> dict[str, MoveReport]:
    """Pile-in step: eligible units of the active player, then of the opponent, pile in
    (Warhammer 40,000 "Pile In"). Eligibility is judged when the unit's turn to move comes.
    Applies the moves to ``table``; returns {unit id: MoveReport} for units that were eligible."""
    active = int(ctx.get("active_player", 1) or 1)
    charged = set(ctx.get("charged") or []) | set(overrun)
    players = players or [active, other(active)]
    out = {}
    for pl in players:
        for uid in [u for u in table.units if table.player(u) == pl]:
            if uid in charged or table.engaged_with(uid, p.er_mm):
                out[uid] = pile_in_unit(table, uid, p)
    return out


def consolidation_step(table: Table, p: Params, ctx: dict, players: Optional[list[int]] = None,
                       eligible: Optional[set] = None) -> dict[str, MoveReport]:
    """Consolidate step: units that were eligible to fight this phase (engaged, charged, or
    listed in ``context.fought``) consolidate, active player first (Warhammer 40,000
    "Consolidate"). Applies the moves to ``table``; returns {unit id: MoveReport}."""
    active = int(ctx.get("active_player", 1) or 1)
    players = players or [active, other(active)]
    objectives = [tuple(o) for o in ctx.get("objectives") or []]
    if eligible is None:
        eligible = set(ctx.get("charged") or []) | set(ctx.get("fought") or []) | \
            {u for u in table.units if table.engaged_with(u, p.er_mm)}
    out = {}
    for pl in players:
        for uid in [u for u in table.units if table.player(u) == pl and u in eligible]:
            out[uid] = consolidate_unit(table, uid, p, objectives)
    return out
