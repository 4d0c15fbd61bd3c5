"""Warhammer 40,000 Fight phase: pile in, who fights and in what order, consolidate.

Pure rules core (numpy, shapely; scipy only for a big path graph; no pygame or pymunk). Source: ``shared/seeds/003``.

* **Engaged** (Engagement Range): a model is engaged while its base is within
  ``engagement_range_in`` (1") of an enemy model's base, edge to edge. A unit is engaged when
  any of its models is. Engaged models fight (role ``attack``); there are no supporting
  attacks. A model's ``targets`` are the enemy models within Engagement Range of it.
* **Pile-in Moves** (``context.step: pile_in``, the default): eligible units (engaged,
  charged this turn, or selected for an overrun fight) move each model up to 3"; the active
  player's units first, then the opponent's. The move is solved as an optimisation that
  engages as many models as possible (:mod:`.wh40k_solver`; rules in :mod:`.wh40k_moves`).
* **Fight** (``step: fight``): the selection order in the ``FightSequence`` part
  (:mod:`.wh40k_fight`); overrun fights pile in first, and those paths are under ``moves``.
* **Consolidation Moves** (``step: consolidate``): ongoing / engaging / objective mode per
  unit in the ``Consolidation`` part; enemy units newly engaged by an engaging consolidation
  that had not been selected to fight are listed in the ``SelectedToFight`` part.

Optional scenario keys this engine reads (kept by the loader, ignored elsewhere):
``context.destroys: {unit: [unit id | {unit: id, models: N}]}`` (what ``unit``'s fight
destroys: the scenario tells the outcome, we roll no dice); ``context.destroyed: [unit ids]``
(units already gone); ``context.fought: [unit ids]`` (units that were eligible to fight this
phase, for consolidation); ``context.objectives: [[x, y], ...]`` (marker centres, mm); a unit
key ``embarked_in: <transport id>`` (the unit is off the table while the transport lives; its
listed positions are where it stands after an emergency disembark).

The step-through (:func:`.steps.fight_phase_steps`) lives in :mod:`.steps`.
"""
from __future__ import annotations

import math
from typing import Optional

from game.core.analysis import Analysis, ModelResult
from game.core.board import Board, unit_of
from game.core.engagement import Engagement
from game.core.parts import (FightSelection, FightSequence, Locked, MoveReach, MovesPreview, OffTable, Removed,
                             StrikeStep)
from game.core.ruleset import Ruleset
from game.core.work import doing
from game.engines.engagement_range.fight import fight_sequence, strike_order
from game.engines.engagement_range.geom import polyline_length as path_length
from game.engines.engagement_range.parts import Consolidation, MoveStatus, MoveTargets, PileInTargets, SelectedToFight
from game.engines.engagement_range.moves import MoveReport, consolidation_step, pile_in_step
from game.core.geometry import MM_PER_INCH
from game.engines.engagement_range.table import Params, Table, natural


def newly_engaged(t: Table, reports: dict[str, MoveReport], p: Params, selected: set) -> list[dict]:
    """Enemy units engaged by an engaging consolidation that were not selected to fight this
    phase: the opponent must select each of them to fight (Engaging Consolidation)."""
    out: list[dict] = []
    for uid, rep in reports.items():
        if rep.mode != "engaging" or not rep.paths:
            continue
        for e in t.engaged_with(uid, p.er_mm):
            if e not in selected and e not in {d["unit"] for d in out}:
                out.append({"unit": e, "player": t.player(e), "by": uid})
    return out


