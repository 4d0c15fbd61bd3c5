"""Non-pure helpers handed to the rules core (dependency injection keeps game/core pure).

``default_services()`` returns the keyword arguments every caller of
:func:`game.core.analysis.analyse` should pass: today a pymunk path planner for pile-in
and consolidation moves (``planner``), when that module is present.
"""
from __future__ import annotations


def default_services() -> dict:
    """Keyword arguments for ``analyse(board, ruleset, **default_services())``."""
    out = {}
    try:
        from game.physics.planner import plan_paths
    except ImportError:
        return out
    out["planner"] = plan_paths
    return out
