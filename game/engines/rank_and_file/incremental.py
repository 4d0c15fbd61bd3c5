"""Incremental analysis inside one combat of the rank-and-file engine: only the units whose
inputs changed are decided again.

The engine (:mod:`.engine`) prepares the whole combat every time: engagements, the
``incomplete_ranks`` moves, base contact per engaged pair (cached in :mod:`.contacts` by the two units'
poses) and the ``gaps`` links. What a unit's models then do (``fighters``, ``supports``, its
strike steps, its Rank Bonus, its notes and the per-unit keys a policy adds) depends only on
its *inputs*: the unit itself (pose, profile, keywords, extra keys), its models as moved, its
engagements (enemy, facing both ways), each engaged enemy's own state and moves, the base
contacts of each engaged pair and the gap links of its models, under one ruleset, context and
order of units (an engaged enemy's position counts only when a chosen policy reads other
units' geometry, ``geometry=True`` in :mod:`.policy`, as The Old World's fight does; whfb8's
and t9a's policies learn of an enemy only its engagements, contacts, links and moves, so an
enemy sliding along a front without changing a base contact leaves its foes as they were).
:func:`analyse` keeps, per combat (the ruleset, context and unit ids in board
order), each unit's inputs and results; on the next call it decides again only the units
whose inputs differ (the dirty ones), on the part of the combat made of them and their
enemies (with the whole combat's moves, contacts and links), and keeps the rest.

The merged result equals deciding the whole combat (a property test checks it on random edit
sequences for every rank-and-file ruleset): model results, strike steps (merged by
:func:`engine.merge_steps`), Rank Bonus and per-unit keys in board order. A result this module
cannot split by unit (a note or an output key not naming a unit) is never memoised: that
combat is decided whole every time.
"""
from __future__ import annotations

from collections import defaultdict
from operator import attrgetter, is_
from typing import Any, Callable, Mapping, Optional, Sequence

from game.core.analysis import Analysis, ModelResult
from game.core.board import Unit, unit_of
from game.core.unit_models import centers_of, ids_of
from game.core.lru import LRU
from game.core.parts import StrikeOrder, StrikeStep, to_json
from game.core.results import ModelResults, UnitResults
from game.engines.rank_and_file import policy as pol
from game.engines.rank_and_file.joins import _joined, _merge_steps
from game.engines.rank_and_file.rechecks import rechecked

_MEMO = LRU(64)     # combat key -> _Memo


def unit_key(u: Unit) -> str:
    """Everything about a unit the ranked rules read (pose, player, profile, keywords, and the
    unit keys a policy may read, such as a troop type)."""
    return unit_keys(u)[0]


def _rest_key(u: Unit) -> str:
    """The part of :func:`unit_key` and :func:`placed_key` that is not the pose (after a
    separator: a tuple's repr ends where its brackets close, so the joined string is one key).
    Written once per unit (a unit is a value: an edit makes a new one)."""
    return u.kept("rest_key", _write_rest_key)


def _write_rest_key(u: Unit) -> str:
    return "|" + repr((u.player, u.profile, u.keywords, u.extra))


_POSE_REPRS = LRU(1024)  # pose key -> (its repr, the repr of its part without position) (bounded)


def unit_keys(u: Unit) -> tuple[str, str]:
    """(:func:`unit_key`, :func:`placed_key`) of ``u``: the reprs of its pose kept by pose key
    (a unit that did not move is not written out again), the rest's made once."""
    k = u.pose_key()
    pose = _POSE_REPRS.get(k)
    if pose is None:
        pose = _POSE_REPRS.put(k, (repr(k), repr((k[:7], tuple(b for _p, b in k[9])))))
    rest = _rest_key(u)
    return pose[0] + rest, pose[1] + rest


# ----- per-unit inputs and results ------------------------------------------------------------
def placed_key(u: Unit) -> str:
    """:func:`unit_key` without where the unit stands (its front, facing and skirmish model
    positions): what a policy that reads no other unit's geometry may read of an enemy."""
    return unit_keys(u)[1]  # pose key: (id, kind, base, files, count, last_rank, empty, front, facing, placed)