def results(board: Board, t: Table, p: Params, res: Analysis, reports: dict[str, MoveReport],
            only_unit: Optional[str] = None) -> None:
    """Fill ``res.models`` and engagements from the table as it stands (ids as on the table)."""
    inch = lambda mm: f"{mm / MM_PER_INCH:.1f}\""  # noqa: E731
    er = f"{p.rules['engagement_range_in']} ({p.say_in('engagement_range_in')})"
    mode_rule = {"pile_in": p.rules["pile_in_in"], "ongoing": p.rules["consolidate_in"],
                 "engaging": p.rules["consolidate_enemy_radius_in"], "objective": p.rules["consolidate_objective_radius_in"]}
    for u in board.units:
        if u.id in t.units:
            continue
        why = t.off.get(u.id, "not on the table")
        for m in u.models():
            res.models[m.id] = ModelResult(at=m.center, why=f"Not on the table ({why}): it neither fights nor blocks.")
    for uid, u in t.units.items():
        enemies = [q for e in t.enemy_units(uid) for q in t.models_of(e)]
        attacks = int(u.profile.get("attacks", p.default_attacks))
        rep = reports.get(uid)
        mine = t.models_of(uid)
        GM = t.gap_matrix(mine, enemies)
        for i, pc in enumerate(mine):
            r = ModelResult(at=pc.shape.center)
            gaps = [(float(GM[i, j]), q.id) for j, q in enumerate(enemies)]
            tg = sorted([q for d, q in gaps if d <= p.er_mm], key=natural)
            moved = ""
            if rep and pc.id in rep.paths:
                L = path_length(rep.paths[pc.id])
                rule = mode_rule.get(rep.mode, p.rules["consolidate_in"])
                moved = f" Moved {inch(L)} ({rule})."
            if tg and (only_unit is None or only_unit == uid):
                units = ", ".join(sorted({q.split('.')[0] for q in tg}))
                r.role, r.attacks, r.targets = "attack", attacks, tg
                r.why = (f"Fights: within {er} of {units}, so it is engaged and makes {attacks} "
                         f"attack{'s' if attacks != 1 else ''} from its profile ({p.rules['default_attacks']}).{moved}")
            elif tg:
                r.why = f"Engaged, but another unit is fighting at this step.{moved}"
            else:
                d = min((x for x, _ in gaps), default=math.inf)
                far = f"{inch(d)} from the closest enemy" if d < math.inf else "no enemy on the table"
                r.why = (f"Does not fight: {far}, outside {er}; this system has no supporting "
                         f"attacks.{moved}")
            res.models[pc.id] = r
    seen = set()
    engs = []
    for uid in t.units:
        for e in t.engaged_with(uid, p.er_mm):
            if (uid, e) not in seen:
                seen.add((uid, e))
                engs.append(Engagement(unit=uid, enemy=e, facing="front"))
    res.add_engagements(engs)


def sequence_results(board: Board, seq: list, p: Params, res: Analysis) -> None:
    """At the Fight step each selected unit is reported as it fights: an overrun fight first
    piles in ("one additional pile-in move, then fights"), so its models stand at their ends;
    passengers of a destroyed transport stand where they disembarked; models destroyed before
    their unit was selected do not fight (positions after rule-mandated moves)."""
    fought: set = set()
    gone: list = []
    for s in seq:
        uid = s.entry["unit"]
        fought.add(uid)
        if s.at_fight is None:
            continue
        sub = Analysis(ruleset=res.ruleset)
        reps = {uid: MoveReport(mode="pile_in", paths=s.moves)} if s.moves else {}
        results(board, s.at_fight, p, sub, reps, only_unit=uid)
        for pc in s.at_fight.models_of(uid):
            r = sub.models.get(pc.id)
            if r is not None:
                if s.moves:
                    r.why = r.why.replace(f"({p.rules['pile_in_in']})",
                                          f"({p.rules['pile_in_in']}, before its overrun fight)")
                res.models[pc.id] = r
        for mid in s.killed or []:
            if unit_of(mid) not in fought and mid in res.models:
                r = res.models[mid]
                r.role, r.attacks, r.targets = "none", 0, []
                r.why = f"Destroyed by {uid}'s fight before its unit was selected to fight, so it does not fight."
                gone.append(mid)
        for d in s.destroyed:
            if d in fought:
                continue
            for mid, r in res.models.items():
                if unit_of(mid) == d:
                    r.role, r.attacks, r.targets = "none", 0, []
                    r.why = f"Destroyed by {uid}'s fight before it was selected to fight, so it does not fight."
                    gone.append(mid)
    if gone:  # crossed out in every view, never drawn as a model that does not fight
        res.put(Removed(tuple(gone), "Destroyed before it could fight"))


