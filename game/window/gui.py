"""The window's pygame_gui manager and the two sections that route events through it.

:class:`Gui` wraps the ``pygame_gui.UIManager`` every widget of the window is built with
(toolbar, panels, help, dialogs) and answers what the table needs to know: is the mouse over a
widget (:meth:`Gui.over`), is a text field being typed in (:meth:`Gui.typing`). The window
updates and draws the manager each frame.

Events reach pygame_gui in two sections of every view: :class:`GuiFirst` comes before the
other sections (pygame_gui's own events -- a button pressed, a menu changed, a text entered, a
file picked -- are processed here and then offered to the dialogs, panels and toolbar; keys
while a text field has the keyboard are text, never board shortcuts), :class:`GuiLast` after
them (the wheel over a widget scrolls it, never the board; a click on a widget is the widget's).
"""
from __future__ import annotations

import html
from typing import Any

import pygame

from game.window.view import Section


def plain(text: object) -> str:
    """``text`` as a pygame_gui box that reads HTML must be given it to show it as written: a
    text box (a dialog's question), a multi-line entry and a tooltip parse ``<``, ``>`` and
    ``&`` as markup (``<img src=...>`` loads a picture, ``<font pixel_size=20000>`` takes
    gigabytes, ``<br>`` and ``<a>`` push away the dialog's own words), so all three are
    escaped; pygame_gui's parser turns the entities back into the characters, and a
    multi-line entry's ``get_text()`` gives the text back as written. Line breaks are kept.
    Every text from a file or a user that such a box shows goes through here (titles, unit
    and file names, captions, the recovery, replace, outside-change and compare questions)."""
    return html.escape(str(text), quote=False)


class Gui:
    """The pygame_gui manager of a window ``size`` px."""

    def __init__(self, size: tuple[int, int]) -> None:
        import pygame_gui

        self.pg: Any = pygame_gui
        self.manager: Any = pygame_gui.UIManager(size)
        self.manager.preload_fonts([{"name": "noto_sans", "point_size": 14, "style": "bold", "antialiased": "1"}])
        self.ui_types = (pygame_gui.UI_BUTTON_PRESSED, pygame_gui.UI_DROP_DOWN_MENU_CHANGED,
                         pygame_gui.UI_TEXT_ENTRY_FINISHED, pygame_gui.UI_FILE_DIALOG_PATH_PICKED)

    @property
    def elements(self) -> Any:
        return self.pg.elements

    def size(self) -> tuple[int, int]:
        w, h = self.manager.window_resolution
        return int(w), int(h)

    def over(self, px: tuple[float, float]) -> bool:
        """True when a widget is under window point ``px``."""
        root = self.manager.get_root_container()
        return any(el is not root and getattr(el, "visible", 1) and el.rect.collidepoint(px)
                   for el in self.manager.get_sprite_group().sprites())

    def typing(self) -> bool:
        """True while a text field has the keyboard focus."""
        entry_types = (self.pg.elements.UITextEntryLine, self.pg.elements.UITextEntryBox)
        return any(isinstance(el, entry_types) and el.is_focused and el.alive()
                   for el in (self.manager.get_focus_set() or ()))

    def focus(self, element: Any) -> None:
        """Give the keyboard to ``element`` (None: to the board)."""
        self.manager.set_focus_set(element)

    def is_ui_event(self, ev: Any) -> bool:
        return ev.type in self.ui_types


class GuiFirst(Section):
    """pygame_gui's events and the keyboard of a text field (first of a view's sections)."""

    def __init__(self, gui: Gui) -> None:
        self.gui = gui

    def on_event(self, ev: Any) -> bool:
        if self.gui.is_ui_event(ev):
            # pygame_gui needs its own button presses too (the x of a window closes it there);
            # the sections after this one take the event
            self.gui.manager.process_events(ev)
            return False
        if ev.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT) and self.gui.typing():
            # a text field has the keyboard: keys are text, not board shortcuts (Esc leaves it)
            if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                self.gui.focus(None)
                return True
            self.gui.manager.process_events(ev)
            return True
        return False


class GuiLast(Section):
    """Whatever pygame_gui takes of the rest (after the dialogs, panels and toolbar)."""

    def __init__(self, gui: Gui, mouse: Any) -> None:
        self.gui, self.mouse = gui, mouse

    def on_event(self, ev: Any) -> bool:
        if self.gui.is_ui_event(ev):
            return True  # a widget's event no section claimed: never the board's
        if ev.type == pygame.MOUSEWHEEL and self.gui.over(self.mouse()):
            self.gui.manager.process_events(ev)  # scrolls the help, a list ...: never the board behind
            return True
        return bool(self.gui.manager.process_events(ev)) and ev.type != pygame.MOUSEMOTION
