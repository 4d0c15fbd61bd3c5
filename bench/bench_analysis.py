#!/usr/bin/env python3
"""Analysis speed against model count, incremental re-analysis while dragging, and contact
detection against pymunk's own bounding-box queries over the same bases.

    python bench/bench_analysis.py            # prints medians in ms

Targets (issue "Big tables stay fluid"): full analysis <= 5 ms at 2000 models, incremental
<= 2 ms, linear growth, contact detection <= 3x pymunk's query time.
"""
from __future__ import annotations

from common import big_table, median_ms

import pymunk

from game.core import board as board_mod
from game.core.analysis import analyse
from game.core.ruleset import load_ruleset
from game.core import engagement
from game.core.rules import ranked


def main() -> None:
    rs = load_ruleset("whfb8")
    print("full analysis: cold = no cached models or combats; warm = the same board again (every combat cached)")
    print("models  units  cold ms  warm ms  cold ms/1000 models")
    for n in (100, 500, 1000, 2000, 5000):
        b = big_table(n)

        def cold():
            board_mod._MODEL_CACHE.clear()
            ranked._COMBAT_CACHE.clear()
            analyse(b, rs)

        c = median_ms(cold, repeat=7)
        w = median_ms(lambda: analyse(b, rs), repeat=7)
        n_models = sum(x.count for x in b.units)
        print(f"{n_models:6d}  {len(b.units):5d}  {c:7.2f}  {w:7.2f}  {c / n_models * 1000:8.2f}")

    # incremental: one unit dragged a little each frame (only its models are rebuilt)
    b = big_table(2000)
    u = b.units[0]
    step = [0]

    def drag():
        step[0] += 1
        b.units[0] = u.translated(0.0, -0.05 * (step[0] % 20))
        analyse(b, rs)

    print(f"incremental re-analysis while dragging one unit, 2000 models: {median_ms(drag, repeat=21):.2f} ms")

    # contact detection alone (unit pairs + model pairs) vs pymunk bounding-box queries
    models = {x.id: x.models() for x in b.units}
    tol = rs.p("contact_tolerance_mm")

    def ours():
        bounds = {x.id: engagement.boundary(x, models[x.id]) for x in b.units}
        ids = [x.id for x in b.units]
        found = 0
        for i, a in enumerate(ids):
            for c in ids[i + 1:]:
                if engagement.touching(bounds[a], bounds[c], tol):
                    na = engagement.near(models[a], bounds[c], tol)
                    nb = engagement.near(models[c], bounds[a], tol)
                    for ma in na:
                        for mb in nb:
                            if ranked.g.within(ma.shape, mb.shape, tol):
                                found += 1
        return found

    space = pymunk.Space()
    shapes = []
    for ms in models.values():
        for m in ms:
            body = pymunk.Body(body_type=pymunk.Body.STATIC)
            s = pymunk.Poly(body, m.shape.points)
            space.add(body, s)
            shapes.append(s)
    space.reindex_static()
    sf = pymunk.ShapeFilter()

    def theirs():
        hits = 0
        for s in shapes:
            bb = s.bb
            hits += len(space.bb_query(pymunk.BB(bb.left - tol, bb.bottom - tol, bb.right + tol, bb.top + tol), sf))
        return hits

    t_ours = median_ms(ours, repeat=9)
    t_pm = median_ms(theirs, repeat=9)
    print(f"contact detection, 2000 models: ours {t_ours:.2f} ms ({ours()} touching pairs); "
          f"pymunk bb_query over the same bases {t_pm:.2f} ms ({theirs()} bb hits); ratio {t_ours / t_pm:.2f}x")


if __name__ == "__main__":
    main()
