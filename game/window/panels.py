"""pygame_gui panels of the window: the new-unit palette, the unit properties panel, and
:class:`PanelsSection`, the section that owns both (opens, closes and places them, keeps the
unit panel showing the selected unit, routes their events).

Both are thin: every change goes through a command of :class:`game.core.editor.Editor` run by
the table view (so it is one undoable edit, checked for overlaps like any other), and the panels
only show the selected unit and forward what the user typed or clicked. The unit panel edits
every value the current ruleset reads (asked of the window's rule-system adapter). :meth:`handle` takes a pygame_gui
event and returns True when it belonged to the panel.
"""
from __future__ import annotations

import html

from typing import TYPE_CHECKING, Any, Callable, Optional

import pygame

from game.core.board import Unit
from game.core.edits import BASE_PALETTE, BaseChoice, format_base
from game.core.templates import Template, TemplateError, load_templates
from game.window.gui import Gui, plain
from game.window.status import Status
from game.window.view import Section
from game.window.window import TITLE_PX

if TYPE_CHECKING:
    from game.window.table_view import TableView

ROW_PX = 34
LABEL_PAD_PX = 20  # a palette label's room to spare in its button (border, shadow and text padding)
PLAYER_OPTIONS = ["Player 1", "Player 2"]


class PalettePanel:
    """The new-unit palette (a pygame_gui window): the ruleset's unit templates first (troop
    types with their usual bases and a starting profile, :mod:`game.core.templates`), then one
    button per common base size (:data:`game.core.edits.BASE_PALETTE`), and a player drop-down. Choosing a base arms the
    window's place tool: the next click on the table puts the new unit there."""

    def __init__(self, ui: Gui, table: TableView, rect: pygame.Rect):
        gui, m = ui.pg, ui.manager
        self.ui, self.table = ui, table
        self.window = gui.elements.UIWindow(rect, m, window_display_title="New unit (U)")
        cw = self.window.get_container().get_rect().w
        self.buttons: dict[Any, Any] = {}  # button -> Template (this ruleset's troop types) or BaseChoice
        gui.elements.UILabel(pygame.Rect(8, 4, 60, 28), "Player", manager=m, container=self.window)
        self.player = gui.elements.UIDropDownMenu(PLAYER_OPTIONS, PLAYER_OPTIONS[table.place_tool.player - 1],
                                                  pygame.Rect(70, 4, cw - 80, 28), manager=m,
                                                  container=self.window)
        bw = (cw - 24) // 2
        try:
            templates = load_templates(table.rs.id)
        except TemplateError as exc:
            templates = []
            table.say(f"Unit templates not loaded: {exc}")
        entries: list[Any] = list(templates) + list(BASE_PALETTE)
        for i, entry in enumerate(entries):
            ch = entry.choice if isinstance(entry, Template) else entry
            x = 8 + (i % 2) * (bw + 8)
            y = 40 + (i // 2) * ROW_PX
            kind = "skirmish" if ch.round else f"{ch.files} wide"
            tip = f"{ch.models} models on {format_base(ch.base)} mm bases ({kind}); then click the table"
            if isinstance(entry, Template):
                prof = ", ".join(f"{k} {v}" for k, v in entry.profile.items() if k != "parts")
                tip = f"{entry.name}: {tip}; starts with {prof or 'an empty profile'} (edit it with F2)"
            b = gui.elements.UIButton(pygame.Rect(x, y, bw, 30), ch.label, manager=m, container=self.window,
                                      tool_tip_text=plain(tip))
            self.buttons[b] = entry
        self._widen(bw)

    def _widen(self, bw: int) -> None:
        """Widen the window and its buttons until every label fits whole in its button
        (``LABEL_PAD_PX`` to spare): "Monstrous inf. 40 mm" is never cut."""
        need = max((b.font.size(getattr(ch, "choice", ch).label)[0] + LABEL_PAD_PX
                    for b, ch in self.buttons.items() if hasattr(b, "font")), default=0)
        if need <= bw:
            return
        grow = 2 * (need - bw)
        r = self.window.rect
        self.window.set_dimensions((r.w + grow, r.h))
        for i, b in enumerate(self.buttons):
            b.set_dimensions((need, 30))
            b.set_relative_position((8 + (i % 2) * (need + 8), 40 + (i // 2) * ROW_PX))
        self.player.set_dimensions((self.player.rect.w + grow, self.player.rect.h))

    def alive(self) -> bool:
        return self.window.alive()

    def kill(self) -> None:
        self.window.kill()

    def button_for(self, label: str) -> Optional[Any]:
        """The palette button labelled ``label`` (tests and scripts)."""
        return next((b for b, ch in self.buttons.items() if getattr(ch, "choice", ch).label == label), None)

    def handle(self, ev: pygame.event.Event) -> bool:
        gui = self.ui.pg
        if ev.type == gui.UI_BUTTON_PRESSED and ev.ui_element in self.buttons:
            self.table.arm_place(self.buttons[ev.ui_element])
            return True
        if ev.type == gui.UI_DROP_DOWN_MENU_CHANGED and ev.ui_element is self.player:
            place = self.table.place_tool
            place.player = PLAYER_OPTIONS.index(ev.text) + 1
            if place.choice is not None:
                self.table.arm_place(place.choice)
            return True
        return False


# the last rank's places as the panel says them (British, as every other text) -> the
# scenario format's value (``last_rank: center``, fixed by the format)
LAST_RANK_WORDS = {"left": "left", "centre": "center", "right": "right"}
LAST_RANK_OPTIONS = list(LAST_RANK_WORDS)


def last_rank_word(value: str) -> str:
    """The panel's word for a scenario's ``last_rank`` value (``"center"`` -> ``"centre"``)."""
    return next((w for w, v in LAST_RANK_WORDS.items() if v == value), value)


def unit_heading(unit: Unit, troop: bool = True) -> str:
    """The unit panel's heading in words: ``"Red unit: rank-and-file"``, ``"Scouts:
    skirmishers"``, with a troop type the unit names (``"Guards: rank-and-file, heavy
    infantry"``; ``troop`` False: without it). The id stays on its own line (the name YAML
    files use)."""
    kind = "rank-and-file" if unit.is_ranked else "skirmishers"
    kind_of = str(unit.extra.get("troop_type") or "").replace("_", " ") if troop else ""
    return f"{unit.name or unit.id}: {kind}" + (f", {kind_of}" if kind_of else "")


def fitted_heading(label: Any, unit: Unit) -> str:
    """The heading ``label`` (a pygame_gui label) shows whole: with the troop type when it fits
    the label's width, else without it (the troop type has its own field where a ruleset reads
    one), never cut by the label."""
    text = unit_heading(unit)
    font = getattr(label, "font", None)
    if font is not None and font.size(text)[0] > label.rect.width - LABEL_PAD_PX:
        return unit_heading(unit, troop=False)
    return text


class UnitPanel:
    """Properties of the selected unit (a pygame_gui window): name, player, base size
    (``25x50`` or a diameter ``32``), files and where the last rank stands (rank-and-file),
    the model count, every profile value, keyword and unit key the ruleset reads, duplicate
    and delete. Text entries apply on Enter; drop-downs at once."""

    def __init__(self, ui: Gui, table: TableView, run: Callable[[str], object], rect: pygame.Rect):
        self.ui, self.table, self.run = ui, table, run
        self.rect = rect
        self.window = ui.elements.UIWindow(rect, ui.manager, window_display_title="Unit (F2)")
        self.unit_id: Optional[str] = None
        self.shown_key: Any = None
        self.els: dict[str, Any] = {}
        self.actions: dict[Any, str] = {}
        self.fields: dict[str, Any] = {}
        self.built_for: Any = None

    def alive(self) -> bool:
        return self.window.alive()

    def kill(self) -> None:
        self.window.kill()

    def _clear(self) -> None:
        for e in list(self.els.values()) + list(self.actions):
            e.kill()
        self.els.clear()
        self.actions.clear()

    def _key(self, unit: Optional[Unit]) -> Any:
        if unit is None:
            return None
        return (unit.id, unit.name, unit.player, unit.kind, str(unit.base), unit.files, unit.last_rank, unit.pose_key(),
                unit.count if unit.is_ranked else len(unit.placed), repr(unit.profile), tuple(unit.keywords),
                repr(sorted(unit.extra.items())), self.table.rs.id)

    def show(self, unit: Optional[Unit]) -> None:
        """Show ``unit`` (None: a hint to select one). Cheap when nothing changed; entries the
        user is typing in are left alone."""
        key = self._key(unit)
        if key == self.shown_key and self.els:
            return
        built = None if unit is None else (unit.id, unit.kind, self.table.rs.id)
        if unit is not None and built == self.built_for and self.els:
            self._update(unit)
            self.shown_key = key
            return
        self._build(unit)
        self.built_for = built
        self.shown_key = key

    def _build(self, unit: Optional[Unit]) -> None:
        self._clear()
        self.unit_id = unit.id if unit else None
        gui, m, c = self.ui.pg, self.ui.manager, self.window
        cw = c.get_container().get_rect().w
        if unit is None:
            self.els["hint"] = gui.elements.UILabel(pygame.Rect(8, 8, cw - 16, 28), "Click a unit to edit it.",
                                                    manager=m, container=c)
            return
        lx, ex, ew = 8, 96, cw - 104
        y = 2

        def label(text: str, name: str) -> None:
            self.els[name] = gui.elements.UILabel(pygame.Rect(lx, y, ex - lx - 4, 28), text, manager=m, container=c)

        def entry(name: str, text: str, hint: str = "") -> None:
            label(text, "l_" + name)
            self.els[name] = gui.elements.UITextEntryLine(pygame.Rect(ex, y, ew, 30), manager=m, container=c,
                                                          placeholder_text=hint or None)

        def choice(name: str, text: str, options: list, current: str) -> None:
            label(text, "l_" + name)
            cur = current if current in options else options[0]
            self.els[name] = gui.elements.UIDropDownMenu(list(options), cur, pygame.Rect(ex, y, ew, 30), manager=m,
                                                         container=c)

        row = ROW_PX - 2
        self.els["head"] = gui.elements.UILabel(pygame.Rect(lx, y, cw - 16, 24), unit_heading(unit, troop=False),
                                                manager=m, container=c)
        self.els["head"].set_text(fitted_heading(self.els["head"], unit))
        y += 24
        self.els["id"] = gui.elements.UILabel(pygame.Rect(lx, y, cw - 16, 24), f"Id (for YAML): {unit.id}",
                                              manager=m, container=c)
        y += 26
        entry("name", "Name")
        y += row
        choice("player", "Player", PLAYER_OPTIONS, PLAYER_OPTIONS[min(unit.player, 2) - 1])
        y += row
        entry("base", "Base mm", "25x50 or 32")
        y += row
        half = (ew - 4) // 2
        label("Front x, y" if unit.is_ranked else "Centre x, y", "l_pos")
        self.els["x"] = gui.elements.UITextEntryLine(pygame.Rect(ex, y, half, 30), manager=m, container=c)
        self.els["y"] = gui.elements.UITextEntryLine(pygame.Rect(ex + half + 4, y, half, 30), manager=m, container=c)
        y += row
        entry("facing", "Facing deg", "0 = up, clockwise")
        y += row
        if unit.is_ranked:
            entry("files", "Files")
            y += row
        entry("models", "Models")  # any text: what it cannot hold is refused with a reason (never filtered)
        y += row
        if unit.is_ranked:
            choice("last_rank", "Last rank", LAST_RANK_OPTIONS, last_rank_word(unit.last_rank))
            y += row
        self.fields = {}
        for f in self.table.rules.fields(self.table.rs):
            name = "f:" + f.key
            self.fields[name] = f
            if f.kind == "choice":
                cur = unit.extra.get(f.key[6:]) if f.key.startswith("extra:") else unit.profile.get(f.key)
                choice(name, f.label, list(f.choices), str(cur if cur is not None else f.default))
            else:
                hint = {"parts": "one part; or e.g. rider 2/4, mount 1/3", "keywords": "none; or e.g. horde"}.get(f.kind, "")
                entry(name, f.label, hint)
            y += row
        bw = (cw - 24) // 2
        for i, (text, action, tip) in enumerate((("Duplicate", "duplicate", "Ctrl+D"), ("Delete", "delete", "Delete"))):
            b = gui.elements.UIButton(pygame.Rect(8 + i * (bw + 8), y + 4, bw, 30), text, manager=m, container=c,
                                      tool_tip_text=tip)
            self.actions[b] = action
        # why the last value typed was refused (the field then shows the unit's value again)
        self.els["refused"] = gui.elements.UITextBox("", pygame.Rect(4, y + 36, cw - 8, 2 * (ROW_PX - 2)), manager=m,
                                                     container=c)
        self._update(unit, force=True)

    def _text(self, unit: Unit, name: str) -> str:
        f = self.fields[name]
        if f.kind == "keywords":
            return ", ".join(unit.keywords)
        if f.kind == "parts":
            return ", ".join(f"{p.get('name', 'part')} {p.get('attacks', 1)}/{p.get('agility', 0)}"
                             for p in unit.profile.get("parts", []) if isinstance(p, dict))
        # unset: the value the engine reads in its place (an Initiative order reads Agility)
        v = next((unit.profile[k] for k in (f.key, *f.read_also) if unit.profile.get(k) is not None), None)
        return "" if v is None else str(v)

    def _update(self, unit: Unit, force: bool = False) -> None:
        def put(name: str, text: str) -> None:
            e = self.els.get(name)
            if e is not None and hasattr(e, "set_text") and (force or not e.is_focused) and e.get_text() != text:
                e.set_text(text)
        put("name", unit.name or unit.id)
        head = self.els.get("head")
        heading = fitted_heading(head, unit) if head is not None else ""
        if head is not None and head.text != heading:
            head.set_text(heading)
        put("base", format_base(unit.base))
        at = unit.front if unit.is_ranked else unit.center()
        put("x", f"{at[0]:.1f}")
        put("y", f"{at[1]:.1f}")
        put("facing", f"{unit.facing_deg % 360:.1f}")
        if "files" in self.els:
            put("files", str(unit.files))
        put("models", str(len(unit.occupied_slots()) if unit.is_ranked else len(unit.placed)))
        for name, f in self.fields.items():
            if f.kind != "choice":
                put(name, self._text(unit, name))
        stale = []
        dd = self.els.get("player")
        if dd is not None and dd.selected_option[0] != PLAYER_OPTIONS[min(unit.player, 2) - 1]:
            stale.append(dd)
        dd = self.els.get("last_rank")
        if dd is not None and dd.selected_option[0] != last_rank_word(unit.last_rank):
            stale.append(dd)
        if stale:
            self._build(unit)  # a drop-down cannot change its selection in place

    def handle(self, ev: pygame.event.Event) -> bool:
        gui, app = self.ui.pg, self.table
        el = getattr(ev, "ui_element", None)
        if el is None:
            return False
        if ev.type == gui.UI_BUTTON_PRESSED and el in self.actions:
            self.run(self.actions[el])
            return True
        name = next((k for k, e in self.els.items() if e is el), None)
        if name is None:
            return False
        if ev.type == gui.UI_DROP_DOWN_MENU_CHANGED:
            if name == "player":
                app.unit_command("set_player", PLAYER_OPTIONS.index(ev.text) + 1)
            elif name == "last_rank":
                app.unit_command("set_last_rank", LAST_RANK_WORDS.get(ev.text, ev.text))
            elif name in self.fields:
                self._set_field(name, ev.text)
            else:
                return False
        elif ev.type == gui.UI_TEXT_ENTRY_FINISHED:
            self.ui.focus(None)  # Enter gives the keyboard back to the board (shortcuts work at once)
            cmd = {"name": "rename", "base": "set_base", "files": "set_files", "models": "set_models",
                   "facing": "set_facing"}.get(name)
            if name in ("x", "y"):
                ok = app.unit_command("set_position", self.els["x"].get_text(), self.els["y"].get_text())
            elif cmd:
                ok = app.unit_command(cmd, ev.text)
            elif name in self.fields:
                ok = self._set_field(name, ev.text)
            else:
                return False
            u0 = app.selected_unit()
            why = app.status.message.removeprefix(f"{u0.name}: " if u0 else "")
            self.els["refused"].set_text("" if ok else html.escape(f"Not changed: {why}", quote=False))
        else:
            return False
        self.shown_key = None  # show what the board holds now (a refused edit reverts the text)
        u = app.selected_unit()
        if u is not None and u.id == self.unit_id:
            self._update(u, force=True)
        return True

    def _set_field(self, name: str, text: str) -> bool:
        """Set profile field ``name`` to ``text``; False when the editor refused it."""
        f, app = self.fields[name], self.table
        if f.key.startswith("extra:"):
            return app.unit_command("set_extra", f.key[6:], text)
        if f.kind == "keywords":
            return app.unit_command("set_keywords", text)
        if f.kind == "parts":
            return app.unit_command("set_parts", text)
        return app.unit_command("set_profile", f.key, text, f.kind == "int")

    def entry(self, name: str) -> Any:
        """The entry ``name`` (``name``, ``base``, ``files``, ``models``, ``f:<profile key>``)."""
        return self.els.get(name)


class PanelsSection(Section):
    """The new-unit palette (U) and the unit panel (F2) of the table view (``gui`` None:
    headless, the palette's choices go to the status line)."""

    def __init__(self, gui: Optional[Gui], table: TableView, status: Status, run: Callable[[str], object]) -> None:
        self.gui, self.table, self.status, self.run = gui, table, status, run
        self.palette: Optional[PalettePanel] = None
        self.unit: Optional[UnitPanel] = None
        table.want_palette = self.open_palette
        table.doc.listeners.append(self._follow)

    def _follow(self, what: str) -> None:
        """Another ruleset (or board): an open palette shows that ruleset's templates."""
        if what in ("ruleset", "adopted") and self.palette is not None and self.palette.alive():
            self.palette.kill()
            self.palette = None
            self.toggle_palette()

    def open_palette(self) -> None:
        if self.palette is None:
            self.toggle_palette()

    def toggle_palette(self) -> None:
        """Open / close the new-unit palette."""
        if self.palette is not None and self.palette.alive():
            self.palette.kill()
            self.palette = None
            return
        if self.gui is None:
            self.status.say("Palette: " + ", ".join(c.label for c in BASE_PALETTE))
            return
        try:
            n = len(load_templates(self.table.rs.id)) + len(BASE_PALETTE)
        except TemplateError:
            n = len(BASE_PALETTE)
        top = TITLE_PX + self.table.options.top_inset + 6
        h = min(max(280, 84 + ((n + 1) // 2) * ROW_PX), self.table.window.size()[1] - top - 10)
        rect = pygame.Rect(8, top, 300, h)
        self.palette = PalettePanel(self.gui, self.table, rect)

    def toggle_unit_panel(self, focus_name: bool = False) -> None:
        """Open / close the properties panel of the selected unit (``focus_name``: open and
        put the cursor in the name field)."""
        if self.unit is not None and self.unit.alive() and not focus_name:
            self.unit.kill()
            self.unit = None
            return
        if self.gui is None:
            return
        if self.unit is None or not self.unit.alive():
            self.unit = UnitPanel(self.gui, self.table, self.run, self.unit_panel_rect())
        self.unit.show(self.table.selected_unit())
        if focus_name and self.unit.entry("name") is not None:
            self.gui.focus(self.unit.entry("name"))

    def unit_panel_rect(self, size: tuple[int, int] = (300, 470)) -> pygame.Rect:
        """Where the unit panel opens: the top right corner of the table, left of the legend
        (at the window's right edge when the table is too narrow for it beside the palette)."""
        w, h = self.table.window.size()
        left, top, tw, th = self.table.layout().table
        shadow = 16  # a pygame_gui window draws its shadow around the rectangle it is given
        # room for every value the ruleset reads (a troop type, a weapon, keywords...): one row each
        rows = 11 + len(self.table.rules.fields(self.table.rs))  # and the heading's and the refusal's rows
        size = (size[0], max(200, min(max(size[1], 110 + rows * (ROW_PX - 2)), h - top - 40)))
        x = left + tw - size[0] - shadow - 6
        if x < 8 + 300 + shadow:  # would cover the new-unit palette: over the legend then
            x = w - size[0] - 10
        return pygame.Rect(x, top + 6, *size)

    def close(self) -> bool:
        """Close the unit panel, else the palette (Esc); True when one was open."""
        self.forget_closed()
        for name in ("unit", "palette"):
            panel = getattr(self, name)
            if panel is not None and panel.alive():
                panel.kill()
                setattr(self, name, None)
                return True
        return False

    def forget_closed(self) -> None:
        if self.palette is not None and not self.palette.alive():
            self.palette = None
        if self.unit is not None and not self.unit.alive():
            self.unit = None

    def on_event(self, ev: Any) -> bool:
        if self.gui is None or not self.gui.is_ui_event(ev):
            return False
        for panel in (self.palette, self.unit):
            if panel is not None and panel.alive() and panel.handle(ev):
                return True
        return False

    def on_update(self) -> None:
        self.forget_closed()
        if self.unit is not None:
            self.unit.show(self.table.selected_unit())
