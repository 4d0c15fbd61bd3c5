"""Units and models as a person types them into a form (the demo recorder's Ring, Callout and
Fall fields), read back into ids: the inverse of :mod:`game.core.names`.

A unit is typed by its name (``Infantry 1``, any letter case) or its id; a model by its
name as the texts say it (``Dwarfs (rank 2, file 3)``, ``Cultists (model 4)``) or its id
(``dwarfs.r2f3``). Several are separated by ``;`` (a name may hold spaces and commas); a part
that names nothing is split at commas and spaces into words, each read the same way, and a
word that names nothing is kept as typed (the demo's check refuses it, naming it). Pure: no
pygame; the board is only read.
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Optional

from game.core.names import model_name, unit_names

_PLACE = re.compile(r"^(?P<unit>.+?)\s*\(\s*(?:rank\s+(?P<r>\d+)\s*,\s*file\s+(?P<f>\d+)|model\s+(?P<m>\d+))\s*\)$",
                    re.IGNORECASE)


def unit_of(board: Any, text: str) -> Optional[str]:
    """The id of the unit ``text`` names (its id, else its name in any letter case), or None."""
    t = " ".join(str(text).split())
    ids = {u.id for u in board.units}
    if t in ids:
        return t
    found = [u.id for u in board.units if u.name and u.name.casefold() == t.casefold()]
    return found[0] if len(found) == 1 else None


def model_of(board: Any, text: str) -> Optional[str]:
    """The id of the model ``text`` names (``Dwarfs (rank 2, file 3)``, ``Cultists (model 4)``
    or ``dwarfs.r2f3``), or None. The place is not checked against the unit's size."""
    t = " ".join(str(text).split())
    uid, dot, slot = t.partition(".")
    if dot and slot and uid in {u.id for u in board.units}:
        return t
    m = _PLACE.match(t)
    if not m:
        return None
    uid2 = unit_of(board, m.group("unit"))
    if uid2 is None:
        return None
    return f"{uid2}.r{m.group('r')}f{m.group('f')}" if m.group("r") else f"{uid2}.m{m.group('m')}"


def thing_of(board: Any, text: str) -> Optional[str]:
    """A unit's or a model's id for ``text`` (:func:`unit_of`, then :func:`model_of`), or None."""
    return unit_of(board, text) or model_of(board, text)


def read_marked(board: Any, text: str) -> list[str]:
    """The ids of the units and models typed in ``text`` (see the module doc), in order."""
    out: list[str] = []
    for part in [p.strip() for p in str(text).split(";") if p.strip()]:
        whole = thing_of(board, part)
        if whole is not None:
            out.append(whole)
            continue
        out += [thing_of(board, w) or w for w in re.split(r"[,\s]+", part) if w]
    return out


def marked_text(board: Any, ids: Iterable[str]) -> str:
    """The ids ``ids`` as a person reads and types them: names, separated by ``; ``."""
    names = unit_names(board)
    return "; ".join(model_name(i, names) for i in ids)
