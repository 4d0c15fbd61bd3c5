"""The allocation numbers of the combat-slot rule (ruleset ``slots``; see :mod:`.engine`): who
attacks in an engaged pair and why, the drawn share, the base, bonus and final numbers of each
engaged unit (the largest over its engagements), and the paragraph explaining them. Pure."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Mapping, Optional

from game.core.board import Board, Unit
from game.core.ruleset import Ruleset


@dataclass
class PairView:
    """One engagement seen from ``unit``: its ``enemy``, who the ``attacker`` is and why
    (``attacker_because``), the ``direction`` (frontal|flank|rear, the defender's facing the
    attacker is engaged with) and the numbers it gives ``unit``."""

    unit: str
    enemy: str
    attacker: str
    attacker_because: str
    direction: str
    total: int
    base: int
    bonus: int
    final: int
    whole: bool


def draw_shares(board: Board, rs: Ruleset) -> dict[str, int]:
    """Base number: one share (whole percent) per unit, drawn in file order from
    ``random.Random(seed)`` (the scenario's ``seed``, else the ruleset's ``default_seed``),
    uniform between ``share_min_pct`` and ``share_max_pct`` inclusive. Every unit draws,
    engaged or not, so casualties or moves never shift another unit's share."""
    v = rs.values
    lo, hi = v.share_min_pct, v.share_max_pct
    if hi < lo:
        lo, hi = hi, lo
    seed = board.seed if board.seed is not None else v.default_seed
    rng = random.Random(seed)
    return {u.id: rng.randint(lo, hi) for u in board.units}


def base_number(share_pct: int, total: int, own: int, whole_max: int) -> int:
    """Base number: ceil(share_pct% x total), capped at ``own`` models; a unit of
    ``whole_max`` models or fewer gives all ``own`` models. Integer arithmetic, no rounding drift."""
    if own <= whole_max:
        return own
    return min(own, -(-share_pct * total // 100))


def choose_attacker(board: Board, a: Unit, b: Unit, facing_a: str, facing_b: str) -> tuple[str, str]:
    """Attacker of the engaged pair ``a``/``b`` and the reason (see the module docstring).

    ``facing_a``: the facing of ``a`` that ``b`` is engaged with; ``facing_b`` likewise.
    Returns ``(unit id, reason)`` with reason one of ``round_winner``, ``charged``,
    ``flanker``, ``active_player``, ``player_1``.
    """
    ctx = board.context or {}
    w = ctx.get("round_winner")
    if w in (a.id, b.id):
        return w, "round_winner"
    charged = set(ctx.get("charged") or [])
    if (a.id in charged) != (b.id in charged):
        return (a.id if a.id in charged else b.id), "charged"
    if facing_a != "front" and facing_b == "front":
        return b.id, "flanker"
    if facing_b != "front" and facing_a == "front":
        return a.id, "flanker"
    ap = ctx.get("active_player")
    if ap in (a.player, b.player) and a.player != b.player:
        return (a.id if a.player == ap else b.id), "active_player"
    return (a.id if a.player <= b.player else b.id), "player_1"


_BECAUSE = {
    "round_winner": "won the last round, so counts as the attacker (Recalculation of allocated models)",
    "charged": "charged this turn",
    "flanker": "nobody charged; it is the one striking a flank or rear",
    "active_player": "nobody charged or flanked; it belongs to the active player",
    "player_1": "nobody charged or flanked and no active player is set; player 1's unit counts as the attacker",
}


def alloc_why(v: PairView, share: int, actual: int, whole_max: int, rs: Ruleset) -> str:
    """One-paragraph explanation of a unit's numbers, in our words, citing the rules by the
    names the ruleset gives them (``rule:`` of its parameters)."""
    alloc, base, bonus = rs.rule("contact_tolerance_mm"), rs.rule("share_min_pct"), rs.rule("bonus_models")
    att = "it" if v.attacker == v.unit else v.attacker
    parts = [f"Attacker: {att} ({_BECAUSE[v.attacker_because]})."]
    if v.direction == "frontal":
        parts.append(f"Frontal attack, so the share is taken of the defender's {v.total} models ({alloc}).")
    else:
        parts.append(f"{v.direction.capitalize()} attack, so the share is taken of the attacker's {v.total} models "
                     f"({alloc}).")
    if v.whole:
        parts.append(f"With {whole_max} or fewer models the unit is allocated whole: base {v.base} ({base}).")
    else:
        parts.append(f"{base}: {share}% of {v.total}, rounded up and capped at its own models = {v.base}.")
    if v.bonus:
        who = "it has more models" if v.direction == "frontal" else "it is the attacker"
        parts.append(f"{bonus}: +{v.bonus} because {who}.")
    elif v.direction == "frontal":
        parts.append(f"{bonus}: none (the bonus goes to the unit with more models; a tie gives none).")
    else:
        parts.append(f"{bonus}: none (only the attacker gets it in a flank or rear attack).")
    parts.append(f"Final number {v.final}; {actual} found a free combat slot (Actual number).")
    return " ".join(parts)


def pair_views(board: Board, rs: Ruleset, units: Mapping[str, Unit], own: Mapping[str, int],
               enemies: Mapping[str, list[str]], facing: Mapping[tuple[str, str], str], shares: Mapping[str, int],
               order: Mapping[str, int]) -> tuple[dict[str, PairView], set[str]]:
    """The numbers of each engaged unit (``enemies``: unit id -> the enemy units it engages,
    in file order; ``facing[(a, b)]`` the facing of ``a`` that ``b`` is engaged with; ``own``
    its models; ``shares`` its drawn share): per engagement the attacker, direction, base,
    bonus and final number; a unit fighting several uses the one with the largest final
    number. Returns ({unit id: PairView}, the units that attack in some engagement)."""
    v = rs.values
    views: dict[str, PairView] = {}
    attacking: set[str] = set()
    for uid in sorted(enemies, key=order.__getitem__):
        best: Optional[PairView] = None
        for eid in enemies[uid]:
            att, because = choose_attacker(board, units[uid], units[eid], facing[(uid, eid)], facing[(eid, uid)])
            dfn = eid if att == uid else uid
            if att == uid:
                attacking.add(uid)
            struck = facing[(dfn, att)]
            direction = "frontal" if struck == "front" else ("rear" if struck == "rear" else "flank")
            total = own[dfn] if direction == "frontal" else own[att]
            base = base_number(shares[uid], total, own[uid], v.whole_unit_max_models)
            if direction == "frontal":
                bonus = v.bonus_models if own[uid] > own[eid] else 0
            else:
                bonus = v.bonus_models if att == uid else 0
            final = min(base + bonus, own[uid])
            view = PairView(uid, eid, att, because, direction, total, base, bonus, final,
                            own[uid] <= v.whole_unit_max_models)
            if best is None or view.final > best.final:
                best = view
        assert best is not None  # every unit here engages at least one enemy
        views[uid] = best
    return views, attacking
