"""The Old World (``tow``, Rulebook + FAQ & Errata v1.5.2): who fights, how often, and when.

A policy of the rank-and-file engine. The engine finds which units touch, on which facing,
and which models touch (``Base Contact``); this module decides the rest from the ruleset's
parameters (:class:`TowParams`):

* **The Fighting Rank**: every row (rank or file) holding a model in base contact with an
  enemy unit is a fighting rank; each of its models fights if that enemy unit is within its
  Movement in inches (``fight_range: movement_inches``; ``unlimited`` is the 2024 text).
  A fighter touching an enemy makes its full Attacks, any other ``non_contact_attacks``
  (one per part of a split profile: ``How Many Attacks?``). A model in two fighting ranks
  (a corner) fights once.
* **Press of Battle**: troop types with ``press_of_battle``, in Combat Order, that did not
  charge, fight ``press_of_battle_depth`` rows deep; the second row is the models directly
  behind models of the fighting rank (one attack each).
* **Supporting Attacks**: only models with Fight in Extra Rank (their ``weapon`` per the
  ``weapons`` table, or the ``support_keyword``), in the row directly behind the fighting
  rank(s), not themselves in a fighting rank, within Movement, to the facings in
  ``support_facings`` (any facing with ``support_any_facing_keyword``); ``support_attacks``
  each, the rider only for troop types with ``rider_only_support``.
* **Incomplete Ranks**: a fighting rank counts as many models as the largest parallel row
  behind it; no shuffling, no fighting across gaps. Our reading (tow.md Q2): the missing
  models are stood in for by the nearest model inward in the files (ranks) of the empty
  slots, nearest the enemy first; they are not in base contact, so one attack each.
* **Who Strikes First?**: by Initiative: Strike First / Strike Last set it before other
  modifiers, chargers add ``charge_initiative_per_inch`` per full inch moved (capped by
  the arc charged; none when disordered), a weapon's ``initiative_vs_front_chargers`` is
  added when charged in the front; never above ``initiative_cap``. Equal values strike
  together; each part of a split profile strikes at its own Initiative.
* **Rank Bonus**: per unit by troop type (models per rank, maximum, Horde adds
  ``horde_rank_bonus``), Combat Order only, none when Disrupted (engaged in a flank or the
  rear by an enemy of at least the troop type's ``disrupted_by_unit_strength``).

Pure: no pygame or pymunk. Lengths in mm; Movement in inches converted once here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Sequence

from .. import geometry as g

INCH_MM = 25.4
FACINGS = ("front", "right", "rear", "left")
SUPPORT_WHEN = ("never", "always", "not_charged", "charged_only")
Slot = tuple[int, int]


# ----- parameters -----------------------------------------------------------------------------
class TowParamError(ValueError):
    """A ``tow`` parameter is missing or malformed: ``key`` names it."""

    def __init__(self, key: str, message: str):
        super().__init__(f"params.{key}: {message}")
        self.key = key


@dataclass(frozen=True)
class TroopType:
    """One row of the Troop Type Table: ``models_per_rank`` (None: no Rank Bonus),
    ``max_rank_bonus``, ``unit_strength`` per model (a number, or ``"wounds"``: the profile's
    Wounds), ``press_of_battle``, ``rider_only_support`` (cavalry), and the Unit Strength of a
    flank/rear enemy that disrupts it (``disrupted_by_unit_strength``)."""

    models_per_rank: Optional[int]
    max_rank_bonus: int
    unit_strength: Any
    press_of_battle: bool
    rider_only_support: bool
    disrupted_by_unit_strength: int


@dataclass(frozen=True)
class Weapon:
    """A weapon's rules that decide who fights: ``fight_in_extra_rank`` (one of
    :data:`SUPPORT_WHEN`), ``strike_last`` and ``initiative_vs_front_chargers``."""

    fight_in_extra_rank: str
    strike_last: bool
    initiative_vs_front_chargers: int


@dataclass(frozen=True)
class TowParams:
    """The parameters this policy reads (all required; see ``rulesets/tow.yaml``)."""

    fight_range: str
    non_contact_attacks: int
    dividing_attacks: str
    press_of_battle_depth: int
    press_of_battle_facings: tuple[str, ...]
    support_keyword: str
    support_facings: tuple[str, ...]
    support_any_facing_keyword: str
    support_attacks: int
    incomplete_ranks: str
    charge_initiative_per_inch: int
    charge_initiative_max_front: int
    charge_initiative_max_flank_rear: int
    initiative_cap: int
    strike_first_keyword: str
    strike_first_initiative: int
    strike_last_keyword: str
    strike_last_initiative: int
    horde_keyword: str
    horde_rank_bonus: int
    default_troop_type: str
    default_weapon: str
    troop_types: Mapping[str, TroopType]
    weapons: Mapping[str, Weapon]
    rules: Mapping[str, str] = field(default_factory=dict)

    def rule(self, key: str) -> str:
        """The rule name a parameter implements (its ``rule:`` in the ruleset)."""
        return self.rules.get(key, key)

    @classmethod
    def from_values(cls, values: Mapping[str, Any], rules: Optional[Mapping[str, str]] = None) -> "TowParams":
        """Build from plain values (``{name: value}``); raises :class:`TowParamError` naming
        the parameter (``troop_types.heavy_infantry.max_rank_bonus``) on anything amiss."""
        out = {k: _check(k, kind, values[k] if k in values else _MISSING) for k, kind in _KINDS.items()}
        out["troop_types"] = {str(n): TroopType(**_table_row(f"troop_types.{n}", row, _TROOP_KINDS))
                              for n, row in _table("troop_types", out["troop_types"])}
        out["weapons"] = {str(n): Weapon(**_table_row(f"weapons.{n}", row, _WEAPON_KINDS))
                          for n, row in _table("weapons", out["weapons"])}
        for key, table in (("default_troop_type", "troop_types"), ("default_weapon", "weapons")):
            if out[key] not in out[table]:
                raise TowParamError(key, f"must be one of the {table} (got {out[key]!r})")
        return cls(**out, rules=dict(rules or {}))


_MISSING = object()
_KINDS: dict[str, Any] = {
    "fight_range": ("movement_inches", "unlimited"), "non_contact_attacks": 1,
    "dividing_attacks": ("closest_enemy_unit", "any_engaged_unit"), "press_of_battle_depth": 1,
    "press_of_battle_facings": "facings", "support_keyword": str, "support_facings": "facings",
    "support_any_facing_keyword": str, "support_attacks": 1,
    "incomplete_ranks": ("largest_row_behind", "none"), "charge_initiative_per_inch": 0,
    "charge_initiative_max_front": 0, "charge_initiative_max_flank_rear": 0, "initiative_cap": 1,
    "strike_first_keyword": str, "strike_first_initiative": 1, "strike_last_keyword": str,
    "strike_last_initiative": 0, "horde_keyword": str, "horde_rank_bonus": 0, "default_troop_type": str,
    "default_weapon": str, "troop_types": dict, "weapons": dict}
_TROOP_KINDS = {"models_per_rank": "rank", "max_rank_bonus": 0, "unit_strength": "strength",
                "press_of_battle": bool, "rider_only_support": bool, "disrupted_by_unit_strength": 0}
_WEAPON_KINDS = {"fight_in_extra_rank": SUPPORT_WHEN, "strike_last": bool, "initiative_vs_front_chargers": 0}


def _check(key: str, kind: Any, v: Any) -> Any:
    """``v`` checked against ``kind``: a tuple of allowed values, a minimum whole number,
    ``str``, ``bool``, ``dict``, ``"facings"``, ``"rank"`` (whole >= 1 or null) or
    ``"strength"`` (a number > 0 or ``wounds``)."""
    if v is _MISSING:
        raise TowParamError(key, "is required by the tow policy")
    whole = isinstance(v, int) and not isinstance(v, bool)
    if isinstance(kind, tuple):
        ok, want = v in kind, f"one of {', '.join(kind)}"
    elif isinstance(kind, int) and not isinstance(kind, bool):
        ok, want = whole and v >= kind, f"a whole number >= {kind}"
    elif kind == "facings":
        ok, want = isinstance(v, list) and all(f in FACINGS for f in v), f"a list of facings from {', '.join(FACINGS)}"
        v = tuple(v) if ok else v
    elif kind == "rank":
        ok, want = v is None or (whole and v >= 1), "a whole number >= 1, or null"
    elif kind == "strength":
        ok, want = v == "wounds" or (isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0), \
            "a number > 0 or 'wounds'"
    else:
        ok, want = isinstance(v, kind), {str: "text", bool: "true or false", dict: "a mapping"}[kind]
    if not ok:
        raise TowParamError(key, f"must be {want} (got {v!r})")
    return v


def _table(key: str, v: dict) -> list:
    if not v:
        raise TowParamError(key, "must list at least one entry")
    return list(v.items())


def _table_row(key: str, row: Any, kinds: dict) -> dict:
    if not isinstance(row, dict) or set(row) != set(kinds):
        raise TowParamError(key, f"must give exactly {', '.join(kinds)}")
    return {k: _check(f"{key}.{k}", kind, row[k]) for k, kind in kinds.items()}


_PARAMS_CACHE: dict[int, tuple[Any, TowParams]] = {}


def params_of(rs: Any) -> TowParams:
    """The :class:`TowParams` of a loaded ruleset (values and rule names), cached per object."""
    hit = _PARAMS_CACHE.get(id(rs))
    if hit is not None and hit[0] is rs:
        return hit[1]
    p = TowParams.from_values({k: v.value for k, v in rs.params.items()},
                              {k: v.rule for k, v in rs.params.items()})
    _PARAMS_CACHE[id(rs)] = (rs, p)
    return p


# ----- rows of a ranked unit -------------------------------------------------------------------
def row_index(slot: Slot, facing: str) -> int:
    """The row a slot is in, seen from ``facing``: its rank (front/rear) or file (flanks)."""
    return slot[0] if facing in ("front", "rear") else slot[1]


def inward(facing: str) -> Slot:
    """(rank, file) step from a fighting row on ``facing`` to the row directly behind it."""
    return {"front": (1, 0), "rear": (-1, 0), "left": (0, 1), "right": (0, -1)}[facing]


def row_slots(slots: Iterable[Slot], facing: str, index: int) -> list[Slot]:
    """The occupied slots of row ``index`` seen from ``facing``."""
    return [s for s in slots if row_index(s, facing) == index]


def rows_behind(slots: Iterable[Slot], facing: str, index: int) -> dict[int, int]:
    """{row index: models} of the rows parallel to row ``index`` and further from ``facing``."""
    step = sum(inward(facing))
    out: dict[int, int] = {}
    for s in slots:
        i = row_index(s, facing)
        if (i - index) * step > 0:
            out[i] = out.get(i, 0) + 1
    return out


def assumed_row_models(present: int, behind: Iterable[int]) -> int:
    """Incomplete Ranks: a fighting rank counts as many models as the largest row behind it
    (never fewer than it holds)."""
    return max([present] + list(behind))


def stand_ins(slots: set[Slot], facing: str, index: int, positions: Sequence[int], touching: Sequence[int],
              missing: int, taken: set[Slot]) -> list[tuple[Slot, Slot]]:
    """Incomplete Ranks, our reading: up to ``missing`` (empty slot, stand-in slot) pairs.

    ``positions`` are the places along the row (files of a rank, ranks of a file); the empty
    ones nearest a ``touching`` position come first; each is stood in for by the nearest
    occupied slot inward in its line that is not ``taken`` (already fighting)."""
    if missing <= 0:
        return []
    dr, df = inward(facing)
    empty = []
    for pos in positions:
        slot = (index, pos) if facing in ("front", "rear") else (pos, index)
        if slot not in slots:
            empty.append((min((abs(pos - t) for t in touching), default=0), pos, slot))
    out = []
    for _, _, slot in sorted(empty):
        r, f = slot
        while True:
            r, f = r + dr, f + df
            if r < 1 or f < 1 or r > 10000 or f > 10000:
                break
            if (r, f) in slots and (r, f) not in taken:
                out.append((slot, (r, f)))
                break
            if not any(s for s in slots if row_index(s, facing) == row_index((r, f), facing)):
                break
        if len(out) >= missing:
            break
    return out


def combat_order(front_models: int, ranks: int) -> bool:
    """Combat Order: at least as many models per rank as per file. Our reading (tow.md Q6):
    models per file is the number of ranks, an incomplete last rank included."""
    return front_models >= ranks


# ----- numbers ---------------------------------------------------------------------------------
def charge_bonus(moved_in: Optional[float], arc: str, p: TowParams, disordered: bool = False) -> int:
    """Charging Units: +``charge_initiative_per_inch`` per full inch moved before contact,
    at most ``charge_initiative_max_front`` into a front arc and ``..._flank_rear`` into a
    flank or rear arc; none for a disordered charge or an unknown distance."""
    if disordered or moved_in is None or moved_in <= 0:
        return 0
    cap = p.charge_initiative_max_front if arc == "front" else p.charge_initiative_max_flank_rear
    return min(int(math.floor(moved_in + 1e-9)) * p.charge_initiative_per_inch, cap)


def initiative(base: float, p: TowParams, *, strike_first: bool = False, strike_last: bool = False,
               charge: int = 0, spear: int = 0) -> int:
    """Initiative a model strikes at: Strike First / Strike Last replace it *before* other
    modifiers (both cancel), then the charge and weapon bonuses, never above the cap."""
    value = base
    if strike_first and not strike_last:
        value = p.strike_first_initiative
    elif strike_last and not strike_first:
        value = p.strike_last_initiative
    value = value + charge + spear
    value = min(value, p.initiative_cap)
    return int(value) if value == int(value) else value


def rank_bonus(rank_sizes: Sequence[int], troop: TroopType, *, horde: bool, in_combat_order: bool,
               disrupted: bool, horde_bonus: int) -> int:
    """Rank Bonus: +1 per rank behind the first holding at least the troop type's models per
    rank, up to its maximum (+``horde_bonus`` with Horde); 0 out of Combat Order or Disrupted.
    ``rank_sizes`` lists the models in each rank, front rank first."""
    if troop.models_per_rank is None or not in_combat_order or disrupted:
        return 0
    full = sum(1 for n in rank_sizes[1:] if n >= troop.models_per_rank)
    cap = troop.max_rank_bonus + (horde_bonus if horde else 0)
    return min(full, cap)


def unit_strength(troop: TroopType, models: int, wounds: Any) -> float:
    """Unit Strength: models x the troop type's value (its Wounds for monsters)."""
    per = troop.unit_strength
    if per == "wounds":
        per = float(wounds) if isinstance(wounds, (int, float)) and not isinstance(wounds, bool) else 1.0
    return models * float(per)


