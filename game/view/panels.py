"""pygame_gui panels of the window: the new-unit palette and the unit properties panel.

Both are thin: every change goes through a method of :class:`game.view.app.App` (so it is
one undoable edit, checked for overlaps like any other), and the panels only show the
selected unit and forward what the user typed or clicked. :meth:`handle` takes a pygame_gui
event and returns True when it belonged to the panel.
"""
from __future__ import annotations

from typing import Any, Optional

import pygame

from game.core.board import Unit
from game.core.edits import BASE_PALETTE, BaseChoice, format_base

ROW_PX = 34
PLAYER_OPTIONS = ["Player 1", "Player 2"]


class PalettePanel:
    """The new-unit palette (a pygame_gui window): one button per common base size
    (:data:`game.core.edits.BASE_PALETTE`) and a player drop-down. Choosing a base arms the
    window's place tool: the next click on the table puts the new unit there."""

    def __init__(self, app: Any, rect: pygame.Rect):
        gui = app.pg_gui
        self.app = app
        self.window = gui.elements.UIWindow(rect, app.gui, window_display_title="New unit (U)")
        cw = self.window.get_container().get_rect().w
        self.buttons: dict[Any, BaseChoice] = {}
        gui.elements.UILabel(pygame.Rect(8, 4, 60, 28), "Player", manager=app.gui, container=self.window)
        self.player = gui.elements.UIDropDownMenu(PLAYER_OPTIONS, PLAYER_OPTIONS[app.place_player - 1],
                                                  pygame.Rect(70, 4, cw - 80, 28), manager=app.gui,
                                                  container=self.window)
        bw = (cw - 24) // 2
        for i, ch in enumerate(BASE_PALETTE):
            x = 8 + (i % 2) * (bw + 8)
            y = 40 + (i // 2) * ROW_PX
            kind = "skirmish" if ch.round else f"{ch.files} wide"
            tip = f"{ch.models} models on {format_base(ch.base)} mm bases ({kind}); then click the table"
            b = gui.elements.UIButton(pygame.Rect(x, y, bw, 30), ch.label, manager=app.gui, container=self.window,
                                      tool_tip_text=tip)
            self.buttons[b] = ch

    def alive(self) -> bool:
        return self.window.alive()

    def kill(self) -> None:
        self.window.kill()

    def button_for(self, label: str) -> Optional[Any]:
        """The palette button labelled ``label`` (tests and scripts)."""
        return next((b for b, ch in self.buttons.items() if ch.label == label), None)

    def handle(self, ev: pygame.event.Event) -> bool:
        gui = self.app.pg_gui
        if ev.type == gui.UI_BUTTON_PRESSED and ev.ui_element in self.buttons:
            self.app.arm_place(self.buttons[ev.ui_element])
            return True
        if ev.type == gui.UI_DROP_DOWN_MENU_CHANGED and ev.ui_element is self.player:
            self.app.place_player = PLAYER_OPTIONS.index(ev.text) + 1
            if self.app.place_choice is not None:
                self.app.arm_place(self.app.place_choice)
            return True
        return False


class UnitPanel:
    """Properties of the selected unit (a pygame_gui window): name, player, base size
    (``25x50`` or a diameter ``32``), files (rank-and-file only), model count with - / +,
    duplicate and delete. Text entries apply on Enter."""

    def __init__(self, app: Any, rect: pygame.Rect):
        self.app = app
        self.rect = rect
        self.window = app.pg_gui.elements.UIWindow(rect, app.gui, window_display_title="Unit (F2)")
        self.unit_id: Optional[str] = None
        self.shown_key: Any = None
        self.els: dict[str, Any] = {}
        self.actions: dict[Any, str] = {}

    def alive(self) -> bool:
        return self.window.alive()

    def kill(self) -> None:
        self.window.kill()

    def _clear(self) -> None:
        for e in list(self.els.values()) + list(self.actions):
            e.kill()
        self.els.clear()
        self.actions.clear()

    def show(self, unit: Optional[Unit]) -> None:
        """Show ``unit`` (None: a hint to select one). Cheap when nothing changed; entries the
        user is typing in are left alone."""
        key = None if unit is None else (unit.id, unit.name, unit.player, unit.kind, str(unit.base), unit.files,
                                         unit.count if unit.kind == "ranked" else len(unit.placed))
        if key == self.shown_key and self.els:
            return
        if unit is not None and unit.id == self.unit_id and self.els:
            self._update(unit)
            self.shown_key = key
            return
        self._clear()
        self.unit_id = unit.id if unit else None
        self.shown_key = key
        gui, m, c = self.app.pg_gui, self.app.gui, self.window
        cw = c.get_container().get_rect().w
        if unit is None:
            self.els["hint"] = gui.elements.UILabel(pygame.Rect(8, 8, cw - 16, 28), "Click a unit to edit it.",
                                                    manager=m, container=c)
            return
        lx, ex, ew = 8, 84, cw - 92

        def label(y: int, text: str, name: str) -> None:
            self.els[name] = gui.elements.UILabel(pygame.Rect(lx, y, ex - lx - 4, 28), text, manager=m, container=c)

        y = 4
        self.els["id"] = gui.elements.UILabel(pygame.Rect(lx, y, cw - 16, 24), f"id: {unit.id} ({unit.kind})",
                                              manager=m, container=c)
        y += 28
        label(y, "Name", "l_name")
        self.els["name"] = gui.elements.UITextEntryLine(pygame.Rect(ex, y, ew, 30), manager=m, container=c)
        y += ROW_PX
        label(y, "Player", "l_player")
        self.els["player"] = gui.elements.UIDropDownMenu(PLAYER_OPTIONS, PLAYER_OPTIONS[min(unit.player, 2) - 1],
                                                         pygame.Rect(ex, y, ew, 30), manager=m, container=c)
        y += ROW_PX
        label(y, "Base mm", "l_base")
        self.els["base"] = gui.elements.UITextEntryLine(pygame.Rect(ex, y, ew, 30), manager=m, container=c,
                                                        placeholder_text="25x50 or 32")
        y += ROW_PX
        if unit.kind == "ranked":
            label(y, "Files", "l_files")
            self.els["files"] = gui.elements.UITextEntryLine(pygame.Rect(ex, y, ew, 30), manager=m, container=c)
            self.els["files"].set_allowed_characters("numbers")
            y += ROW_PX
        self.els["count"] = gui.elements.UILabel(pygame.Rect(lx, y, ex + 40 - lx, 28), "", manager=m, container=c)
        bw = (cw - (ex + 40) - 16) // 2
        for i, (text, action, tip) in enumerate((("-", "model:-1", ", (comma): one model fewer"),
                                                 ("+", "model:1", ". (full stop): one model more"))):
            b = gui.elements.UIButton(pygame.Rect(ex + 44 + i * (bw + 4), y, bw, 30), text, manager=m, container=c,
                                      tool_tip_text=tip)
            self.actions[b] = action
        y += ROW_PX + 4
        half = (cw - 24) // 2
        for i, (text, action, tip) in enumerate((("Duplicate", "duplicate", "Ctrl+D"), ("Delete", "delete", "Delete"))):
            b = gui.elements.UIButton(pygame.Rect(8 + i * (half + 8), y, half, 30), text, manager=m, container=c,
                                      tool_tip_text=tip)
            self.actions[b] = action
        self._update(unit, force=True)

    def _update(self, unit: Unit, force: bool = False) -> None:
        def put(name: str, text: str) -> None:
            e = self.els.get(name)
            if e is not None and (force or not e.is_focused) and e.get_text() != text:
                e.set_text(text)
        put("name", unit.name or unit.id)
        put("base", format_base(unit.base))
        if "files" in self.els:
            put("files", str(unit.files))
        n = unit.count if unit.kind == "ranked" else len(unit.placed)
        if unit.kind == "ranked":
            n = len(unit.occupied_slots())
        self.els["count"].set_text(f"Models: {n}")
        dd = self.els.get("player")
        if dd is not None and dd.selected_option[0] != PLAYER_OPTIONS[min(unit.player, 2) - 1]:
            self.shown_key = None
            self.unit_id = None  # rebuild: a drop-down cannot change its selection in place
            self.show(unit)

    def handle(self, ev: pygame.event.Event) -> bool:
        gui = self.app.pg_gui
        el = getattr(ev, "ui_element", None)
        if el is None:
            return False
        if ev.type == gui.UI_BUTTON_PRESSED and el in self.actions:
            self.app.do_action(self.actions[el])
            return True
        if ev.type == gui.UI_DROP_DOWN_MENU_CHANGED and el is self.els.get("player"):
            self.app.set_player_selected(PLAYER_OPTIONS.index(ev.text) + 1)
            return True
        if ev.type == gui.UI_TEXT_ENTRY_FINISHED:
            if el is self.els.get("name"):
                self.app.rename_selected(ev.text)
            elif el is self.els.get("base"):
                self.app.set_base_selected(ev.text)
            elif el is self.els.get("files"):
                self.app.set_files_selected(ev.text)
            else:
                return False
            self.shown_key = None  # show what the board holds now (a refused edit reverts the text)
            self._update_from_app()
            return True
        return False

    def _update_from_app(self) -> None:
        u = self.app.selected_or_none()
        if u is not None and u.id == self.unit_id:
            self._update(u, force=True)

    def entry(self, name: str) -> Any:
        """The text entry ``name`` (``name``, ``base``, ``files``) for tests and scripts."""
        return self.els.get(name)