def both_signatures(c: Any, whole: bool, also_placed: bool) -> tuple[dict[str, tuple], Optional[dict[str, tuple]]]:
    """Each unit's inputs (see the module doc), hashable and comparable, in one pass: (with
    each engaged enemy's whole :func:`unit_key` when ``whole``, for a ruleset whose chosen
    policies read where models stand, else with its :func:`placed_key`: then engagements
    (facing both ways), base contacts, gap links and moves are all its foes' policies learn of
    where it stands; and with ``also_placed`` the placed-key inputs too, for ``recheck``, else
    None)."""
    if also_placed or not whole:
        both = {uid: unit_keys(u) for uid, u in c.units.items()}
        keys = {uid: k[0] for uid, k in both.items()}
        placed_keys = {uid: k[1] for uid, k in both.items()}
    else:
        keys = placed_keys = {uid: unit_key(u) for uid, u in c.units.items()}
    moves: dict[str, list] = defaultdict(list)
    for mid, path in c.res.moves.items():
        moves[unit_of(mid)].append((mid, tuple(map(tuple, path))))
    links: dict[str, list] = defaultdict(list)
    for a, b in c.res.gap_links:
        links[unit_of(a)].append((a, b))
        if unit_of(b) != unit_of(a):
            links[unit_of(b)].append((a, b))
    around: dict[str, list] = defaultdict(list)
    for e in c.engs:
        a, b = (e.unit, e.enemy) if e.unit < e.enemy else (e.enemy, e.unit)
        around[e.unit].append((e.enemy, e.facing, c.eng_facing.get((e.enemy, e.unit)),
                               tuple(moves.get(e.enemy, ())), c.pair_contacts.get((a, b), ()),
                               c.corner_pairs.get((a, b), ())))

    def sigs(enemy_keys: dict) -> dict[str, tuple]:
        out = {}
        for uid in c.units:
            near = sorted((x[0], x[1], x[2], enemy_keys[x[0]], x[3], x[4], x[5]) for x in around.get(uid, ()))
            out[uid] = (keys[uid], tuple(moves.get(uid, ())), tuple(near), tuple(links.get(uid, ())))
        return out
    full = sigs(keys if whole else placed_keys)
    return full, (sigs(placed_keys) if also_placed else None)


class _Rec:
    """One unit's results: ``models`` {model id: ModelResult}, strike ``steps`` (plain
    mappings holding only its models), ``notes``, ``parts`` (part type -> its piece of that
    part, ``part.for_units({unit})``)."""

    __slots__ = ("sig", "placed", "reads", "free", "models", "steps", "notes", "parts")

    def __init__(self, sig: tuple, placed: Optional[tuple] = None, reads: Optional[list] = None) -> None:
        self.sig = sig
        self.placed = placed  # its inputs with its enemies' positions left out (both_signatures)
        self.reads = reads    # what its policies recorded of where enemy bases stand (None: nothing to recheck)
        self.free: Optional[tuple] = None  # its inputs with no position at all (:func:`free_signature`)
        self.models: Mapping = {}  # model id -> result (a dict or a UnitResults)
        self.steps: list = []
        self.notes: list = []
        self.parts: dict = {}


class _Memo:
    __slots__ = ("units", "kinds", "shared", "joins", "models", "past")

    def __init__(self, units: dict, kinds: dict, shared: dict, old: Optional["_Memo"] = None) -> None:
        self.units = units    # unit id -> _Rec
        self.kinds = kinds    # part type -> unit | shared, in the order written
        self.shared = shared  # the parts that belong to the combat, not to a unit
        # what the last assembly built, for the next one (:func:`_assemble`): each part type's
        # joins of pieces ((id a, id b) -> (a, b, a.merged(b))), and (each unit's model results
        # dict, the whole combat's model results)
        self.joins: dict = old.joins if old else {}
        self.models: Optional[tuple[list, dict]] = old.models if old else None
        self.past: dict[str, list[_Rec]] = old.past if old else {}  # unit id -> its latest records, newest first