def support_allowed(weapon: Weapon, has_keyword: bool, charged: bool) -> tuple[bool, str]:
    """Fight in Extra Rank and the weapons' charge-turn limits: (may support, why not)."""
    if has_keyword:
        return True, ""
    when = weapon.fight_in_extra_rank
    if when == "always":
        return True, ""
    if when == "not_charged":
        return (not charged), "its weapon gives no supporting attacks on a turn it charged"
    if when == "charged_only":
        return charged, "its weapon gives supporting attacks only on a turn it charged"
    return False, "its weapon does not have Fight in Extra Rank"


def non_contact_parts(parts: Optional[dict[str, int]], n: int) -> Optional[dict[str, int]]:
    """One attack (``n``) per part that has attacks, for a fighter not in base contact."""
    if not parts:
        return None
    return {k: (n if a > 0 else 0) for k, a in parts.items()}


# ----- the fight --------------------------------------------------------------------------------
@dataclass
class Fighter:
    """How a model comes to fight: ``kind`` is ``contact``, ``row`` (fighting rank, not in
    contact), ``second`` (Press of Battle) or ``stand_in`` (Incomplete Ranks); ``enemies`` the
    enemy units it may attack; ``rows`` the fighting ranks it stands in, as (enemy, facing)."""

    kind: str
    enemies: set = field(default_factory=set)
    rows: list = field(default_factory=list)
    note: str = ""


