"""The pygame_gui side of the window (mixed into :class:`game.window.app.App`): the toolbar,
the new-unit palette, the unit panel, the F1 help and the dialogs, and routing pygame_gui
events to them. Every change they make goes through the App's commands."""
from __future__ import annotations

from typing import Any, Optional

import pygame

from game.window.toolbar import Toolbar

TITLE_PX = 34


class GuiMixin:
    gui: Any = None

    def init_gui(self, gui: bool) -> None:
        self.gui = None
        self.toolbar: Optional[Toolbar] = None
        self.help_window = None
        self.palette_panel = None
        self.unit_panel = None
        self.dialogs: list = []
        self.file_callbacks: dict = {}
        if not gui:
            return
        import pygame_gui

        self.pg_gui = pygame_gui
        self.gui = pygame_gui.UIManager(self.screen.get_size())
        self.gui.preload_fonts([{"name": "noto_sans", "point_size": 14, "style": "bold", "antialiased": "1"}])
        self.toolbar = Toolbar(self.gui, pygame_gui, self.keymap)
        self.layout_toolbar()

    # -- toolbar ----------------------------------------------------------------------------------
    @property
    def buttons(self) -> dict:
        return self.toolbar.buttons if self.toolbar else {}

    @property
    def dropdowns(self) -> dict:
        return self.toolbar.dropdowns if self.toolbar else {}

    def layout_toolbar(self) -> None:
        """Lay the toolbar out for the window's width (wrapping rows) and move the table under it."""
        if self.toolbar is None:
            return
        h = self.toolbar.build(self.screen.get_width(), TITLE_PX)
        self.options.top_inset = h
        self.refresh_toolbar()

    def refresh_toolbar(self) -> None:
        """Drop-downs and greyed buttons for the current ruleset and board."""
        if self.toolbar is None:
            return
        choices = self.rules.choices(self.board, self.rs.id)
        self.toolbar.set_label("rules_menu", f"Rules: {self.rs.id}")
        cmp_ids = [r for r, why in choices if not why and r != self.rs.id]
        cur = f"Compare: {self.live.compare_id}" if self.live.compare_id else "Compare: off"
        self.toolbar.set_dropdown("compare", cur, ["Compare: off"] + [f"Compare: {r}" for r in cmp_ids])
        steps = self.rules.has_steps(self.rs)
        why = f"{self.rs.id} has no phase steps"
        for a in ("step:-1", "step:1", "board"):
            self.toolbar.enable(a, steps, why)

    def button_rect(self, action: str) -> Optional[pygame.Rect]:
        """Screen rectangle of the toolbar button doing ``action`` (for tests and scripts)."""
        return self.toolbar.button_rect(action) if self.toolbar else None

    def on_resize(self) -> None:
        if self.windowed:
            self.screen = pygame.display.get_surface() or self.screen
        from game.render.canvas import PygameCanvas

        self.canvas = PygameCanvas(self.screen)
        if self.gui is not None:
            self.gui.set_window_resolution(self.screen.get_size())
            self.layout_toolbar()
        self.invalidate()

    def draw_gui(self) -> None:
        if self.gui is None:
            return
        o = self.options
        self.screen.fill((52, 56, 60), pygame.Rect(0, TITLE_PX, self.screen.get_width(), o.top_inset))
        for b, action in self.buttons.items():
            if action == f"tool:{self.tool}":
                pygame.draw.rect(self.screen, (255, 200, 0), b.rect.inflate(4, 4), 2, border_radius=3)
        self.gui.draw_ui(self.screen)

    # -- windows ----------------------------------------------------------------------------------
    def open_dialog(self, dialog: Any) -> Any:
        """Show a dialog (on top of the others) when it was built."""
        if dialog is not None and self.gui is not None:
            self.dialogs.append(dialog)
            self.invalidate()
        return dialog

    def rules_menu(self) -> None:
        """The ruleset chooser: every shipped ruleset; those this board cannot use are greyed
        out, with the reason in their tip and beside their name."""
        if self.gui is None:
            self.message = "; ".join(f"{r}: {why or 'usable'}" for r, why in self.rules.choices(self.board, self.rs.id))
            return
        from game.window.dialogs import rules_dialog

        greyed = [f"{r} {why}" for r, why in self.rules.choices(self.board, self.rs.id) if why]
        self.message = "Choose a ruleset" + (" (greyed: " + "; ".join(greyed) + ")." if greyed else ".")
        self.open_dialog(rules_dialog(self))

    def toggle_palette(self) -> None:
        """Open / close the new-unit palette."""
        if self.palette_panel is not None and self.palette_panel.alive():
            self.palette_panel.kill()
            self.palette_panel = None
            return
        if self.gui is None:
            from game.core.edits import BASE_PALETTE

            self.message = "Palette: " + ", ".join(c.label for c in BASE_PALETTE)
            return
        from game.window.panels import PalettePanel

        self.palette_panel = PalettePanel(self, pygame.Rect(8, TITLE_PX + self.options.top_inset + 6, 300, 280))

    def arm_place(self, choice: Any) -> None:
        """Choose the bases of the next new unit: the place tool puts it where the table is clicked."""
        pt = self.tools["place"]
        pt.choice = choice
        self.set_tool("place")
        self.message = (f"Place: click the table to put {choice.models} models on {choice.label} bases there "
                        f"(player {pt.player}); Esc cancels.")

    def toggle_unit_panel(self, focus_name: bool = False) -> None:
        """Open / close the properties panel of the selected unit (``focus_name``: open and
        put the cursor in the name field)."""
        if self.unit_panel is not None and self.unit_panel.alive() and not focus_name:
            self.unit_panel.kill()
            self.unit_panel = None
            return
        if self.gui is None:
            return
        from game.window.panels import UnitPanel

        if self.unit_panel is None or not self.unit_panel.alive():
            self.unit_panel = UnitPanel(self, self.unit_panel_rect())
        self.unit_panel.show(self.selected_or_none())
        if focus_name and self.unit_panel.entry("name") is not None:
            self.gui.set_focus_set(self.unit_panel.entry("name"))

    def unit_panel_rect(self, size: tuple[int, int] = (300, 470)) -> pygame.Rect:
        """Where the unit panel opens: the top right corner of the table, left of the legend
        (at the window's right edge when the table is too narrow for it beside the palette)."""
        from game.render.scene import scene_layout

        w, h = self.screen.get_size()
        left, top, tw, th = scene_layout(self.canvas, self.board, self.options).table
        shadow = 16  # a pygame_gui window draws its shadow around the rectangle it is given
        # room for every value the ruleset reads (a troop type, a weapon, keywords...): one row each
        from game.window.panels import ROW_PX
        rows = 6 + len(self.rules.fields(self.rs))
        size = (size[0], max(200, min(max(size[1], 110 + rows * (ROW_PX - 2)), h - top - 40)))
        x = left + tw - size[0] - shadow - 6
        if x < 8 + 300 + shadow:  # would cover the new-unit palette: over the legend then
            x = w - size[0] - 10
        return pygame.Rect(x, top + 6, *size)

    def help_text(self) -> str:
        """The F1 help as pygame_gui HTML: every binding of the key map and every tool."""
        from game.window.tools import HINT

        rows = "".join(f"<b>{k}</b>: {v}<br>" for k, v in self.keymap.help_rows())
        tools = "".join(f"{HINT[t]}<br>" for t in HINT)
        return f"{rows}<br><b>Tools</b><br>{tools}"

    def help_open(self) -> bool:
        return self.help_window is not None and self.help_window.alive()

    def toggle_help(self) -> None:
        """Open the F1 help window, or close it when it is open (Esc closes it too)."""
        if self.help_open():
            self.help_window.kill()
            self.help_window = None
            return
        if self.gui is None:
            self.message = " | ".join(f"{k}: {v}" for k, v in self.keymap.help_rows())
            return
        w, h = self.screen.get_size()
        top = TITLE_PX + self.options.top_inset + 6  # under the toolbar, which stays usable
        rect = pygame.Rect(max(0, w // 2 - 380), top, min(760, w), max(200, min(h - top - 36, 640)))
        self.help_window = self.pg_gui.elements.UIWindow(rect, self.gui,
                                                         window_display_title="Melee Lens: shortcuts (F1 or Esc closes)")
        cont = self.help_window.get_container().get_rect()
        self.pg_gui.elements.UITextBox(self.help_text(), pygame.Rect(0, 0, cont.w, cont.h), manager=self.gui,
                                       container=self.help_window)

    def over_gui(self, px: tuple[float, float]) -> bool:
        """True when a pygame_gui element is under window point ``px``."""
        if self.gui is None:
            return False
        root = self.gui.get_root_container()
        return any(el is not root and getattr(el, "visible", 1) and el.rect.collidepoint(px)
                   for el in self.gui.get_sprite_group().sprites())

    def forget_closed_windows(self) -> None:
        """Drop the help, palette, unit panel and dialogs once their window is gone."""
        if self.help_window is not None and not self.help_window.alive():
            self.help_window = None
        if self.palette_panel is not None and not self.palette_panel.alive():
            self.palette_panel = None
        if self.unit_panel is not None and not self.unit_panel.alive():
            self.unit_panel = None
        self.dialogs = [d for d in self.dialogs if d.alive()]

    def close_top_window(self) -> bool:
        """Close the newest dialog, else the help, else the unit panel, else the palette (Esc)."""
        self.forget_closed_windows()
        if self.dialogs:
            self.dialogs.pop().kill()
            return True
        if self.help_open():
            self.toggle_help()
            return True
        for name in ("unit_panel", "palette_panel"):
            panel = getattr(self, name)
            if panel is not None and panel.alive():
                panel.kill()
                setattr(self, name, None)
                return True
        return False

    def close_panel(self) -> bool:
        return self.close_top_window()

    def typing(self) -> bool:
        """True while a pygame_gui text field has the keyboard focus."""
        if self.gui is None:
            return False
        entry_types = (self.pg_gui.elements.UITextEntryLine, self.pg_gui.elements.UITextEntryBox)
        return any(isinstance(el, entry_types) and el.is_focused and el.alive()
                   for el in (self.gui.get_focus_set() or ()))

    def handle_gui_event(self, ev: pygame.event.Event) -> bool:
        """Give ``ev`` to pygame_gui first; True when it was consumed there."""
        g = self.pg_gui
        ui_types = (g.UI_BUTTON_PRESSED, g.UI_DROP_DOWN_MENU_CHANGED, g.UI_TEXT_ENTRY_FINISHED,
                    g.UI_FILE_DIALOG_PATH_PICKED)
        if ev.type in ui_types:
            # pygame_gui needs its own button presses too: the x of a window closes it there
            self.gui.process_events(ev)
            self.handle_ui(ev)
            self.forget_closed_windows()
            return True
        if ev.type in (pygame.KEYDOWN, pygame.KEYUP, pygame.TEXTINPUT) and self.typing():
            # a text field has the keyboard: keys are text, not board shortcuts (Esc leaves it)
            if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                self.gui.set_focus_set(None)
                return True
            self.gui.process_events(ev)
            return True
        if self.dialogs and ev.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.MOUSEWHEEL):
            # a dialog is modal: keys and clicks outside it never reach the board (Esc closes it)
            self.forget_closed_windows()
            if self.dialogs:
                if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                    self.close_top_window()
                else:
                    self.gui.process_events(ev)
                return True
        if ev.type == pygame.MOUSEWHEEL and self.over_gui(self.mouse_px):
            self.gui.process_events(ev)  # scrolls the help, a list ...: never the board behind
            return True
        return bool(self.gui.process_events(ev)) and ev.type != pygame.MOUSEMOTION

    def handle_ui(self, ev: pygame.event.Event) -> None:
        """A pygame_gui event: dialog, panel, toolbar button or drop-down."""
        if ev.type == self.pg_gui.UI_FILE_DIALOG_PATH_PICKED:
            done = self.file_callbacks.pop(getattr(ev, "ui_element", None), None)
            for w in [w for w in self.file_callbacks if not w.alive()]:
                del self.file_callbacks[w]  # dialogs cancelled or closed without an answer
            if done is not None:
                done(str(ev.text))
            return
        for d in reversed(list(self.dialogs)):
            if d.alive() and d.handle(ev):
                self.forget_closed_windows()
                return
        for panel in (self.palette_panel, self.unit_panel):
            if panel is not None and panel.alive() and panel.handle(ev):
                return
        el = getattr(ev, "ui_element", None)
        if ev.type == self.pg_gui.UI_BUTTON_PRESSED:
            action = self.buttons.get(el)
            if action:
                if self.steps.active and action not in ("step:-1", "step:1", "board", "help") and \
                        not action.startswith(("save", "export", "open", "new", "title", "@")):
                    self.steps.leave(self, quiet=True)
                self.do_action(action)
        elif ev.type == self.pg_gui.UI_DROP_DOWN_MENU_CHANGED:
            text = ev.text.split(": ", 1)[1].split(" ")[0]
            if el is self.dropdowns.get("compare"):
                self.set_compare(None if text == "off" else text)
