"""The window's dialogs (pygame_gui): file picker, unsaved-changes question, title and
caption, figure export and recent files.

Each dialog is a small object with ``alive()``, ``kill()`` and ``handle(ev) -> bool`` (True
when the pygame_gui event was its own); what the user chose is handed to a callback of the
window, so a dialog holds no document state.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

import pygame

from game.render.figure import FigureError, FigureOptions, parse_size


def _center(app: Any, w: int, h: int) -> pygame.Rect:
    sw, sh = app.screen.get_size()
    w, h = min(w, sw - 20), min(h, sh - 20)
    return pygame.Rect(max(0, (sw - w) // 2), max(0, (sh - h) // 3), w, h)


class Dialog:
    window: Any = None

    def alive(self) -> bool:
        return self.window is not None and self.window.alive()

    def kill(self) -> None:
        if self.window is not None:
            self.window.kill()

    def handle(self, ev: pygame.event.Event) -> bool:
        return False


class FileDialog(Dialog):
    """A pygame_gui file picker; ``done(path)`` gets the picked path."""

    def __init__(self, app: Any, title: str, done: Callable[[str], None], initial: Optional[str] = None,
                 must_exist: bool = False, suffixes: Optional[set] = None):
        self.done = done
        self.window = app.pg_gui.windows.UIFileDialog(_center(app, 620, 520), app.gui, window_title=title,
                                                      initial_file_path=initial, allow_existing_files_only=must_exist,
                                                      allowed_suffixes=suffixes)
        self.pg_gui = app.pg_gui
        # pygame_gui closes the dialog before its PATH_PICKED event arrives: the window keeps
        # the answer's callback by the dialog's element (see GuiMixin.handle_ui)
        app.file_callbacks[self.window] = self._picked
        line = getattr(self.window, "file_path_text_line", None)
        if line is not None:  # the keyboard goes to the file name at once (never to the board)
            app.gui.set_focus_set(line)

    def _picked(self, path: str) -> None:
        self.kill()
        self.done(path)


class Buttons(Dialog):
    """A question with a row of buttons; ``done(choice)`` gets the chosen label."""

    def __init__(self, app: Any, title: str, text: str, choices: list[str], done: Callable[[str], None]):
        g = app.pg_gui
        self.pg_gui, self.done = g, done
        self.window = g.elements.UIWindow(_center(app, 460, 190), app.gui, window_display_title=title)
        cw = self.window.get_container().get_rect().w
        g.elements.UITextBox(text, pygame.Rect(8, 6, cw - 16, 80), manager=app.gui, container=self.window)
        bw = (cw - 16 - 8 * (len(choices) - 1)) // len(choices)
        self.buttons = {}
        for i, c in enumerate(choices):
            b = g.elements.UIButton(pygame.Rect(8 + i * (bw + 8), 96, bw, 32), c, manager=app.gui,
                                    container=self.window)
            self.buttons[b] = c

    def handle(self, ev: pygame.event.Event) -> bool:
        if ev.type == self.pg_gui.UI_BUTTON_PRESSED and ev.ui_element in self.buttons:
            choice = self.buttons[ev.ui_element]
            self.kill()
            self.done(choice)
            return True
        return False

    def button(self, label: str) -> Any:
        return next((b for b, c in self.buttons.items() if c == label), None)


class Form(Dialog):
    """Labelled text entries and drop-downs with OK; ``done(values)`` gets ``{name: text}``."""

    def __init__(self, app: Any, title: str, fields: list[tuple], done: Callable[[dict], Optional[str]],
                 ok: str = "OK", extra_button: Optional[tuple[str, Callable[["Form"], None]]] = None):
        g = app.pg_gui
        self.app, self.pg_gui, self.done = app, g, done
        h = 80 + 36 * len(fields) + 40
        self.window = g.elements.UIWindow(_center(app, 560, h), app.gui, window_display_title=title)
        cw = self.window.get_container().get_rect().w
        self.els: dict[str, Any] = {}
        y = 6
        for name, label, value, choices in fields:
            g.elements.UILabel(pygame.Rect(8, y, 120, 30), label, manager=app.gui, container=self.window)
            r = pygame.Rect(132, y, cw - 140, 30)
            if choices:
                self.els[name] = g.elements.UIDropDownMenu(list(choices), value, r, manager=app.gui,
                                                           container=self.window)
            else:
                e = g.elements.UITextEntryLine(r, manager=app.gui, container=self.window)
                e.set_text(str(value))
                self.els[name] = e
            y += 36
        self.error = g.elements.UILabel(pygame.Rect(8, y, cw - 16, 26), "", manager=app.gui, container=self.window)
        y += 30
        self.ok = g.elements.UIButton(pygame.Rect(cw - 128, y, 120, 32), ok, manager=app.gui, container=self.window)
        first = next((e for e in self.els.values() if hasattr(e, "set_text")), None)
        if first is not None:  # the keyboard goes to the first field at once (never to the board)
            app.gui.set_focus_set(first)
        self.extra = None
        if extra_button:
            self.extra = g.elements.UIButton(pygame.Rect(cw - 256, y, 120, 32), extra_button[0], manager=app.gui,
                                             container=self.window)
            self.extra_cb = extra_button[1]

    def values(self) -> dict:
        out = {}
        for k, e in self.els.items():
            out[k] = e.selected_option[0] if hasattr(e, "selected_option") else e.get_text()
        return out

    def set(self, name: str, text: str) -> None:
        e = self.els.get(name)
        if e is not None and hasattr(e, "set_text"):
            e.set_text(text)

    def submit(self) -> None:
        err = self.done(self.values())
        if err:
            self.error.set_text(err[:90])
        else:
            self.kill()

    def handle(self, ev: pygame.event.Event) -> bool:
        el = getattr(ev, "ui_element", None)
        if ev.type == self.pg_gui.UI_BUTTON_PRESSED and el is self.ok:
            self.submit()
            return True
        if ev.type == self.pg_gui.UI_BUTTON_PRESSED and self.extra is not None and el is self.extra:
            self.extra_cb(self)
            return True
        if ev.type == self.pg_gui.UI_TEXT_ENTRY_FINISHED and el in self.els.values():
            self.submit()
            return True
        return el in self.els.values() or el is self.error


def title_form(app: Any) -> Form:
    """Edit the scenario's title and the figure caption."""
    b = app.board
    return Form(app, "Title and caption (Ctrl+T)",
                [("title", "Title", b.title, None), ("caption", "Caption", b.extra.get("caption", ""), None)],
                app.set_title_caption, ok="Apply")


