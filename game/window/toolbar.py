"""The window's toolbar: pygame_gui buttons (labels and tips from the key map) and the ruleset
and compare drop-downs, laid out left to right and wrapped onto as many rows as the window's
width needs (a 1000 px window gets three rows, nothing is cut off).

:class:`Toolbar` is the widget; :class:`ToolbarSection` the section that owns it: it lays it
out for the window's width (the table starts under it), keeps its drop-downs and greyed
buttons in step with the ruleset and board, draws the band behind it and the mark on the tool
in use, and turns a pressed button into its key-map action.

The compare drop-down's options (the other rulesets this board can use) are asked for when the
user opens it, not when the toolbar is built: listing them loads and checks every shipped
ruleset, which a window's first frame does not need (issue 35: start-up).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

import pygame

from game.window.gui import Gui, plain
from game.window.keymap import KeyMap
from game.window.view import Section
from game.window.window import TITLE_PX

if TYPE_CHECKING:
    from game.window.document import Document
    from game.window.table_view import TableView

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
    "palette", "panel", "duplicate", "delete", "model:-1", "model:1", None, "demo_recorder", None,
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
        self._options: dict[str, Callable[[], list[str]]] = {}   # a drop-down's options, asked on opening
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
                                                  tool_tip_text=plain(tip))
                self.buttons[b] = item
            x += w + GAP
        self.height = y + ROW_PX + 4 - top - 5
        want, self._want = self._want, {}
        for name, (cur, opts) in want.items():
            self.set_dropdown(name, cur, opts)
        return self.height

    def set_dropdown(self, name: str, current: str, options: Callable[[], list[str]]) -> None:
        """Show drop-down ``name`` with ``current`` selected (rebuilt only when that changed: a
        pygame_gui drop-down cannot change its selection in place); ``options()`` gives its
        options (``current`` among them), asked each time the user opens it (:meth:`opening`)."""
        self._want[name] = (current, options)
        self._options[name] = options
        dd = self.dropdowns.get(name)
        if dd is not None and dd.alive() and dd.selected_option[0] == current:
            return
        if dd is not None:
            dd.kill()
        rect = self.slots.get(name)
        if rect is None:
            return
        self.dropdowns[name] = self.pg_gui.elements.UIDropDownMenu([current], current, rect, self.gui)

    def opening(self, element: Any) -> Optional[str]:
        """When ``element`` (a pressed pygame_gui button) opens one of the drop-downs: fill
        that drop-down with its options now (before pygame_gui shows the list, in the same
        frame's update) and return its name; else None."""
        for name, dd in self.dropdowns.items():
            if dd.alive() and element in getattr(dd.current_state, "active_buttons", ()) \
                    and dd.current_state is dd.menu_states.get("closed"):
                self.fill(name)
                return name
        return None

    def fill(self, name: str) -> list[str]:
        """Put drop-down ``name``'s options (asked now) in it; returns them."""
        dd, options = self.dropdowns.get(name), self._options.get(name)
        if dd is None or options is None:
            return []
        opts = list(options())
        dd.options_list.clear()
        dd.add_options(opts)
        return opts

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


class ToolbarSection(Section):
    """The toolbar of the window (``gui`` None: headless, no toolbar). ``run(action)`` runs
    a pressed button's action; ``compare(ruleset id or None)`` follows the compare drop-down."""

    def __init__(self, gui: Optional[Gui], keymap: KeyMap, doc: Document, table: TableView,
                 run: Callable[[str], None], compare: Callable[[Optional[str]], None]) -> None:
        self.gui, self.doc, self.table, self.run, self.compare = gui, doc, table, run, compare
        self.toolbar: Optional[Toolbar] = Toolbar(gui.manager, gui.pg, keymap) if gui is not None else None
        doc.listeners.append(lambda what: self.refresh() if what == "ruleset" else None)

    @property
    def buttons(self) -> dict:
        """{button: action}."""
        return self.toolbar.buttons if self.toolbar else {}

    @property
    def dropdowns(self) -> dict:
        """{"compare": drop-down}."""
        return self.toolbar.dropdowns if self.toolbar else {}

    def layout(self, width: int) -> None:
        """Lay the toolbar out for a window ``width`` px wide (wrapping rows); the table starts under it."""
        if self.toolbar is None:
            return
        self.table.options.top_inset = self.toolbar.build(width, TITLE_PX)
        self.refresh()

    def refresh(self) -> None:
        """Drop-downs and greyed buttons for the current ruleset and board."""
        if self.toolbar is None:
            return
        doc = self.doc
        self.toolbar.set_label("rules_menu", f"Rules: {doc.rs.id}")
        cur = f"Compare: {doc.live.compare_id}" if doc.live.compare_id else "Compare: off"
        self.toolbar.set_dropdown("compare", cur, self.compare_options)
        steps = doc.rules.has_steps(doc.rs)
        why = f"{doc.rs.id} has no phase steps"
        for a in ("step:-1", "step:1", "board"):
            self.toolbar.enable(a, steps, why)

    def compare_options(self) -> list[str]:
        """The compare drop-down's options: off, then every other ruleset this board can use
        (asked when the drop-down opens: this loads and checks every shipped ruleset)."""
        doc = self.doc
        ids = [r for r, why in doc.rules.choices(doc.board, doc.rs.id) if not why and r != doc.rs.id]
        return ["Compare: off"] + [f"Compare: {r}" for r in ids]

    def button_rect(self, action: str) -> Optional[pygame.Rect]:
        """Screen rectangle of the button doing ``action`` (for tests and scripts)."""
        return self.toolbar.button_rect(action) if self.toolbar else None

    def label(self, action: str) -> str:
        return next((b.text for b, a in self.buttons.items() if a == action), "")

    def rects(self) -> list[pygame.Rect]:
        return self.toolbar.rects() if self.toolbar else []

    def on_event(self, ev: Any) -> bool:
        if self.gui is None:
            return False
        el = getattr(ev, "ui_element", None)
        if ev.type == self.gui.pg.UI_BUTTON_PRESSED and self.toolbar is not None and self.toolbar.opening(el):
            return True  # pygame_gui has taken it (GuiFirst): it opens the list, filled just now
        if ev.type == self.gui.pg.UI_BUTTON_PRESSED and el in self.buttons:
            self.run(self.buttons[el])
            return True
        if ev.type == self.gui.pg.UI_DROP_DOWN_MENU_CHANGED and el is not None and el is self.dropdowns.get("compare"):
            text = ev.text.split(": ", 1)[1].split(" ")[0]
            self.compare(None if text == "off" else text)
            return True
        return False

    def on_draw(self, screen: Any) -> None:
        if self.toolbar is None:
            return
        screen.fill((52, 56, 60), pygame.Rect(0, TITLE_PX, screen.get_width(), self.table.options.top_inset))
        for b, action in self.buttons.items():
            if action == f"tool:{self.table.tool}":
                pygame.draw.rect(screen, (255, 200, 0), b.rect.inflate(4, 4), 2, border_radius=3)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.layout(size[0])
