"""Which engaging end each model of a small or large unit takes in a Warhammer 40,000 pile-in
(seeds/003, "Pile-in Moves": pile in to maximise the number of models that are engaged): steps
1 and 2 of :class:`.solver.MoveSolver` (see its module doc). Packings of end spots per base
size (:class:`.spots.Packer`), an optimal assignment of movers to each packing
(:func:`.assign.linear_sum_assignment`), the best kept by :func:`score`; for units of at most
:data:`EXACT_MOVERS` movers the exact search (:mod:`.exact`) when the packings leave a model out.
Functions of the solver (a :class:`.solver.MoveSolver`: its obstacles, legality and caches; its
movers are :class:`.solver.Mover`); lengths in table mm.
"""
from __future__ import annotations

from typing import AbstractSet, Optional

import numpy as np

from game.engines.engagement_range.assign import linear_sum_assignment
from game.engines.engagement_range.exact import exact_assignment
from game.engines.engagement_range.geom import Foot
from game.engines.engagement_range.spots import Packer

EPS_ENG = 0.05  # ends are placed this far inside Engagement Range / objective range
EXACT_MOVERS = 12  # units this small get an exact search when the packings leave a model out


# ----- 1. end spots
def packings(solver, foot: Foot, movers: list):
    """Sets of engaging end spots for movers of ``foot`` (:class:`.spots.Packer`),
    yielded lazily with how many movers could reach any spot at all: the spots of one set
    never overlap each other or a standing base. Variants: the spots only the most
    cramped movers reach first, then two walks along the outlines."""
    cs = solver.cs(foot)
    starts = np.array([m.start for m in movers])
    cols = solver._local(cs, starts, solver.budget + solver.p.er_mm + foot.extent())
    tcols = [j for j in cols if cs.units[j] in solver.targets]
    if not tcols:
        return
    pk = Packer(foot, cs, cols, tcols, starts, solver.budget, clearance=solver.p.clearance_mm, er=solver.p.er_mm,
                legal=lambda P: solver._legal_many(movers, P)[0])
    bound = sum(1 for m in movers if m.start_gap - solver.budget <= solver.p.er_mm - EPS_ENG)
    for mode, ph in (("scarce", 0), ("curve", 0), ("curve", 7))[: solver.packings]:
        spots = pk.packing(mode, ph)
        if len(spots):
            yield spots, bound


# ----- 2. assignment
def assign(solver, movers: list, spots: np.ndarray, banned: AbstractSet = frozenset()) -> dict[str, np.ndarray]:
    """Optimal matching of ``movers`` to ``spots`` (linear_sum_assignment): engaged first,
    engaged with the closest target next, then the shortest move. Returns {id: end}."""
    n, k = len(movers), len(spots)
    if not n or not k:
        return {}
    BIG = 1e12
    ok, eng = solver._legal_many(movers, spots)
    if banned:
        keys = [tuple(np.round(x, 3)) for x in spots]
        for i, m in enumerate(movers):
            for j, kk in enumerate(keys):
                if (m.id, kk) in banned:
                    ok[i, j] = False
    D = np.round(np.hypot(spots[None, :, 0] - np.array([m.start[0] for m in movers])[:, None],
                          spots[None, :, 1] - np.array([m.start[1] for m in movers])[:, None]), 2)
    C = np.full((n, k + n), BIG)
    C[np.arange(n), k + np.arange(n)] = 0.0  # a dummy per mover: no engaging spot
    # engaged first, with the closest target next, in base contact next (piling in), then
    # the shortest move
    C[:, :k] = np.where(ok, -(1e8 + 1e5 * (eng >= 1) + 1e3 * (eng >= 2)) + D, BIG)
    rows, cols = linear_sum_assignment(C)
    return {movers[i].id: spots[j] for i, j in zip(rows, cols) if j < k and C[i, j] < BIG / 2}

def score(solver, ends: dict[str, np.ndarray]) -> tuple:
    movers = [m for m in solver.movers if m.id in ends]
    eng = close = clear = 0
    for m in movers:
        _, info = legal_info(solver, m, ends[m.id])
        eng += bool(info["any"])
        close += bool(info["eng"])
        clear += bool(solver._straight_many(m, ends[m.id][None], {})[0])  # no detour needed
    dist = sum(float(np.linalg.norm(ends[m.id] - m.start)) for m in movers)
    return (eng, close, clear, -round(dist, 2))

def legal_info(solver, m, x: np.ndarray):
    ok, info = solver._legal(m, x[None], {})
    return bool(ok[0]), {k: v[0] for k, v in info.items()}


def engaging_ends(solver, banned: AbstractSet = frozenset()) -> dict[str, np.ndarray]:
    """The best assignment of movers to packed engaging spots over all packings; ``banned``
    holds (model id, spot) pairs whose path was blocked. Packings are made lazily (and
    kept for the next call): once every mover that could reach a spot has one, no later
    packing can do better."""
    best: Optional[tuple] = None
    classes: dict[Foot, list] = {}
    for m in solver.movers:
        classes.setdefault(m.foot, []).append(m)
    variants: list[dict] = [{}]
    for foot, ms in classes.items():
        cache, gen = solver._packs.setdefault(foot, ([], packings(solver, foot, ms)))
        nxt = []
        i = 0
        while True:
            if i < len(cache):
                spots0, bound = cache[i]
            else:
                item = next(gen, None)
                if item is None:
                    break
                cache.append(item)
                spots0, bound = item
            i += 1
            full = False
            for base in variants:
                spots = spots0
                if len(spots) and base:
                    taken = [(o, solver.foot[o], c) for o, c in base.items()]
                    spots = spots[solver._pair_gaps(foot, spots, taken).min(1) >= solver.floor]
                d = dict(base)
                got = assign(solver, ms, spots, banned)
                d.update(got)
                nxt.append(d)
                full = full or len(got) >= bound
            if full and len(variants) == 1:
                break
        variants = (nxt or variants)[:6]
    for ends in variants:
        ends = drop_blockers(solver, ends)
        sc = score(solver, ends)
        if best is None or sc > best[0]:
            best = (sc, ends)
    if len(solver.movers) <= EXACT_MOVERS:
        bound = sum(1 for m in solver.movers if m.start_gap - solver.budget <= solver.p.er_mm - EPS_ENG)
        if best is None or best[0][0] < bound:
            ends = exact_assignment(solver, solver.movers, banned, bound)
            sc = score(solver, ends)
            if best is None or sc > best[0]:
                best = (sc, ends)
    return best[1] if best else {}


def drop_blockers(solver, ends: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Ends that overlap a mover left standing (it found no spot) are dropped."""
    ends = dict(ends)
    changed = True
    while changed:
        changed = False
        stay = [(m.id, m.foot, m.start) for m in solver.movers if m.id not in ends]
        if not stay:
            break
        for mid in list(ends):
            D = solver._pair_gaps(solver.foot[mid], ends[mid][None], stay)
            if (D < solver.floor).any():
                ends.pop(mid)
                changed = True
    return ends
