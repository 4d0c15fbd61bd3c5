"""The window's dialogs (pygame_gui): file picker, questions with buttons, forms (title and
caption, figure export), recent files and the ruleset chooser, and :class:`DialogsSection`,
the section that owns the open dialogs.

Each dialog is a small object with ``alive()``, ``kill()`` and ``handle(ev) -> bool`` (True
when the pygame_gui event was its own); what the user chose is handed to a callback, so a
dialog holds no document state. Dialogs are modal: while one is open, keys and clicks outside
it never reach the board (Esc closes the newest).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

import pygame

from game.window.gui import Gui, plain
from game.window.view import Section

if TYPE_CHECKING:  # pragma: no cover
    from game.render.figure import FigureOptions


def _center(gui: Gui, w: int, h: int) -> pygame.Rect:
    sw, sh = gui.size()
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
    """A pygame_gui file picker; ``done(path)`` gets the picked path (absolute).

    ``new_folders``: Enter on a file name in a folder that does not exist yet picks it (the
    save makes the folder, as ``render -o`` does); the title says so while it is typed, since
    pygame_gui greys OK for it. A name typed without a folder is taken in the folder the
    dialog showed, never the program's working folder."""

    def __init__(self, gui: Gui, title: str, done: Callable[[str], object], initial: Optional[str] = None,
                 must_exist: bool = False, suffixes: Optional[set] = None, new_folders: bool = False):
        self.done = done
        self.must_exist = must_exist
        self.new_folders = new_folders and not must_exist
        self.title = title
        self.window = gui.pg.windows.UIFileDialog(_center(gui, 620, 520), gui.manager, window_title=title,
                                                  initial_file_path=initial, allow_existing_files_only=must_exist,
                                                  allowed_suffixes=suffixes)
        #: the folder shown before the latest typing (a bare name typed is saved there)
        self.folder = Path(getattr(self.window, "current_directory_path", "") or Path.cwd())
        line = getattr(self.window, "file_path_text_line", None)
        if line is not None:  # the keyboard goes to the file name at once (never to the board)
            gui.focus(line)

    def picked(self, path: str) -> None:
        self.kill()
        self.done(path)

    def show_folder(self, folder: Path) -> None:
        """List ``folder`` (a folder typed without its parents is found in :attr:`folder`,
        where pygame_gui looks in the working folder)."""
        win: Any = self.window
        if not hasattr(win, "update_current_file_list") or not self.alive():
            return
        win.current_directory_path = str(folder.resolve())
        win.current_file_path = None
        win.update_current_file_list()
        win.file_selection_list.set_item_list(win.current_file_list)
        win.file_path_text_line.set_text(win.current_directory_path)
        win.ok_button.disable()

    def sync(self) -> None:
        """After pygame_gui has seen the frame's events: a name typed without a folder is taken
        in :attr:`folder` (pygame_gui takes it in the working folder, so OK would write or open
        the file there); otherwise the folder pygame_gui shows (moved by the list, the parent
        or home button) is :attr:`folder`."""
        win: Any = self.window
        line: Any = getattr(win, "file_path_text_line", None)
        if line is None or not self.alive():
            return
        text = line.get_text().strip()
        typed = Path(text).expanduser() if text else None
        if typed is None or typed.is_absolute():
            shown = Path(str(getattr(win, "current_directory_path", "") or ""))
            if shown.is_absolute() and shown.is_dir():
                self.folder = shown
            return
        p = self.folder / typed
        if self.must_exist:
            ok = p.is_file()
        else:
            ok = bool(p.name) and not p.is_dir() and (p.parent.is_dir() or self.new_folders)
        win.current_directory_path = str(self.folder)
        win.current_file_path = p if ok else None
        if ok:
            win.ok_button.enable()
        else:
            win.ok_button.disable()

    def resolve(self, text: str) -> Optional[Path]:
        """The path typed: ``~`` expanded, a relative one in :attr:`folder`; None for nothing."""
        text = text.strip()
        if not text:
            return None
        p = Path(text).expanduser()
        return p if p.is_absolute() else self.folder / p

    def note(self, text: str) -> None:
        """Show why OK is greyed (a folder that does not exist) in the title, else the title."""
        p = self.resolve(text)
        why = ""
        if p is not None and not p.parent.is_dir() and not p.is_dir():
            why = f" - no folder {p.parent}" + (": Enter makes it" if self.new_folders else "")
        if hasattr(self.window, "set_display_title"):
            self.window.set_display_title(self.title + why)

    def handle(self, ev: pygame.event.Event) -> bool:
        """Enter in the file name field opens (or saves as) the file named there, like OK."""
        line: Any = getattr(self.window, "file_path_text_line", None)
        if line is None:
            return False
        import pygame_gui

        mine = getattr(ev, "ui_element", None) is line
        text = str(getattr(ev, "text", "") or "")
        if ev.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and mine:
            self.note(text)
            typed = Path(text).expanduser()
            if typed.is_absolute():
                self.folder = typed if typed.is_dir() else typed.parent
            return False
        if ev.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and mine:
            p = self.resolve(text)
            if p is None:
                return False
            if p.is_dir():
                self.folder = p
                self.note("")
                self.show_folder(p)
                return False
            if p.is_file() or (not self.must_exist and (p.parent.is_dir() or self.new_folders)):
                self.picked(str(p))
                return True
        return False


