"""Strategies by name: the one place that knows which engines exist.

Every module of :mod:`game.core.rules` is imported once, on first use; a module that
defines ``STRATEGY`` (a :class:`~game.core.strategy.Strategy`) registers it under its
``name``, and a module may register ranked policies as it is imported
(:func:`game.core.rules.policy.policy`). Adding a rule system therefore needs no edit here.

* :func:`strategy` -> the strategy of a name (KeyError if none);
* :func:`names` -> the registered names, sorted;
* :func:`strategy_of` -> the strategy of a loaded ruleset.
"""
from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .ruleset import Ruleset
    from .strategy import Strategy

_REGISTRY: dict[str, "Strategy"] = {}
_loaded = False


def register(s: "Strategy") -> "Strategy":
    """Register ``s`` under ``s.name`` (a second strategy of the same name is an error)."""
    old = _REGISTRY.get(s.name)
    if old is not None and old is not s:
        raise ValueError(f"two strategies named {s.name}")
    _REGISTRY[s.name] = s
    return s


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from . import rules
    for info in sorted(pkgutil.iter_modules(rules.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{rules.__name__}.{info.name}")
        s = getattr(mod, "STRATEGY", None)
        if s is not None:
            register(s)


def names() -> list[str]:
    """Names of the registered strategies, sorted."""
    _load()
    return sorted(_REGISTRY)


def strategy(name: str) -> "Strategy":
    """The strategy registered as ``name``; KeyError when there is none."""
    _load()
    return _REGISTRY[name]


def strategy_of(rs: "Ruleset") -> "Strategy":
    """The strategy a loaded ruleset names (the loader has checked it exists)."""
    return strategy(rs.strategy)
