"""The Old World's rule arithmetic for the rank-and-file engine (pure functions of slots,
profiles and parameters; :mod:`.tow` decides who fights with them): rows seen from a facing,
the models a fighting rank counts, stand-ins, Combat Order, the charge and Initiative
modifiers, Rank Bonus, Unit Strength and who may make supporting attacks. Lengths in mm,
Movement in inches (``p`` is :class:`.tow.Params`; the table rows :class:`TroopType` and :class:`Weapon`
live here)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Literal, Optional, Sequence, Union

Slot = tuple[int, int]
Facing = Literal["front", "right", "rear", "left"]


@dataclass(frozen=True)
class TroopType:
    """One row of the Troop Type Table (``models_per_rank`` None: no Rank Bonus; ``unit_strength``
    per model or ``wounds``; ``disrupted_by_unit_strength``: of a flank/rear enemy)."""

    models_per_rank: Optional[int]
    max_rank_bonus: int
    unit_strength: Union[float, Literal["wounds"]]
    press_of_battle: bool
    rider_only_support: bool
    disrupted_by_unit_strength: int


@dataclass(frozen=True)
class Weapon:
    """A weapon's rules that decide who fights (Fight in Extra Rank, Strike Last, spear bonus)."""

    fight_in_extra_rank: Literal["never", "always", "not_charged", "charged_only"]
    strike_last: bool
    initiative_vs_front_chargers: int


def _num(v: float) -> Any:
    return int(v) if v == int(v) else v


def row_index(slot: Slot, facing: str) -> int:
    """The row a slot is in, seen from ``facing``: its rank (front/rear) or file (flanks)."""
    return slot[0] if facing in ("front", "rear") else slot[1]


def inward(facing: str) -> Slot:
    """(rank, file) step from a fighting row on ``facing`` to the row directly behind it."""
    return {"front": (1, 0), "rear": (-1, 0), "left": (0, 1), "right": (0, -1)}[facing]


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
    out: list[tuple[Slot, Slot]] = []
    depth = max(max(r for r, _ in slots), max(f for _, f in slots)) if slots else 0
    for _, _, slot in sorted(empty):
        line = ((slot[0] + k * dr, slot[1] + k * df) for k in range(1, depth + 1))
        found = next((s for s in line if s in slots and s not in taken), None)
        if found is not None and len(out) < missing:
            out.append((slot, found))
    return out


def combat_order(front_models: int, ranks: int) -> bool:
    """Combat Order: at least as many models per rank as per file. Our reading (tow.md Q6):
    models per file is the number of ranks, an incomplete last rank included."""
    return front_models >= ranks


# ----- numbers ---------------------------------------------------------------------------------
def charge_bonus(moved_in: Optional[float], arc: str, p: Any, disordered: bool = False) -> int:
    """Charging Units: +``charge_initiative_per_inch`` per full inch moved before contact,
    at most ``charge_initiative_max_front`` into a front arc and ``..._flank_rear`` into a
    flank or rear arc; none for a disordered charge or an unknown distance."""
    if disordered or moved_in is None or moved_in <= 0:
        return 0
    cap = p.charge_initiative_max_front if arc == "front" else p.charge_initiative_max_flank_rear
    return min(int(math.floor(moved_in + 1e-9)) * p.charge_initiative_per_inch, cap)


def initiative(base: float, p: Any, *, strike_first: bool = False, strike_last: bool = False,
               charge: int = 0, spear: int = 0) -> int:
    """Initiative a model strikes at: Strike First / Strike Last replace it *before* other
    modifiers (both cancel), then the charge and weapon bonuses, never above the cap."""
    value = (p.strike_first_initiative if strike_first and not strike_last else
             p.strike_last_initiative if strike_last and not strike_first else base)
    return _num(min(value + charge + spear, p.initiative_cap))


def rank_bonus(rank_sizes: Sequence[int], troop: TroopType, *, horde: bool, in_combat_order: bool,
               disrupted: bool, horde_bonus: int) -> int:
    """Rank Bonus: +1 per rank behind the first holding at least the troop type's models per
    rank, up to its maximum (+``horde_bonus`` with Horde); 0 out of Combat Order or Disrupted.
    ``rank_sizes`` lists the models in each rank, front rank first."""
    if troop.models_per_rank is None or not in_combat_order or disrupted:
        return 0
    return min(sum(1 for n in rank_sizes[1:] if n >= troop.models_per_rank),
               troop.max_rank_bonus + (horde_bonus if horde else 0))


def unit_strength(troop: TroopType, models: int, wounds: Any) -> float:
    """Unit Strength: models x the troop type's value (its Wounds for monsters)."""
    per = troop.unit_strength
    if per == "wounds":
        per = float(wounds) if isinstance(wounds, (int, float)) and not isinstance(wounds, bool) else 1.0
    return models * float(per)


def support_allowed(weapon: Weapon, has_keyword: bool, charged: bool) -> tuple[bool, str]:
    """Fight in Extra Rank and the weapons' charge-turn limits: (may support, why not)."""
    when = "always" if has_keyword else weapon.fight_in_extra_rank
    return {"always": (True, ""),
            "not_charged": (not charged, "its weapon gives no supporting attacks on a turn it charged"),
            "charged_only": (charged, "its weapon gives supporting attacks only on a turn it charged"),
            }.get(when, (False, "its weapon does not have Fight in Extra Rank"))


# ----- the fight --------------------------------------------------------------------------------
