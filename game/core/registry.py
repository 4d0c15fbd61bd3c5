"""Strategies by name: the core's table of the engines, filled from outside the core.

The rules core never imports an engine. The engine packages (:mod:`game.engines`) install
their discovery here when the ``game`` package is imported (:func:`install`): a package is
imported only when a ruleset names its strategy (:func:`strategy`), so loading whfb8 never
imports the 40k solver; :func:`names` imports them all.

* :func:`strategy` -> the strategy of a name (KeyError if none);
* :func:`names` -> the registered names, sorted;
* :func:`strategy_of` -> the strategy of a loaded ruleset;
* :func:`register` -> add a strategy (an engine package's ``STRATEGY``);
* :func:`install` -> the discovery: ``load(name)`` imports one engine and registers it,
  ``available()`` lists the names that could be loaded.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional

if TYPE_CHECKING:  # pragma: no cover
    from game.core.ruleset_data import Ruleset
    from game.core.strategy import Strategy

_REGISTRY: dict[str, "Strategy"] = {}
_load: Optional[Callable[[str], None]] = None
_available: Callable[[], list[str]] = lambda: []


def install(load: Callable[[str], None], available: Callable[[], list[str]]) -> None:
    """Let :func:`strategy` and :func:`names` find engines that are not registered yet:
    ``load(name)`` imports the engine of that name (if it exists) and registers it;
    ``available()`` lists the names it knows. Called once, by :mod:`game.engines`."""
    global _load, _available
    _load, _available = load, available


def register(s: "Strategy") -> "Strategy":
    """Register ``s`` under ``s.name`` (a second strategy of the same name is an error)."""
    old = _REGISTRY.get(s.name)
    if old is not None and old is not s:
        raise ValueError(f"two strategies named {s.name}")
    _REGISTRY[s.name] = s
    return s


def names() -> list[str]:
    """Names of every strategy (all available engines loaded), sorted."""
    for name in _available():
        strategy(name)
    return sorted(_REGISTRY)


def strategy(name: str) -> "Strategy":
    """The strategy registered as ``name``, importing only its engine; KeyError when there is
    none."""
    if name not in _REGISTRY and _load is not None:
        _load(name)
    return _REGISTRY[name]


def strategy_of(rs: "Ruleset") -> "Strategy":
    """The strategy a loaded ruleset names (the loader has checked it exists)."""
    return strategy(rs.strategy)
