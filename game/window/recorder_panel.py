"""The demo recorder's window (F6): a section of the table view over :class:`Recording`.

Widgets: the demo's title, the step's caption and marks (ring, callouts, strike step,
casualties, units and models typed by name, as the texts name them; "+ selected" adds the
selected unit to the ring), Add step / Update / Show, the
list of steps (the chosen one highlighted), Up / Down / Delete, and Play / Save / Open /
HTML / Live (the live page's folder, :mod:`game.live.bundle`). Add step and Update take the table view's camera box and, while the steps view shows a
phase step (N / P), that step's number; Show puts a step back on the table at its view (and
back on its phase step). What each does is in :mod:`game.window.recorder`; every refusal is
said on the status line.

Never losing the recorder's work, as the scenario side never loses a board's: every change is
autosaved at once to this session's recovery file (:mod:`game.window.recorder_store`; kill -9
loses nothing but a title being typed); quitting (the window's close button, Ctrl+Q) and Open
with unsaved steps ask Save / Discard / Cancel first (:meth:`RecorderSection.guard`); a signal
or the frame count keeps them in the recovery file (:meth:`RecorderSection.keep_unsaved`);
recovered work is offered when the same demo is opened again, or, for a demo with no file,
when the window starts (:meth:`RecorderSection.offer_recovery`); Save over a demo changed or
removed by another program since it was opened asks Overwrite / Reload / Cancel.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

import pygame

from game.core.editor import Change
from game.core.name_reader import marked_text, read_marked
from game.core.names import model_name, unit_names
from game.window.recorder_store import RecorderStore
from game.window.session import OutsideChange
from game.window.view import Section
from game.window.dialogs import Buttons, FileDialog, ask_unsaved, covered

if TYPE_CHECKING:
    from game.window.recorder import Recording
    from game.window.dialogs import DialogsSection
    from game.window.document import Document
    from game.window.gui import Gui
    from game.window.status import Status
    from game.window.steps_view import StepsView
    from game.window.table_view import TableView

FIELDS = (("title", "Title", "the demo's title"), ("caption", "Caption", "what this step shows, in your words"),
          ("ring", "Ring", "units or models, by name"),
          ("callouts", "Callout", "model or unit: text; another: text"),
          ("strike", "Strike", "1, or as the strike order names it"), ("casualties", "Fall", "unit: how many fall; unit: 2"))
BUTTONS1 = (("add", "Add step", "keep the table as it is now as a new step, after the chosen one"),
            ("update", "Update", "replace the chosen step by the table as it is now"),
            ("show", "Show", "put the chosen step's board on the table (undoable)"))
BUTTONS2 = (("up", "Up", "move the chosen step earlier"), ("down", "Down", "move the chosen step later"),
            ("delete", "Delete", "delete the chosen step"))
BUTTONS3 = (("play", "Play", "step through the demo here (Esc comes back)"),
            ("save", "Save", "write the demo file (python main.py demo FILE plays it)"),
            ("open", "Open", "open a demo file for editing"), ("html", "HTML", "write the demo as one web page"),
            ("live", "Live", "write the demo as a live page: a folder whose steps a reader drags in any browser"))
#: A title being typed is autosaved at most this often (s).
TITLE_AUTOSAVE_S = 1.0


class RecorderSection(Section):
    """The recorder of ``table`` (its document ``doc``); dialogs open in ``dialogs``."""

    def __init__(self, gui: Optional[Gui], doc: Document, table: TableView, status: Status,
                 dialogs: DialogsSection, steps: Optional[StepsView] = None) -> None:
        self.gui, self.doc, self.table, self.status, self.dialogs = gui, doc, table, status, dialogs
        self.steps = steps  # the N / P phase steps: Add step there records the step shown
        self._rec: Optional[Recording] = None  # made on first use (:attr:`rec`): not at start-up
        self._first_title = doc.board.title or ""
        self.window: Any = None
        self.els: dict[str, Any] = {}
        self.buttons: dict[Any, str] = {}
        self.list: Any = None
        self.playing: Any = None
        s = doc.session
        self.store = RecorderStore(s.out_dir, s.session_id, s.wall)
        self.clock = s.clock
        self.changes = 0  # changes since the demo was opened or saved (the recovery header says)
        self._title_saved = self.clock()

    @property
    def rec(self) -> Recording:
        """The demo being recorded, made the first time it is asked for (the demos' modules are
        imported then, not for the window's first frame)."""
        if self._rec is None:
            from game.window.recorder import Recording

            self._rec = Recording(self._first_title)
        return self._rec

    @rec.setter
    def rec(self, rec: Recording) -> None:
        self._rec = rec

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

    def spot(self, size: tuple[int, int]) -> pygame.Rect:
        """Where the recorder opens on a window of ``size`` px: below the toolbar, over the
        table's left side, leaving the legend in sight, unless models stand there and fewer
        under the legend's side (then over the legend, as before)."""
        w, h = size
        lay = self.table.layout()
        top = int(lay.table[1]) + 6
        rect = pygame.Rect(0, top, 380, max(300, min(h - top - 40, 560)))
        left = rect.move(max(0, int(lay.table[0]) + 6), 0)
        right = rect.move(max(0, w - 390), 0)
        pts = [self.table.camera.to_px(m.center) for m in self.doc.board.models()]
        return left if covered(left, pts) <= covered(right, pts) else right

    def build(self) -> None:
        assert self.gui is not None
        g, m = self.gui.pg, self.gui.manager
        w, h = self.table.window.size()
        rect = self.spot((w, h))
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
        """Run button ``name``; a refusal goes to the status line. A change is autosaved at once."""
        try:
            msg = getattr(self, f"do_{name}")()
        except ValueError as exc:
            self.status.say(f"Demo: {exc}.")
            return
        if msg:
            self.status.say(msg)
        if name in ("add", "update", "delete", "up", "down") and self.rec.dirty:
            self.changes += 1
        self.autosave()
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
        self.doc.commit(Change(st.board, f"Step {i + 1} is on the table (Ctrl+Z brings the board back)."))
        if st.view is not None:
            self.table.show_box(st.view)  # the view it was recorded with
        if st.phase and self.steps is not None:
            self.steps.enter(st.phase - 1)  # and the phase step it shows
        self.set_text("caption", st.caption)
        names = unit_names(st.board)  # the fields show names, as they are typed
        self.set_text("ring", marked_text(st.board, st.highlight))
        self.set_text("callouts", "; ".join(f"{model_name(m, names)}: {t}" for m, t in st.notes))
        self.set_text("strike", "" if st.strike is None else str(st.strike))
        self.set_text("casualties", "; ".join(f"{names.get(u, u)}: {v if isinstance(v, int) else ' '.join(v)}"
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
        board = self.doc.board
        marked = [i for i in read_marked(board, self.text("ring")) if i != sel] + [sel]
        self.set_text("ring", marked_text(board, marked))
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

        from game.window.demo_play import DemoPlayView  # the player and its figure pipeline: on Play only

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
        except (ValueError, OSError) as exc:  # a DemoError is a ValueError
            self.status.say(f"Demo: {exc}.")
        self._fill_list()

    def _initial(self, suffix: str) -> str:
        if self.rec.path:
            return str(Path(self.rec.path).with_suffix(suffix))
        # beside the scenario on the table (or the file saved last), never merely where the program started
        s = self.doc.session
        stem = f"{s.path.stem}_demo" if s.path else "my_demo"
        return str(s.save_folder() / f"{stem}{suffix}")

    def do_save(self) -> str:
        self.save()
        return ""

    def do_open(self) -> str:
        self.guard(lambda: self._file("Open a demo for editing", self.open_file, {".yaml", ".yml"}, True,
                                      self._initial(".yaml")), "open another demo")
        return ""

    def open_file(self, path: str) -> str:
        """Open the demo ``path`` for editing (a new recovery file from now on), then offer the
        work an earlier session kept for it."""
        msg = self.rec.open(path)
        self.store.next_document()
        self.changes = 0
        self.set_text("title", self.rec.recorder.title)
        self.offer_recovery()
        return msg

    def do_html(self) -> str:
        self.rec.recorder.title = self.text("title").strip()
        self._file("Write the demo as one web page", self.rec.html, {".html", ".htm"}, False, self._initial(".html"))
        return ""

    def do_live(self) -> str:
        self.rec.recorder.title = self.text("title").strip()
        if self.gui is None:
            raise ValueError("file dialogs need the window's panels")
        self.dialogs.open(FileDialog(self.gui, "Write the demo as a live page (a new folder)",
                                     lambda p: self._after(self.rec.live, p), initial=self._initial("") + "_live",
                                     new_folders=True))
        return ""

    # -- never losing the recorder's work ----------------------------------------------------------
    def sync_title(self) -> None:
        """The title typed is the demo's (a change, once there are steps)."""
        if self.alive():
            title = self.text("title").strip()
            if title != self.rec.recorder.title:
                self.rec.recorder.title = title
                if self.rec.steps:
                    self.rec.dirty = True
                    self.changes += 1

    def unsaved(self) -> bool:
        """True when the recorder holds steps (or a title) not yet saved."""
        if self._rec is None:
            return False  # nothing recorded yet
        self.sync_title()
        return self.rec.dirty and bool(self.rec.steps)

    def autosave(self) -> Optional[Path]:
        """Write unsaved steps to the recovery file now (removed when there are none); a
        failure goes to the banner."""
        self.sync_title()
        p = self.store.autosave(self.rec, max(1, self.changes))
        if self.store.error:
            self.status.warn(self.store.error)
        return p

    def keep_unsaved(self) -> Optional[Path]:
        """A signal or the frame count stops the window: unsaved steps stay in the recovery file
        (what happened to them is printed)."""
        if not self.unsaved():
            return None
        p = self.autosave()
        if p is not None:
            print(f"Unsaved demo steps were kept in {p}; opening the demo (or, for a new demo, the window) "
                  "offers them again.")
        return p

    def guard(self, then: Callable[[], None], what: str) -> None:
        """Run ``then`` now when the demo is saved; else ask Save / Discard / Cancel first
        (headless: the steps stay in the recovery file, then go on)."""
        if not self.unsaved():
            then()
            return
        if self.gui is None:
            self.autosave()
            then()
            return

        def discard() -> None:
            self.rec.dirty = False
            self.store.drop()  # thrown away: the recovery file goes too
            then()

        name = Path(self.rec.path).name if self.rec.path else "The demo being recorded"
        ask_unsaved(self.dialogs, "Unsaved demo steps",
                    f"{name} has unsaved steps ({len(self.rec.steps)} in all). Save them before you {what}?",
                    lambda: self.save(after=then), discard,
                    lambda: self.status.say(f"Cancelled: {what} can wait; the demo's steps are as they were."),
                    width=560)

    def save(self, after: Optional[Callable[[], None]] = None, *, overwrite: bool = False) -> bool:
        """Save to the demo's file (none yet: ask where); a file changed or removed outside since
        it was opened asks Overwrite / Reload / Cancel first. ``after`` runs once saved."""
        self.sync_title()
        if not self.rec.path:
            if self.gui is None:
                self.status.say("Demo: saving a new demo needs the window's file dialog.")
                return False
            self._file("Save the demo as", lambda p: self._saved(p, after), {".yaml", ".yml"}, False,
                       self._initial(".yaml"))
            return False
        try:
            msg = self._saved(self.rec.path, after, overwrite=overwrite)
        except OutsideChange as exc:
            self.ask_outside(exc.what, after)
            return False
        except (ValueError, OSError) as exc:  # a DemoError is a ValueError
            self.status.say(f"Demo: {exc}.")
            return False
        self.status.say(msg)
        return True

    def _saved(self, path: str, after: Optional[Callable[[], None]], *, overwrite: bool = False) -> str:
        msg = self.rec.save(path, overwrite=overwrite)
        self.store.drop()
        self.changes = 0
        if after:
            after()
        return msg

    def ask_outside(self, what: str, after: Optional[Callable[[], None]] = None) -> None:
        """The demo file changed (or went) on disk since it was opened: Overwrite / Reload /
        Cancel (Reload keeps the steps recorded here in the recovery file); never a silent
        overwrite (headless: the banner says so, nothing is written)."""
        self.rec.watch.outside = what  # asked: the watch waits for the answer (a save or reload clears it)
        name = Path(self.rec.path or "the demo").name
        if what == "changed":
            text = (f"{name} was changed on disk by another program or window since you opened it. Overwrite it "
                    "with your steps, or reload it (your steps stay in the recovery file)?")
            buttons = ["Overwrite", "Reload", "Cancel"]
        else:
            text = f"{name} was moved or deleted since you opened it. Write your steps back where it was?"
            buttons = ["Overwrite", "Cancel"]
        if self.gui is None:
            self.status.warn(text + " (Nothing was written.)")
            return

        def chosen(choice: str) -> None:
            if choice == "Overwrite":
                self.save(after, overwrite=True)
            elif choice == "Reload":
                self.reload()
            else:
                self.status.say("Demo: the file on disk and your steps are both as they were; Save asks again.")

        self.dialogs.open(Buttons(self.gui, "Demo changed on disk", text, buttons, chosen, width=640))

    def reload(self) -> None:
        """Open the demo file again as it is on disk; the steps recorded here stay in the
        recovery file (offered when the demo is opened again)."""
        path = self.rec.path
        kept = self.autosave()
        from game.window.recorder import Recording

        try:
            rec = Recording()
            msg = rec.open(str(path))
        except (ValueError, OSError) as exc:  # a DemoError is a ValueError
            self.status.warn(f"Demo: could not reload: {exc}. Kept your steps; Save asks again.")
            return
        self.rec = rec
        self.store.next_document()
        self.changes = 0
        self.set_text("title", rec.recorder.title)
        self._fill_list()
        self.status.say(f"Reloaded. {msg}" + (f" Your steps are kept in {kept.name}." if kept else ""))

    def offer_recovery(self) -> None:
        """Recovery files another session kept for this demo (or for new demos): say what and
        when, and ask Restore / Discard / Keep for later (headless: the status line says so)."""
        recs = self.store.recoveries(self._rec)
        if not recs:
            return
        r = recs[0]
        if self.gui is None:
            self.status.say(f"Unsaved demo steps from an earlier session: {r.describe()}. F6, Open the demo to "
                            "get them back.")
            return
        name = Path(self._rec.path).name if self._rec is not None and self._rec.path else "A new demo"
        text = (f"{name}: unsaved demo steps from an earlier session were kept: {r.describe()}. Restore them, "
                "discard them for good, or keep them for later?")

        def chosen(choice: str) -> None:
            if choice == "Restore":
                self.restore(r)
            elif choice == "Discard":
                gone = self.store.discard(r)
                self.status.say(f"Discarded the demo steps {r.describe()}." if gone else f"Could not remove {r.path}.")
                self.offer_recovery()
            else:
                for x in recs:
                    self.store.keep_for_later(x)
                self.status.say(f"Kept for later: the demo steps {r.describe()}.")

        self.dialogs.open(Buttons(self.gui, "Unsaved demo steps found", text, ["Restore", "Discard", "Keep for later"],
                                  chosen, width=640, text_h=110))

    def restore(self, r: Any) -> None:
        """Take recovery file ``r``'s steps as unsaved work and show the recorder."""
        try:
            msg = self.store.restore(self.rec, r)
        except (OSError, ValueError) as exc:  # a DemoError is a ValueError
            self.status.say(f"Demo: the recovery file cannot be read: {exc}")
            return
        self.changes = max(1, self.changes)
        if self.gui is not None and not self.alive():
            self.build()
        self.set_text("title", self.rec.recorder.title)
        self.autosave()  # kept under this session too
        self._fill_list()
        self.status.say(msg)

    def on_update(self) -> None:
        """A title being typed is autosaved at most once a second (of the session's clock); the
        open demo's file is looked at every few seconds, as the scenario's is (its
        :class:`~game.window.diskstate.Watch`): changed or removed outside asks
        Overwrite / Reload / Cancel once (Cancel: Save asks again)."""
        if self._rec is None:
            return  # nothing recorded, no demo file open
        pending = self.rec.watch.outside
        what = self.rec.watch.poll(self.clock())
        if what is not None and pending is None:
            self.ask_outside(what)
        if self.alive() and self.rec.steps and self.text("title").strip() != self.rec.recorder.title:
            now = self.clock()
            if now - self._title_saved >= TITLE_AUTOSAVE_S:
                self._title_saved = now
                self.autosave()

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