@dataclass
class TowFight:
    """The policy's answer for a board: per-model ``results`` (ModelResult), the
    ``strike_order`` steps, the output ``extra`` keys and ``notes``."""

    results: dict
    strike_order: list
    extra: dict
    notes: list


def _word(troop: str) -> str:
    return troop.replace("_", " ")


def _profile(u: Any) -> tuple[int, Optional[dict[str, int]]]:
    parts = u.profile.get("parts")
    if parts:
        per = {str(pt.get("name", f"part{i + 1}")): int(pt.get("attacks", 0)) for i, pt in enumerate(parts)}
        return sum(per.values()), per
    return int(u.profile.get("attacks", 1)), None


class _Unit:
    """What the policy reads of one unit (troop type, weapon, keywords, Movement)."""

    def __init__(self, u: Any, ms: list, p: TowParams, charged: set, notes: list):
        self.u, self.ms = u, ms
        self.slots = {(m.rank, m.file): m for m in ms} if u.kind == "ranked" else {}
        self.kw = {str(k).lower() for k in u.keywords}
        tt = u.extra.get("troop_type", p.default_troop_type)
        if tt not in p.troop_types:
            notes.append(f"{u.id}: unknown troop_type {tt!r}; read as {p.default_troop_type}")
            tt = p.default_troop_type
        self.troop_name, self.troop = tt, p.troop_types[tt]
        wp = u.extra.get("weapon", p.default_weapon)
        if wp not in p.weapons:
            notes.append(f"{u.id}: unknown weapon {wp!r}; read as {p.default_weapon}")
            wp = p.default_weapon
        self.weapon_name, self.weapon = wp, p.weapons[wp]
        mv = u.profile.get("movement")
        self.movement_in = float(mv) if isinstance(mv, (int, float)) and not isinstance(mv, bool) else None
        if self.movement_in is None and p.fight_range == "movement_inches" and u.kind == "ranked":
            notes.append(f"{u.id}: no Movement in its profile; its fighting rank is not limited by distance")
        self.charged = u.id in charged
        occ = list(self.slots)
        self.ranks = max((r for r, _ in occ), default=0)
        sizes = [sum(1 for r, _ in occ if r == k) for k in range(1, self.ranks + 1)]
        self.rank_sizes = sizes
        self.in_order = bool(occ) and combat_order(max(sizes), self.ranks)

    def reach_mm(self, p: TowParams) -> Optional[float]:
        if p.fight_range == "unlimited" or self.movement_in is None:
            return None
        return self.movement_in * INCH_MM


