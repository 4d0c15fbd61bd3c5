"""Exact end spots for small Warhammer 40,000 units (seeds/003, "Pile-in Moves": pile in to
maximise the number of models that are engaged).

When the packed spots of :mod:`.wh40k_spots` leave a model of a small unit unengaged, a
branch-and-bound search tries every combination of end spots (around every target model at
touching, half and almost full Engagement Range, about every 7.5 degrees) for the most
engaged models, then the most engaged with the closest target, then the fewest millimetres.
"""
from __future__ import annotations

import math

import numpy as np

from game.engines.engagement_range.geom import CSpace, Foot

EXACT_NODES = 20000  # search nodes at most (the best found so far is kept)
# end spots tried at most (each a clearance test against the spots already chosen; a square or
# oval base's test costs about ten times a round one's): bounds the search on crowded boards
EXACT_TRIES = {True: 60000, False: 6000}


def exact_assignment(self, movers: list, banned: set) -> dict[str, np.ndarray]:  # noqa: C901
    """``{model id: end}`` for ``movers`` (one base size) of the solver ``self``
    (:class:`.wh40k_solver.MoveSolver`: its obstacles, legality and bounds); ``banned`` holds
    (model id, spot) pairs whose path was blocked. At most ``EXACT_NODES`` nodes are visited and
    ``EXACT_TRIES`` end spots tried (counted, not timed, so the same board gives the same ends)."""
    p = self.p
    foot = movers[0].foot
    cs = self.cs(foot)
    starts = np.array([m.start for m in movers])
    cols = [j for j in self._local(cs, starts, self.budget + p.er_mm + foot.extent()) if cs.units[j] in self.targets]
    if not cols:
        return {}
    P = np.concatenate([cs.ring(j, gp, max(2.0, 2 * math.pi * (cs.R[j] + gp) / 48))
                        for j in cols for gp in (p.clearance_mm, p.er_mm / 2, p.er_mm - 0.4)])
    ok, eng = self._legal_many(movers, P)
    opts = []
    for i, m in enumerate(movers):
        idx = np.nonzero(ok[i])[0]
        idx = [j for j in idx if (m.id, tuple(np.round(P[j], 3))) not in banned]
        d = np.hypot(P[idx, 0] - m.start[0], P[idx, 1] - m.start[1]) if idx else np.zeros(0)
        order = np.lexsort((d, -eng[i, idx])) if idx else []
        opts.append([(idx[k], int(eng[i, idx[k]]), float(d[k])) for k in order][:150])
    sep = sep_fn(foot, self.p.clearance_mm)
    best = [(-1, -1, 0.0), {}]
    nodes = [0]
    tries = [EXACT_TRIES[bool(foot.round)]]
    rank = sorted(range(len(movers)), key=lambda i: len(opts[i]))

    reachable = len([o for o in opts if o])

    def dfs(k, chosen, score):
        nodes[0] += 1
        if nodes[0] > EXACT_NODES or best[0][0] == reachable and nodes[0] > 500:
            return
        if score[0] + sum(1 for i in rank[k:] if opts[i]) < best[0][0]:
            return
        if k == len(rank):
            if score > best[0]:
                best[0], best[1] = score, dict(chosen)
            return
        i = rank[k]
        for j, e, d in opts[i]:
            tries[0] -= 1
            if tries[0] < 0 or nodes[0] > EXACT_NODES:
                return
            x = P[j]
            if all(sep(x, y) for y in chosen.values()):
                chosen[movers[i].id] = x
                dfs(k + 1, chosen, (score[0] + 1, score[1] + e, score[2] - d))
                del chosen[movers[i].id]
        dfs(k + 1, chosen, score)

    dfs(0, {}, (0, 0, 0.0))
    return best[1]


def sep_fn(foot: Foot, clearance: float):
    """``sep(a, b)``: two movers of ``foot`` at ``a`` and ``b`` keep the clearance."""
    if foot.round:
        lim = 2 * foot.rad + clearance
        return lambda a, b: (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 >= lim * lim
    cs = CSpace(foot, [("x", "", foot, (0.0, 0.0))])
    return lambda a, b: cs.gaps((a - b)[None])[0, 0] >= clearance
