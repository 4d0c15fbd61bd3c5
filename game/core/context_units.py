"""A phase context that names only the units of its board.

The scenario format (docs/SCENARIO_FORMAT.md, "Context keys") takes unit ids in a context only
when they are units of the file: ``charged``, ``fights_first``, ``destroyed``, ``fought``,
``disordered``, ``fight_order``, the pairs of ``combats``, the keys of ``charge_moved`` and
``destroys`` and every unit a ``destroys`` entry names, the units of each ``casualties`` step.
A board worked out by an engine (the table after a step of a phase: destroyed units gone, units
still embarked not on it) writes its context through :func:`context_of_units`, so that saving
that board as a scenario gives a file the loader accepts and that analyses the same.
"""
from __future__ import annotations

from typing import Any, Collection

from game.core.scenario import CONTEXT_ID_LISTS


def _unit_named(item: Any) -> Any:
    """The unit a ``destroys`` item names: the id itself, or the ``unit`` of ``{unit: id, models: N}``."""
    return item.get("unit") if isinstance(item, dict) else item


def context_of_units(context: dict, unit_ids: Collection[str]) -> dict:
    """``context`` with every unit id that is not in ``unit_ids`` left out (see the module
    doc for the keys); a ``destroys``, ``charge_moved`` or ``casualties`` entry left empty is
    left out, other keys are kept as they are. Returns a new dict; ``context`` is not changed."""
    units = set(unit_ids)
    out = dict(context)
    for key in CONTEXT_ID_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [u for u in out[key] if u in units]
    if isinstance(out.get("combats"), list):
        out["combats"] = [pair for pair in out["combats"]
                          if isinstance(pair, (list, tuple)) and all(u in units for u in pair)]
    if isinstance(out.get("destroys"), dict):
        kept = {k: [it for it in v if _unit_named(it) in units] for k, v in out["destroys"].items()
                if k in units and isinstance(v, list)}
        out["destroys"] = {k: v for k, v in kept.items() if v}
    if isinstance(out.get("charge_moved"), dict):
        out["charge_moved"] = {k: v for k, v in out["charge_moved"].items() if k in units}
    if isinstance(out.get("casualties"), dict):
        steps = {label: {u: v for u, v in per.items() if u in units}
                 for label, per in out["casualties"].items() if isinstance(per, dict)}
        out["casualties"] = {label: per for label, per in steps.items() if per}
    return out
