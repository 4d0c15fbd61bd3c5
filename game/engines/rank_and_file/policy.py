"""Named policies of the rank-and-file engine: the seams a rule system fills from YAML.

The ranked engine (:mod:`game.engines.rank_and_file.engine`) runs one combat through these slots, in
this order; a ruleset chooses one registered policy per slot by name (``gaps: extend_bases``)
and gives the parameters that policy declares:

===================  =====================================================================
slot                 what a policy decides (signature)
===================  =====================================================================
``incomplete_ranks`` models that move before fighting (whfb8: the rear rank shuffles to an
                     engaged flank). ``run(c) -> None``: may replace ``c.models[uid]`` and
                     add ``c.res.moves``.
``gaps``             fighting across gaps. ``run(c) -> set[frozenset[model id, model id]]``.
``fighters``         who fights and with how many attacks: ``run(c) -> None``, sets role
                     ``attack`` on ``c.res.models`` (a fighting-rank policy goes here).
``horde``            extra supporting ranks for a wide unit. ``run(c, uid) -> (ranks or None,
                     text)``: the number of ranks behind the fighting rank that support, or
                     None for "not a horde"; ``text`` explains it for hovers.
``supports``         supporting attacks: ``run(c) -> None``, sets role ``support``.
``attack_cap``       caps on attacks. ``run(c, unit, n, restricted) -> (n, text)``;
                     ``restricted`` is True for supporting attacks and attacks made only
                     against enemies engaged with the model's own unit's Flank or Rear.
``strike_order``     ``run(c) -> list[dict]``: the contract's strike steps, highest first,
                     each ``{step, label, models[, parts]}`` (separate combats' steps of equal
                     ``step`` are merged, models kept in board order).
``rank_bonus``       ``run(c) -> dict[unit id, int]``: the combat-result Rank Bonus a unit
                     claims now (``{}``: the system shows none).
===================  =====================================================================

Register a policy with the :func:`policy` decorator in a module of :mod:`game.engines.rank_and_file`
(its ``__init__`` imports them all): ``@policy("fighters", "fighting_rank", params=MyParams)``.
``params`` is a frozen dataclass of the parameters the policy reads (no defaults); the ranked
schema is the union of its own fields and those of the chosen policies, so a ruleset gives
exactly those. ``rows`` names legend rows the policy makes worth listing even when empty;
``neighbours=True`` says the policy reads units near a combat and the terrain (so each combat
is analysed with the units around it, and cached by the terrain too); ``geometry=True`` says a
policy deciding a unit reads where models stand (distances to enemy bases, its own models'
places), not only the engagements, base contacts, gap links and moves the engine prepares
(without it, an enemy that slides while every contact stays is not an input of the units it
fights, :mod:`.incremental`, and a combat moved whole may take its earlier decision,
:mod:`.congruent`; :func:`geometric` lists the chosen ones); such a policy may give
``recheck(c, reads) -> bool``: whether what it
recorded in ``c.state["geometry_reads"][unit]`` while deciding a unit still holds on a later
combat ``c`` (then that unit need not be decided again when only enemies moved), and
``recheck_many(c, [reads, ...]) -> [bool, ...]``, the same for several units' reads at once
(the engine then asks once per combat, not once per unit); ``fields(rs)`` lists
the profile values and unit keys the policy reads (:class:`game.core.strategy.ProfileField`),
for editors.

:class:`Combat` is the state handed to the policies: the board, the ruleset (``c.v`` typed
values, ``c.rule(name)`` the rule a parameter implements), units, models, engagements,
contacts and the analysis being built. ``fighters``, ``supports`` and ``strike_order``
policies decide the units of ``c.deciding()`` (all of them, or the part of a combat the engine
decides again) and may read every unit.
"""
from __future__ import annotations

from collections import defaultdict
import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from game.core.record import Record, record
from game.core.analysis import Analysis
from game.core.board import Board, Unit
from game.core.unit_models import Model
from game.core.engagement import Engagement
from game.core.strategy import Legend

SLOTS = ("incomplete_ranks", "gaps", "fighters", "horde", "supports", "attack_cap", "strike_order", "rank_bonus")