def _step_json(s: Any) -> dict:
    """``to_json(s)`` of a :class:`StrikeStep` (None fields left out, tuples as lists), read
    field by field when they are plain values (no generic walk per frame)."""
    if isinstance(s, StrikeStep) and isinstance(s.step, (int, float, str)) and isinstance(s.label, str):
        d = {"step": s.step, "label": s.label, "models": list(s.models)}
        if s.parts is not None:
            d["parts"] = list(s.parts)
        return d
    return to_json(s)


def _steps_by_unit(steps: Sequence) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = defaultdict(list)
    for s in steps:
        d = _step_json(s)
        per: dict[str, dict] = {}
        for mid in d["models"]:
            uid = unit_of(mid)
            if uid not in per:
                per[uid] = {**d, "models": [], **({"parts": []} if "parts" in d else {})}
            per[uid]["models"].append(mid)
        for p in d.get("parts") or ():
            uid = unit_of(p.split("/", 1)[0])
            if uid in per:
                per[uid]["parts"].append(p)
        for uid, x in per.items():
            if "parts" in x and not x["parts"]:
                del x["parts"]
            out[uid].append(x)
    return out


def split(res: Analysis, c: Any, which, sigs: dict, placed: Optional[dict] = None) -> Optional[tuple[dict, dict, dict]]:
    """Units ``which`` of the decided combat ``c`` (result ``res``) as :class:`_Rec` each,
    the kind of each part type in order (``unit``: split by unit with ``for_units``, joined
    again with ``merged``; ``shared``: the combat's, e.g. legend wording) and the shared parts;
    None when some part of the result names no unit of ``c`` (it cannot be split)."""
    units = set(c.units)
    if len(res.models) != sum(len(ms) for uid, ms in c.deciding()):
        return None
    reads = c.state.get("geometry_reads") or {}
    recs = {uid: _Rec(sigs[uid], placed.get(uid) if placed else None, reads.get(uid)) for uid in which}
    blocks = res.models.units() if isinstance(res.models, ModelResults) else None
    for uid, rec in recs.items():
        ids = ids_of(c.models[uid])
        block = blocks.get(uid) if blocks is not None else None
        if block is not None and list(block) == ids:
            rec.models = block  # (a unit's results as decided: made only when read)
        else:
            rec.models = {mid: res.models[mid] for mid in ids}
    for uid, steps in _steps_by_unit(res.strike_order).items():
        if uid not in units:
            return None
        if uid in recs:
            recs[uid].steps = steps
    for note in res.notes:
        uid = note.split(": ", 1)[0]
        if uid not in units:
            return None
        if uid in recs:
            recs[uid].notes.append(note)
    kinds: dict[type, str] = {}
    shared = {}
    for p in res.engine_parts():
        t = type(p)
        pieces = {uid: p.for_units({uid}) for uid in c.units}
        if any(x is p for x in pieces.values()):  # not per unit (legend wording)
            kinds[t], shared[t] = "shared", p
            continue
        joined = None
        for uid in c.units:
            joined = pieces[uid] if joined is None else joined.merged(pieces[uid])
        if joined is None or (joined != p and joined.json_items() != p.json_items()):
            return None  # some piece names no unit of the combat: it cannot be split
        kinds[t] = "unit"
        for uid, rec in recs.items():
            rec.parts[t] = pieces[uid]
    return recs, kinds, shared


