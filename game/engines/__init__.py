"""The engines: one package per strategy, named as the strategy a ruleset names
(``strategy: rank_and_file`` -> :mod:`game.engines.rank_and_file`). Each package's
``STRATEGY`` is the :class:`~game.core.strategy.Strategy` it provides.

This module is the one place that finds them: importing it installs :func:`load` and
:func:`available` in the core's registry (:mod:`game.core.registry`), which imports a package
only when a ruleset names it. ``game/__init__.py`` imports this module, so any use of the
``game`` package can analyse; the core itself never imports an engine. Adding an engine
needs no edit here."""
from __future__ import annotations

import importlib
import pkgutil

from game.core import registry


def available() -> list[str]:
    """Package names under :mod:`game.engines` (each the name of the strategy it provides)."""
    return sorted(i.name for i in pkgutil.iter_modules(__path__) if i.ispkg and not i.name.startswith("_"))


def load(name: str) -> None:
    """Import the engine package ``game.engines.<name>`` (if it exists) and register its
    ``STRATEGY``."""
    if name not in available():
        return
    mod = importlib.import_module(f"game.engines.{name}")
    s = getattr(mod, "STRATEGY", None)
    if s is not None:
        registry.register(s)


registry.install(load, available)
