"""The one key map of the window: it drives key dispatch, the F1 help and the toolbar tips.

Each :class:`Binding` names an action (a string the window's ``do_action`` runs, e.g.
``"turn:90"``), the keys that run it (``"Ctrl+Shift+Z"``, ``"PageDown"``, ``"1"``), what it
does in a few words for the help, and optionally the toolbar ``label`` of its button. A key
pressed with Shift runs the Shift binding when there is one, else the plain one.
Mouse gestures are listed too (``keys`` empty, ``mouse`` set) so the help shows everything.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Binding:
    action: str
    keys: tuple[str, ...]
    help: str
    label: str = ""
    mouse: str = ""
    group: str = ""     # bindings of one help row share a group (shown once, keys joined)


def B(action: str, keys: str, help: str, label: str = "", group: str = "") -> Binding:
    return Binding(action, tuple(k.strip() for k in re.split(r",\s+", keys) if k.strip()), help, label, group=group)


MOUSE: list[Binding] = [
    Binding("", (), "use the current tool (move a unit by default)", mouse="Left drag"),
    Binding("", (), "add a unit to the selection or take it out (selected units drag and turn together)",
            mouse="Shift+click"),
    Binding("", (), "select every unit in the box", mouse="Left drag on the empty table"),
    Binding("", (), "charge the other way (aligned flush, or keeping the charger's angle)", mouse="Shift+click (Charge)"),
    Binding("", (), "pan the view", mouse="Right / middle drag"),
    Binding("", (), "zoom about the cursor", mouse="Ctrl+wheel"),
    Binding("", (), "turn the selected unit 15 deg (Shift: 1 deg)", mouse="Wheel (unit selected)"),
    Binding("", (), "open a scenario dropped on the window (a bad one is reported; the board is kept)",
            mouse="Drop a file"),
]

BINDINGS: list[Binding] = [
    # files
    B("new", "Ctrl+N", "new empty board (asks first when there are unsaved changes)", "New"),
    B("open", "Ctrl+O", "open a scenario file", "Open"),
    B("save", "Ctrl+S", "save (a new or built-in board asks where)", "Save"),
    B("save_as", "Ctrl+Shift+S", "save under another name", "Save as"),
    B("export", "Ctrl+E", "export the view as a PNG, SVG or PDF figure, or a live page (a folder)", "Export"),
    B("title", "Ctrl+T", "edit the title and caption", "Title"),
    B("quit", "Ctrl+Q", "quit (asks first when there are unsaved changes)"),
    B("autosave_load", "F9", "load the autosave of unsaved changes"),
    # tools
    B("tool:move", "1, V", "tool: move units freely (drag)", "Move"),
    B("tool:forward", "2, G", "tool: drag a unit straight along its facing", "Forward"),
    B("tool:wheel", "3, H", "tool: drag to wheel about a front corner", "Wheel"),
    B("tool:charge", "4, C", "tool: click your unit, then the enemy to charge", "Charge"),
    B("tool:casualty", "5, X", "tool: click a model to remove it, an empty slot to restore it", "Casualty"),
    B("tool:tape", "6, M", "tool: drag to measure edge to edge", "Tape"),
    # manoeuvres
    B("turn:-15", "Q", "turn the selected unit 15 deg left about its centre"),
    B("turn:15", "E", "turn the selected unit 15 deg right about its centre"),
    B("turn:-1", "Shift+Q", "turn 1 deg left"),
    B("turn:1", "Shift+E", "turn 1 deg right"),
    B("forward:25.4", "W", "move the selected unit 1\" forward (stops at contact)"),
    B("forward:-25.4", "S", "move the selected unit 1\" back"),
    B("forward:1", "Shift+W", "move 1 mm forward"),
    B("forward:-1", "Shift+S", "move 1 mm back"),
    B("wheel:-15:left", "A", "wheel 15 deg left about the front-left corner"),
    B("wheel:15:right", "D", "wheel 15 deg right about the front-right corner"),
    B("wheel:-1:left", "Shift+A", "wheel 1 deg left"),
    B("wheel:1:right", "Shift+D", "wheel 1 deg right"),
    B("turn:-90", "Shift+T", "turn 90 deg left", "Turn left"),
    B("turn:90", "T", "turn 90 deg right", "Turn right"),
    B("turn:180", "B", "turn 180 deg (about face)", "Turn 180"),
    B("reform:-1", "[", "reform one file narrower (deeper)", "Narrower"),
    B("reform:1", "]", "reform one file wider (shallower)", "Wider"),
    # units
    B("palette", "U", "new unit: pick a troop type of the ruleset (listed first) or a base size, then click the table",
      "New unit"),
    B("panel", "F2", "unit panel of the selected unit: name, player, profile, bases, files, models",
      "Edit unit"),
    B("panel_name", "Enter", "open the unit panel with the cursor in the name field"),
    B("demo_recorder", "F6", "demo recorder: keep the table as captioned steps, play, save a demo, write one web page",
      "Demo"),
    B("model:-1", ",", "one model fewer", "Model -"),
    B("model:1", ".", "one model more", "Model +"),
    B("duplicate", "Ctrl+D", "duplicate the selected unit beside it", "Duplicate"),
    B("delete", "Delete", "delete the selected unit", "Delete"),
    B("player:1", "Ctrl+1", "give the selected unit to player 1"),
    B("player:2", "Ctrl+2", "give the selected unit to player 2"),
    B("undo", "Ctrl+Z", "undo", "Undo"),
    B("redo", "Ctrl+Shift+Z, Ctrl+Y", "redo", "Redo"),
    # rules
    B("rules_menu", "Ctrl+R", "choose the ruleset (those this board cannot use are greyed, with the reason)",
      "Rules"),
    B("ruleset:1", "R", "next ruleset this board can use (the board stays; Ctrl+Z switches back)"),
    B("ruleset:-1", "Shift+R", "previous ruleset"),
    B("compare", "K", "compare mode on / off: mark the models that fight differently under another ruleset"),
    B("compare_next", "Shift+K", "compare with the next ruleset"),
    B("step:1", "N, PageDown", "next step of the phase or combat round (N on the board starts it; click a model at a strike step to mark it as a casualty)", "Step >"),
    B("step:-1", "P, PageUp", "previous step of the phase", "Step <"),
    B("board", "Home", "leave the phase steps: back to the editable board", "Board"),
    # view
    B("pan:60:0", "Left", "pan left", group="pan"),
    B("pan:-60:0", "Right", "pan right", group="pan"),
    B("pan:0:60", "Up", "pan up", group="pan"),
    B("pan:0:-60", "Down", "pan down", group="pan"),
    B("zoom:1", "+, =, Keypad +", "zoom in"),
    B("zoom:-1", "-, Keypad -", "zoom out"),
    B("fit", "F", "fit the units in the view"),
    B("legend", "L", "show / hide the legend"),
    B("help", "F1", "this help", "Help"),
    B("escape", "Esc", "close the help or a panel; leave a text field or the phase steps; back to the move tool"),
]

#: actions that also work while the window shows phase steps (the rest ask to leave them first)
STEP_SAFE = ("step:", "board", "escape", "help", "pan:", "zoom:", "fit", "legend", "ruleset:", "rules_menu", "compare",
             "quit", "save", "export", "open", "new", "title")

_NAMES = {"Esc": "escape", "Enter": "return", "Delete": "delete", "PageUp": "pageup", "PageDown": "pagedown",
          "Home": "home", "Left": "left", "Right": "right", "Up": "up", "Down": "down", "+": "plus",
          "=": "equals", "-": "minus", ",": "comma", ".": "period", "[": "leftbracket", "]": "rightbracket",
          "Keypad +": "kp_plus", "Keypad -": "kp_minus"}


# keys whose sign alone reads as stray punctuation in "key: what it does" (the help, the tips)
_SPOKEN = {",": "Comma (,)", ".": "Full stop (.)"}


def shown_key(key: str) -> str:
    """``key`` as the help and the tips show it: ``","`` -> ``"Comma (,)"``; others unchanged."""
    return _SPOKEN.get(key, key)


def parse_chord(text: str) -> tuple[int, bool, bool]:
    """``"Ctrl+Shift+Z"`` -> ``(pygame.K_z, ctrl, shift)``."""
    import pygame

    parts = text.split("+") if text not in ("+", "Keypad +") else [text]
    if text.endswith("++"):
        parts = text[:-2].split("+") + ["+"]
    ctrl = "Ctrl" in parts[:-1]
    shift = "Shift" in parts[:-1]
    name = parts[-1]
    if name in _NAMES:
        code = _NAMES[name].upper()
    elif len(name) == 1:
        code = name.lower()
    else:
        code = name.upper()
    return getattr(pygame, "K_" + code), ctrl, shift


class KeyMap:
    """Key chords to actions, built from :data:`BINDINGS`."""

    def __init__(self, bindings: Optional[list[Binding]] = None):
        self.bindings = list(bindings or BINDINGS)
        self.table: dict[tuple[int, bool, bool], str] = {}
        for b in self.bindings:
            for k in b.keys:
                chord = parse_chord(k)
                if chord in self.table:
                    raise ValueError(f"key {k} is bound twice ({self.table[chord]}, {b.action})")
                self.table[chord] = b.action
        import pygame

        # the keypad's 1 and 2 give units to players with Ctrl too
        self.table.setdefault((pygame.K_KP1, True, False), "player:1")
        self.table.setdefault((pygame.K_KP2, True, False), "player:2")
        self.table.setdefault((pygame.K_KP_ENTER, False, False), "panel_name")

    def action(self, key: int, ctrl: bool, shift: bool) -> Optional[str]:
        """The action of a key press (Shift falls back to the plain key)."""
        a = self.table.get((key, ctrl, shift))
        if a is None and shift:
            a = self.table.get((key, ctrl, False))
        return a

    def binding(self, action: str) -> Optional[Binding]:
        return next((b for b in self.bindings if b.action == action), None)

    def keys_text(self, action: str) -> str:
        b = self.binding(action)
        return " / ".join(b.keys) if b else ""

    def tip(self, action: str) -> str:
        """Toolbar tip: ``"T: turn 90 deg right"``."""
        b = self.binding(action)
        if b is None:
            return ""
        return f"{' / '.join(map(shown_key, b.keys))}: {b.help}" if b.keys else b.help

    def help_rows(self) -> list[tuple[str, str]]:
        """(keys, what they do) for the F1 help: mouse gestures, then every binding (a group
        of bindings shown as one row)."""
        rows = [(b.mouse, b.help) for b in MOUSE]
        seen = set()
        for b in self.bindings:
            if b.group:
                if b.group in seen:
                    continue
                seen.add(b.group)
                same = [x for x in self.bindings if x.group == b.group]
                keys = ", ".join(shown_key(k) for x in same for k in x.keys)
                what = "; ".join(x.help for x in same) if b.group != "pan" else "pan the view"
                rows.append((keys, what))
            else:
                rows.append((", ".join(map(shown_key, b.keys)), b.help))
        return rows
