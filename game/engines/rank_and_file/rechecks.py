"""Rechecks of what geometric policies read, for :mod:`.incremental`: a unit whose enemies
moved (or that moved itself) keeps its decision when every geometric policy finds what it
recorded of enemy geometry while deciding it (``c.state["geometry_reads"][unit]``, a reads
list) still holds on the combat now (:mod:`.policy`: ``recheck``, ``recheck_many``).

:func:`rechecked` asks each policy once for many units' reads (``recheck_many``, one array
pass in The Old World's :func:`~.tow_gaps.same_answers_many`) and keeps each verdict for the
frame by the reads list, so the steps of one frame asking the same list again get it at once.
"""
from __future__ import annotations

from typing import Any, Optional


def rechecked(c: Any, checks: list, batch: list, known: Optional[dict] = None) -> list[bool]:
    """Per reads list of ``batch``, whether every geometric policy of ``checks`` finds it holds
    on the prepared combat ``c``: its ``recheck_many`` asked once for all (else its ``recheck``
    per list), in policy order, a list already failed not asked again. ``known``: ``id(reads
    list) -> (the list, verdict)`` found on ``c`` already (this frame), read first and filled in."""
    out: list = [None] * len(batch)
    todo = []
    for i, reads in enumerate(batch):
        hit = known.get(id(reads)) if known is not None else None
        if hit is not None and hit[0] is reads:
            out[i] = hit[1]
        else:
            todo.append(i)
    ok = [True] * len(todo)
    for p in checks:
        idx = [n for n, v in enumerate(ok) if v]
        if not idx:
            break
        lists = [batch[todo[n]] for n in idx]
        got = p.recheck_many(c, lists) if p.recheck_many is not None else [p.recheck(c, r) for r in lists]
        for n, v in zip(idx, got):
            ok[n] = bool(v)
    for i, v in zip(todo, ok):
        out[i] = v
        if known is not None:
            known[id(batch[i])] = (batch[i], v)
    return out
