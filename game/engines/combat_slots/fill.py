"""Combat slots: the nearest-first fill of free places with a unit's models (Allocated models:
the models nearest the enemy take the combat slots first).

One job: :func:`fill_nearest_first`, the greedy matching of (model, place) pairs taken in key
order. Pure (array work through :mod:`game.core.arrays`: with numpy, scipy's k-d tree for the first
look of every place on a big table).
"""
from __future__ import annotations

import heapq
from typing import Sequence

from game.core import geometry as g
from game.core.arrays import ops
from game.core.unit_models import Model

#: Above this many (model, place) pairs the first nearest models of every place come from one
#: k-d tree query (with numpy) instead of one scan of every model per place.
TREE_PAIRS = 200_000
#: Models a place looks at in one go (its list is looked again, over the free models, when
#: all of them are placed).
FIRST = 8


def fill_nearest_first(own: list[Model], places: list[tuple], want: int, placed: dict, taken: dict,
                       tree_pairs: int = TREE_PAIRS) -> int:
    """Fill free places with models of one unit, nearest (model, place) pair first.

    ``places``: ``(enemy index, enemy model index, place, position)``, a place being a tuple
    of ``(enemy model id, ring index)`` slots; pairs are taken in the order of ``(distance
    rounded to 1e-6 mm, model index, enemy index, enemy model index, place)``, skipping a
    model already placed or a place with a slot taken, until ``want`` models are placed.
    Updates ``placed`` (model id -> place) and ``taken`` (slot -> model id); returns the number
    placed. The same choices as sorting every pair, in memory linear in models plus places.

    How: each place keeps its :data:`FIRST` nearest models that were free when it looked
    (exact Python keys), merged through a heap; a place whose head model got placed walks its
    list past the placed ones, and when none is left looks again among the models still free
    (a placed model never comes back, so the order stays that of all pairs). With more than
    ``tree_pairs`` pairs the first look of every place is one k-d tree query. Two
    10,000-model units: the lists of every model per place grew to minutes and gigabytes."""
    if want <= 0 or not own or not places:
        return 0
    n = len(own)
    xs = ops.floats(m.center[0] for m in own)
    ys = ops.floats(m.center[1] for m in own)
    done = [m.id in placed for m in own]  # models of this unit placed already
    free = ops.flags(not d for d in done)
    n_free = done.count(False)

    def keys(at, idx) -> list[tuple[float, int]]:
        return sorted((round(g.dist(own[i].center, at), 6), i) for i in idx)

    def look(pi: int) -> list[tuple[float, int]]:
        """The first :data:`FIRST` free models of place ``pi`` in key order (exact keys)."""
        at = places[pi][3]
        k = min(FIRST, n_free)
        if k <= 0:
            return []
        return keys(at, ops.nearest_free(xs, ys, free, at, k))[:k]

    lists: list[list[tuple[float, int]]] = []
    if n * len(places) > tree_pairs and n_free > 0:
        k = min(FIRST, n_free)
        near = ops.nearest_free_many(xs, ys, free, [p[3] for p in places], k)
        lists = [keys(places[pi][3], near[pi])[:k] for pi in range(len(places))]
    else:
        lists = [look(pi) for pi in range(len(places))]
    pos = [0] * len(places)
    heap = []
    for pi, (e_i, em_i, place, _at) in enumerate(places):
        if lists[pi]:
            d, mi = lists[pi][0]
            heap.append((d, mi, e_i, em_i, place, pi))
    heapq.heapify(heap)
    got = 0
    while heap and got < want:
        d, mi, e_i, em_i, place, pi = heapq.heappop(heap)
        if any(slot in taken for slot in place):
            continue  # this place is gone for good
        if done[mi]:  # walk this place's list past every placed model (they stay placed)
            lst, k = lists[pi], pos[pi] + 1
            while k < len(lst) and done[lst[k][1]]:
                k += 1
            if k >= len(lst):
                lst, k = look(pi), 0  # every model of the list is placed: look again among the free
                lists[pi] = lst
                if not lst:
                    continue
            pos[pi] = k
            d, mi = lst[k]
            heapq.heappush(heap, (d, mi, e_i, em_i, place, pi))
            continue
        mid = own[mi].id
        for slot in place:
            taken[slot] = mid
        placed[mid] = place
        done[mi] = True
        free[mi] = False
        n_free -= 1
        got += 1
    return got

