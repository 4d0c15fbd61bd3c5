"""Compare one board under two rulesets: which models change role or attack count.

Used by the window's compare mode, ``render --compare`` and ``analyse --compare``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .analysis import Analysis, analyse
from .board import Board
from .ruleset import Ruleset


@dataclass(frozen=True)
class Difference:
    """A model whose role or attacks differ: ``(role, attacks)`` under ruleset a and b."""

    model: str
    a: tuple[str, int]
    b: tuple[str, int]

    def describe(self, a_id: str, b_id: str) -> str:
        return f"{self.model}: {a_id} {self.a[0]} x{self.a[1]}, {b_id} {self.b[0]} x{self.b[1]}"


def compare(board: Board, a: Ruleset, b: Ruleset, **services: Any) -> tuple[Analysis, Analysis, list[Difference]]:
    """Analyse ``board`` under rulesets ``a`` and ``b``; return both analyses and the models
    whose role or attack count differ (models missing under one ruleset count as ``none`` x0),
    in natural model order."""
    ra = analyse(board, a, **services)
    rb = analyse(board, b, **services)
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
            diffs.append(Difference(mid, va, vb))
    return diffs


def _natural(s: str):
    import re
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]
