"""The engines: one package per strategy, named as the strategy a ruleset names
(``strategy: rank_and_file`` -> :mod:`game.engines.rank_and_file`). Each package's
``STRATEGY`` is the :class:`~game.core.strategy.Strategy` it provides; the registry
(:mod:`game.core.registry`) imports a package only when a ruleset names it."""