def _assemble(c: Any, memo: _Memo) -> Analysis:
    """The whole combat's result from every unit's record (board order), on ``c.res`` (which
    holds the engagements, moves and gap links :func:`engine.prepare` found)."""
    res = c.res
    recs = [memo.units[uid] for uid in c.units]
    _assemble_models(res, recs, memo, list(c.units))
    res.__dict__["_by_unit"] = {uid: rec.models for uid, rec in zip(c.units, recs)}  # (engine._by_unit)
    seqs = [rec.steps for rec in recs]
    last = memo.joins.get("steps")  # (the steps lists last merged, their StrikeOrder part)
    if last is not None and len(last[0]) == len(seqs) and all(a is b for a, b in zip(last[0], seqs)):
        res.put(last[1])  # every unit's steps the very lists merged last time: the same (frozen) part
    else:
        res.strike_order = _merge_steps(seqs)
        memo.joins["steps"] = (seqs, res.parts.get(StrikeOrder))
    res.notes = [n for rec in recs for n in rec.notes]
    for t, kind in memo.kinds.items():
        if kind == "shared":
            res.put(memo.shared[t])
            continue
        pieces = [piece for piece in (rec.parts.get(t) for rec in recs) if piece is not None]
        if pieces:
            last = memo.joins.get(("whole", t))  # (the pieces last joined, their join)
            if last is not None and len(last[0]) == len(pieces) and all(map(is_, last[0], pieces)):
                res.put(last[1])  # the very same pieces: the same (frozen) part, nothing joined
                continue
            used: dict = {}
            joined = _joined(pieces, memo.joins.get(t) or {}, used)
            res.put(joined)
            memo.joins[t] = used
            memo.joins[("whole", t)] = (pieces, joined)
    res.legend = pol.legend(c.rs)
    return res


def _assemble_models(res: Analysis, recs: list, memo: _Memo, uids: Sequence[str] = ()) -> None:
    """``res.models``: every unit's model results in board order (units ``uids``, each unit's
    record ``recs``), as a :class:`~game.core.results.ModelResults` over the records' results
    (no model copied). Results already in ``res.models`` come first (as a dict update would
    keep them)."""
    seq = [rec.models for rec in recs]
    if res.models:
        for d in seq:
            res.models.update(d)
        return
    res.models = ModelResults.merged(zip(uids, seq))


def _sub_combat(c: Any, dirty: set) -> Any:
    """The part of prepared combat ``c`` made of the ``dirty`` units and their enemies, with
    the whole combat's moves, contacts and links (restricted to it), ready to decide the
    ``dirty`` units only (``only``; their enemies are there to be read)."""
    part = set(dirty) | {e.enemy for e in c.engs if e.unit in dirty}
    units = {uid: u for uid, u in c.units.items() if uid in part}
    models = {uid: c.models[uid] for uid in units}
    engs = [e for e in c.engs if e.unit in part and e.enemy in part]
    sub = pol.Combat(board=c.board, rs=c.rs, units=units, models=models, engs=engs, res=Analysis(ruleset=c.rs.id),
                     tol=c.tol)
    sub.bounds = {uid: c.bounds[uid] for uid in units}
    sub.eng_facing = {(e.unit, e.enemy): e.facing for e in engs}
    contacts: dict[str, set[str]] = defaultdict(set)
    for ms in models.values():
        for mid in ids_of(ms):
            hit = c.contacts.get(mid)
            if hit is not None:
                contacts[mid] = {t for t in hit if unit_of(t) in part}
    sub.contacts = contacts
    sub.corner_pairs = c.corner_pairs
    sub.linked = {m for m in c.linked if unit_of(m) in part}
    sub.order, sub.unit_of = c.order, c.unit_of
    sub.res.moves = {k: v for k, v in c.res.moves.items() if unit_of(k) in part}
    sub.res.gap_links = [l for l in c.res.gap_links if unit_of(l[0]) in part and unit_of(l[1]) in part]
    sub.res.engagements = list(engs)
    sub.only = set(dirty)
    return sub


def _store(key: tuple, out: Optional[tuple], old: Optional[_Memo], c: Any = None) -> Optional[_Memo]:
    if out is None:
        return None
    recs, kinds, shared = out
    units = dict(old.units) if old else {}
    units.update(recs)
    memo = _MEMO.put(key, _Memo(units, kinds, shared, old))
    if c is not None:
        for uid, rec in recs.items():
            rec.free = free_signature(c.units[uid], rec.placed if rec.placed is not None else rec.sig)
            past = memo.past.setdefault(uid, [])
            past.insert(0, rec)
            del past[_PAST:]
    return memo


