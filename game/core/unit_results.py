"""Each unit's model results as one dict object, handed from an engine to the views.

An engine that builds an analysis unit by unit (rank and file: one dict ``{model id: result}``
per unit, or a :class:`~game.core.results.UnitResults` reading as one, kept on its cached
combat parts) notes those dicts with :func:`keep`; a view asks
:func:`of` and knows a unit whose dict is the same object as before to have the same
results, without reading its models one by one (:class:`game.window.retained.DrawnModels`).
The dicts are read-only. They belong to the analysis' ``models`` dict they were noted with:
an analysis whose ``models`` were replaced since gives None. A caller that changes results in
the ``models`` dict in place (e.g. :class:`game.core.combat_round.CombatRound`, after
``analyse``) must not hand that analysis to a reader of :func:`of` (the window's live analysis
is the engine's own, never edited).
"""
from __future__ import annotations

from typing import Any, Mapping, Optional

_KEY = "_unit_results"


def keep(analysis: Any, per_unit: dict[str, Mapping]) -> None:
    """Note ``per_unit`` (unit id -> that unit's result dict) as the units of ``analysis``'s
    current ``models`` (kept in the analysis object, never serialised)."""
    analysis.__dict__[_KEY] = (analysis.models, per_unit)


def of(analysis: Any) -> Optional[dict[str, Mapping]]:
    """The unit id -> result dict noted for ``analysis`` by :func:`keep`, or None (none noted,
    or its ``models`` replaced since)."""
    got = getattr(analysis, "__dict__", {}).get(_KEY)
    if got is None or got[0] is not analysis.models:
        return None
    return got[1]
