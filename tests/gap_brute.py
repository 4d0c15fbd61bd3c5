"""The t9a gap search (Fighting over Gaps) tried against every enemy base: the reference the
indexed search (:class:`game.engines.rank_and_file.gap_index.EnemyAhead`) must equal. This is
the search as it was before the index, line for line: each model's extension tested against
each base of the engaged enemy, the extension length from the plain maximum over every enemy
vertex. The shared geometry (the swept outline, the closed-form first reach, the grid of
blockers) is the engine's own: only the choice of bases differs."""
from __future__ import annotations

from game.core import closing
from game.core import geometry as g
from game.core.board import Board, Unit
from game.core.unit_models import Model
from game.core.engagement import Engagement, as_poly, boundary, facing_dir
from game.engines.rank_and_file.gaps import _extended, _Grid, first_reach


def gaps_extend_brute(board: Board, units: dict[str, Unit], models: dict[str, list[Model]], engs: list[Engagement],
                      tol: float) -> set[frozenset]:
    links: set[frozenset] = set()
    bounds = {uid: boundary(units[uid], models[uid]) for uid in units}
    terrain = [g.Poly(tuple(tuple(p) for p in t["points"])) for t in board.terrain]
    model_grids: dict[str, _Grid] = {}
    bound_grid = _Grid([(uid, sh) for uid, shapes in bounds.items() for sh in shapes], 50.0)
    for e in engs:
        u = units[e.unit]
        d = facing_dir(u, e.facing)
        occupied = {(m.rank, m.file) for m in models[e.unit]} if u.is_ranked else set()
        step = {"front": (-1, 0), "rear": (1, 0), "left": (0, -1), "right": (0, 1)}[e.facing]
        for m in models[e.unit]:
            if m.rank is not None and m.file is not None and (m.rank + step[0], m.file + step[1]) in occupied:
                continue  # its facing towards the enemy is covered by a friendly model
            # no distance limit: the extension runs until it meets the enemy's boundary (a
            # ranked enemy's tray; going further would cross it), or past every enemy base
            if units[e.enemy].is_ranked:
                hit = closing.sweep_mm([as_poly(m.shape)], [list(units[e.enemy].tray().points)], d)
                if hit is None:
                    continue
                L = hit + 2 * tol
            else:
                half = max(g.dot(g.sub(p, m.center), d) for p in as_poly(m.shape))
                far = max(g.dot(g.sub(p, m.center), d) for em in models[e.enemy] for p in as_poly(em.shape))
                L = max(0.0, far - half)
            full = _extended(m, u, d, L)
            fb = full.bbox()
            side = (-d[1], d[0])
            mine = [g.dot(p, side) for p in as_poly(m.shape)]
            candidates = []
            for em in models[e.enemy]:
                if g.bbox_gap(fb, em.shape.bbox()) > tol or g.gap_mm(full, em.shape) > tol:
                    continue
                theirs = [g.dot(p, side) for p in as_poly(em.shape)]
                # face to face: the extended base must overlap the enemy base sideways, not
                # meet it only at a corner (a diagonal is not "along the facing")
                if min(max(mine), max(theirs)) - max(min(mine), min(theirs)) > tol:
                    candidates.append(em)
            reach = []
            for em in candidates:
                # shortest extension reaching the enemy model; when the bases already meet
                # every step of the search succeeds, so it ends at exactly L / 2**16
                # (the extension reaches it from ``t_reach`` on: the 16 halvings replayed on that
                # number give the search's own end, without 16 hulls and gaps)
                lo, hi = 0.0, L
                touching = g.gap_mm(_extended(m, u, d, 0.0), em.shape) <= tol
                if touching:
                    hi = L / 65536.0
                t_reach = 0.0 if touching else first_reach(as_poly(m.shape), d, em.shape, tol)
                for _ in range(0 if touching else 16):
                    mid = (lo + hi) / 2
                    if mid >= t_reach:
                        hi = mid
                    else:
                        lo = mid
                reach.append((hi, em))
            # the extended base stops at the first enemy model it touches (it cannot go on past
            # the enemy's boundary): a slanted enemy's next model, further on, is not in contact
            first = min((h for h, _ in reach), default=0.0)
            for hi, em in reach:
                if hi > first + tol:
                    continue
                pair = frozenset((m.id, em.id))
                if pair in links:
                    continue  # linked already (through another engagement): nothing to add
                ext = _extended(m, u, d, max(0.0, hi - tol))
                eb = ext.bbox()

                def overlaps(shape: g.Shape, by: float) -> bool:
                    return g.bbox_gap(eb, shape.bbox()) <= 0 and g.gap_mm(ext, shape) < by

                # only shapes whose boxes meet the extension's box can block it (grid look-ups)
                # another unit's boundary first: on an entangled board it blocks most extensions,
                # and the friendly models beside this one touch it without blocking (the order
                # of these tests does not change the answer)
                blocked = any(oid != e.unit and overlaps(sh, -tol) for oid, sh in bound_grid.near(eb))
                if not blocked:
                    grid = model_grids.get(e.unit)
                    if grid is None:
                        grid = model_grids[e.unit] = _Grid([(fm.id, fm.shape) for fm in models[e.unit]], 50.0)
                    blocked = any(fid != m.id and overlaps(sh, -tol) for fid, sh in grid.near(eb))
                if not blocked:
                    blocked = any(overlaps(t, 0.0) for t in terrain)
                if not blocked:
                    links.add(pair)
    return links


