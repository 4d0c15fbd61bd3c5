"""Which models carry an ``×N`` attacks badge: only where the number teaches something.

The rule (issue 40, "badges only where they teach"): never ``×1``; ``×N`` only on a model whose
number of attacks differs from its unit's usual number for its role (the most common number
among the unit's drawn models of that role: a champion's ``×3`` in a block of ``×2``), or on
every model making other than one attack when the figure is about attacks (``every``: a compare
figure, or ``--counts all``). One function, used by the generic ``×N`` marks of the scene, the
numbered fighting ranks (:func:`game.render.part_marks.draw_rows`) and the legend's ``×N`` row,
so a badge is drawn exactly where the legend says.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Optional

from game.core.analysis import Analysis
from game.render.drawn import DrawnModel


def attacks_value(analysis: Optional[Analysis], mid: str) -> int:
    """The number of attacks of model ``mid`` in ``analysis`` (1 when it has no result)."""
    r = analysis.models.get(mid) if analysis is not None else None
    return r.attacks if r is not None else 1


def _is_one(n: Any) -> bool:
    try:
        return float(n) == 1.0
    except (TypeError, ValueError):
        return False


def badged(models: Iterable[DrawnModel], analysis: Optional[Analysis], every: bool = False, roles: tuple = ("attack", "support")) -> dict:
    """``{model id: attacks}`` of the drawn ``models`` (each with ``id``, ``role``, ``unit.id``)
    that carry a ``×N`` badge: role in ``roles``, attacks other than 1, and (unless ``every``)
    other than the usual number of its unit's models of the same role."""
    cand = [(dm, attacks_value(analysis, dm.id)) for dm in models if dm.role in roles]
    if every:
        return {dm.id: n for dm, n in cand if not _is_one(n)}
    usual: dict[tuple[str, str], Counter] = {}
    for dm, n in cand:
        usual.setdefault((dm.unit.id, dm.role), Counter())[n] += 1
    common = {k: max(c.items(), key=lambda kv: (kv[1], -_num(kv[0])))[0] for k, c in usual.items()}
    return {dm.id: n for dm, n in cand if not _is_one(n) and n != common[(dm.unit.id, dm.role)]}


def _num(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return 0.0
