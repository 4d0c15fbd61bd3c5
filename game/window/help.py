"""The F1 help: every binding of the key map and every tool, in a pygame_gui window.

:class:`HelpSection` owns the help window: :meth:`HelpSection.toggle` opens it under the
toolbar (which stays usable) or closes it; Esc closes it too (the window's Esc asks
:meth:`HelpSection.close`). Headless (no pygame_gui), F1 puts the bindings in the status line.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import pygame

from game.window.gui import Gui, plain
from game.window.keymap import KeyMap
from game.window.status import Status
from game.window.tools import HINT
from game.window.view import Section
from game.window.window import TITLE_PX


class HelpSection(Section):
    """``top_inset()``: the toolbar's height (px), so the help opens under it."""

    def __init__(self, gui: Optional[Gui], keymap: KeyMap, status: Status, top_inset: Callable[[], int]) -> None:
        self.gui, self.keymap, self.status, self.top_inset = gui, keymap, status, top_inset
        self.window: Any = None

    def text(self) -> str:
        """The help as pygame_gui HTML: every binding of the key map and every tool."""
        rows = "".join(f"<b>{plain(k)}</b>: {plain(v)}<br>" for k, v in self.keymap.help_rows())
        tools = "".join(f"{plain(HINT[t])}<br>" for t in HINT)
        return f"{rows}<br><b>Tools</b><br>{tools}"

    def is_open(self) -> bool:
        return self.window is not None and self.window.alive()

    def toggle(self) -> None:
        """Open the help window, or close it when it is open."""
        if self.close():
            return
        if self.gui is None:
            self.status.say(" | ".join(f"{k}: {v}" for k, v in self.keymap.help_rows()))
            return
        w, h = self.gui.size()
        top = TITLE_PX + self.top_inset() + 6  # under the toolbar, which stays usable
        rect = pygame.Rect(max(0, w // 2 - 380), top, min(760, w), max(200, min(h - top - 36, 640)))
        el = self.gui.elements
        self.window = el.UIWindow(rect, self.gui.manager, window_display_title="Melee Lens: shortcuts (F1 or Esc closes)")
        cont = self.window.get_container().get_rect()
        el.UITextBox(self.text(), pygame.Rect(0, 0, cont.w, cont.h), manager=self.gui.manager, container=self.window)

    def close(self) -> bool:
        """Close the help; True when it was open."""
        if not self.is_open():
            self.window = None
            return False
        self.window.kill()
        self.window = None
        return True

    def on_update(self) -> None:
        if self.window is not None and not self.window.alive():
            self.window = None
