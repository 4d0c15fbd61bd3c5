"""Compare one board under two rulesets: which models change role or attack count.

Used by the window's compare mode, ``render --compare`` and ``analyse --compare``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from game.core.analysis import Analysis
from game.core.analyse import analyse
from game.core.board import Board
from game.core.registry import strategy_of
from game.core.ruleset import Ruleset, RulesetError, load_ruleset


@dataclass(frozen=True)
class Difference:
    """A model whose role or attacks differ: ``(role, attacks)`` under ruleset a and b, and
    each ruleset's explanation (``why_a``, ``why_b``: the analyses' hover texts)."""

    model: str
    a: tuple[str, int]
    b: tuple[str, int]
    why_a: str = ""
    why_b: str = ""

    def describe(self, a_id: str, b_id: str) -> str:
        """In words: ``"dwarfs.r1f2: does not fight under whfb8; fights with 1 attack under t9a"``."""
        return f"{self.model}: {role_words(*self.a)} under {a_id}; {role_words(*self.b)} under {b_id}"


def role_words(role: str, attacks: int) -> str:
    """A model's ``(role, attacks)`` in words: ``("attack", 2)`` -> ``"fights with 2 attacks"``,
    ``("support", 1)`` -> ``"makes 1 supporting attack"``, ``("none", 0)`` -> ``"does not fight"``
    (another role: its name with the attacks)."""
    n = f"{attacks} attack{'s' if attacks != 1 else ''}"
    if role == "attack":
        return f"fights with {n}"
    if role == "support":
        return f"makes {attacks} supporting attack{'s' if attacks != 1 else ''}"
    if role == "none":
        return "does not fight" + (f" ({n})" if attacks else "")
    return f"{role.replace('_', ' ')} with {n}"


def compare(board: Board, a: Ruleset, b: Ruleset) -> tuple[Analysis, Analysis, list[Difference]]:
    """Analyse ``board`` under rulesets ``a`` and ``b``; return both analyses and the models
    whose role or attack count differ (models missing under one ruleset count as ``none`` x0),
    in natural model order."""
    ra = analyse(board, a)
    rb = analyse(board, b)
    return ra, rb, differences(ra, rb)


def differences(ra: Analysis, rb: Analysis) -> list[Difference]:
    """The models whose ``(role, attacks)`` differ between two analyses of the same board
    (a model missing from one counts as ``none`` x0), in natural model order. Lets a caller
    that already holds one analysis (the window, re-analysing while a unit is dragged) skip
    analysing it again."""
    diffs = []
    for mid in sorted(set(ra.models) | set(rb.models), key=_natural):
        ma, mb = ra.models.get(mid), rb.models.get(mid)
        va = (ma.role, ma.attacks) if ma else ("none", 0)
        vb = (mb.role, mb.attacks) if mb else ("none", 0)
        if va != vb:
            diffs.append(Difference(mid, va, vb, ma.why if ma else "", mb.why if mb else ""))
    return diffs


def usable(board: Board, ids: list[str], keep: str | None = None) -> list[str]:
    """The ruleset ids of ``ids`` worth offering for ``board``: each loads and its strategy is
    usable on the board (``Strategy.usable_on``); ``keep`` (the board's own) always stays."""
    out = []
    for rid in ids:
        try:
            rs = load_ruleset(rid)
        except RulesetError:
            continue
        if rid == keep or strategy_of(rs).usable_on(board):
            out.append(rid)
    return out


def partner(rid: str, ids: list[str]) -> str | None:
    """The natural ruleset to compare ``rid`` with, among ``ids``: the ruleset it inherits
    from, else one that inherits from it, else one with the same strategy, else the next
    one in ``ids`` (None when there is no other)."""
    rest = [x for x in ids if x != rid]
    if not rest:
        return None
    loaded = {}
    for x in [rid] + rest:
        try:
            loaded[x] = load_ruleset(x)
        except RulesetError:
            pass
    me = loaded.get(rid)
    if me is not None:
        if me.inherits in rest:
            return me.inherits
        for test in (lambda o: o.inherits == rid, lambda o: o.strategy == me.strategy):
            hit = next((x for x in rest if x in loaded and test(loaded[x])), None)
            if hit is not None:
                return hit
    return rest[0]


def _natural(s: str) -> list[int | str]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]
