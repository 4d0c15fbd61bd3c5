"""Combats decided before, seen again moved: a combat whose units stand as those of a combat
decided recently, all of them moved by one offset, gets that combat's decisions.

What the deciding slots (``fighters``, ``horde``, ``supports``, ``attack_cap``,
``strike_order``, ``rank_bonus``) make of a combat depends, for policies not declared
``geometry=True`` (:mod:`.policy`: reading where models stand), only on what :func:`engine.prepare` found -- which models each unit has
(their ids: slots, ranks, files), the engagements and their facings, the base contacts per
pair, the gap links, the state handed on -- and on the units' data apart from where they stand
(profile, keywords, unit keys, formation, facing): none of them reads a position, except each
model's ``at``, its centre. So the engine prepares every combat cold (engagements, moves,
contacts and links from the positions as they are), and when a combat of the same units'
:func:`shape_key` was decided with an identical :func:`signature`, :func:`moved` gives that
decision with each model's ``at`` read from the prepared models (and the prepared combat's
engagements, moves and gap links): the same result as deciding it (a property test compares
translated boards with a cold analysis, every rank-and-file ruleset).

This is reuse, not a faster decision: it serves a user moving a whole battle line or table
(and ``bench_analysis.py``'s shifted tables); a combat never seen in any position is decided
as before. A ruleset choosing any deciding policy that reads where models stand (The Old
World's fighting rank reads distances) never takes this path.
"""
from __future__ import annotations

from itertools import chain, islice
from operator import attrgetter
from typing import Any, Optional

from game.core.analysis import Analysis, ModelResult
from game.core.board import Unit
from game.core.unit_models import centers_of, ids_of
from game.core.lru import LRU
from game.core.results import ModelResults, UnitResults
from game.engines.rank_and_file import policy as pol

DECIDING = ("fighters", "horde", "supports", "attack_cap", "strike_order", "rank_bonus")

_SEEN = LRU(64)  # (ruleset, context, shape keys) -> (signature, decided Analysis)
_ROLE, _ATTACKS, _TARGETS, _WHY, _PARTS = (attrgetter(n) for n in ("role", "attacks", "targets", "why", "parts"))


def reserve(n_combats: int) -> None:
    """Keep a decision for each of ``n_combats`` combats, plus a short history (as the engine's
    combat cache)."""
    _SEEN.size = max(64, 2 * n_combats + 16)


def usable(rs: Any) -> bool:
    """True when no deciding policy ``rs`` chooses reads where models stand (``geometry``)."""
    return not pol.geometric(rs, DECIDING)


def shape_key(u: Unit) -> str:
    """Everything about a unit the deciding policies may read, without where it stands: id,
    player, kind, base, formation (files, count, last rank, empty slots), facing, the number and
    bases of placed models, profile, keywords and unit keys."""
    return repr((u.id, u.player, u.kind, u.base, u.files, u.count, u.last_rank, u.empty, u.facing_deg,
                 [b for _p, b in u.placed], u.profile, u.keywords, u.extra))


def signature(c: Any) -> Optional[tuple]:
    """What :func:`engine.prepare` found for combat ``c`` that the deciding policies read (ids
    only, no position): units in order, each unit's model ids, engagements with facings, base
    contacts per pair, gap links, the notes so far and the state handed on. Taken before
    deciding; None when preparing put an engine part (kept out of this path: it could hold a
    position)."""
    if c.res.engine_parts():
        return None
    return (tuple(c.units), tuple((uid, tuple(ids_of(ms))) for uid, ms in c.models.items()),
            tuple(c.res.engagements), tuple(sorted(c.pair_contacts.items())), tuple(sorted(c.corner_pairs.items())),
            tuple(c.res.gap_links),
            tuple(c.res.notes), repr(c.state))


def find(key: tuple, sig: tuple) -> Optional[Analysis]:
    """The decided combat kept under ``key`` when its signature is ``sig``, else None."""
    hit = _SEEN.get(key)
    return hit[1] if hit is not None and hit[0] == sig else None


def keep(key: tuple, sig: tuple, c: Any, res: Analysis) -> None:
    """Keep ``res`` (combat ``c`` decided) under ``key``: only when its model results are the
    prepared models, unit by unit in order (what :func:`moved` relies on)."""
    if list(res.models) == list(chain.from_iterable(map(ids_of, c.models.values()))):
        _SEEN.put(key, (sig, res))


def moved(old: Analysis, c: Any) -> Analysis:
    """Prepared combat ``c`` (:func:`signature` equal to that of ``old``'s combat) decided as
    ``old`` was: ``c.res`` (its engagements, moves and gap links) given ``old``'s model results,
    each a new result at its prepared model's centre, and ``old``'s strike order, notes,
    engine parts and legend. Returns ``c.res``."""
    res = c.res
    blocks = old.models.units() if isinstance(old.models, ModelResults) else None
    if blocks is not None and list(blocks) == list(c.models) and all(
            type(b) is UnitResults and b.ids == ids_of(c.models[uid]) for uid, b in blocks.items()):
        # (results kept per unit: only the results made are moved, the untouched stay untouched)
        moved_units = {uid: b.moved(centers_of(c.models[uid])) for uid, b in blocks.items()
                       if isinstance(b, UnitResults)}
        res.models = ModelResults(moved_units)
        res.__dict__["_by_unit"] = dict(moved_units)
        return _as_old(res, old)
    ats = chain.from_iterable(map(centers_of, c.models.values()))
    was = list(old.models.values())
    parts = list(map(_PARTS, was))
    fresh_parts = parts if parts.count(None) == len(parts) else [None if x is None else dict(x) for x in parts]
    # each result a new one (its own parts), made by maps: no Python loop per model; the targets
    # are shared: the position-free policies give tuples (immutable), so a moved result's targets
    # are of the same type as a fresh decision's
    res.models = dict(zip(old.models, map(ModelResult, map(_ROLE, was), map(_ATTACKS, was),
                                          map(_TARGETS, was), ats, map(_WHY, was), fresh_parts)))
    items = iter(res.models.items())
    res.__dict__["_by_unit"] = {uid: dict(islice(items, len(ms))) for uid, ms in c.models.items()}
    return _as_old(res, old)


def _as_old(res: Analysis, old: Analysis) -> Analysis:
    """``res`` (its model results moved) given ``old``'s strike order, notes, input errors,
    engine parts and legend."""
    res.strike_order = old.strike_order
    res.notes = list(old.notes)  # (the prepared notes, in the signature, then the decided ones)
    res.input_errors = list(old.input_errors)
    for p in old.engine_parts():
        res.put(p)
    res.legend = old.legend
    return res
