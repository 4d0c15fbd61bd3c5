"""What the rank-and-file engine prepares for a combat every frame, cached between frames so a
drag rebuilds only what changed: base contact per engaged pair of units (by the two units'
poses), each model's contact set (unit by unit), and two lazy indices of model ids, the board
order (:class:`Order`) and the unit of each (:class:`UnitOf`). Pure; lengths in mm."""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Optional

from game.core import contact
from game.core.board import Unit, unit_of
from game.core.unit_models import Model, ids_of
from game.core.lru import LRU

_PAIRS = LRU(4096)  # (pose of a, pose of b, tol) -> ((model id of a, model id of b), ...)
_CORNERS = LRU(4096)  # the same key -> the pairs of those touching only at a corner


def pair_contacts(c: Any, own: Optional[dict] = None) -> dict[tuple[str, str], tuple[tuple[str, str], ...]]:
    """Base contact per engaged pair of units ``(a, b)`` (``a < b``): the model id pairs whose
    bases are within ``c.tol`` mm (:func:`game.core.contact.model_contacts`), sorted. A pair of
    units standing as their poses say (no model moved) is cached by the two poses. ``own``:
    unit id -> ``unit.models()`` when the caller has them (else asked for here). Also sets
    ``c.corner_pairs``: per pair, the model id pairs of those that touch only at a corner
    (:func:`game.core.geometry.corner_touch`), which a fighter's explanation says."""
    out = {}
    corners = {}
    for a, b in sorted({(e.unit, e.enemy) for e in c.engs if e.unit < e.enemy}):
        ua, ub = c.units[a], c.units[b]
        ma, mb = c.models[a], c.models[b]
        ka, kb = ua.pose_key(), ub.pose_key()
        if own is not None:
            mine = ma is own[a] and mb is own[b]
        else:
            mine = ma is ua.models(ka) and mb is ub.models(kb)
        key = (ka, kb, c.tol) if mine else None
        hit = _PAIRS.get(key) if key is not None else None
        corner = _CORNERS.get(key) if key is not None else None
        if hit is None or corner is None:
            ia, ib = ids_of(ma), ids_of(mb)
            index, at_corners = contact.contacts_and_corners(ua, ma, ub, mb, c.tol)
            hit = tuple((ia[i], ib[j]) for i, j in index)
            corner = tuple(pair for pair, at_corner in zip(hit, at_corners) if at_corner)
            if key is not None:
                _PAIRS.put(key, hit)
                _CORNERS.put(key, corner)
        out[(a, b)] = hit
        if corner:
            corners[(a, b)] = corner
    c.corner_pairs = corners
    return out


_CONTACTS = LRU(64)  # the pairs' unit ids -> (their hits, {unit id: its models' contact sets}) last built


def contacts_of(pairs: dict) -> dict[str, set[str]]:
    """``{model id: {enemy model ids}}`` (symmetric) from :func:`pair_contacts`: a fresh dict
    whose sets must not be mutated (they are shared with the next call: replace a set to
    change it). Built unit by unit; a unit none of whose pairs' hits changed since the last
    call on the same pairs (equal hit tuples: the very same when :func:`pair_contacts` has them
    by pose, or equal ones found anew for a unit slid along a front) keeps its sets, so a drag
    rebuilds only the sets of the units whose contacts changed."""
    key = tuple(pairs)
    hits = tuple(pairs.values())
    last = _CONTACTS.get(key)
    by_unit: dict[str, dict[str, set[str]]] = {}
    if last is not None:
        stale = set()
        for (a, b), new, old in zip(key, hits, last[0]):
            if new is not old and new != old:  # (a pair slid along a front keeping its contacts: kept)
                stale.add(a)
                stale.add(b)
        by_unit = {uid: sets for uid, sets in last[1].items() if uid not in stale}
    fresh: dict[str, dict[str, set[str]]] = {}
    for (a, b), hs in zip(key, hits):
        ka, kb = a not in by_unit, b not in by_unit
        if not (ka or kb):
            continue
        sa = fresh.setdefault(a, {}) if ka else None
        sb = fresh.setdefault(b, {}) if kb else None
        for x, y in hs:
            if sa is not None:
                got = sa.get(x)
                if got is None:
                    sa[x] = {y}
                else:
                    got.add(y)
            if sb is not None:
                got = sb.get(y)
                if got is None:
                    sb[y] = {x}
                else:
                    got.add(x)
    by_unit.update(fresh)
    _CONTACTS.put(key, (hits, by_unit))
    contacts: dict[str, set[str]] = defaultdict(set)
    for sets in by_unit.values():
        contacts.update(sets)
    return contacts


class Order(dict):
    """Board order of model ids (``order[mid]`` -> int) over ``models`` (unit id -> its models,
    in board order): a dict filled one unit at a time, on the first look-up of one of its
    models (its ids with their board indices, zipped in C: no Python per model; a later model
    of the same id wins, as in an index of the list), so a combat of which only a few units'
    models are ever sorted builds the order of those units only; later look-ups are plain dict
    look-ups. ``units`` is accepted for the callers' sake (unused)."""

    def __init__(self, models: dict[str, list[Model]], units: Optional[dict[str, Unit]] = None) -> None:
        super().__init__()
        self._models = models
        self._start: dict[str, int] = {}
        n = 0
        for uid, ms in models.items():
            self._start[uid] = n
            n += len(ms)

    def __missing__(self, mid: str) -> int:
        uid = unit_of(mid)
        start = self._start.pop(uid, None)  # (each unit filled once)
        if start is None:
            raise KeyError(mid)
        ms = self._models[uid]
        dict.update(self, zip(ids_of(ms), range(start, start + len(ms))))
        if not dict.__contains__(self, mid):
            raise KeyError(mid)
        return dict.__getitem__(self, mid)

    def get(self, mid: str, default: Any = None) -> Any:  # type: ignore[override]
        try:
            return self[mid]
        except KeyError:
            return default

    def __contains__(self, mid: object) -> bool:
        return isinstance(mid, str) and self.get(mid) is not None


class UnitOf(dict):
    """Model id -> unit id over ``models``: a dict filled one unit at a time on first look-up
    (model ids are ``<unit>.<slot>``)."""

    def __init__(self, models: dict[str, list[Model]]) -> None:
        super().__init__()
        self._models = models

    def __missing__(self, mid: str) -> str:
        uid = unit_of(mid)
        ms = self._models.get(uid)
        if ms is None:
            raise KeyError(mid)
        self.update(dict.fromkeys(ids_of(ms), uid))
        if not dict.__contains__(self, mid):
            raise KeyError(mid)
        return uid

    def get(self, mid: str, default: Any = None) -> Any:  # type: ignore[override]
        try:
            return self[mid]
        except KeyError:
            return default

    def __contains__(self, mid: object) -> bool:
        return isinstance(mid, str) and self.get(mid) is not None