def _gap_to(m: Any, enemy_models: list, limit: Optional[float]) -> float:
    """Closest edge-to-edge gap (mm) from model ``m`` to any of ``enemy_models``; stops early
    once one is within ``limit``."""
    best = math.inf
    bb = m.shape.bbox()
    for em in enemy_models:
        if g.bbox_gap(bb, em.shape.bbox()) >= best:
            continue
        d = g.gap_mm(m.shape, em.shape)
        if d < best:
            best = d
            if limit is not None and best <= limit:
                break
    return best


def fight(units: dict, models: dict, engagements: Sequence[tuple[str, str, str]], contacts: Mapping[str, set],
          context: Mapping[str, Any], p: TowParams, tol: float, result_type: Any) -> TowFight:
    """Decide every model's role, attacks and targets under The Old World.

    ``units``: {id: Unit}; ``models``: {id: [Model]}; ``engagements``: (unit, enemy, facing of
    ``unit`` the enemy is engaged with); ``contacts``: {model id: enemy model ids it touches};
    ``context``: the scenario's phase context (``charged``, ``charge_moved``, ``disordered``);
    ``result_type``: the ModelResult class to fill. Never raises on a valid board.
    """
    notes: list[str] = []
    charged = set(context.get("charged") or [])
    info = {uid: _Unit(units[uid], models[uid], p, charged, notes) for uid in units}
    order = {m.id: i for i, m in enumerate(m for ms in models.values() for m in ms)}
    by_id = {m.id: m for ms in models.values() for m in ms}
    unit_of = {m.id: m.unit_id for ms in models.values() for m in ms}
    results = {m.id: result_type(at=m.center) for ms in models.values() for m in ms}
    fighters: dict[str, Fighter] = {}
    supporters: dict[str, set] = {}
    why_none: dict[str, str] = {}
    ranks_out: list[dict] = []
    frm: dict[str, int] = {uid: 0 for uid in units}

    def enemy_touched(uid: str, enemy: str) -> list[str]:
        """Enemy models of ``enemy`` touching any model of ``uid``."""
        out = set()
        for m in models[uid]:
            out |= {t for t in contacts.get(m.id, ()) if unit_of[t] == enemy}
        return sorted(out, key=order.__getitem__)

    for uid, ms in models.items():
        ui = info[uid]
        reach = ui.reach_mm(p)
        lim = None if reach is None else reach + tol
        for m in ms:
            if contacts.get(m.id):
                fighters[m.id] = Fighter("contact", {unit_of[t] for t in contacts[m.id]})
        if ui.u.kind != "ranked":
            continue
        occ = set(ui.slots)
        engs = [(e, f) for (a, e, f) in engagements if a == uid]
        rows: list[tuple[str, str, int, list]] = []
        for enemy, facing in engs:
            eids = {em.id for em in models[enemy]}
            touching = [s for s, m in ui.slots.items() if contacts.get(m.id, set()) & eids]
            for idx in sorted({row_index(s, facing) for s in touching}):
                rows.append((enemy, facing, idx, [s for s in touching if row_index(s, facing) == idx]))
        in_rows = {s for (_e, f, idx, _t) in rows for s in row_slots(occ, f, idx)}
        taken = set(in_rows)
        pob = ui.troop.press_of_battle and ui.in_order and not ui.charged and p.press_of_battle_depth > 1
        for enemy, facing, idx, touching in rows:
            emodels = models[enemy]
            lengthwise = facing in ("front", "rear")
            present = row_slots(occ, facing, idx)
            positions = range(1, ui.u.files + 1) if lengthwise else range(1, ui.ranks + 1)
            behind = rows_behind(occ, facing, idx)
            assumed = assumed_row_models(len(present), behind.values()) \
                if p.incomplete_ranks == "largest_row_behind" else len(present)
            touch_pos = [s[1] if lengthwise else s[0] for s in touching]
            subs = stand_ins(occ, facing, idx, positions, touch_pos, assumed - len(present), taken)
            taken |= {s for _e, s in subs}
            entry = {"unit": uid, "enemy": enemy, "facing": facing, "row": idx, "present": len(present),
                     "assumed": assumed, "models": [], "second": [], "stand_ins": [], "supporters": [],
                     "out_of_reach": []}
            fighting = 0

            def add(slot: Slot, kind: str, key: str, note: str = "") -> bool:
                m = ui.slots[slot]
                if lim is not None and not fighters.get(m.id, Fighter("")).kind == "contact":
                    d = _gap_to(m, emodels, lim)
                    if d > lim:
                        if m.id not in fighters:
                            why_none[m.id] = (
                                f"In the fighting rank facing {enemy} ({facing}), but {enemy} is {d / INCH_MM:.1f}\" "
                                f"away, beyond its Movement of {ui.movement_in:g}\" ({p.rule('fight_range')}).")
                        entry["out_of_reach"].append(m.id)
                        return False
                f = fighters.get(m.id)
                if f is None:
                    f = fighters[m.id] = Fighter(kind, note=note)
                f.enemies.add(enemy)
                f.rows.append((enemy, facing))
                entry[key].append(m.id)
                return True

            for s in sorted(present):
                fighting += add(s, "row", "models")
            for empty, s in subs:
                fighting += add(s, "stand_in", "stand_ins",
                                f"{len(present)} model{'s' if len(present) != 1 else ''} but counts as {assumed}")
            fighting += assumed - len(present) - len(subs)  # assumed models nobody stands in for
            depth = 1
            if pob and facing in p.press_of_battle_facings:
                depth = p.press_of_battle_depth
                dr, df = inward(facing)
                for s in sorted(present):
                    r, f = s
                    for _k in range(depth - 1):
                        r, f = r + dr, f + df
                        if (r, f) not in occ or (r, f) in in_rows:
                            break
                        taken.add((r, f))
                        fighting += add((r, f), "second", "second")
            frm[uid] += fighting
            # supporting attacks from the row directly behind the fighting rank(s)
            step = sum(inward(facing))
            pob_why = "" if depth > 1 else _no_press_why(ui, facing, p)
            allowed_facing = facing in p.support_facings or p.support_any_facing_keyword.lower() in ui.kw
            may, why_not = support_allowed(ui.weapon, p.support_keyword.lower() in ui.kw, ui.charged)
            for s in sorted(row_slots(occ, facing, idx + depth * step)):
                m = ui.slots[s]
                if s in in_rows or s in taken:
                    continue
                where = (f"Directly behind the fighting rank facing {enemy} ({facing})" if depth == 1 else
                         f"Directly behind the {p.rule('press_of_battle_depth')} rank facing {enemy}")
                lead = f"{where}: {pob_why}; and " if pob_why else f"{where}, but "
                if not allowed_facing:
                    why_none.setdefault(m.id, (
                        f"{lead}supporting attacks go only to the {'/'.join(p.support_facings)} "
                        f"({p.rule('support_facings')}; {p.rule('support_any_facing_keyword')} would allow any facing)."))
                    continue
                if not may:
                    why_none.setdefault(m.id, f"{lead}{why_not} ({p.rule('support_keyword')}; "
                                              f"weapon: {_word(ui.weapon_name)}).")
                    continue
                d = _gap_to(m, emodels, lim) if lim is not None else 0.0
                if d > lim if lim is not None else False:
                    why_none.setdefault(m.id, (
                        f"{lead}{enemy} is {d / INCH_MM:.1f}\" away, beyond its Movement of {ui.movement_in:g}\" "
                        f"({p.rule('fight_range')})."))
                    continue
                supporters.setdefault(m.id, set()).add(enemy)
                entry["supporters"].append(m.id)
            ranks_out.append(entry)
        # a model in two fighting ranks fights once (it is one Fighter); count it once
        shared = [mid for mid, f in fighters.items() if unit_of[mid] == uid and len({r for r in f.rows}) > 1]
        frm[uid] -= sum(len(set(fighters[mid].rows)) - 1 for mid in shared)

    for uid in units:
        if info[uid].u.kind != "ranked":
            frm[uid] = sum(1 for m in models[uid] if m.id in fighters)

    # ----- attacks, targets, explanations
    for mid, f in fighters.items():
        uid = unit_of[mid]
        ui = info[uid]
        r = results[mid]
        total, parts = _profile(ui.u)
        r.role = "attack"
        rows = sorted(set(f.rows))
        two = len(rows) > 1
        if f.kind == "contact" or contacts.get(mid):
            r.targets = sorted(contacts[mid], key=order.__getitem__)
            r.attacks, r.parts = total, (dict(parts) if parts else None)
            enemies = ", ".join(sorted({unit_of[t] for t in r.targets}))
            facings = sorted({fc for (_e, fc) in rows}) or ["front"]
            r.why = (f"In base contact with {enemies}: fights with its full Attacks ({total}) "
                     f"({p.rule('contact_tolerance_mm')}; {p.rule('non_contact_attacks')}).")
            if two:
                r.why += (f" It stands in two fighting ranks ({' and '.join(facings)}) but attacks once, directing its "
                          f"attacks at an enemy it touches ({p.rule('dividing_attacks')}).")
            continue
        enemies = sorted(f.enemies)
        if p.dividing_attacks == "closest_enemy_unit" and len(enemies) > 1:
            dist = {e: _gap_to(by_id[mid], models[e], None) for e in enemies}
            best = min(dist.values())
            enemies = [e for e in enemies if dist[e] <= best + tol]
        r.targets = [t for e in enemies for t in enemy_touched(uid, e)]
        r.targets.sort(key=order.__getitem__)
        n = p.non_contact_attacks
        r.parts = non_contact_parts(parts, n)
        r.attacks = sum(r.parts.values()) if r.parts else (min(n, total) if total > 0 else 0)
        each = " per part" if parts else ""
        where = ", ".join(f"{e} ({fc})" for e, fc in rows)
        if f.kind == "row":
            r.why = (f"In the fighting rank facing {where} and within its Movement: fights, but not in base contact, "
                     f"so {n} attack{each} ({p.rule('fight_range')}; {p.rule('non_contact_attacks')}).")
        elif f.kind == "second":
            r.why = (f"{p.rule('press_of_battle_depth')}: {_word(ui.troop_name)} in Combat Order that did not charge "
                     f"fight {p.press_of_battle_depth} ranks deep; directly behind the fighting rank facing {where}, "
                     f"not in base contact: {n} attack{each} ({p.rule('non_contact_attacks')}).")
        else:
            r.why = (f"{p.rule('incomplete_ranks')}: the fighting rank facing {where} holds {f.note} (the largest "
                     f"row behind it); our reading: this model stands in for a missing one, {n} attack{each}.")
        if len(f.enemies) > 1:
            r.why += f" Touching no enemy, it attacks the closest enemy unit ({p.rule('dividing_attacks')})."

    for mid, enemies in supporters.items():
        if mid in fighters:
            continue
        uid = unit_of[mid]
        ui = info[uid]
        r = results[mid]
        total, parts = _profile(ui.u)
        n = min(p.support_attacks, total) if total > 0 else 0
        r.role = "support"
        r.targets = sorted({t for e in enemies for t in enemy_touched(uid, e)}, key=order.__getitem__)
        if parts:
            first = next(iter(parts))
            r.parts = {k: (n if k == first else 0) for k in parts}
        r.attacks = n
        source = (f"the {p.support_keyword.replace('_', ' ')} rule" if p.support_keyword.lower() in ui.kw
                  else f"its {_word(ui.weapon_name)} (Fight in Extra Rank)")
        r.why = (f"Supporting attack ({p.rule('support_keyword')}): {source}; directly behind the fighting rank, "
                 f"{n} attack.")
        if parts and ui.troop.rider_only_support:
            r.why += f" Only the {next(iter(parts))} supports, not the mount."
        elif parts:
            r.why += f" One attack, made by the {next(iter(parts))}."
    for mid, r in results.items():
        if r.role != "none" and _profile(units[unit_of[mid]])[0] <= 0:
            r.role, r.attacks, r.targets, r.parts = "none", 0, [], None
            r.why = "Attacks 0: a model without attacks never attacks (Characteristics of Zero)."
        if r.role == "none":
            r.why = why_none.get(mid) or ("Not in a fighting rank (no model of its rank or file touches an enemy) "
                                          f"and not directly behind one ({p.rule('fight_range')}).")

    strike, initiative_why = strike_order(units, models, engagements, context, p, info, results)
    rb, rb_why = rank_bonuses(units, models, engagements, p, info)
    extra = {"rank_bonus": rb, "fighting_rank_models": frm, "fighting_ranks": ranks_out,
             "rank_bonus_why": rb_why, "initiative": initiative_why}
    return TowFight(results, strike, extra, notes)