EXPORT_VIEWS = ["as on screen", "all units", "engaged units only"]
PALETTES = ["default", "colourblind", "greyscale"]
YES_NO = ["on", "off"]


def figure_options(values: dict, view_box: Optional[tuple] = None) -> tuple[FigureOptions, Optional[tuple]]:
    """:class:`FigureOptions` (and the table box to fit, or None) from the export form's
    values; raises :class:`FigureError` for a bad size or dpi."""
    size = values.get("size", "").strip() or None
    if size:
        parse_size(size)
    try:
        dpi = int(str(values.get("dpi", "150")).strip() or 150)
    except ValueError:
        raise FigureError(f"dpi must be a whole number (got {values.get('dpi')!r})") from None
    view = values.get("view", EXPORT_VIEWS[1])
    fo = FigureOptions(size=size, dpi=dpi, crop=view == EXPORT_VIEWS[2],
                       palette=values.get("palette", PALETTES[0]),
                       legend=values.get("legend", YES_NO[0]) == YES_NO[0])
    title = values.get("title", "").strip()
    if title:
        fo.title = title
    fo.pixel_size()
    return fo, (view_box if view == EXPORT_VIEWS[0] else None)


def export_form(app: Any) -> Form:
    """The export dialog: file (``.png`` / ``.svg``), size, dpi, what to fit, palette, legend,
    title and caption; Browse picks the file."""
    stem = app.session.path.stem if app.session.path else "figure"
    folder = app.session.save_path.parent if app.session.save_path else Path.cwd()
    last = app.last_export or str(folder / f"{stem}.png")
    fields = [("file", "File (.png/.svg)", last, None), ("size", "Size (px or mm)", "1600x1000", None),
              ("dpi", "DPI", "150", None), ("view", "Show", EXPORT_VIEWS[0], EXPORT_VIEWS),
              ("palette", "Palette", PALETTES[0], PALETTES), ("legend", "Legend", YES_NO[0], YES_NO),
              ("title", "Title", app.session.title(), None), ("caption", "Caption", app.board.extra.get("caption", ""),
                                                             None)]

    def browse(form: Form) -> None:
        app.open_dialog(FileDialog(app, "Export to", lambda p: form.set("file", p), initial=form.values()["file"]))

    return Form(app, "Export figure (Ctrl+E)", fields, app.export_figure, ok="Export", extra_button=("Browse...", browse))


def recent_dialog(app: Any) -> Optional[Buttons]:
    """Recent files as buttons (None when there are none)."""
    paths = app.session.recent()
    if not paths:
        app.message = "No recent files yet: files you open or save are listed here."
        return None
    g = app.pg_gui
    d = Buttons.__new__(Buttons)
    d.pg_gui = g
    d.done = lambda label: app.request_open(label)
    d.window = g.elements.UIWindow(_center(app, 560, 60 + 36 * len(paths)), app.gui, window_display_title="Recent files")
    cw = d.window.get_container().get_rect().w
    d.buttons = {}
    for i, p in enumerate(paths):
        b = g.elements.UIButton(pygame.Rect(8, 6 + 36 * i, cw - 16, 32), str(p)[-70:], manager=app.gui,
                                container=d.window, tool_tip_text=str(p))
        d.buttons[b] = str(p)
    return d


def rules_dialog(app: Any) -> Buttons:
    """One button per shipped ruleset; one the board cannot use is disabled (greyed) with the
    reason beside its name and in its tip; choosing one switches the board to it."""
    g = app.pg_gui
    choices = app.rules.choices(app.board, app.rs.id)
    d = Buttons.__new__(Buttons)
    d.pg_gui = g

    def done(rid: str) -> None:
        app.steps.leave(app, quiet=True)
        app.set_ruleset(rid)

    d.done = done
    d.window = g.elements.UIWindow(_center(app, 520, 70 + 36 * len(choices)), app.gui,
                                   window_display_title="Ruleset (Ctrl+R)")
    cw = d.window.get_container().get_rect().w
    d.buttons = {}
    for i, (rid, why) in enumerate(choices):
        name = app.rules.load(rid).name if not why.startswith("cannot") else rid
        short = app.rules.short_reason(app.board, rid, app.rs.id)
        text = f"{rid}: {name}" + (" (in use)" if rid == app.rs.id else f" ({short})" if why else "")
        b = g.elements.UIButton(pygame.Rect(8, 6 + 36 * i, cw - 16, 32), text[:70], manager=app.gui,
                                container=d.window, tool_tip_text=(f"{rid} {why}" if why else name))
        if why or rid == app.rs.id:
            b.disable()
        d.buttons[b] = rid
    return d
