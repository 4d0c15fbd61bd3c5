"""The demo recorder's window (F6): a section of the table view over :class:`Recording`.

Widgets: the demo's title, the step's caption and marks (ring, callouts, strike step,
casualties; "+ selected" adds the selected unit to the ring), Add step / Update / Show, the
list of steps (the chosen one highlighted), Up / Down / Delete, and Play / Save / Open /
HTML. Add step and Update take the table view's camera box and, while the steps view shows a
phase step (N / P), that step's number; Show puts a step back on the table at its view (and
back on its phase step). What each does is in :mod:`game.window.recorder`; every refusal is
said on the status line.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import pygame

from game.core.editor import Change
from game.window.recorder import Recording
from game.window.view import Section
from game.window.demo_play import DemoPlayView
from game.window.dialogs import FileDialog

if TYPE_CHECKING:
    from game.window.dialogs import DialogsSection
    from game.window.document import Document
    from game.window.gui import Gui
    from game.window.status import Status
    from game.window.steps_view import StepsView
    from game.window.table_view import TableView

FIELDS = (("title", "Title", "the demo's title"), ("caption", "Caption", "what this step shows, in your words"),
          ("ring", "Ring", "unit or model ids to ring"), ("callouts", "Callout", "model: text; model: text"),
          ("strike", "Strike", "strike step: 1 or Initiative 5"), ("casualties", "Fall", "unit: r1f1 r1f2; unit: 2"))
BUTTONS1 = (("add", "Add step", "keep the table as it is now as a new step, after the chosen one"),
            ("update", "Update", "replace the chosen step by the table as it is now"),
            ("show", "Show", "put the chosen step's board on the table (undoable)"))
BUTTONS2 = (("up", "Up", "move the chosen step earlier"), ("down", "Down", "move the chosen step later"),
            ("delete", "Delete", "delete the chosen step"))
BUTTONS3 = (("play", "Play", "step through the demo here (Esc comes back)"),
            ("save", "Save", "write the demo file (python main.py demo FILE plays it)"),
            ("open", "Open", "open a demo file for editing"), ("html", "HTML", "write the demo as one web page"))


class RecorderSection(Section):
    """The recorder of ``table`` (its document ``doc``); dialogs open in ``dialogs``."""

    def __init__(self, gui: Optional[Gui], doc: Document, table: TableView, status: Status,
                 dialogs: DialogsSection, steps: Optional[StepsView] = None) -> None:
        self.gui, self.doc, self.table, self.status, self.dialogs = gui, doc, table, status, dialogs
        self.steps = steps  # the N / P phase steps: Add step there records the step shown
        self.rec = Recording(doc.board.title or "")
        self.window: Any = None
        self.els: dict[str, Any] = {}
        self.buttons: dict[Any, str] = {}
        self.list: Any = None
        self.playing: Any = None

    # -- the window ------------------------------------------------------------------------------
    def alive(self) -> bool:
        return self.window is not None and self.window.alive()

    def toggle(self) -> None:
        """Open / close the recorder (F6)."""
        if self.alive():
            self.window.kill()
            self.window = None
            return
        if self.gui is None:
            self.status.say("The demo recorder needs the window's panels.")
            return
        if not self.rec.steps and not self.rec.path:
            self.rec.recorder.title = self.doc.title()  # a fresh demo is named after the board shown now
        self.build()
        self.status.say("Demo recorder: set up the table, type a caption, Add step. Play, Save, HTML when done.")

    def build(self) -> None:
        assert self.gui is not None
        g, m = self.gui.pg, self.gui.manager
        w, h = self.table.window.size()
        top = int(self.table.layout().table[1]) + 6  # below the toolbar, over the legend's side of the table
        rect = pygame.Rect(max(0, w - 390), top, 380, max(300, min(h - top - 40, 560)))
        self.window = g.elements.UIWindow(rect, m, window_display_title="Demo recorder (F6)")
        cw = self.window.get_container().get_rect().w
        self.els, self.buttons = {}, {}
        y = 4
        for name, label, hint in FIELDS:
            g.elements.UILabel(pygame.Rect(4, y, 66, 28), label, manager=m, container=self.window)
            wide = cw - 78 - (86 if name == "ring" else 0)
            e = g.elements.UITextEntryLine(pygame.Rect(72, y, wide, 28), manager=m, container=self.window,
                                           placeholder_text=hint)
            self.els[name] = e
            if name == "ring":
                b = g.elements.UIButton(pygame.Rect(72 + wide + 4, y, 80, 28), "+ selected", manager=m,
                                        container=self.window, tool_tip_text="add the selected unit to the ring")
                self.buttons[b] = "ring_selected"
            y += 32
        self.els["title"].set_text(self.rec.recorder.title)
        y = self._row(BUTTONS1, y + 4, cw)
        lh = max(90, self.window.get_container().get_rect().h - y - 84)
        self.list = g.elements.UISelectionList(pygame.Rect(4, y, cw - 8, lh), self.rec.labels(), manager=m,
                                               container=self.window)
        y = self._row(BUTTONS2, y + lh + 4, cw)
        self._row(BUTTONS3, y, cw)
        self._fill_list()

    def _row(self, specs: tuple, y: int, cw: int) -> int:
        assert self.gui is not None
        bw = (cw - 8 - 4 * (len(specs) - 1)) // len(specs)
        for i, (name, label, tip) in enumerate(specs):
            b = self.gui.pg.elements.UIButton(pygame.Rect(4 + i * (bw + 4), y, bw, 30), label,
                                              manager=self.gui.manager, container=self.window, tool_tip_text=tip)
            self.buttons[b] = name
        return y + 34

    def _fill_list(self) -> None:
        if self.list is None:
            return
        labels = self.rec.labels()
        self.list.set_item_list(labels)
        self.mark_chosen()

    def mark_chosen(self) -> None:
        """Highlight the chosen step's row in the list (and only it), as a click on it does."""
        if self.list is None:
            return
        for i, item in enumerate(self.list.item_list):
            item["selected"] = i == self.rec.index
            button = item.get("button_element")
            if button is not None:
                button.select() if item["selected"] else button.unselect()

    def chosen_row(self) -> Optional[int]:
        """The row highlighted in the list (tests), or None."""
        if self.list is None:
            return None
        rows = [i for i, item in enumerate(self.list.item_list) if item["selected"]]
        return rows[0] if len(rows) == 1 else None

    def button(self, name: str) -> Any:
        """The button that runs ``name`` (tests and scripts)."""
        return next((b for b, n in self.buttons.items() if n == name), None)

    def text(self, name: str) -> str:
        e = self.els.get(name)
        return e.get_text() if e is not None else ""

    def set_text(self, name: str, text: str) -> None:
        if name in self.els:
            self.els[name].set_text(text)

    # -- what the buttons do ---------------------------------------------------------------------
    def run(self, name: str) -> None:
        """Run button ``name``; a refusal goes to the status line."""
        try:
            msg = getattr(self, f"do_{name}")()
        except ValueError as exc:
            self.status.say(f"Demo: {exc}.")
            return
        if msg:
            self.status.say(msg)
        self._fill_list()

    def phase_shown(self) -> Optional[int]:
        """The phase step (1-based) on screen (N / P), or None on the table."""
        pos = self.steps.position() if self.steps is not None else None
        return pos[0] + 1 if pos is not None else None

    def _step(self) -> Any:
        """The step the table (or the phase step shown) gives now, with the typed marks and the view."""
        self.rec.recorder.title = self.text("title").strip()
        return self.rec.make_step(self.doc.board, self.doc.rs.id, self.text("caption"), self.text("ring"),
                                  self.text("callouts"), self.text("strike"), self.text("casualties"),
                                  view=self.table.view_box_mm(), phase=self.phase_shown())

    def do_add(self) -> str:
        msg = self.rec.add(self._step())
        for name in ("caption", "ring", "callouts", "strike", "casualties"):
            self.set_text(name, "")
        return msg + " Change the table, type the next caption, Add step again."

    def do_update(self) -> str:
        return self.rec.update(self._step())

    def do_show(self) -> str:
        i = self.rec._chosen()
        st = self.rec.steps[i]
        self.doc.commit(Change(st.board.copy(), f"Step {i + 1} is on the table (Ctrl+Z brings the board back)."))
        if st.view is not None:
            self.table.show_box(st.view)  # the view it was recorded with
        if st.phase and self.steps is not None:
            self.steps.enter(st.phase - 1)  # and the phase step it shows
        self.set_text("caption", st.caption)
        self.set_text("ring", " ".join(st.highlight))
        self.set_text("callouts", "; ".join(f"{m}: {t}" for m, t in st.notes))
        self.set_text("strike", "" if st.strike is None else str(st.strike))
        self.set_text("casualties", "; ".join(f"{u}: {v if isinstance(v, int) else ' '.join(v)}"
                                              for u, v in st.casualties.items()))
        return ""

    def do_up(self) -> str:
        return self.rec.move(-1)

    def do_down(self) -> str:
        return self.rec.move(1)

    def do_delete(self) -> str:
        return self.rec.delete()

    def do_ring_selected(self) -> str:
        sel = self.table.selection
        if sel is None:
            raise ValueError("select a unit on the table first")
        words = [w for w in self.text("ring").split() if w != sel] + [sel]
        self.set_text("ring", " ".join(words))
        return ""

    def do_play(self) -> str:
        steps = self.rec.check()
        if not steps:
            raise ValueError("record a step first (Add step)")
        win = self.table.window

        shown = self._widgets_shown()

        def back() -> None:
            for el in shown:  # the toolbar, panels and this recorder come back
                el.show()
            win.show_view(self.table)
            self.status.say("Back from the demo.")

        self.playing = DemoPlayView(steps, self.rec.recorder.title or "demo", back)
        for el in shown:  # the demo plays on the whole window, as `demo` shows it
            el.hide()
        win.show_view(self.playing)
        return ""

    def _widgets_shown(self) -> list:
        """The top-level widgets on screen now (toolbar buttons, panels, this window)."""
        if self.gui is None:
            return []
        root = self.gui.manager.get_root_container()
        return [el for el in list(root.elements) if getattr(el, "visible", True)]

    def _file(self, title: str, done: Any, suffixes: set, must_exist: bool, initial: str) -> None:
        if self.gui is None:
            raise ValueError("file dialogs need the window's panels")
        self.dialogs.open(FileDialog(self.gui, title, lambda p: self._after(done, p), initial=initial,
                                     must_exist=must_exist, suffixes=suffixes))

    def _after(self, done: Any, path: str) -> None:
        try:
            self.status.say(done(path))
        except (ValueError, OSError) as exc:
            self.status.say(f"Demo: {exc}.")
        self._fill_list()

    def _initial(self, suffix: str) -> str:
        if self.rec.path:
            return str(Path(self.rec.path).with_suffix(suffix))
        return str(Path.cwd() / f"my_demo{suffix}")

    def do_save(self) -> str:
        self.rec.recorder.title = self.text("title").strip()
        if self.rec.path:
            return self.rec.save(self.rec.path)
        self._file("Save the demo as", self.rec.save, {".yaml", ".yml"}, False, self._initial(".yaml"))
        return ""

    def do_open(self) -> str:
        def opened(path: str) -> str:
            msg = self.rec.open(path)
            self.set_text("title", self.rec.recorder.title)
            return msg
        self._file("Open a demo for editing", opened, {".yaml", ".yml"}, True, self._initial(".yaml"))
        return ""

    def do_html(self) -> str:
        self.rec.recorder.title = self.text("title").strip()
        self._file("Write the demo as one web page", self.rec.html, {".html", ".htm"}, False, self._initial(".html"))
        return ""

    # -- events ----------------------------------------------------------------------------------
    def on_event(self, ev: Any) -> bool:
        if self.gui is None or not self.alive():
            return False
        g = self.gui.pg
        if ev.type == g.UI_BUTTON_PRESSED and ev.ui_element in self.buttons:
            self.run(self.buttons[ev.ui_element])
            return True
        if ev.type == getattr(g, "UI_SELECTION_LIST_NEW_SELECTION", -1) and ev.ui_element is self.list:
            text = ev.text if hasattr(ev, "text") else self.list.get_single_selection()
            try:
                self.rec.index = int(str(text).split(".", 1)[0]) - 1
            except ValueError:
                self.rec.index = None
            return True
        return False