def _no_press_why(ui: _Unit, facing: str, p: TowParams) -> str:
    """Why the row behind a fighting rank is not a second fighting rank (Press of Battle)."""
    rule = p.rule("press_of_battle_depth")
    if not ui.troop.press_of_battle:
        return f"{_word(ui.troop_name)} have no {rule}"
    if ui.charged:
        return f"no {rule} in a turn the unit charged"
    if not ui.in_order:
        return f"not in Combat Order (more ranks than files), so no {rule}"
    if facing not in p.press_of_battle_facings:
        return f"{rule} deepens only the {'/'.join(p.press_of_battle_facings)} fighting rank"
    return f"{rule} is switched off in this ruleset"


def _charge_arcs(uid: str, engagements: Sequence[tuple[str, str, str]]) -> set[str]:
    """Facings of the enemies that ``uid`` is engaged with (the arcs it charged into)."""
    return {f for (a, e, f) in engagements if e == uid}


def unit_initiative(uid: str, ui: _Unit, engagements: Sequence[tuple[str, str, str]], context: Mapping[str, Any],
                    p: TowParams) -> tuple[dict[str, float], str]:
    """({part or '': Initiative}, explanation) for one unit this round."""
    u = ui.u
    sf = p.strike_first_keyword.lower() in ui.kw
    sl_kw = p.strike_last_keyword.lower() in ui.kw
    sl_weapon = ui.weapon.strike_last
    charge = 0
    bits = []
    if ui.charged:
        arcs = _charge_arcs(uid, engagements)
        arc = "front" if arcs <= {"front"} else "flank_rear"
        moved = (context.get("charge_moved") or {}).get(uid)
        disordered = uid in set(context.get("disordered") or [])
        charge = charge_bonus(moved, arc, p, disordered)
        if disordered:
            bits.append(f"a disordered charge gets no bonus ({p.rule('charge_initiative_per_inch')})")
        elif moved is None:
            bits.append(f"charged, but no charge_moved distance is given: no bonus ({p.rule('charge_initiative_per_inch')})")
        else:
            cap = p.charge_initiative_max_front if arc == "front" else p.charge_initiative_max_flank_rear
            bits.append(f"+{charge} for charging {int(math.floor(moved + 1e-9))} full inches into the "
                        f"{'front' if arc == 'front' else 'flank/rear'} (at most +{cap}; "
                        f"{p.rule('charge_initiative_per_inch')})")
    spear = 0
    if ui.weapon.initiative_vs_front_chargers and not ui.charged:
        if any(a == uid and f == "front" and e in set(context.get("charged") or []) for (a, e, f) in engagements):
            spear = ui.weapon.initiative_vs_front_chargers
            bits.append(f"+{spear} with a {_word(ui.weapon_name)} against the unit that charged its front "
                        f"({p.rule('weapons')})")
    parts = u.profile.get("parts")
    base_all = u.profile.get("initiative", u.profile.get("agility", 0))
    out: dict[str, float] = {}
    names = [str(pt.get("name", f"part{i + 1}")) for i, pt in enumerate(parts)] if parts else [""]
    for i, name in enumerate(names):
        base = parts[i].get("initiative", base_all) if parts else base_all
        # a weapon's Strike Last is the rider's (the first part's) only
        last = sl_kw or (sl_weapon and i == 0)
        out[name] = initiative(float(base), p, strike_first=sf, strike_last=last, charge=charge, spear=spear)
    head = []
    if sf and not (sl_kw or sl_weapon):
        head.append(f"{p.rule('strike_first_initiative')}: I{p.strike_first_initiative} before modifiers")
    elif (sl_kw or sl_weapon) and not sf:
        src = f"its {_word(ui.weapon_name)}" if sl_weapon and not sl_kw else "its special rule"
        head.append(f"{p.rule('strike_last_initiative')} ({src}): I{p.strike_last_initiative} before modifiers")
    elif sf:
        head.append("Strike First and Strike Last cancel out")
    shown = ", ".join(f"{k or 'I'} {_fmt(v)}" if k else f"I{_fmt(v)}" for k, v in out.items())
    why = f"{u.id}: {shown}" + (" (" + "; ".join(head + bits) + ")" if head or bits else "")
    if any(v >= p.initiative_cap for v in out.values()) and (charge or spear):
        why += f"; never above {p.initiative_cap}"
    return out, why


