"""Marks that point at what a figure is about: a model crossed ("cannot support"), a model ringed,
a contact ringed (the touching corner), ticked or crossed (the one contact a caption calls legal
or illegal).

A scenario file (top-level key ``marks``) and a book figure or panel (key ``marks``) list them::

    marks:
      - {mark: cross, models: [dwarfs.r2f1, dwarfs.r2f2], says: "Cannot support: they fight to the flank"}
      - {mark: ring, models: [dwarfs.r1f1]}
      - {mark: ring, contact: [dwarfs.r1f10, goblins.r1f1], says: "Bases touch only at the corner"}
      - {mark: tick, contact: [elves.r1f1, orcs.r1f3]}

``mark``: ``cross`` or ``ring`` on ``models`` (model ids of the file, at most :data:`MAX_MARKED`);
``ring``, ``tick`` or ``cross`` on a ``contact``, two model ids of different units (drawn where
their bases come closest). ``says``: the words the figure's key gives the mark (none: the mark
is drawn and not keyed). Pure data and checks; :mod:`game.render.point_marks` draws them.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from game.core.record import Record, record
from game.core.validate import MAX_CAPTION, short, text_problem

MODEL_MARKS = ("cross", "ring")
CONTACT_MARKS = ("ring", "tick", "cross")
KEYS = ("mark", "models", "contact", "says")
#: Most marks one file or figure lists, and most models one mark names.
MAX_MARKS, MAX_MARKED = 200, 200


@record
class PointMark(Record):
    """One mark: ``mark`` (``cross``/``ring``/``tick``), the ``models`` it sits on (one or more
    model ids) or, with ``contact`` True, the two models whose contact it marks; ``says`` its
    words in the key ("" for none)."""

    mark: str
    models: tuple
    contact: bool = False
    says: str = ""

    @property
    def swatch(self) -> str:
        """The key's swatch kind: ``mark:cross``, ``mark:ring``, ``mark:contact_ring``, ..."""
        return f"mark:contact_{self.mark}" if self.contact else f"mark:{self.mark}"


def parse_point_marks(raw: Any, path: tuple, fail: Callable[[tuple, str], Any],
                      model_unit: dict[str, str]) -> tuple[PointMark, ...]:
    """The checked ``marks`` list ``raw`` at ``path``; ``model_unit`` maps every model id of the
    board to its unit id. ``fail(path, message)`` reports the first problem (it raises)."""
    if not isinstance(raw, list):
        fail(path, "must be a list of marks, e.g. [{mark: cross, models: [dwarfs.r2f1]}]")
    if len(raw) > MAX_MARKS:
        fail(path, f"lists {len(raw)} marks; at most {MAX_MARKS}")
    out = []
    for i, m in enumerate(raw):
        p = path + (i,)
        if not isinstance(m, dict):
            fail(p, "each mark is a mapping: {mark: cross|ring, models: [ids]} or {mark: ring|tick|cross, contact: [id, id]}")
        for k in m:
            if k not in KEYS:
                fail(p + ((k,) if isinstance(k, str) else ()), f"unknown key {short(k)} (allowed: {', '.join(KEYS)})")
        if ("models" in m) == ("contact" in m):
            fail(p, "give either models (the models marked) or contact (the two models whose contact is marked)")
        contact = "contact" in m
        kinds = CONTACT_MARKS if contact else MODEL_MARKS
        kind = m.get("mark")
        if kind not in kinds:
            fail(p + ("mark",), f"must be {' or '.join(kinds)} on {'a contact' if contact else 'models'} (got {short(kind)})")
        field = "contact" if contact else "models"
        ids = m[field]
        if not isinstance(ids, list) or not ids or len(ids) > MAX_MARKED:
            fail(p + (field,), "must be two model ids, e.g. [dwarfs.r1f1, goblins.r1f3]" if contact
                 else f"must be a list of 1 to {MAX_MARKED} model ids, e.g. [dwarfs.r2f1]")
        if contact and len(ids) != 2:
            fail(p + (field,), f"must be two model ids (got {len(ids)})")
        for j, mid in enumerate(ids):
            if not isinstance(mid, str) or mid not in model_unit:
                fail(p + (field, j), f"no model {short(mid)} in this file (a model id is <unit id>.<slot>, e.g. "
                     + ", ".join(_examples(model_unit)) + ")")
        if contact and model_unit[ids[0]] == model_unit[ids[1]]:
            fail(p + (field,), "a contact is between models of two units")
        says = m.get("says", "")
        if says is None:
            says = ""
        if isinstance(says, (int, float)) and not isinstance(says, bool):
            says = str(says)
        why = text_problem(says, max_len=MAX_CAPTION) if isinstance(says, str) else f"must be text (got {short(says)})"
        if why:
            fail(p + ("says",), why)
        out.append(PointMark(kind, tuple(ids), contact, says.strip()))
    return tuple(out)


def _examples(model_unit: dict[str, str]) -> Iterable[str]:
    return list(model_unit)[:2] or ["dwarfs.r1f1"]


def model_units(board: Any) -> dict[str, str]:
    """``{model id: unit id}`` of every model on ``board``."""
    return {m.id: u.id for u in board.units for m in u.models()}


def board_point_marks(board: Any) -> tuple[PointMark, ...]:
    """The marks of a loaded board (its ``marks`` key, checked when the file was loaded); marks
    naming a model the board no longer holds (an edited board) are left out."""
    raw = board.extra.get("marks") if isinstance(getattr(board, "extra", None), dict) else None
    if not raw or not isinstance(raw, list):
        return ()
    units = model_units(board)
    kept = [m for m in raw if isinstance(m, dict) and all(isinstance(x, str) and x in units
                                                          for x in (m.get("models") or m.get("contact") or []))]

    def fail(path: tuple, message: str) -> None:
        raise ValueError(message)
    try:
        return parse_point_marks(kept, ("marks",), fail, units)
    except ValueError:
        return ()