class Buttons(Dialog):
    """A question with a row of buttons; ``done(choice)`` gets the chosen label. ``rows``
    instead lays out one full-width button per ``(label, value, tip, enabled)`` (a list to
    choose from); ``done`` then gets the value."""

    def __init__(self, gui: Gui, title: str, text: str, choices: list[str], done: Callable[[str], object],
                 rows: Optional[list[tuple[str, str, str, bool]]] = None, width: int = 460, pad: int = 0,
                 text_h: int = 80):
        g = gui.pg
        self.done = done
        self.text = text
        self.pg_gui = g
        self.buttons: dict[Any, str] = {}
        self.box: Any = None
        if rows is not None:
            self.window = g.elements.UIWindow(_center(gui, width, 60 + 36 * len(rows) + pad), gui.manager,
                                              window_display_title=title)
            cw = self.window.get_container().get_rect().w
            for i, (label, value, tip, enabled) in enumerate(rows):
                b = g.elements.UIButton(pygame.Rect(8, 6 + 36 * i, cw - 16, 32), label, manager=gui.manager,
                                        container=self.window, tool_tip_text=plain(tip) if tip else None)
                if not enabled:
                    b.disable()
                self.buttons[b] = value
            return
        self.window = g.elements.UIWindow(_center(gui, width, 110 + text_h), gui.manager, window_display_title=title)
        cw = self.window.get_container().get_rect().w
        #: the question's text box (shown as written: :func:`game.window.gui.plain`)
        self.box = g.elements.UITextBox(plain(text), pygame.Rect(8, 6, cw - 16, text_h), manager=gui.manager,
                                        container=self.window)
        bw = (cw - 16 - 8 * (len(choices) - 1)) // len(choices)
        for i, c in enumerate(choices):
            b = g.elements.UIButton(pygame.Rect(8 + i * (bw + 8), text_h + 16, bw, 32), c, manager=gui.manager,
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


#: ``choices`` of a form field that is a multi-line text box (line breaks kept: a caption).
MULTILINE = "multiline"
#: Rows of a multi-line text box.
MULTILINE_ROWS = 4


#: height (px) of a form's refusal box: three lines of the dialog font
ERROR_H = 66


class Form(Dialog):
    """Labelled text entries and drop-downs with OK; ``done(values)`` gets ``{name: text}``
    and returns an error sentence (shown in the form) or None (the form closes). A field whose
    ``choices`` is :data:`MULTILINE` is a text box of :data:`MULTILINE_ROWS` rows where Enter
    starts a new line (its line breaks reach ``done`` as ``\n``)."""

    def __init__(self, gui: Gui, title: str, fields: list[tuple], done: Callable[[dict], Optional[str]],
                 ok: str = "OK", extra_button: Optional[tuple[str, Callable[["Form"], None]]] = None):
        g, m = gui.pg, gui.manager
        self.pg_gui, self.done = g, done
        box_h = 26 * MULTILINE_ROWS + 8
        h = 80 + sum(box_h + 6 if f[3] == MULTILINE else 36 for f in fields) + 40 + ERROR_H - 26
        self.window = g.elements.UIWindow(_center(gui, 560, h), m, window_display_title=title)
        cw = self.window.get_container().get_rect().w
        self.els: dict[str, Any] = {}
        self.chosen: dict[str, str] = {}  # drop-down picks, as their change events said
        y = 6
        for name, label, value, choices in fields:
            g.elements.UILabel(pygame.Rect(8, y, 120, 30), label, manager=m, container=self.window)
            r = pygame.Rect(132, y, cw - 140, 30)
            if choices == MULTILINE:
                box = g.elements.UITextEntryBox(pygame.Rect(132, y, cw - 140, box_h), "", manager=m,
                                                container=self.window)
                box.set_text(plain(value))
                self.els[name] = box
                y += box_h + 6
                continue
            if choices:
                self.els[name] = g.elements.UIDropDownMenu(list(choices), value, r, manager=m, container=self.window)
            else:
                e = g.elements.UITextEntryLine(r, manager=m, container=self.window)
                e.set_text(str(value))
                self.els[name] = e
            y += 36
        # why ``done`` refused: the whole sentence, wrapped (a long one ends with its remedy)
        self.error = g.elements.UITextBox("", pygame.Rect(8, y, cw - 16, ERROR_H), manager=m, container=self.window)
        self.error_text = ""  #: the refusal shown, as written
        y += ERROR_H + 4
        self.ok = g.elements.UIButton(pygame.Rect(cw - 128, y, 120, 32), ok, manager=m, container=self.window)
        first = next((e for e in self.els.values() if hasattr(e, "set_text")), None)
        if first is not None:  # the keyboard goes to the first field at once (never to the board)
            gui.focus(first)
        self.extra = None
        if extra_button:
            self.extra = g.elements.UIButton(pygame.Rect(cw - 256, y, 120, 32), extra_button[0], manager=m,
                                             container=self.window)
            self.extra_cb = extra_button[1]

    def values(self) -> dict:
        out = {}
        for k, e in self.els.items():
            out[k] = e.selected_option[0] if hasattr(e, "selected_option") else e.get_text()
            if k in self.chosen:
                out[k] = self.chosen[k]
        return out

    def set(self, name: str, text: str) -> None:
        e = self.els.get(name)
        if e is not None and hasattr(e, "set_text"):
            e.set_text(plain(text) if self.multiline(name) else text)

    def multiline(self, name: str) -> bool:
        """True when field ``name`` is a multi-line text box."""
        return type(self.els.get(name)).__name__ == "UITextEntryBox"

    def submit(self) -> None:
        err = self.done(self.values())
        if err:
            self.error_text = err[:1].upper() + err[1:]
            self.error.set_text(plain(self.error_text))
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
        if ev.type == self.pg_gui.UI_DROP_DOWN_MENU_CHANGED:
            name = next((k for k, e in self.els.items() if e is el), None)
            if name is not None:
                self.chosen[name] = str(getattr(ev, "text", ""))
                return True
        return el in self.els.values() or el is self.error


def title_form(gui: Gui, title: str, caption: str, done: Callable[[dict], Optional[str]]) -> Form:
    """Edit the scenario's title (one line) and the figure caption (a multi-line box: its line
    breaks survive the edit and the save)."""
    return Form(gui, "Title and caption (Ctrl+T)",
                [("title", "Title", title, None), ("caption", "Caption", caption, MULTILINE)], done, ok="Apply")


EXPORT_VIEWS = ["as on screen", "all units", "engaged units only"]
PALETTES = ["default", "colourblind", "greyscale"]
YES_NO = ["on", "off"]
# the figure's look: the print style (white paper, the print palette; the default of every
# figure file), the print style on the table tint with the 6-inch grid, or the window's look
STYLES = ["print", "print on the table", "screen"]


def figure_options(values: dict, view_box: Optional[tuple] = None) -> tuple[FigureOptions, Optional[tuple]]:
    """:class:`FigureOptions` (and the table box to fit, or None) from the export form's
    values (``style``: one of :data:`STYLES`, print by default: the window keeps its screen
    look, a figure file is drawn for paper unless the user picks ``screen``); raises
    :class:`FigureError` for a bad size, dpi or style."""
    from game.render.figure import FigureError, FigureOptions, parse_size  # the figure pipeline: on export only

    size = values.get("size", "").strip() or None
    if size:
        parse_size(size)
    try:
        dpi = int(str(values.get("dpi", "150")).strip() or 150)
    except ValueError:
        raise FigureError(f"dpi must be a whole number (got {values.get('dpi')!r})") from None
    view = values.get("view", EXPORT_VIEWS[1])
    style = values.get("style", STYLES[0])
    if style not in STYLES:
        raise FigureError(f"style must be one of {', '.join(STYLES)} (got {style!r})")
    fo = FigureOptions(size=size, dpi=dpi, crop=view == EXPORT_VIEWS[2],
                       palette=values.get("palette", PALETTES[0]),
                       legend=values.get("legend", YES_NO[0]) == YES_NO[0],
                       style="screen" if style == STYLES[2] else "print", table=style == STYLES[1])
    title = values.get("title", "").strip()
    if title:
        fo.title = title
    fo.pixel_size()
    return fo, (view_box if view == EXPORT_VIEWS[0] else None)


def export_form(gui: Gui, dialogs: "DialogsSection", file: str, title: str, caption: str,
                done: Callable[[dict], Optional[str]]) -> Form:
    """The export dialog: file (``.png`` / ``.svg`` / ``.pdf``, or a folder: the live page,
    :mod:`game.live.bundle`), size, dpi, what to fit, style
    (print by default), palette, legend, title and caption; Browse picks the file."""
    fields = [("file", "File or folder", file, None), ("size", "Size (px or mm)", "1600x1000", None),
              ("dpi", "DPI", "150", None), ("view", "Show", EXPORT_VIEWS[0], EXPORT_VIEWS),
              ("style", "Style", STYLES[0], STYLES),
              ("palette", "Palette", PALETTES[0], PALETTES), ("legend", "Legend", YES_NO[0], YES_NO),
              ("title", "Title", title, None), ("caption", "Caption", caption, MULTILINE)]

    def browse(form: Form) -> None:
        dialogs.open(FileDialog(gui, "Export to", lambda p: form.set("file", p), initial=form.values()["file"]))

    return Form(gui, "Export figure (Ctrl+E)", fields, done, ok="Export", extra_button=("Browse...", browse))


def recent_dialog(gui: Gui, paths: list[Path], done: Callable[[str], object]) -> Buttons:
    """Recent files as buttons; ``done(path)`` opens the one chosen."""
    return Buttons(gui, "Recent files", "", [], done, width=560,
                   rows=[(str(p)[-70:], str(p), str(p), True) for p in paths])


def rules_dialog(gui: Gui, rows: list[tuple[str, str, str, bool]], done: Callable[[str], None]) -> Buttons:
    """One button per shipped ruleset (``rows``: label, id, tip, enabled); one the board cannot
    use is disabled (greyed) with the reason beside its name and in its tip; ``done(id)``."""
    return Buttons(gui, "Ruleset (Ctrl+R)", "", [], done, width=520, rows=rows, pad=10)


def clear_spot(rect: pygame.Rect, screen: tuple[int, int], points: list, margin_px: int = 10) -> tuple[int, int]:
    """Where to put a dialog of ``rect`` (its size; its place as opened) on a screen of
    ``screen`` (w, h) px so it covers the fewest of ``points`` (px; the models on the table):
    where it was opened, else against the right edge, else the left (first of the fewest)."""
    sw, _sh = screen
    spots = [(rect.x, rect.y), (max(0, sw - rect.w - margin_px), rect.y), (min(margin_px, max(0, sw - rect.w)), rect.y)]

    return min(spots, key=lambda at: covered(pygame.Rect(at, rect.size), points))


def covered(rect: pygame.Rect, points: list) -> int:
    """How many of ``points`` (px) ``rect`` covers."""
    return sum(1 for p in points if rect.collidepoint(p))


class DialogsSection(Section):
    """The open dialogs, newest last (``gui`` None: headless, no dialog ever opens).

    ``open(dialog)`` shows one; ``top()`` is the newest; ``close_top()`` closes it (Esc).
    Events: a picked file goes to the file dialog that asked (pygame_gui closes that dialog
    before its answer arrives, so the answer's callback is kept by the dialog's window); other
    pygame_gui events to the dialogs, newest first; while a dialog is open, keys, clicks and
    the wheel never reach the board."""

    def __init__(self, gui: Optional[Gui]) -> None:
        self.gui = gui
        self.stack: list[Dialog] = []
        self.file_callbacks: dict[Any, Callable[[str], None]] = {}
        #: screen points (px) a new dialog should leave in sight: the models on the table (set by the app)
        self.keep_clear: Callable[[], list] = list

    def open(self, dialog: Any) -> Any:
        """Show ``dialog`` on top of the others (when it was built), moved sideways off the
        models where the window has room (:func:`clear_spot`); returns it."""
        if dialog is not None and self.gui is not None:
            win = getattr(dialog, "window", None)
            if win is not None and hasattr(win, "set_position"):
                r = win.get_abs_rect() if hasattr(win, "get_abs_rect") else win.rect
                at = clear_spot(pygame.Rect(r), self.gui.size(), self.keep_clear())
                if at != (r.x, r.y):
                    win.set_position(at)
            self.stack.append(dialog)
            if isinstance(dialog, FileDialog):
                self.file_callbacks[dialog.window] = dialog.picked
        return dialog

    def top(self) -> Optional[Dialog]:
        self.forget_closed()
        return self.stack[-1] if self.stack else None

    def forget_closed(self) -> None:
        self.stack = [d for d in self.stack if d.alive()]

    def close_top(self) -> bool:
        self.forget_closed()
        if self.stack:
            self.stack.pop().kill()
            return True
        return False

    def on_event(self, ev: Any) -> bool:
        gui = self.gui
        if gui is None:
            return False
        if ev.type == gui.pg.UI_FILE_DIALOG_PATH_PICKED:
            done = self.file_callbacks.pop(getattr(ev, "ui_element", None), None)
            for w in [w for w in self.file_callbacks if not w.alive()]:
                del self.file_callbacks[w]  # dialogs cancelled or closed without an answer
            if done is not None:
                done(str(ev.text))
            return True
        if ev.type == gui.pg.UI_TEXT_ENTRY_CHANGED:
            # typing in a dialog's field: the dialog sees it (a file dialog says why OK is
            # greyed) and pygame_gui still gets it after the sections (GuiLast)
            for d in list(self.stack):
                if d.alive():
                    d.handle(ev)
            return False
        if gui.is_ui_event(ev):
            for d in reversed(list(self.stack)):
                if d.alive() and d.handle(ev):
                    self.forget_closed()
                    return True
            return False
        if self.stack and ev.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.MOUSEWHEEL):
            # a dialog is modal: keys and clicks outside it never reach the board (Esc closes it)
            self.forget_closed()
            if self.stack:
                if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
                    self.close_top()
                else:
                    gui.manager.process_events(ev)
                return True
        return False

    def on_update(self) -> None:
        self.forget_closed()
        for d in self.stack:
            if isinstance(d, FileDialog):
                d.sync()


def ask_unsaved(dialogs: DialogsSection, title: str, text: str, save: Callable[[], object],
                discard: Callable[[], object], cancel: Callable[[], object], width: int = 460) -> None:
    """The one unsaved-work question (the board's, the demo recorder's): ``text`` with Save /
    Discard / Cancel, each running its callable. Needs the window's panels (``dialogs.gui``)."""
    assert dialogs.gui is not None
    acts = {"Save": save, "Discard": discard}
    dialogs.open(Buttons(dialogs.gui, title, text, ["Save", "Discard", "Cancel"], lambda c: acts.get(c, cancel)(),
                         width=width))
