"""Joining the per-unit pieces of a combat's result again, for :mod:`.incremental`'s assembly:
each part type's pieces as a balanced tree of kept pairs (:func:`_joined`), the units' strike
steps as one strike order (:func:`_merge_steps`).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from game.core.parts import Part, StrikeStep


def _joined(pieces: list, old: dict, used: dict) -> Any:
    """``pieces`` (parts of one type, in order) merged as one: ``merged`` is associative (maps
    joined later-wins, tuples concatenated, a label the last one given), so they are joined as
    a balanced tree of pairs, and a pair of the very same two pieces (or joins) as in the last
    assembly is taken from ``old`` (``(id a, id b) -> (a, b, a.merged(b))``): a frame in which
    one unit changed joins again only the pairs on its way up (about log2 of the units), not
    every unit. Every pair used goes to ``used`` (the next assembly's ``old``). A part type
    merged by the generic field-by-field join whose pieces mix mappings or tuples with other
    values in a field (not associative: a plain value replaces) is merged left to right."""
    if type(pieces[0]).merged is Part.merged and not _uniform(pieces, old, used):
        joined = pieces[0]
        for piece in pieces[1:]:
            joined = joined.merged(piece)
        return joined
    level = pieces
    while len(level) > 1:
        up = []
        for i in range(0, len(level) - 1, 2):
            a, b = level[i], level[i + 1]
            k = (id(a), id(b))
            hit = old.get(k)
            if hit is None or hit[0] is not a or hit[1] is not b:
                hit = (a, b, a.merged(b))
            used[k] = hit
            up.append(hit[2])
        if len(level) % 2:
            up.append(level[-1])
        level = up
    return level[0]


def _uniform(pieces: list, old: dict, used: dict) -> bool:
    """Whether each field of ``pieces`` (parts of one type) holds mappings in every piece,
    tuples in every piece, or neither in any: then the generic ``Part.merged`` is associative.
    Each piece's kinds are kept with the joins (``("kinds", id(piece))``), so a piece seen in
    the last assembly is not looked at again."""
    first = None
    for p in pieces:
        k = ("kinds", id(p))
        hit = old.get(k)
        if hit is None or hit[0] is not p:
            hit = (p, tuple(0 if isinstance(v, Mapping) else 1 if isinstance(v, tuple) else 2
                            for v in (getattr(p, f.name) for f in dataclasses.fields(p))))
        used[k] = hit
        if first is None:
            first = hit[1]
        elif hit[1] != first:
            return False
    return True


def _merge_steps(per_unit: list[list[dict]]) -> list[StrikeStep]:
    """Units' strike steps (each unit's in its model order, units in board order) as one:
    equal ``step`` values merged, the first label kept, highest first; concatenating in board
    order gives what :func:`engine.merge_steps` sorts into, without sorting."""
    steps: dict = {}
    for seq in per_unit:
        for s in seq:
            d = steps.get(s["step"])
            if d is None:
                d = steps[s["step"]] = {**s, "models": [], **({"parts": []} if "parts" in s else {})}
            d["models"] += s["models"]
            if s.get("parts"):
                d.setdefault("parts", []).extend(s["parts"])
    return [StrikeStep.of(steps[k]) for k in sorted(steps, reverse=True)]
