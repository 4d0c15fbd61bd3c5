"""What The Old World's policy reads of one unit: its troop type, weapon, keywords, Movement,
Attacks (split profiles part by part), charge this turn, its slots and ranks (Combat Order).
Pure; lengths in mm, Movement in inches (converted by :meth:`TowUnit.reach_mm`). ``p`` is
:class:`.tow.Params`."""
from __future__ import annotations

from typing import Any, Optional

from game.core import geometry as g
from game.engines.rank_and_file.tow_rules import TroopType, combat_order

Slot = tuple[int, int]


def word(troop: str) -> str:
    """A table key as words (``heavy_infantry`` -> ``heavy infantry``)."""
    return troop.replace("_", " ")


def profile_attacks(u: Any) -> tuple[int, Optional[dict[str, int]]]:
    """(total Attacks, {part name: Attacks} of a split profile, else None) of unit ``u``."""
    parts = u.profile.get("parts")
    if parts:
        per = {str(pt.get("name", f"part{i + 1}")): int(pt.get("attacks", 0)) for i, pt in enumerate(parts)}
        return sum(per.values()), per
    return int(u.profile.get("attacks", 1)), None


def troop_of(u: Any, p: Any) -> TroopType:
    """The troop type of unit ``u`` (its ``troop_type`` key, or the default when none or unknown)."""
    v = u.extra.get("troop_type", p.default_troop_type)
    return p.troop_types[v if v in p.troop_types else p.default_troop_type]


class TowUnit:
    """What the policy reads of one unit (troop type, weapon, keywords, Movement); an unknown
    troop type or weapon, or no Movement, adds a line to ``notes`` and reads the default."""

    troop_type_name: str  # set from the unit's ``troop_type`` / ``weapon`` keys (or the defaults)
    weapon_name: str

    def __init__(self, u: Any, ms: list, p: Any, charged: set, notes: list):
        self.u, self.ms = u, ms
        self.slots: dict[Slot, Any] = {(m.rank, m.file): m for m in ms} if u.is_ranked else {}
        self.kw = {str(k).lower() for k in u.keywords}
        for key, table, default in (("troop_type", p.troop_types, p.default_troop_type),
                                    ("weapon", p.weapons, p.default_weapon)):
            v = u.extra.get(key, default)
            if v not in table:
                notes.append(f"{u.id}: unknown {key} {v!r}; read as {default}")
                v = default
            setattr(self, key + "_name", v)
        self.troop, self.weapon = p.troop_types[self.troop_type_name], p.weapons[self.weapon_name]
        mv = u.profile.get("movement")
        self.movement_in = float(mv) if isinstance(mv, (int, float)) and not isinstance(mv, bool) else None
        if self.movement_in is None and p.fight_range == "movement_inches" and u.is_ranked:
            notes.append(f"{u.id}: no Movement in its profile; its fighting rank is not limited by distance")
        self.charged = u.id in charged  # this turn
        self.ranks = max((r for r, _ in self.slots), default=0)
        sizes = [0] * (self.ranks + 1)
        for r, _ in self.slots:
            sizes[r] += 1
        self.rank_sizes = sizes[1:]
        self.in_order = bool(self.slots) and combat_order(max(self.rank_sizes), self.ranks)

    def reach_mm(self, p: Any) -> Optional[float]:
        """How far its fighting rank reaches (its Movement, mm), or None when unlimited."""
        return None if p.fight_range == "unlimited" or self.movement_in is None else self.movement_in * g.MM_PER_INCH
