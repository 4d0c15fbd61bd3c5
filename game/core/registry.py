"""Strategies by name: the one place that knows which engines exist.

Each package of :mod:`game.engines` provides one strategy, named as the package, as its
``STRATEGY`` (a :class:`~game.core.strategy.Strategy`). A package is imported only when a
ruleset names its strategy (:func:`strategy`), so loading whfb8 never imports the 40k solver;
:func:`names` imports them all. Adding an engine therefore needs no edit here.

* :func:`strategy` -> the strategy of a name (KeyError if none);
* :func:`names` -> the registered names, sorted;
* :func:`strategy_of` -> the strategy of a loaded ruleset.
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

import game.engines as engines

if TYPE_CHECKING:  # pragma: no cover
    from game.core.ruleset_data import Ruleset
    from game.core.strategy import Strategy

_REGISTRY: dict[str, "Strategy"] = {}
_loaded = False


def register(s: "Strategy") -> "Strategy":
    """Register ``s`` under ``s.name`` (a second strategy of the same name is an error)."""
    old = _REGISTRY.get(s.name)
    if old is not None and old is not s:
        raise ValueError(f"two strategies named {s.name}")
    _REGISTRY[s.name] = s
    return s


def _engine_names() -> list[str]:
    """Package names under :mod:`game.engines` (each the name of the strategy it provides)."""
    return sorted(i.name for i in pkgutil.iter_modules(engines.__path__) if i.ispkg and not i.name.startswith("_"))


def _load_one(name: str) -> None:
    """Import the engine package ``game.engines.<name>`` (if it exists) and register its STRATEGY."""
    if name in _REGISTRY or name not in _engine_names():
        return
    mod = importlib.import_module(f"game.engines.{name}")
    s = getattr(mod, "STRATEGY", None)
    if s is not None:
        register(s)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in _engine_names():
        _load_one(name)


def names() -> list[str]:
    """Names of the registered strategies, sorted."""
    _load()
    return sorted(_REGISTRY)


def strategy(name: str) -> "Strategy":
    """The strategy registered as ``name``, importing only its engine package; KeyError when
    there is none."""
    _load_one(name)
    return _REGISTRY[name]


def strategy_of(rs: "Ruleset") -> "Strategy":
    """The strategy a loaded ruleset names (the loader has checked it exists)."""
    return strategy(rs.strategy)