_ROLE, _ATTACKS, _TARGETS, _WHY, _PARTS = (attrgetter(n) for n in ("role", "attacks", "targets", "why", "parts"))
_PAST = 12  # decisions kept per unit for :func:`_moved` (a unit slid to and fro meets the same contacts again)


def free_signature(u: Unit, sig: tuple) -> tuple:
    """A unit's inputs with no position in them: its :func:`placed_key` and facing, then the
    rest of its signature ``sig`` (moves, engaged enemies by :func:`placed_key`, facings, base
    contacts and links, all by model id): the signature a placed (``both_signatures``) record
    holds, or a full one when no policy reads enemy positions (enemies by placed key already)."""
    return (placed_key(u), u.facing_deg) + tuple(sig[1:])


def _moved_fits(c: Any, memo: _Memo, uid: str, sigs: dict, placed: Optional[dict], checks: list) -> list:
    """Unit ``uid``'s latest records (newest first, at most 3) decided with its position-free
    inputs now (:func:`free_signature`), each with reads to recheck when ``checks``: what
    :func:`_moved` may take."""
    past = memo.past.get(uid)
    if not past:
        return []
    free = free_signature(c.units[uid], placed[uid] if placed is not None else sigs[uid])
    return [old for old in past[:3] if old.free == free and not (checks and old.reads is None)]


def _moved(c: Any, memo: _Memo, dirty: set, sigs: dict, placed: Optional[dict], checks: list,
           known: Optional[dict] = None) -> set:
    """The units of ``dirty`` decided before with the same position-free inputs
    (:func:`free_signature`: same contacts, engagements, enemies, formation and facing, only
    standing elsewhere) and, when a policy reads where enemy bases stand, the same answers to
    every recorded read now (``recheck``, :func:`rechecked`): that decision stands, each model
    result given its model's centre now (``at``, the one position a result holds). Their
    records are replaced in ``memo``; returns those units. ``checks``: the geometric policies
    (their rechecks), or empty. Each unit's latest records are tried newest first, the first
    of each unit's left at once for every unit (one recheck per round; ``known``: verdicts
    already had this frame, :func:`rechecked`)."""
    out: set = set()
    left: dict[str, list] = {}
    for uid in dirty:
        fit = _moved_fits(c, memo, uid, sigs, placed, checks)
        if fit:
            left[uid] = fit
    while left:
        tried = [(uid, recs.pop(0)) for uid, recs in left.items()]
        verdicts = rechecked(c, checks, [old.reads for _uid, old in tried], known) if checks else [True] * len(tried)
        for (uid, old), ok in zip(tried, verdicts):
            rec = _moved_rec(old, c.models[uid], sigs[uid], placed[uid] if placed is not None else None) if ok else None
            if rec is not None:
                memo.units[uid] = rec
                out.add(uid)
                del left[uid]
            elif not left[uid]:
                del left[uid]
    return out


def _moved_rec(old: _Rec, ms: list, sig: tuple, placed: Optional[tuple]) -> Optional[_Rec]:
    """Record ``old`` with each model result at its model of ``ms``'s centre (new results, the
    rest shared: targets are never mutated in place; parts dicts copied); None when the model
    ids are not the same, in the same order."""
    ids = ids_of(ms)
    if list(old.models) != ids:
        return None
    rec = _Rec(sig, placed, old.reads)
    rec.free = old.free
    rec.steps, rec.notes, rec.parts = old.steps, old.notes, old.parts
    if type(old.models) is UnitResults:  # (only the results made are moved; the untouched stay so)
        rec.models = old.models.moved(centers_of(ms))
        return rec
    was = list(old.models.values())
    parts = list(map(_PARTS, was))
    fresh = parts if parts.count(None) == len(parts) else [None if x is None else dict(x) for x in parts]
    rec.models = dict(zip(ids, map(ModelResult, map(_ROLE, was), map(_ATTACKS, was), map(_TARGETS, was),
                                   centers_of(ms), map(_WHY, was), fresh)))  # (maps: no Python loop per model)
    rec.steps, rec.notes, rec.parts = old.steps, old.notes, old.parts
    return rec


