"""The built-in policies of the rank-and-file engine (whfb8, t9a; see :mod:`.policy`).

Each policy reads only the parameters its dataclass declares, and names rules through the
ruleset's ``rule:`` fields, so a ruleset's numbers and rule names are the ones a user reads.

* ``incomplete_ranks``: ``shuffle`` (whfb8 Incomplete Ranks: fighting to one flank only, the
  rear rank moves to that end), ``none``.
* ``gaps``: ``incomplete_rank`` (whfb8: enemies facing a gap of the rear rank, or of both
  flanks, fight across it), ``extend_bases`` (t9a Fighting over Gaps), ``none``.
* ``fighters``: ``base_contact``: models in base contact (corners count) or linked across a
  gap fight with their full attacks.
* ``horde``: ``wide_front`` (a keyword and a front rank at least so many files wide give
  more supporting ranks), ``none``.
* ``supports``: ``ranks_behind``: the ranks (or files) behind a model fighting through one of
  ``support_facings`` support it, up to ``support_ranks`` deep, each with at most
  ``support_attack_cap`` attacks.
* ``attack_cap``: ``restricted_height`` (t9a Restricted Attacks: supporting attacks, and the
  attacks of a model whose enemies are all engaged with its own unit's Flank or Rear, are
  capped at the model's Height; the enemy attacking into that flank or rear is not), ``none``.
* ``strike_order``: ``initiative`` (highest first; equal strikes together), ``agility_step``
  (per model part).
* ``rank_bonus``: ``none`` (the system shows no Rank Bonus).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import compress, count
from operator import attrgetter
from typing import Any, Literal, Optional

from game.core.record import Record, record
from game.core import geometry as g
from game.core.board import slot_name
from game.core.unit_models import Model, ids_of
from game.core.results import ModelResults
from game.core.strategy import ProfileField
from game.engines.rank_and_file import gaps as gaps
from game.engines.rank_and_file.policy import Combat, ordinal, policy, profile_attacks, split_parts, words

Facing = Literal["front", "right", "rear", "left"]
_ID = attrgetter("id")
NOT_FIGHTING = "Does not fight: not in base contact with an enemy, and not directly behind a fighting model it could support."


# ----- incomplete ranks ---------------------------------------------------------------------------
@policy("incomplete_ranks", "none")
def no_moves(c: Combat) -> None:
    """Nobody moves before fighting."""


@policy("incomplete_ranks", "shuffle", rows=("moves",))
def shuffle(c: Combat) -> None:
    """Fighting to one flank only (not the rear), the incomplete rear rank moves to that end."""
    for uid, u in c.units.items():
        if not u.is_ranked:
            continue
        fs = c.facings(uid)
        flanks = fs & {"left", "right"}
        if len(flanks) != 1 or "rear" in fs:
            continue
        mv = gaps.shuffle_incomplete_rank(u, flanks.pop())
        if not mv:
            continue
        new_ms = []
        for m in c.models[uid]:
            if m.rank is not None and m.file is not None and (m.rank, m.file) in mv:
                r, f = mv[(m.rank, m.file)]
                at = u.slot_center(r, f)
                nm = Model(f"{uid}.{slot_name(r, f)}", uid, slot_name(r, f), r, f, at, m.facing_deg,
                           g.rect(at, u.base_w, u.base_d, u.facing_deg))
                c.res.add_moves({nm.id: [m.center, at]})
                new_ms.append(nm)
            else:
                new_ms.append(m)
        c.models[uid] = new_ms


# ----- gaps -----------------------------------------------------------------------------------------
@policy("gaps", "none")
def no_gaps(c: Combat) -> set:
    return set()


@policy("gaps", "incomplete_rank", rows=("gap_links",))
def incomplete_rank_gaps(c: Combat) -> set:
    return gaps.gaps_incomplete_rank(c.units, c.models, c.engs, c.tol)


@policy("gaps", "extend_bases", rows=("gap_links",), neighbours=True)
def extend_bases(c: Combat) -> set:
    return gaps.gaps_extend(c.board, c.units, c.models, c.engs, c.tol)


@policy("supports", "none")
def no_supports(c: Combat) -> None:
    """Nobody makes supporting attacks (or the ``fighters`` policy decided them already)."""


# ----- who fights -----------------------------------------------------------------------------------
@record
class ContactParams(Record):
    """``base_contact``: whether a model touching two enemy units may divide its attacks."""

    dividing_attacks: bool


@policy("fighters", "base_contact", params=ContactParams)
def base_contact(c: Combat) -> None:
    """Models in base contact, or linked across a gap, fight with their profile's attacks
    (capped by the ``attack_cap`` policy when every enemy they touch is engaged with their own
    unit's flank or rear). The explanation says "touching at a corner counts" only for a model
    that touches its enemies at a corner and nowhere along an edge."""
    contacts, results, linked = c.contacts, c.res.models, c.linked
    in_order, unit_of = c.order.__getitem__, c.unit_of.__getitem__
    for uid, ms in c.deciding():
        u = c.units[uid]
        total, parts, _ = profile_attacks(u)
        # what a fighter gets depends only on the enemy units it touches and whether it
        # fights across a gap: worked out once per such case in this unit
        seen: dict[tuple, tuple] = {}
        ids = ids_of(ms)
        block = results.unit(uid) if isinstance(results, ModelResults) else None
        result = block.at if block is not None and block.ids == ids else lambda i, ids=ids: results[ids[i]]
        for i in compress(count(), map(contacts.get, ids)):  # (the models in contact: no Python per model)
            mid = ids[i]
            touching = contacts[mid]
            # (c.sort; a tuple: the collector drops it)
            r, tg = result(i), tuple(sorted(touching, key=in_order))
            case = (frozenset(map(unit_of, tg)), mid in linked, c.corner_only(mid, touching))
            hit = seen.get(case)
            if hit is None:
                hit = seen[case] = _fighter(c, uid, u, total, parts, sorted(case[0]), case[1], case[2])
            r.role, r.targets = "attack", tg
            r.attacks, r.why = hit[0], hit[2]
            r.parts = dict(hit[1]) if hit[1] is not None else None


def _said(text: str) -> str:
    """``text`` ending a sentence: a full stop unless it ends with one, or with ``?`` or ``!``."""
    return text if text.endswith((".", "?", "!")) else text + "."


def _fighter(c: Combat, uid: str, u, total: int, parts, enemies: list[str], across_gap: bool,
             corner: bool = False) -> tuple:
    """(attacks, attacks per part or None, why) of a model of ``uid`` in contact with (or
    linked across a gap to) models of the units ``enemies`` (``corner``: touching them only
    at a corner)."""
    facings = {c.eng_facing.get((uid, e), "front") for e in enemies}
    n, cap_text = c.run("attack_cap", u, total, "flank_rear" if "front" not in facings else "")
    if across_gap:
        why = f"Fights: across a gap with {', '.join(enemies)} ({'/'.join(sorted(facings))} facing). " \
              f"Rule: {_said(c.rule('gaps'))} "
    else:
        why = f"Fights: in base contact with {', '.join(enemies)} ({'/'.join(sorted(facings))} facing). " \
              f"Rule: {_said(c.rule('fighters') + (' (touching at a corner counts)' if corner else ''))} "
    if cap_text:
        why += cap_text
    elif len(enemies) > 1:
        why += (f"Touching several enemy units, it may divide its attacks ({c.rule('dividing_attacks')})."
                if c.v.dividing_attacks else
                f"Touching several enemy units, it attacks one of them ({c.rule('dividing_attacks')}).")
    return n, (split_parts(parts, n) if parts else None), why


# ----- horde ----------------------------------------------------------------------------------------
@record
class Horde(Record):
    """``ranks``: supporting ranks behind the fighting rank when the unit is a horde (None:
    it is not); ``because``: the rule, said for a supporter only a horde has; ``hint``: what
    would make the unit a horde (for a model one rank too far back)."""

    ranks: Optional[int]
    because: str = ""
    hint: str = ""


_NO_HORDE = Horde(None)  # (a frozen record: one for every unit that is not a horde)


@policy("horde", "none")
def no_horde(c: Combat, uid: str) -> Horde:
    return _NO_HORDE


@record
class HordeParams(Record):
    """``wide_front``: the keyword a horde needs (empty: none), the files that make one and the
    extra supporting ranks it gets."""

    horde_keyword: str
    horde_min_files: int
    horde_support_ranks: int


@policy("horde", "wide_front", params=HordeParams)
def wide_front(c: Combat, uid: str) -> Horde:
    """A unit with ``horde_keyword`` whose front rank is at least ``horde_min_files`` models
    wide supports with ``horde_support_ranks`` ranks."""
    u, v = c.units[uid], c.v
    if v.horde_keyword.lower() not in {k.lower() for k in u.keywords}:
        return _NO_HORDE
    rule = c.rule("horde_min_files")
    width = sum(1 for m in c.models[uid] if m.rank == 1)
    if width >= v.horde_min_files:
        return Horde(v.horde_support_ranks, because=f"; {rule}: {v.horde_min_files}+ wide")
    return Horde(None, hint=f" ({rule}: at least {v.horde_min_files} files wide, the "
                            f"{ordinal(1 + v.horde_support_ranks)} rank would support; it is {width} wide).")


# ----- supporting attacks ---------------------------------------------------------------------------
@record
class SupportParams(Record):
    """``ranks_behind``: ranks behind the fighting one that support, the facings they support
    through, and the cap on each supporter's attacks (None: its profile's)."""

    support_ranks: int
    support_facings: tuple[Facing, ...]
    support_attack_cap: Optional[int]


def rows_of(u, facing: str):
    """``(row, column) -> (rank, file)`` seen from ``facing``: row 1 is the edge on that
    facing, rows count inward; columns run along the edge."""
    R, F = u.ranks, u.files
    return {"front": lambda k, j: (k, j), "rear": lambda k, j: (R + 1 - k, j),
            "left": lambda k, j: (j, k), "right": lambda k, j: (j, F + 1 - k)}[facing]


def row_col(u, m: Model, facing: str, R: int = 0, F: int = 0) -> tuple[int, int]:
    """The (row, column) of model ``m`` seen from ``facing`` (see :func:`rows_of`); ``R`` and
    ``F`` (the unit's ranks and files) may be given to save looking them up."""
    assert m.rank is not None and m.file is not None  # a ranked unit's model
    return _row_col(m.rank, m.file, facing, R or u.ranks, F or u.files)


def _slot_index(u, ms: list[Model]) -> tuple[dict[tuple, int], Optional[Any]]:
    """``(rank, file) -> index into ms`` of a ranked unit's models ``ms`` (a later model of a
    slot wins), and the unit's :class:`~game.core.unit_models.SlotTemplate` when ``ms`` is its own
    list (its formation's slots, the same for every pose), else None."""
    key = u.pose_key()
    if ms is u.models(key):
        t = u.geom(key).template
        return t.index_of_slot(), t
    return {(m.rank, m.file): i for i, m in enumerate(ms)}, None


class _Plan:
    """Where supports may come from in one formation, seen from the support facings (no
    result read): ``near``: model index -> its walk, one ``(far, facing index, row k, index
    of the lead in row 1 or None, blocked)`` per support facing on which it is not in row 1
    (``far``: more than ``1 + ranks`` rows in; ``blocked``: no lead, or an empty slot between
    it and the lead), for each model 2 to ``2 + ranks`` rows from some support facing's edge
    (any other model cannot support nor be told why not: simply not fighting, ``others``: their
    indices, the models with no slot left out)."""

    __slots__ = ("near", "others", "others_set")

    def __init__(self, index: dict[tuple, int], slots: list, R: int, F: int, facings: tuple, ranks: int,
                 u) -> None:
        ats = [rows_of(u, f) for f in facings]
        near_ids = {i for at in ats for k in range(2, 3 + ranks) for j in range(1, 1 + max(R, F))
                    if (i := index.get(at(k, j))) is not None}
        self.others = tuple(i for i, rf in enumerate(slots) if rf[0] is not None and i not in near_ids)
        self.others_set = frozenset(self.others)
        self.near: dict[int, tuple] = {}
        for i in sorted(near_ids):
            rank, file = slots[i]
            if rank is None:
                continue
            assert file is not None  # (a ranked unit's model)
            walk = []
            for fi, facing in enumerate(facings):
                k, j = _row_col(rank, file, facing, R, F)
                if k == 1:
                    continue
                at = ats[fi]
                lead = index.get(at(1, j))
                if k > 1 + ranks:
                    walk.append((True, fi, k, lead, False))
                    continue
                blocked = lead is None or (k > 2 and any(index.get(at(i2, j)) is None for i2 in range(2, k)))
                walk.append((False, fi, k, lead, blocked))
            self.near[i] = tuple(walk)


_PLANS: dict[tuple, tuple[Any, _Plan]] = {}  # (id(template), facings, ranks) -> (template, plan)


def _plan(u, ms: list[Model], facings: tuple, ranks: int) -> _Plan:
    """The :class:`_Plan` of ranked unit ``u``'s models ``ms``: of its formation when ``ms`` is
    its own list (kept per formation, facings and ranks), else made from the models' slots."""
    index, t = _slot_index(u, ms)
    R, F = u.ranks, u.files
    if t is None:
        return _Plan(index, [(m.rank, m.file) for m in ms], R, F, facings, ranks, u)
    key = (id(t), facings, ranks, R, F)
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is t:
        return hit[1]
    if len(_PLANS) > 256:
        _PLANS.clear()
    plan = _Plan(index, t.slots, R, F, facings, ranks, u)
    _PLANS[key] = (t, plan)
    return plan


def _row_col(rank: int, file: int, facing: str, R: int, F: int) -> tuple[int, int]:
    """:func:`row_col` of the model in slot (``rank``, ``file``) of a unit of ``R`` ranks and
    ``F`` files."""
    if facing == "front":
        return rank, file
    if facing == "rear":
        return R + 1 - rank, file
    if facing == "left":
        return file, rank
    return F + 1 - file, rank


@policy("supports", "ranks_behind", params=SupportParams)
def ranks_behind(c: Combat) -> None:
    """Models directly behind a model fighting through one of ``support_facings`` (no empty
    slot between) support it against the enemies engaged on that facing, up to
    ``support_ranks`` rows back (more for a horde), each with at most ``support_attack_cap``
    attacks (null: no cap), further capped by the ``attack_cap`` policy. Where supports may
    come from is read from the formation once (:class:`_Plan`); each unit's results are walked
    once, in model order (:class:`_UnitSupports`)."""
    words_of = (c.rule("support_ranks"), words(list(c.v.support_facings)), tuple(c.v.support_facings))
    for uid, ms in c.deciding():
        if c.units[uid].is_ranked:
            _UnitSupports(c, uid, ms, *words_of).decide()


class _UnitSupports:
    """The supporting attacks of one ranked unit (see :func:`ranks_behind`): ``rule`` the
    ruleset's name of support_ranks, ``through`` the support facings in words, ``facings`` the
    support facings. Its results are read and written in model order (``rs``: a lazy block of
    results made only for the models that support, or the results themselves)."""

    def __init__(self, c: Combat, uid: str, ms: list, rule: str, through: str, facings: tuple):
        self.c, self.rule, self.through = c, rule, through
        self.u = u = c.units[uid]
        self.horde = c.run("horde", uid)
        self.ranks = self.horde.ranks if self.horde.ranks is not None else c.v.support_ranks
        self.total, self.parts, _ = profile_attacks(u)
        self.plan = _plan(u, ms, facings, self.ranks)
        engaged = c.facings(uid)
        # per facing, once per unit: the enemies engaged on it
        self.per_facing = [(facing, c.enemies(uid, {facing}) if facing in engaged else set()) for facing in facings]
        self.support: Optional[tuple] = None  # (attacks, parts, cap text) every supporter makes, once
        self.texts: dict[tuple[str, int], tuple[str, str]] = {}  # the words around the lead's id
        self.far: dict[tuple[str, int], str] = {}  # "too far back", once per facing and row
        self.ids = ids_of(ms)
        self._open_results(c.res.models, uid)

    def _open_results(self, results: Any, uid: str) -> None:
        """Read the unit's results: lazily when they are a block of this unit's models (a result
        made only for a model that supports; any other reads as untouched, read only), else one
        by one. Every model that is not near a fighting model is told it does not fight."""
        block = results.unit(uid) if isinstance(results, ModelResults) else None
        self.lazy = block is not None and block.ids == self.ids
        self.rs: Any
        if self.lazy:
            assert block is not None
            block.set_why(self.plan.others, NOT_FIGHTING, self.plan.others_set)  # (none of them reads or is read by another)
            self.rs, self.make, self.made, self.whys = block.made, block.at, block.made, block.whys
        else:
            self.rs = list(map(results.__getitem__, self.ids))
            for r in map(self.rs.__getitem__, self.plan.others):
                if r.role == "none":
                    r.why = NOT_FIGHTING

    def decide(self) -> None:
        """Each model near a fighting model (in model order: a lead may be a supporter made
        just before) supports, or is told why not."""
        rs = self.rs
        for i, walk in self.plan.near.items():
            if rs[i].role != "none":
                continue
            reason = self._walk(i, walk)
            if reason is not None:
                self._leave_none(i, reason or NOT_FIGHTING)

    def _walk(self, i: int, walk: tuple) -> Optional[str]:
        """Try model ``i``'s ways of supporting (``walk``: (too far back, facing index, row,
        lead model index, slot in front empty)) in turn: None once it supports, else why not
        (the first reason found; "" when none)."""
        rs, rule = self.rs, self.rule
        reason = ""
        for is_far, fi, k, lead, blocked in walk:
            facing, enemies = self.per_facing[fi]
            if is_far:
                if not reason and k == 2 + self.ranks and enemies and lead is not None and rs[lead].role == "attack":
                    reason = self.far.get((facing, k)) or self._too_far(facing, k)
                continue
            if blocked:
                reason = reason or (f"The slot in front of it (seen from the {facing}) is empty, so it is not "
                                    f"directly behind a fighting model. Rule: {_said(rule)}")
                continue
            assert lead is not None  # (not blocked)
            lead_r = rs[lead]  # (read only)
            unit_of = self.c.unit_of
            lead_targets = [t for t in lead_r.targets if unit_of[t] in enemies]
            if not lead_targets:
                if lead_r.role == "attack":
                    reason = reason or (f"The model in front fights only through another facing; supporting attacks "
                                        f"go only through the {self.through}. Rule: {_said(rule)}")
                continue
            self._support(i, facing, k, lead, lead_targets)
            return None
        return reason

    def _too_far(self, facing: str, k: int) -> str:
        """Why the ``k``-th row from ``facing`` does not support (once per facing and row)."""
        ranks = self.ranks
        row = "rank" if facing in ("front", "rear") else "file"  # rows seen from a flank are files
        hint = (self.horde.hint or "").rstrip(".")
        return self.far.setdefault((facing, k), (
            f"The {ordinal(k)} {row} from the {facing} is too far back: only {ranks} {row}"
            f"{f' behind the fighting {row} supports' if ranks == 1 else f's behind the fighting {row} support'}"
            f"{hint}. Rule: {_said(self.rule)}"))

    def _support(self, i: int, facing: str, k: int, lead: int, lead_targets: list[str]) -> None:
        """Model ``i`` supports model ``lead`` from the ``k``-th row seen from ``facing``."""
        if self.support is None:  # what every supporter of this unit makes (once per unit)
            v, total = self.c.v, self.total
            n = total if v.support_attack_cap is None else min(total, v.support_attack_cap)
            n, cap_text = self.c.run("attack_cap", self.u, n, "support")
            self.support = (n, split_parts(self.parts, n) if self.parts else None, cap_text)
        n, split, cap_text = self.support
        r = self.make(i) if self.lazy else self.rs[i]
        r.role, r.targets, r.attacks = "support", tuple(sorted(lead_targets, key=self.c.order.__getitem__)), n  # (c.sort)
        r.parts = dict(split) if split is not None else None
        text = self.texts.get((facing, k)) or self._support_words(facing, k, cap_text)
        r.why = text[0] + self.ids[lead] + text[1]

    def _support_words(self, facing: str, k: int, cap_text: str) -> tuple[str, str]:
        """The words before and after the lead's id, once per facing and row."""
        v, rule = self.c.v, self.rule
        row = "rank" if facing in ("front", "rear") else "file"
        tail = f", which fights to the {facing} ({rule}{self.horde.because if k > 2 else ''}). "
        if v.support_attack_cap is not None:
            tail += f"A supporting model makes at most {v.support_attack_cap} attack" \
                    f"{'s' if v.support_attack_cap != 1 else ''} ({self.c.rule('support_attack_cap')}). "
        text = self.texts[facing, k] = (f"Supports from the {ordinal(k)} {row} through ", (tail + cap_text).rstrip())
        return text

    def _leave_none(self, i: int, why: str) -> None:
        """Model ``i`` neither fights nor supports: ``why``."""
        if not self.lazy:
            self.rs[i].why = why
        elif i in self.made:
            self.made[i].why = why
        else:
            self.whys[i] = why


# ----- attack caps ----------------------------------------------------------------------------------
@policy("attack_cap", "none")
def no_cap(c: Combat, unit, n: int, kind: str) -> tuple[int, str]:
    return n, ""


@record
class HeightParams(Record):
    """``restricted_height``: the Height a model has when its profile gives none."""

    default_height: int


@policy("attack_cap", "restricted_height", params=HeightParams,
        fields=lambda rs: [ProfileField("height", "Height", default=rs.values.default_height)])
def restricted_height(c: Combat, unit, n: int, kind: str) -> tuple[int, str]:
    """Supporting attacks (``kind`` "support") and the attacks of a model whose enemies are
    all engaged with its own unit's Flank or Rear facing (``flank_rear``) are capped at the
    model's Height (``default_height`` when the profile gives none). The enemy attacking into
    that flank or rear is engaged with its own front and keeps its attacks."""
    if not kind:
        return n, ""
    height = int(unit.profile.get("height", c.v.default_height))
    if kind == "support":
        return min(n, height), f"Supporting attacks are {c.rule('attack_cap')}, capped at Height {height}."
    return min(n, height), (f"The enemies it attacks are engaged with its own unit's Flank or Rear, so its "
                            f"attacks are {c.rule('attack_cap')}, capped at Height {height}.")


# ----- strike order ---------------------------------------------------------------------------------
def _steps(steps: dict, parts_at: dict, label: str) -> list[dict]:
    out = []
    for s in sorted(steps, reverse=True):
        step = int(s) if s == int(s) else s
        d = {"step": step, "label": f"{label} {step}", "models": steps[s]}
        if parts_at.get(s):
            d["parts"] = parts_at[s]
        out.append(d)
    return out


@policy("strike_order", "initiative",
        fields=lambda rs: [ProfileField("initiative", "Initiative", default=3, read_also=("agility",))])
def by_initiative(c: Combat) -> list[dict]:
    """Highest Initiative first; equal Initiative strikes together. A profile without
    Initiative falls back to Agility (so a t9a board compared under whfb8 still orders)."""
    steps: dict[float, list[str]] = defaultdict(list)
    results = c.res.models
    for uid, ms in c.deciding():
        p = c.units[uid].profile
        value = float(p.get("initiative", p.get("agility", 0)))
        ids = ids_of(ms)
        block = results.unit(uid) if isinstance(results, ModelResults) else None
        if block is not None and block.ids == ids:  # (only a made result has attacks)
            striking = list(map(ids.__getitem__, block.striking()))
        else:
            striking = [mid for mid in ids if results[mid].attacks > 0]
        if striking:
            steps[value] += striking
    return _steps(steps, {}, "Initiative")


@policy("strike_order", "agility_step",
        fields=lambda rs: [ProfileField("agility", "Agility", default=3, read_also=("initiative",))])
def by_agility(c: Combat) -> list[dict]:
    """Agility Steps, highest first, each model part at its own Agility."""
    steps: dict[float, list[str]] = defaultdict(list)
    parts_at: dict[float, list[str]] = defaultdict(list)
    for uid, ms in c.deciding():
        u = c.units[uid]
        _, _, agility = profile_attacks(u)
        ids = ids_of(ms)
        block = c.res.models.unit(uid) if isinstance(c.res.models, ModelResults) else None
        if block is not None and block.ids == ids:  # (only a made result has attacks)
            striking = [(ids[i], block.made[i]) for i in block.striking()]
        else:
            striking = [(mid, c.res.models[mid]) for mid in ids]
        for mid, r in striking:
            if r.attacks <= 0:
                continue
            if r.parts:
                for part, n in r.parts.items():
                    if n > 0:
                        s = agility.get(part, 0.0)
                        if mid not in steps[s]:
                            steps[s].append(mid)
                        parts_at[s].append(f"{mid}/{part}")
            else:
                steps[float(u.profile.get("agility", u.profile.get("initiative", 0)))].append(mid)
    return _steps(steps, parts_at, "Agility")


# ----- rank bonus -----------------------------------------------------------------------------------
@policy("rank_bonus", "none")
def no_rank_bonus(c: Combat) -> dict:
    return {}
