"""Non-pure helpers handed to the rules core (dependency injection keeps game/core pure).

``default_services()`` returns the keyword arguments every caller of
:func:`game.core.analyse.analyse` should pass. The Warhammer 40,000 move solver now finds
its own collision-free paths in the pure core (:mod:`game.engines.engagement_range.solver`), so the
pymunk path planner is retired and no service is needed today; callers keep passing these so
a future device can be injected in one place.
"""
from __future__ import annotations


def default_services() -> dict:
    """Keyword arguments for ``analyse(board, ruleset, **default_services())`` (empty today)."""
    return {}