@record
class Policy(Record):
    """A registered policy: its ``slot`` and ``name``, the function that ``run``s it, its
    parameter dataclass, the legend ``rows`` it makes worth listing, whether it reads
    ``neighbours`` and the profile ``fields`` it reads (see :func:`policy`)."""

    slot: str
    name: str
    run: Callable[..., Any]
    params: Optional[type] = None
    rows: frozenset = frozenset()
    neighbours: bool = False
    fields: Optional[Callable[[Any], list]] = None
    geometry: bool = False
    recheck: Optional[Callable[..., bool]] = None
    recheck_many: Optional[Callable[..., list]] = None


_POLICIES: dict[str, dict[str, Policy]] = {s: {} for s in SLOTS}

#: policies registered by a module of this package imported only when a ruleset chooses one of
#: them (``(slot, name)`` -> module): The Old World's, so a whfb8 or t9a command never loads them
#: (``tests/test_tow.py`` checks the module registers exactly these)
LAZY: dict[tuple[str, str], str] = {
    (slot, name): "game.engines.rank_and_file.tow"
    for slot, name in (("incomplete_ranks", "largest_row_behind"), ("fighters", "fighting_rank"),
                       ("supports", "fight_in_extra_rank"), ("strike_order", "charge_initiative"),
                       ("rank_bonus", "troop_type"))}


def policy(slot: str, name: str, params: Optional[type] = None, rows: tuple = (), neighbours: bool = False,
           fields: Optional[Callable[[Any], list]] = None, geometry: bool = False,
           recheck: Optional[Callable[..., bool]] = None, recheck_many: Optional[Callable[..., list]] = None) -> Callable:
    """Decorator registering ``fn`` as policy ``name`` of ``slot`` (see the module docstring)."""
    if slot not in _POLICIES:
        raise ValueError(f"no policy slot {slot}; slots: {', '.join(SLOTS)}")

    def deco(fn: Callable) -> Callable:
        old = _POLICIES[slot].get(name)
        if old is not None and old.run is not fn:
            raise ValueError(f"two {slot} policies named {name}")
        _POLICIES[slot][name] = Policy(slot, name, fn, params, frozenset(rows), neighbours, fields, geometry, recheck,
                                         recheck_many)
        return fn
    return deco


def names(slot: str) -> list[str]:
    """Registered policy names of ``slot``. Every policy module of this package registers
    its policies when the package is imported (its ``__init__`` imports them), which happens
    before any schema is asked for; no other engine is imported."""
    return sorted(set(_POLICIES[slot]) | {n for s, n in LAZY if s == slot})


def choices(slot: str) -> Callable[[], list[str]]:
    """The ``choices`` callable of a schema field that picks a policy of ``slot``."""
    return lambda: names(slot)


def get(slot: str, name: str) -> Policy:
    """The policy ``name`` of ``slot`` (KeyError when none is registered); a :data:`LAZY`
    policy's module is imported (it registers its policies) the first time one is asked for."""
    got = _POLICIES[slot].get(name)
    if got is None and (slot, name) in LAZY:
        importlib.import_module(LAZY[(slot, name)])
    return _POLICIES[slot][name]


def geometric(rs: Any, slots: Sequence[str] = SLOTS) -> list[Policy]:
    """The policies ruleset ``rs`` chose for ``slots`` that read where models stand
    (``geometry=True``), in slot order."""
    return [p for p in (get(slot, getattr(rs.values, slot)) for slot in slots) if p.geometry]


_LEGENDS: dict[int, tuple[Any, Legend]] = {}


def legend(rs) -> Legend:
    """Rows the chosen policies make worth listing (cached per loaded ruleset)."""
    hit = _LEGENDS.get(id(rs))
    if hit is not None and hit[0] is rs:
        return hit[1]
    rows: set[str] = set()
    for slot in SLOTS:
        rows |= get(slot, getattr(rs.values, slot)).rows
    rows.add("support")
    out = Legend(role_labels={}, rows=frozenset(rows))
    if len(_LEGENDS) > 64:
        _LEGENDS.clear()
    _LEGENDS[id(rs)] = (rs, out)
    return out


# ----- what policies share --------------------------------------------------------------------
def profile_attacks(unit: Unit) -> tuple[int, Optional[dict[str, int]], dict[str, float]]:
    """(total attacks, attacks per part or None, agility/initiative per part) of a profile."""
    p = unit.profile
    parts = p.get("parts")
    if parts:
        per = {str(pt.get("name", f"part{i + 1}")): int(pt.get("attacks", 0)) for i, pt in enumerate(parts)}
        ag = {str(pt.get("name", f"part{i + 1}")): float(pt.get("agility", pt.get("initiative", p.get("agility", 0))))
              for i, pt in enumerate(parts)}
        return sum(per.values()), per, ag
    return int(p.get("attacks", 1)), None, {}