def _fmt(v: float) -> str:
    return str(int(v)) if v == int(v) else str(v)


def strike_order(units: dict, models: dict, engagements, context, p: TowParams, info: dict, results: dict
                 ) -> tuple[list[dict], dict[str, str]]:
    """Who Strikes First?: steps of models (and parts) by Initiative, highest first; equal
    Initiative strikes together. Returns (steps, {unit: explanation})."""
    steps: dict[float, list[str]] = {}
    parts_at: dict[float, list[str]] = {}
    why: dict[str, str] = {}
    for uid, ms in models.items():
        values, why[uid] = unit_initiative(uid, info[uid], engagements, context, p)
        for m in ms:
            r = results[m.id]
            if r.attacks <= 0:
                continue
            if r.parts and len(values) > 1:
                for part, n in r.parts.items():
                    if n > 0:
                        s = values.get(part, next(iter(values.values())))
                        steps.setdefault(s, [])
                        if m.id not in steps[s]:
                            steps[s].append(m.id)
                        parts_at.setdefault(s, []).append(f"{m.id}/{part}")
            else:
                steps.setdefault(next(iter(values.values())), []).append(m.id)
    out = []
    for s in sorted(steps, reverse=True):
        step = int(s) if s == int(s) else s
        d = {"step": step, "label": f"Initiative {step}", "models": steps[s]}
        if parts_at.get(s):
            d["parts"] = parts_at[s]
        out.append(d)
    return out, why


