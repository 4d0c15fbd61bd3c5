"""Rank-and-file close combat (strategy ``rank_and_file``): a pipeline of named policies.

One engine serves every rank-and-file system (whfb8, t9a, ...); the ruleset names one policy
per slot (see :mod:`game.engines.rank_and_file.policy` for the slots and their signatures,
:mod:`game.engines.rank_and_file.policies` for the built-in ones) and gives the parameters those
policies declare. For each combat:

1. engagements: which units touch and on which facing (:mod:`game.core.engagement`);
2. ``incomplete_ranks``: models that move before fighting;
3. base contact between models; ``gaps``: links across gaps, added to the contacts;
4. ``fighters`` (with ``attack_cap``), then ``supports`` (with ``horde`` and ``attack_cap``);
5. ``strike_order`` and ``rank_bonus``.

Separate combats are analysed on their own and cached by the state of their units (and of the
units nearby that could block an extended base), so re-analysing while one unit is dragged
recomputes only the combat it is in.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain, islice, repeat
from typing import Any, Callable, Mapping, Optional, Sequence

from game.core.arrays import ops

from game.core import geometry as g
from game.core import schema as sc
from game.core.analysis import Analysis, ModelResult
from game.core.board import Board, Unit, reserve_caches, unit_of
from game.core.unit_models import Model, Models, centers_of, ids_of
from game.core.engagement import boundary, combats_and_engagements, find_engagements, units_box
from game.core.lru import LRU
from game.core.parts import RankBonus, StrikeStep
from game.core.results import ModelResults, UnitResults
from game.core.strategy import Engine, Legend, ProfileField
from game.core import closing
from game.core.round_rules import RoundParams, round_steps
from game.engines.rank_and_file import policy as pol
from game.engines.rank_and_file.policy import legend
from game.engines.rank_and_file import policies as ranked_policies
from game.engines.rank_and_file import congruent, contacts, incremental

NAME = "rank_and_file"
NONE_WHY = "Not in base contact with an enemy and not behind a model fighting to the front."


@dataclass(frozen=True)
class RankedParams:
    """The engine's own parameters: the contact tolerance (mm) and one policy name per slot
    (the chosen policies add their parameters to the schema)."""

    contact_tolerance_mm: float
    incomplete_ranks: str = field(metadata={"choices": pol.choices("incomplete_ranks")})
    gaps: str = field(metadata={"choices": pol.choices("gaps")})
    fighters: str = field(metadata={"choices": pol.choices("fighters")})
    horde: str = field(metadata={"choices": pol.choices("horde")})
    supports: str = field(metadata={"choices": pol.choices("supports")})
    attack_cap: str = field(metadata={"choices": pol.choices("attack_cap")})
    strike_order: str = field(metadata={"choices": pol.choices("strike_order")})
    rank_bonus: str = field(metadata={"choices": pol.choices("rank_bonus")})
    close_up: str = field(metadata={"choices": lambda: list(closing.POLICIES)})


_SCHEMAS: dict[tuple, type] = {}


def schema_for(raw: Mapping[str, Any]) -> type:
    """The ranked schema for raw values ``raw``: :class:`RankedParams` plus the parameters of
    each chosen policy (an unknown choice adds nothing; the loader reports it). The same
    choices give the same class."""
    chosen = []
    for slot in pol.SLOTS:
        name = raw.get(slot)
        if isinstance(name, str) and name in pol.names(slot):
            chosen.append((slot, name))
    key = tuple(chosen)
    if key not in _SCHEMAS:
        parts = [RankedParams, RoundParams] + [p for p in (pol.get(s, n).params for s, n in chosen) if p is not None]
        _SCHEMAS[key] = sc.merge("RankedParams", parts)
    return _SCHEMAS[key]


# ----- analysis -------------------------------------------------------------------------------
_COMBAT_CACHE = LRU(64)  # a combat's units (and neighbours) -> its Analysis (bounded, oldest out)


_unit_key = incremental.unit_key


def analyse(board: Board, rs) -> Analysis:
    """Analyse a rank-and-file close combat under ruleset ``rs``.

    Returns an :class:`Analysis` with every model's role, attacks and targets, gap links,
    rule-mandated moves and the strike order. Never raises on a valid :class:`Board`.

    When ``context.combats`` lists pairs no longer in contact, they first close up by the
    ruleset's ``close_up`` policy (:mod:`.closing`); the position after that move is analysed
    and the moved models are reported under ``moves``.
    """
    pairs = (board.context or {}).get("combats")
    if not pairs:
        return _analyse_board(board, rs)
    shut = closing.close_up(board, rs, pairs)  # (a new board: the units that moved are new units)
    res = _analyse_board(shut.board, rs)
    res.moves = closing.merge_moves(shut.moves, res.moves)
    res.notes += shut.notes
    return res


def _analyse_board(board: Board, rs) -> Analysis:
    """Analyse the board as it stands (no closing up), combat by combat (cached), merged by
    :func:`_assemble` (work per combat kept on its cached part: a frame in which one combat
    changed merges in time proportional to the units, not the models)."""
    v = rs.values
    reserve_caches(len(board.units))
    groups, engs = combats_and_engagements(board, v.contact_tolerance_mm)
    _COMBAT_CACHE.size = max(64, 2 * len(groups) + 16)  # every combat, plus a short drag history
    congruent.reserve(len(groups))
    if len(groups) <= 1:
        return analyse_combat(board, rs, engs)
    by_id = {u.id: u for u in board.units}
    extend = any(pol.get(slot, getattr(v, slot)).neighbours for slot in pol.SLOTS)
    terrain_key = repr(board.terrain) if extend else ""
    context_key = repr(board.context)
    shares: list[_Share] = []
    moves_free = congruent.usable(rs)
    near = _Boxes(board.units) if extend else None
    for ids in groups:
        members = [by_id[i] for i in ids]
        if near is not None:
            # units near the combat may block an extended base (Fighting over Gaps); an extended
            # base ends at an enemy model of the combat, so it stays within the combat's box
            box = units_box(members)
            grow = max(max(u.width_mm, u.depth_mm) if u.is_ranked else 0.0 for u in members)
            box = (box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow)
            members += near.touching(box, set(ids))
        key = (rs.id, id(rs), terrain_key, context_key, tuple(_unit_key(u) for u in members))
        part = _COMBAT_CACHE.get(key)
        if part is None:
            sub = Board(units=tuple(members), ruleset=board.ruleset, terrain=board.terrain, table=board.table,
                        context=board.context)
            part = _decided(prepare(sub, rs), rs, (rs.id, id(rs), terrain_key, context_key), moves_free)
            _COMBAT_CACHE.put(key, part)
        shares.append(_share(part, ids))
    return _assemble(board, rs, shares, (rs.id, id(rs), context_key))


class _Boxes:
    """The units of a board with their boxes (:func:`units_box` of each, as arrays), so each
    combat finds the units whose box touches its own without a loop over every unit."""

    def __init__(self, units: Sequence[Unit]) -> None:
        self.units = units
        self.boxes = ops.box_rows(units_box([u]) for u in units)

    def touching(self, box: tuple[float, float, float, float], but: set[str]) -> list[Unit]:
        """The units (board order) not in ``but`` whose box touches ``box`` (``g.bbox_gap`` of
        the two <= 0: overlapping or sharing an edge on both axes)."""
        hit = ops.touching_boxes(self.boxes, box)
        return [u for u in map(self.units.__getitem__, hit) if u.id not in but]


def _decided(c: pol.Combat, rs, key: tuple, moves_free: bool) -> Analysis:
    """Prepared combat ``c`` decided (:mod:`.incremental`), or, when the ruleset's deciding
    policies read no position (``moves_free``) and the same units stood so before, moved by
    one offset, with the same signature: that decision at the models' new centres
    (:mod:`.congruent`)."""
    if not moves_free:
        return incremental.analyse(c, decide)
    sig = congruent.signature(c)
    if sig is None:
        return incremental.analyse(c, decide)
    skey = key + tuple(congruent.shape_key(u) for u in c.units.values())
    old = congruent.find(skey, sig)
    if old is not None:
        return congruent.moved(old, c)
    res = incremental.analyse(c, decide)
    congruent.keep(skey, sig, c, res)
    return res


class _Share:
    """One combat's share of the board's result: its part restricted to the combat's own
    units ``mine`` (a part may also hold nearby units that could block an extended base).
    ``models``: unit id -> {model id: result} (:func:`_by_unit`, the part's own dicts);
    ``links``, ``moves``, ``engs``, ``notes``, engine ``parts`` (``for_units(mine)``) and strike
    ``steps`` (:func:`_own_steps`). Kept on the (cached) part, so an unchanged combat is
    restricted once, not every frame; read-only."""

    __slots__ = ("mine", "models", "links", "moves", "engs", "notes", "parts", "steps")

    def __init__(self, part: Analysis, mine: frozenset) -> None:
        self.mine = mine
        grouped = _by_unit(part)
        self.models = {uid: ms for uid, ms in grouped.items() if uid in mine}
        self.links = tuple(l for l in part.gap_links if unit_of(l[0]) in mine)
        self.moves = {k: p for k, p in part.moves.items() if unit_of(k) in mine}
        self.engs = tuple(e for e in part.engagements if e.unit in mine)
        self.notes = tuple(part.notes)
        self.parts = tuple(p.for_units(set(mine)) for p in part.engine_parts())
        self.steps = _own_steps(part, set(mine))


def _share(part: Analysis, ids: list[str]) -> _Share:
    """The :class:`_Share` of combat ``ids`` in ``part`` (made once per part and combat)."""
    mine = frozenset(ids)
    kept = part.__dict__.setdefault("_shares", {})
    sh = kept.get(mine)
    if sh is None:
        if len(kept) > 8:
            kept.clear()
        sh = kept[mine] = _Share(part, mine)
    return sh


def _merged_models(board: Board, shares: list[_Share], key: tuple, per_unit: dict[str, Mapping]) -> ModelResults:
    """Every model's result in board order (units in board order, each unit's models in its
    part's order): a :class:`~game.core.results.ModelResults` over the shares' per-unit results
    (no model copied; it reads as the dict they merge to). ``per_unit`` receives unit id ->
    that unit's results (the shares' own, read-only). ``key`` is kept for the callers."""
    for sh in shares:
        per_unit.update(sh.models)
    return ModelResults.merged((u.id, per_unit.get(u.id)) for u in board.units)


def _assemble(board: Board, rs, shares: list[_Share], key: tuple) -> Analysis:
    """The board's :class:`Analysis` from its combats' shares (in combat order): models in
    board order (:func:`_merged_models`), gap links sorted, moves, engagements and notes (each
    once) in combat order, engine parts merged per type (:func:`_merge_parts`), strike steps by
    :func:`merge_steps`."""
    res = Analysis(ruleset=rs.id)
    per_unit: dict[str, Mapping] = {}
    res.models = _merged_models(board, shares, key, per_unit)
    res.gap_links = sorted(chain.from_iterable(sh.links for sh in shares))
    moves: dict = {}
    for sh in shares:
        moves.update(sh.moves)
    res.moves = moves
    res.engagements = list(chain.from_iterable(sh.engs for sh in shares))
    notes: list[str] = []
    seen: set[str] = set()
    for sh in shares:  # each combat's notes not said by an earlier combat
        new = [n for n in sh.notes if n not in seen]
        notes += new
        seen.update(new)
    res.notes = notes
    for sh in shares:
        _merge_parts(res, sh.parts)
    index = {u.id: i for i, u in enumerate(board.units)}
    spans = [(min(index[x] for x in sh.mine), max(index[x] for x in sh.mine)) for sh in shares]
    res.strike_order = merge_steps([sh.steps for sh in shares],
                                   lambda: {mid: i for i, mid in enumerate(res.models)}, spans)
    res.legend = legend(rs)
    return res


def _by_unit(part: Analysis) -> dict[str, dict]:
    """A combat's model results grouped by unit id, ``{unit id: {model id: result}}`` in its
    order; kept on the (cached) part, so a part reused frame after frame is grouped once
    (:func:`decide` and the incremental memo hand it over as they build the results)."""
    grouped = part.__dict__.get("_by_unit")
    if grouped is None or sum(map(len, grouped.values())) != len(part.models):
        grouped = {}
        for mid, r in part.models.items():
            grouped.setdefault(unit_of(mid), {})[mid] = r
        part.__dict__["_by_unit"] = grouped
    return grouped


Steps = list[tuple[Any, str, list[str], Optional[list[str]]]]


def _own_steps(part: Analysis, mine: set[str]) -> Steps:
    """A part's strike steps as ``(step, label, model ids, parts or None)``, keeping only the
    models of its own combat's units ``mine`` (a part may hold nearby units that could block an
    extended base); a step left without models is dropped."""
    whole = _by_unit(part).keys() <= mine
    out: Steps = []
    for s in part.strike_order:
        if whole:
            ms = list(s.models)
            ps = None if s.parts is None else list(s.parts)
        else:
            ms = [m for m in s.models if unit_of(m) in mine]
            ps = None if s.parts is None else [p for p in s.parts if unit_of(p) in mine]
        if ms:
            out.append((s.step, s.label, ms, ps))
    return out


def merge_steps(parts: list[Steps], order: Callable[[], dict[str, int]],
                spans: Optional[list[tuple[int, int]]] = None) -> list[StrikeStep]:
    """Strike orders of separate combats (:func:`_own_steps`) as one: steps of equal ``step``
    merged (the first label kept), highest first, models and parts in board order (``order()``:
    model id -> index, asked for only when needed); ``parts`` only when a step had them.

    ``spans``: per combat, the first and last board index of its units. When no two combats'
    spans overlap, each combat's models (in board order within it) are simply laid end to end
    by span; otherwise every step is sorted by ``order()``."""
    steps: dict = {}
    for n, seq in enumerate(parts):
        for step, label, ms, ps in seq:
            d = steps.get(step)
            if d is None:
                d = steps[step] = [label, [], [] if ps is not None else None]
            d[1].append((n, ms))
            if ps:
                if d[2] is None:
                    d[2] = []
                d[2].append((n, ps))
    apart = spans is not None and all(a[1] < b[0] for a, b in zip(sorted(spans), sorted(spans)[1:]))
    by: Optional[dict[str, int]] = None
    out = []
    for k in sorted(steps, reverse=True):
        label, runs, pruns = steps[k]
        if apart:
            assert spans is not None
            ms = list(chain.from_iterable(run for _n, run in sorted(runs, key=lambda t: spans[t[0]])))
            ps = None if pruns is None else list(chain.from_iterable(
                run for _n, run in sorted(pruns, key=lambda t: spans[t[0]])))
        else:
            by = by if by is not None else order()
            ms = sorted((m for _n, run in runs for m in run), key=by.__getitem__)
            ps = None if pruns is None else sorted((p for _n, run in pruns for p in run),
                                                   key=lambda p: by[p.split("/", 1)[0]])  # type: ignore[index]
        out.append(StrikeStep(k, label, tuple(ms), None if ps is None else tuple(ps)))
    return out


def _merge_parts(into: Analysis, parts: tuple) -> None:
    """Add a combat's typed parts (each already restricted to the combat's units,
    ``for_units``), merged with the same type from earlier combats (``merged``)."""
    for own in parts:
        have = into.parts.get(type(own))
        into.put(own if have is None else have.merged(own))


def analyse_combat(board: Board, rs, engs: Optional[list] = None) -> Analysis:
    """The ranked policies on one board (any number of combats). Inside a combat only the units
    whose inputs changed since the board was last seen are decided again
    (:mod:`.incremental`); the result equals :func:`decide` on the whole board. ``engs``: the
    board's :func:`~game.core.engagement.find_engagements` when the caller has them."""
    return incremental.analyse(prepare(board, rs, engs), decide)


