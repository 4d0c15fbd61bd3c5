"""The window's actions by name: what a key, a toolbar button or a panel button runs.

The key map (:mod:`game.window.keymap`) turns a key into an action name such as
``"turn:90"``, ``"undo"`` or ``"tool:tape"``; :class:`Actions` runs it. Each part of the window
registers the actions it implements (:meth:`Actions.add` for a plain name, :meth:`Actions.add_prefix`
for a name with an argument after ``:``), so adding a command is one registration beside the
code that does it. Pygame-free.
"""
from __future__ import annotations

from typing import Callable, Optional


class Actions:
    """``after``: called once an action ran (the window: draw the next frame, whatever changed)."""

    def __init__(self, after: Optional[Callable[[], object]] = None) -> None:
        self.plain: dict[str, Callable[[], object]] = {}
        self.prefixed: dict[str, Callable[[str], object]] = {}
        self.after = after

    def add(self, name: str, run: Callable[[], object]) -> None:
        """``name`` runs ``run()``; a name registered twice is a mistake (ValueError)."""
        if name in self.plain:
            raise ValueError(f"action {name} is registered twice")
        self.plain[name] = run

    def add_prefix(self, prefix: str, run: Callable[[str], object]) -> None:
        """``prefix:arg`` runs ``run(arg)`` (``turn:90`` -> ``run("90")``)."""
        if prefix in self.prefixed:
            raise ValueError(f"action {prefix}:... is registered twice")
        self.prefixed[prefix] = run

    def knows(self, action: str) -> bool:
        return action in self.plain or action.partition(":")[0] in self.prefixed

    def run(self, action: str) -> bool:
        """Run ``action``; False when no part of the window registered it."""
        if action in self.plain:
            self.plain[action]()
        else:
            name, _, arg = action.partition(":")
            if name not in self.prefixed:
                return False
            self.prefixed[name](arg)
        if self.after is not None:
            self.after()
        return True