def apply_moves(res: Analysis, reports: dict[str, MoveReport]) -> None:
    """Copy the reports' paths to ``res.moves``, their notes to ``res.notes`` and the models
    locked in base contact to a :class:`~game.core.parts.Locked` part."""
    for rep in reports.values():
        res.add_moves({mid: [(float(pt[0]), float(pt[1])) for pt in path] for mid, path in rep.paths.items()})
        res.notes.extend(rep.notes)
    locked = tuple(m for rep in reports.values() for m in rep.locked)
    if locked:
        res.put(Locked(locked))


def off_table(board: Board, t: Table) -> dict[str, str]:
    """{model id: why it is not on the table} (embarked, destroyed): drawn nowhere."""
    out = {}
    for u in board.units:
        if u.id not in t.units:
            for m in u.models():
                out[m.id] = t.off.get(u.id, "not on the table")
    return out


def analyse(board: Board, rs: Ruleset) -> Analysis:
    """Analyse a Warhammer 40,000 Fight phase board at ``context.step`` (default ``pile_in``).

    ``pile_in``: both players pile in (active player first); ``moves`` holds each moved
    model's path, ``at`` its new centre, roles are computed after the moves and
    ``fight_sequence``/``strike_order`` predict the Fight step from there. ``fight``: roles
    and the fight sequence for the board as it stands; overrun pile-ins are under ``moves``.
    ``consolidate``: consolidation moves, the mode per unit in a ``Consolidation`` part.
    Never raises on a valid board.
    """
    p = Params.of(rs)
    ctx = dict(board.context)
    step = ctx.get("step", "pile_in")
    res = Analysis(ruleset=rs.id)
    t = Table(board)
    reports: dict[str, MoveReport] = {}
    if step == "pile_in":
        with doing(f"running the pile-in search ({p.rules['pile_in_in']})", "the units are too large or too crowded for the "
                   "pile-in search"):
            reports = pile_in_step(t, p, ctx)
    elif step == "consolidate":
        with doing(f"running the consolidation search ({p.rules['consolidate_in']})", "the units are too large or too "
                   "crowded for the consolidation search"):
            reports = consolidation_step(t, p, ctx)
            res.put(Consolidation({u: r.mode for u, r in reports.items()}),
                    SelectedToFight.of(newly_engaged(t, reports, p, set(ctx.get("fought") or []))))
    apply_moves(res, reports)
    with doing(f"finding the engaged models ({p.rules['engagement_range_in']})", "the units are too large for "
               "finding who is within Engagement Range"):
        results(board, t, p, res, reports)
    # the board is not moved: each move is a preview from where the model stands
    res.put(OffTable(off_table(board, t)), MovesPreview())
    if step in ("pile_in", "fight"):
        problems: list = []
        with doing("working out the fight sequence (who fights in what order, overrun pile-ins)",
                   "the table is too large or too entangled for the fight sequence"):
            seq = fight_sequence(t, p, ctx, problems=problems)
        res.put(FightSequence(tuple(FightSelection.of(s.entry) for s in seq)))
        res.strike_order = [StrikeStep.of(s) for s in strike_order(seq, t)]
        for path, msg in problems:
            res.notes.append(msg)
            res.input_errors.append((path, msg))
        if step == "fight":
            for s in seq:
                res.add_moves({mid: [(float(pt[0]), float(pt[1])) for pt in path] for mid, path in s.moves.items()})
            sequence_results(board, seq, p, res)
    else:
        res.put(FightSequence())
    if step in ("pile_in", "consolidate") or res.moves:
        res.put(MoveReach(round(p.consolidate_mm if step == "consolidate" else p.pile_in_mm, 3)))
    res.put((PileInTargets if step == "pile_in" else MoveTargets).of({u: r.targets for u, r in reports.items()}))
    status = {u: r.status for u, r in reports.items() if r.status}
    if status:
        res.put(MoveStatus.of(status))
    return res