def rank_bonuses(units: dict, models: dict, engagements, p: TowParams, info: dict
                 ) -> tuple[dict[str, int], dict[str, str]]:
    """Rank Bonus each unit can claim now, with a one-line reason each."""
    out: dict[str, int] = {}
    why: dict[str, str] = {}
    for uid, ui in info.items():
        t = ui.troop
        name = _word(ui.troop_name)
        rule = p.rule("troop_types")
        if ui.u.kind != "ranked" or not ui.ms:
            out[uid], why[uid] = 0, f"{uid}: no ranks, no Rank Bonus ({rule})"
            continue
        if t.models_per_rank is None:
            out[uid], why[uid] = 0, f"{uid}: {name} claim no Rank Bonus ({rule})"
            continue
        horde = p.horde_keyword.lower() in ui.kw
        disruptors = []
        for (a, e, f) in engagements:
            if a != uid or f == "front" or units[e].kind != "ranked":
                continue
            ei = info[e]
            us = unit_strength(ei.troop, len(models[e]), units[e].profile.get("wounds"))
            if us >= t.disrupted_by_unit_strength:
                disruptors.append(f"{e} (Unit Strength {_fmt(us)}) in its {f if f == 'rear' else f + ' flank'}")
        n = rank_bonus(ui.rank_sizes, t, horde=horde, in_combat_order=ui.in_order, disrupted=bool(disruptors),
                       horde_bonus=p.horde_rank_bonus)
        out[uid] = n
        if disruptors:
            why[uid] = (f"{uid}: +0, Disrupted by {', '.join(disruptors)}; {name} are disrupted from Unit Strength "
                        f"{t.disrupted_by_unit_strength} ({rule}: Disrupted Units)")
        elif not ui.in_order:
            why[uid] = f"{uid}: +0, not in Combat Order (deeper than wide) ({rule}: Combat Order)"
        else:
            cap = t.max_rank_bonus + (p.horde_rank_bonus if horde else 0)
            why[uid] = (f"{uid}: +{n}, ranks of {t.models_per_rank}+ {name} behind the first, at most +{cap}"
                        + (f" ({p.rule('horde_keyword')} +{p.horde_rank_bonus})" if horde else "") + f" ({rule})")
    return out, why