def prepare(board: Board, rs, engs: Optional[list] = None) -> pol.Combat:
    """Steps 1-3 of the pipeline on the whole board: engagements, ``incomplete_ranks`` moves,
    base contact (per engaged pair, cached by the two units' poses) and ``gaps`` links.
    Returns the :class:`~.policy.Combat` ready for :func:`decide` (``c.res`` holds the
    engagements, moves and gap links; no model result yet). ``engs``: the board's
    :func:`~game.core.engagement.find_engagements` when the caller found them already
    (:func:`~game.core.engagement.combats_and_engagements`), else found here."""
    v = rs.values
    tol = v.contact_tolerance_mm
    units = {u.id: u for u in board.units}
    models: dict[str, list[Model]] = {u.id: u.models() for u in board.units}
    if engs is None:
        engs = find_engagements(units, models, {uid: boundary(units[uid], models[uid]) for uid in units}, tol)
    own = dict(models)  # each unit's own models, as its pose gives them (before any policy moves one)
    c = pol.Combat(board=board, rs=rs, units=units, models=models, engs=engs, res=Analysis(ruleset=rs.id), tol=tol)
    c.run("incomplete_ranks")
    c.bounds = {uid: boundary(units[uid], c.models[uid]) for uid in units}
    c.eng_facing = {(e.unit, e.enemy): e.facing for e in engs}
    c.res.engagements = list(engs)
    c.pair_contacts = contacts.pair_contacts(c, own)
    c.contacts = contacts.contacts_of(c.pair_contacts)
    links = c.run("gaps")
    links = {l for l in links if not (set(l) <= ({next(iter(l))} | c.contacts[next(iter(l))]))}
    for l in links:  # (a new set each: the contact sets are shared with the next frame, contacts.contacts_of)
        a, b = sorted(l)
        c.contacts[a] = c.contacts[a] | {b}
        c.contacts[b] = c.contacts[b] | {a}
    c.res.gap_links = sorted(tuple(sorted(l)) for l in links)
    c.linked = {m for l in links for m in l}
    c.order = contacts.Order(c.models, units)
    c.unit_of = contacts.UnitOf(c.models)
    return c


