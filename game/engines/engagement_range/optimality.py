"""Is a pile-in or consolidation move proven to engage as many models as possible?

seeds/003, "Pile-in Moves": units pile in "to maximise the number of models that are engaged".
An upper bound on that number: a model already within Engagement Range of a target counts; any
other model can end engaged only if its gap to the closest target, less its whole move, is
within Engagement Range (a move is never shorter than the straight line, and bases standing in
the way only make it longer). When the move engages that many models it is ``optimal``
(proven); otherwise it is the ``best found`` by the search (:mod:`.solver`, :mod:`.exact`).
"""
from __future__ import annotations

import numpy as np

from game.engines.engagement_range.table import Params, Table


def start_gaps(table: Table, uid: str, targets: list[str]) -> dict[str, float]:
    """{model id of ``uid``: gap (mm) to the closest model of the ``targets``} as they stand."""
    mine = table.models_of(uid)
    foes = [q for e in targets for q in table.models_of(e)]
    if not mine or not foes:
        return {pc.id: float("inf") for pc in mine}
    G = table.gap_matrix(mine, foes)
    return {pc.id: float(G[i].min()) for i, pc in enumerate(mine)}


def move_status(table: Table, uid: str, targets: list[str], before: dict[str, float], move_mm: float,
                p: Params) -> dict:
    """``{"status": "optimal" | "best found", "engaged": n, "bound": k}`` for ``uid`` on
    ``table`` after its move (``before``: :func:`start_gaps` before it; ``move_mm``: the move's
    limit). ``engaged`` counts the unit's models within Engagement Range of a target now."""
    now = start_gaps(table, uid, targets)
    engaged = sum(1 for g in now.values() if g <= p.er_mm)
    bound = sum(1 for g in before.values() if g - move_mm <= p.er_mm)
    return {"status": "optimal" if engaged >= bound else "best found", "engaged": engaged, "bound": bound}


__all__ = ["move_status", "start_gaps", "np"]