def analyse(c: Any, decide: Callable[[Any], Analysis]) -> Analysis:
    """Decide the prepared combat ``c`` (:func:`engine.prepare`) with ``decide``, deciding
    again only the units whose inputs changed since this combat was last decided. Returns the
    same :class:`Analysis` as ``decide(c)``."""
    if len(c.units) < 3:
        return decide(c)
    key = (c.rs.id, id(c.rs), repr(c.board.context), tuple(c.units))
    geometry = pol.geometric(c.rs)
    checks = geometry if all(p.recheck for p in geometry) else []
    sigs, placed = both_signatures(c, bool(geometry), bool(checks))
    memo = _MEMO.get(key)
    if memo is not None and memo.units.keys() >= sigs.keys():
        dirty = {uid for uid, s in sigs.items() if memo.units[uid].sig != s}
        known = _prefetch(c, memo, dirty, sigs, placed, checks) if placed is not None and dirty else None
        if placed is not None:
            dirty -= _still(c, memo, dirty, sigs, placed, checks, known)
        if dirty and (placed is not None or not geometry):
            dirty -= _moved(c, memo, dirty, sigs, placed, checks, known)
    else:
        dirty = set(sigs)
        memo = None
    if memo is not None and not dirty:
        return _assemble(c, memo)
    if memo is not None and len(dirty) < len(sigs):
        sub = _sub_combat(c, dirty)
        out = split(decide(sub), sub, dirty, sigs, placed)
        if out is not None and list(out[1].items()) == list(memo.kinds.items()):
            stored = _store(key, out, memo, c)
            assert stored is not None
            return _assemble(c, stored)
    res = decide(c)
    _store(key, split(res, c, list(c.units), sigs, placed), None, c)
    return res


def _still_fits(memo: _Memo, dirty: set, placed: dict) -> list:
    """``(unit id, record)`` of the units of ``dirty`` whose inputs differ only by where their
    enemies stand, with reads to recheck: what :func:`_still` may keep."""
    fit = []
    for uid in dirty:
        rec = memo.units[uid]
        if rec.placed is None or rec.reads is None or rec.placed != placed[uid]:
            continue
        fit.append((uid, rec))
    return fit


def _prefetch(c: Any, memo: _Memo, dirty: set, sigs: dict, placed: dict, checks: list) -> dict:
    """The verdicts :func:`_still` and then :func:`_moved` will ask for first, found in one
    :func:`rechecked` (one array pass for the whole frame, not one per step): the reads of
    each unit :func:`_still` may keep and of the newest record :func:`_moved` may take for
    each other dirty unit. Returns the ``known`` verdicts."""
    still = _still_fits(memo, dirty, placed)
    batch = [rec.reads for _uid, rec in still]
    kept = {uid for uid, _rec in still}
    for uid in dirty:
        if uid not in kept:
            fit = _moved_fits(c, memo, uid, sigs, placed, checks)
            if fit:
                batch.append(fit[0].reads)
    known: dict = {}
    if batch:
        rechecked(c, checks, batch, known)
    return known


def _still(c: Any, memo: _Memo, dirty: set, sigs: dict, placed: dict, checks: list,
           known: Optional[dict] = None) -> set:
    """The units of ``dirty`` whose inputs differ only by where their enemies stand and whose
    policies' recorded reads of enemy geometry still hold on ``c`` (:func:`rechecked`, all of
    them at once; ``known``: verdicts had this frame): their kept results stand (their record
    now carries the new inputs). ``checks``: the geometric policies."""
    fit = _still_fits(memo, dirty, placed)
    out = set()
    for (uid, rec), ok in zip(fit, rechecked(c, checks, [rec.reads for _uid, rec in fit], known) if fit else []):
        if ok:
            rec.sig = sigs[uid]
            out.add(uid)
    return out