def decide(c: pol.Combat) -> Analysis:
    """Steps 4-5 on a prepared combat (all of it, or the part :mod:`.incremental` hands over):
    ``fighters``, ``supports``, ``strike_order`` and ``rank_bonus``. Returns ``c.res``."""
    deciding = c.deciding()
    ids = [ids_of(ms) for _uid, ms in deciding]
    lazy = _untouched(c, deciding, ids)
    if lazy is not None:
        c.res.models = lazy  # (each model's result made when a policy or a reader asks for it)
    else:
        results = c.res.models
        for (_uid, ms), u_ids in zip(deciding, ids):  # one fresh result per model, made by maps
            n = len(ms)
            results.update(zip(u_ids, map(ModelResult, repeat("none", n), repeat(0, n), repeat(_NO_TARGETS, n),
                                          centers_of(ms))))
    c.run("fighters")
    c.run("supports")
    results = c.res.models
    if isinstance(results, ModelResults):
        results.fill_why(NONE_WHY)
    else:
        for r in results.values():
            if r.role == "none" and not r.why:
                r.why = NONE_WHY
    c.res.strike_order = c.run("strike_order")  # (the setter makes each step a StrikeStep)
    bonus = c.run("rank_bonus")
    if bonus or "rank_bonus_why" in c.state:
        c.res.put(RankBonus(bonus, c.state.get("rank_bonus_why")))
    c.res.legend = legend(c.rs)
    # grouped by unit for the board-wide merge (_by_unit), after the policies (one may replace results)
    results = c.res.models
    units = results.units() if isinstance(results, ModelResults) else None
    if units is not None and list(units) == [uid for uid, _ms in deciding]:
        c.res.__dict__["_by_unit"] = dict(units)
        return c.res
    if list(results) == list(chain.from_iterable(ids)):  # (the usual case) unit by unit, in order:
        items = iter(results.items())                     # each unit's run of the dict
        c.res.__dict__["_by_unit"] = {uid: dict(islice(items, len(u_ids))) for (uid, _), u_ids in zip(deciding, ids)}
        return c.res
    grouped = {uid: {mid: results[mid] for mid in ids_of(ms)} for uid, ms in deciding}
    if sum(map(len, grouped.values())) == len(results):
        c.res.__dict__["_by_unit"] = grouped
    return c.res