def split_parts(parts: dict[str, int], n: int) -> dict[str, int]:
    """Attacks per part when a model may make ``n`` in all: earlier-listed parts first."""
    out = {}
    left = n
    for name, a in parts.items():
        k = min(a, left)
        out[name] = k
        left -= k
    return out


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def words(items: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


@dataclass
class Combat:
    """One combat (or a board of several) being analysed by the ranked engine.

    ``models`` may be replaced by an ``incomplete_ranks`` policy (moved models); ``contacts``
    holds base contact and, once the ``gaps`` policy ran, the gap links too (model id ->
    enemy model ids); ``linked``: models fighting across a gap; ``order``: board order of
    model ids (lists of ids keep it).
    """

    board: Board
    rs: Any
    units: dict[str, Unit]
    models: dict[str, list[Model]]
    engs: list[Engagement]
    res: Analysis
    tol: float
    bounds: dict = field(default_factory=dict)
    contacts: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    linked: set[str] = field(default_factory=set)
    order: Any = field(default_factory=dict)    # model id -> board index (a mapping: [], get)
    unit_of: Any = field(default_factory=dict)  # model id -> unit id (a mapping: [], get)
    eng_facing: dict[tuple[str, str], str] = field(default_factory=dict)
    pair_contacts: dict[tuple[str, str], tuple] = field(default_factory=dict)  # (a, b), a < b -> model id pairs
    corner_pairs: dict[tuple[str, str], tuple] = field(default_factory=dict)  # the same, touching only at a corner
    state: dict[str, Any] = field(default_factory=dict)  # what one policy hands a later one
    only: Optional[set] = None  # the units to decide (None: all); the others are read, not decided
    _chosen: dict[str, Callable] = field(default_factory=dict, repr=False)

    @property
    def v(self) -> Any:
        """The ruleset's typed parameter values."""
        return self.rs.values

    def corner_only(self, mid: str, touching: Any) -> bool:
        """True when model ``mid`` touches each enemy model of ``touching`` (ids) only at a
        corner (``corner_pairs``, found with the base contacts)."""
        uid, unit_of = self.unit_of[mid], self.unit_of
        for t in touching:
            e = unit_of[t]
            key, pair = ((uid, e), (mid, t)) if uid < e else ((e, uid), (t, mid))
            if pair not in self.corner_pairs.get(key, ()):
                return False
        return bool(touching)

    def rule(self, name: str) -> str:
        """The rule a parameter implements, as the ruleset names it."""
        return self.rs.rule(name)

    def run(self, slot: str, *args: Any) -> Any:
        """Run the policy the ruleset chose for ``slot``."""
        fn = self._chosen.get(slot)
        if fn is None:
            fn = self._chosen[slot] = get(slot, getattr(self.v, slot)).run
        return fn(self, *args)

    def _engaged(self, uid: str) -> list:
        """``uid``'s engagements (in ``engs`` order), from an index of ``engs`` built on first
        use (built again if ``engs`` is replaced or grows)."""
        idx = self.__dict__.get("_eng_index")
        if idx is None or idx[0] is not self.engs or idx[1] != len(self.engs):
            by: dict[str, list] = defaultdict(list)
            for e in self.engs:
                by[e.unit].append(e)
            idx = self.__dict__["_eng_index"] = (self.engs, len(self.engs), by)
        return idx[2].get(uid, [])

    def facings(self, uid: str) -> set[str]:
        """Facings of ``uid`` an enemy is engaged with."""
        return {e.facing for e in self._engaged(uid)}

    def enemies(self, uid: str, facings: Optional[set] = None) -> set[str]:
        """Enemy unit ids engaged with ``uid`` (on one of ``facings`` if given)."""
        return {e.enemy for e in self._engaged(uid) if facings is None or e.facing in facings}

    def deciding(self) -> list[tuple[str, list[Model]]]:
        """(unit id, its models) of the units to decide, in board order: every unit, or those
        in ``only`` (the rest of the combat is there to be read: enemies, their models)."""
        if self.only is None:
            return list(self.models.items())
        return [(uid, ms) for uid, ms in self.models.items() if uid in self.only]

    def sort(self, ids) -> list[str]:
        return sorted(ids, key=self.order.__getitem__)
