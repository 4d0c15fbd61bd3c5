"""The window's toolbar: pygame_gui buttons (labels and tips from the key map) and the ruleset
and compare drop-downs, laid out left to right and wrapped onto as many rows as the window's
width needs (a 1000 px window gets three rows, nothing is cut off)."""
from __future__ import annotations

from typing import Any, Optional

import pygame

from game.window.keymap import KeyMap

ROW_PX = 36
BUTTON_H = 30
DROPDOWN_W = 190
GAP = 4
GROUP_GAP = 12

#: the toolbar, in groups (None: a gap); strings are actions of the key map, "@compare" the compare drop-down
LAYOUT: list[Optional[str]] = [
    "new", "open", "@recent", "save", "save_as", "export", "title", None,
    "tool:move", "tool:forward", "tool:wheel", "tool:charge", "tool:casualty", "tool:tape", None,
    "turn:-90", "turn:90", "turn:180", "reform:-1", "reform:1", None,
    "palette", "panel", "duplicate", "delete", "model:-1", "model:1", None,
    "undo", "redo", None, "rules_menu", "@compare", None, "step:-1", "step:1", "board", None, "help",
]
EXTRA = {"@recent": ("Recent", "files opened or saved lately")}


class Toolbar:
    """Buttons and drop-downs under the title bar. ``buttons`` maps each button to its action."""

    def __init__(self, gui: Any, pg_gui: Any, keymap: KeyMap):
        self.gui, self.pg_gui, self.keymap = gui, pg_gui, keymap
        self.buttons: dict[Any, str] = {}
        self.dropdowns: dict[str, Any] = {}
        self.slots: dict[str, pygame.Rect] = {}
        self.height = ROW_PX
        self.top = 0
        self._want: dict[str, tuple] = {}
        self.labels: dict[str, str] = {}

    def _label(self, action: str) -> tuple[str, str]:
        if action in self.labels:
            return self.labels[action], self.keymap.tip(action)
        if action in EXTRA:
            return EXTRA[action]
        b = self.keymap.binding(action)
        return (b.label if b and b.label else action), self.keymap.tip(action)

    def build(self, width: int, top: int) -> int:
        """(Re)build for a window ``width`` px wide, starting at ``top``; returns the height."""
        for el in list(self.buttons) + list(self.dropdowns.values()):
            el.kill()
        self.buttons.clear()
        self.dropdowns.clear()
        self.slots.clear()
        self.top = top
        font = pygame.font.Font(None, 20)
        x, y = 8, top + 5
        for item in LAYOUT:
            if item is None:
                x += GROUP_GAP
                continue
            if item in ("rules_menu", "@compare"):
                w = DROPDOWN_W
            else:
                w = max(44, font.size(self._label(item)[0])[0] + 18)
            if x + w > width - 8 and x > 8:
                x, y = 8, y + ROW_PX
            if item == "@compare":
                self.slots[item[1:]] = pygame.Rect(x, y, w, BUTTON_H)
            else:
                text, tip = self._label(item)
                b = self.pg_gui.elements.UIButton(pygame.Rect(x, y, w, BUTTON_H), text, manager=self.gui,
                                                  tool_tip_text=tip)
                self.buttons[b] = item
            x += w + GAP
        self.height = y + ROW_PX + 4 - top - 5
        want, self._want = self._want, {}
        for name, (cur, opts) in want.items():
            self.set_dropdown(name, cur, opts)
        return self.height

    def set_dropdown(self, name: str, current: str, options: list[str]) -> None:
        """Show drop-down ``name`` with ``options``, ``current`` selected (rebuilt only when
        that changed: a pygame_gui drop-down cannot change its selection in place)."""
        self._want[name] = (current, list(options))
        dd = self.dropdowns.get(name)
        if dd is not None and dd.alive() and dd.selected_option[0] == current and \
                [o if isinstance(o, str) else o[0] for o in dd.options_list] == options:
            return
        if dd is not None:
            dd.kill()
        rect = self.slots.get(name)
        if rect is None:
            return
        self.dropdowns[name] = self.pg_gui.elements.UIDropDownMenu(options, current, rect, self.gui)

    def set_label(self, action: str, text: str) -> None:
        """Show ``text`` on the button of ``action`` (the ruleset in use)."""
        self.labels[action] = text
        for b, a in self.buttons.items():
            if a == action and b.text != text:
                b.set_text(text)

    def button_rect(self, action: str) -> Optional[pygame.Rect]:
        for b, a in self.buttons.items():
            if a == action:
                return b.rect
        return None

    def enable(self, action: str, on: bool, why: str = "") -> None:
        """Grey out (or enable) the button of ``action``; ``why`` becomes its tip."""
        for b, a in self.buttons.items():
            if a == action:
                if on and not b.is_enabled:
                    b.enable()
                    b.set_tooltip(self._label(action)[1])
                elif not on and b.is_enabled:
                    b.disable()
                    b.set_tooltip(why or self._label(action)[1])

    def rects(self) -> list[pygame.Rect]:
        return [b.rect for b in self.buttons] + [d.rect for d in self.dropdowns.values()]