def _untouched(c: pol.Combat, deciding: list, ids: list) -> Optional[ModelResults]:
    """The deciding units' results before any policy ran, as a
    :class:`~game.core.results.ModelResults` of one :class:`~game.core.results.UnitResults`
    per unit (every model ``none`` at its centre, no result made yet); None when the combat's
    results already hold something, or two models share an id (then a dict is filled)."""
    if c.res.models:
        return None
    units: dict = {}
    for (uid, ms), u_ids in zip(deciding, ids):
        block = UnitResults.of(u_ids, centers_of(ms))
        # (a unit's own Models are ids ``<unit>.<slot>`` by construction: its first one is checked)
        if block is None or uid in units or any(unit_of(m) != uid for m in (u_ids[:1] if type(ms) is Models else u_ids)):
            return None
        units[uid] = block
    return ModelResults(units)


_NO_TARGETS: tuple[str, ...] = ()  # every undecided model's targets (no empty list per model)


def fields(rs) -> list:
    """What the chosen policies read from a unit (strike order: Initiative or Agility; a Height
    cap: Height; ...), then model parts."""
    out: list = []
    for slot in ("strike_order", "attack_cap") + tuple(x for x in pol.SLOTS if x not in ("strike_order", "attack_cap")):
        f = pol.get(slot, getattr(rs.values, slot)).fields
        out += [x for x in (f(rs) if f else []) if x.key not in {y.key for y in out}]
    return out + [ProfileField("parts", "Parts", kind="parts")]


STRATEGY = Engine(name=NAME, run=analyse, legend_of=legend, schema_for=schema_for,
                  fields_of=fields,
                  steps=round_steps, steps_name="Combat round", live_drag=True)
