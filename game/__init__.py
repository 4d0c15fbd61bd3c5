"""Melee Lens: which models fight in a melee, and why.

Importing the package installs the engines' discovery in the rules core's registry
(:mod:`game.engines`), so the core finds an engine by the name a ruleset gives without
importing any engine itself."""
import game.engines  # noqa: F401 - registers the engine discovery in the core
