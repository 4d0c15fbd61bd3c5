"""The file commands of the window, as a section: New, Open (file dialog, recent files, a
file dropped on the window), Save, Save As, the autosave, the unsaved-changes question (Save /
Discard / Cancel) before anything would drop the board, quitting (the window's close button
too), the title and caption, and exporting the view as a PNG, SVG or PDF figure through the same
drawing code as ``render``.

:class:`FilesSection` owns the file state the document does not (the last figure exported);
it takes the window's ``DROPFILE`` and ``QUIT`` events and reports through the
:class:`~game.window.status.Status`.
"""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

import pygame

from game.core import analyse as core_analysis
from game.core.board import Board
from game.core.editor import caption_text
from game.core.ruleset import Ruleset, RulesetError
from game.core.replacing import existing_of_kind
from game.core.scenario import ScenarioError, load_scenario
from game.window.dialogs import Buttons, DialogsSection, FileDialog, ask_unsaved, export_form, figure_options, \
    recent_dialog, title_form
from game.window import recovery
from game.window.live import OFF_FRAME_MODELS
from game.window.session import LayoutLoss, NeedsSaveAs, OutsideChange
from game.window.status import Status
from game.window.view import Section

if TYPE_CHECKING:
    from game.window.document import Document
    from game.window.steps_view import StepsView
    from game.window.table_view import Scene, TableView
    from game.window.window import Window

SCENARIO_SUFFIXES = {".yaml", ".yml"}


BUNDLED_SCENARIOS = Path(__file__).resolve().parents[2] / "assets" / "scenarios"


class FilesSection(Section):
    """File commands on ``doc``; ``shown()`` is what the window shows now (the board or a
    phase step: what an export draws)."""

    def __init__(self, window: Window, doc: Document, status: Status, dialogs: DialogsSection, table: TableView,
                 steps: StepsView, shown: Callable[[], Scene]) -> None:
        self.window, self.doc, self.status, self.dialogs = window, doc, status, dialogs
        self.table, self.steps, self.shown = table, steps, shown
        self.session = doc.session
        self.last_export: Optional[str] = None
        #: the folder of the file the export form showed (a bare name typed is written there)
        self.export_folder: Path = Path.cwd()
        self._asked_outside = False
        #: other work asked about before quitting: ``ask(then, what)`` runs ``then`` once it is saved or let go
        self.before_quit: list[Callable[[Callable[[], None], str], None]] = []

    @property
    def headless(self) -> bool:
        return self.dialogs.gui is None

    def on_event(self, ev: Any) -> bool:
        if ev.type == pygame.DROPFILE:
            self.request_open(ev.file)
            return True
        if ev.type == pygame.QUIT:
            self.quit()
            return True
        return False

    # -- unsaved changes ------------------------------------------------------------------------
    def guard(self, then: Callable[[], None], what: str) -> None:
        """Run ``then`` now when the board is saved; else ask Save / Discard / Cancel first
        (headless: keep the changes in the autosave file, then go on)."""
        if not self.session.dirty:
            then()
            return
        if self.headless:
            self.keep_unsaved()
            then()
            return

        def discard() -> None:
            self.session.discard()  # thrown away: the recovery file goes too
            then()

        ask_unsaved(self.dialogs, "Unsaved changes",
                    f"{self.session.title()} has unsaved changes. Save them before you {what}?",
                    lambda: self.save(after=then), discard,
                    lambda: self.status.say(f"Cancelled: {what} can wait; the board is as it was."))

    def keep_unsaved(self) -> Optional[Path]:
        """Write unsaved changes to the autosave file (a failure is kept and shown)."""
        p = self.session.autosave()
        if self.session.autosave_error:
            self.status.warn(self.session.autosave_error)
        return p

    # -- saving -----------------------------------------------------------------------------------
    def save(self, after: Optional[Callable[[], None]] = None, *, overwrite: bool = False,
             accept_loss: bool = False) -> bool:
        """Save to the file the user chose; a new or built-in board asks where (Save As). A file
        changed outside since it was opened asks Reload / Keep mine / Compare first; a save that
        cannot keep the file's layout says so and asks first."""
        try:
            p = self.session.save(overwrite=overwrite, accept_loss=accept_loss)
        except NeedsSaveAs:
            self.save_as_dialog(after)
            return False
        except OutsideChange as exc:
            self.ask_outside(exc.what, after)
            return False
        except LayoutLoss as exc:
            self.ask_layout(exc.notes, lambda: self.save(after, overwrite=overwrite, accept_loss=True))
            return False
        except OSError as exc:
            self.status.say(f"Could not save {self.session.save_path}: {exc.strerror or exc}")
            return False
        self._asked_outside = False  # the file is ours again: a new outside change is asked about
        self.status.say(f"Saved {Path(p).absolute()}.")
        self.doc.notify("caption")
        if after:
            after()
        return True

    def save_as_dialog(self, after: Optional[Callable[[], None]] = None) -> None:
        if self.dialogs.gui is None:
            self.status.say("Save As needs the window's file dialog; this board has no file of its own yet.")
            return
        sp = self.session.save_path
        stem = self.session.path.stem if self.session.path else "scenario"
        initial = str(sp) if sp else str(self.session.save_folder() / f"{stem}.yaml")
        self.dialogs.open(FileDialog(self.dialogs.gui, "Save scenario as", lambda p: self.save_as(p, after),
                                     initial=initial, new_folders=True))

    def save_as(self, path: str, after: Optional[Callable[[], None]] = None, *, replace: bool = False) -> bool:
        """Save the board to ``path`` (the user's choice) and keep saving there. Another
        existing file is never replaced unasked: a scenario asks Replace / Cancel first (unless
        ``replace``); a file that is not a scenario (not YAML, a demo, a book file) is refused
        and left as it was."""
        target = self.session.target(path)
        if not replace and target.is_file() and not self.session.is_own(target):
            try:
                other = existing_of_kind(target, load_scenario, ScenarioError, "scenario")
            except ValueError as exc:
                self.status.warn(f"Not saved: {exc} ({target} is as it was).")
                return False
            self.ask_replace(target, getattr(other, "title", "") or "", lambda: self.save_as(path, after, replace=True))
            return False
        try:
            p = self.session.save_as(path)
        except OutsideChange as exc:  # onto its own file, changed outside: asked as Save asks
            self.ask_outside(exc.what, after)
            return False
        except LayoutLoss as exc:
            self.ask_layout(exc.notes, lambda: self._save_as_anyway(path, after))
            return False
        except OSError as exc:
            self.status.say(f"Could not save {path}: {exc.strerror or exc}")
            return False
        self._asked_outside = False
        self.status.say(f"Saved {Path(p).absolute()}.")
        self.doc.notify("caption")
        if after:
            after()
        return True

    def _save_as_anyway(self, path: str, after: Optional[Callable[[], None]]) -> None:
        try:
            p = self.session.save_as(path, accept_loss=True)
        except OutsideChange as exc:
            self.ask_outside(exc.what, after)
            return
        except OSError as exc:
            self.status.say(f"Could not save {path}: {exc.strerror or exc}")
            return
        self._asked_outside = False
        self.status.say(f"Saved {Path(p).absolute()}.")
        self.doc.notify("caption")
        if after:
            after()

    def ask_replace(self, target: Path, title: str, go: Callable[[], Any]) -> None:
        """Save As onto another scenario: name it and ask Replace / Cancel (headless: nothing
        is written)."""
        what = f"another scenario ({title!r})" if title else "another scenario"
        self.confirm(f"Replace {target.name}?", f"Replace {target.name}? It holds {what}: {target}.", "Replace",
                     f"Not saved: {target.name} is as it was.", go, width=620)

    def ask_layout(self, notes: list, go: Callable[[], Any]) -> None:
        """A save that cannot keep the file's layout: say so before writing (Save anyway /
        Cancel; headless: nothing is written)."""
        self.confirm("Save changes the layout", "Saving cannot keep all of the file's layout: " + "; ".join(notes) + ".",
                     "Save anyway", "Not saved: the file is as it was.", go, width=720)

    def confirm(self, title: str, text: str, yes: str, cancelled: str, go: Callable[[], Any], *,
                width: int) -> None:
        """Ask ``text`` with ``yes`` / Cancel before a save writes: ``go()`` on ``yes``, the
        ``cancelled`` status on Cancel; headless (no gui), ``text`` is shown and nothing written."""
        if self.dialogs.gui is None:
            self.status.warn(text + " Nothing was written.")
            return

        def chosen(choice: str) -> None:
            if choice == yes:
                go()
            else:
                self.status.say(cancelled)

        self.dialogs.open(Buttons(self.dialogs.gui, title, text, [yes, "Cancel"], chosen, width=width))

    # -- the file changed outside ----------------------------------------------------------------------
    def on_update(self) -> None:
        """Every frame: the autosave timer (drags included) and the watch on the file."""
        if self.session.tick() is None and self.session.autosave_error and \
                self.session.autosave_error not in self.status.banner:
            self.status.warn(self.session.autosave_error)
        if self.session.outside is not None and not self._asked_outside:
            self.ask_outside(self.session.outside)

    def ask_outside(self, what: str, after: Optional[Callable[[], None]] = None) -> None:
        """The file changed (or went) on disk: Reload / Keep mine (saved beside) / Compare /
        Overwrite / Cancel; never a silent overwrite (headless: the banner says so)."""
        self._asked_outside = True
        name = self.session.save_path.name if self.session.save_path else "the file"
        if what == "changed":
            text = (f"{name} was changed on disk by another program or window since you opened it. Reload it "
                    f"(your changes stay in the recovery file), keep yours in {self.session.beside_path().name} "
                    "beside it, compare the two, or overwrite it with yours?")
            buttons = ["Reload", "Keep mine", "Compare", "Overwrite", "Cancel"]
        else:
            text = (f"{name} was moved or deleted since you opened it. Keep yours in "
                    f"{self.session.beside_path().name}, or write it back where it was?")
            buttons = ["Keep mine", "Overwrite", "Cancel"]
        if self.dialogs.gui is None:
            self.status.warn(text + " (Nothing was written.)")
            return

        def chosen(choice: str) -> None:
            self.outside_choice(choice, after)

        self.dialogs.open(Buttons(self.dialogs.gui, "Changed on disk", text, buttons, chosen, width=720))

    def outside_choice(self, choice: str, after: Optional[Callable[[], None]] = None) -> None:
        """Carry out the answer to :meth:`ask_outside`."""
        if choice == "Reload":
            self.keep_unsaved()
            kept = self.session.autosaved
            try:
                board = self.session.reload_board()
                rs = self.doc.rules.load(board.ruleset)
                core_analysis.analyse(board, rs)
            except (ScenarioError, RulesetError, OSError) as exc:
                self._asked_outside = False
                self.session.outside = None
                self.status.warn(f"Could not reload: {exc}. Kept your board; Ctrl+S asks again.")
                return
            path = str(self.session.save_path)
            self.adopt(board, rs, path)
            self._asked_outside = False
            self.status.say(f"Reloaded {Path(path).name} from disk." +
                            (f" Your changes are kept in {kept.name} (F9 brings them back)." if kept else ""))
        elif choice == "Keep mine":
            try:
                p = self.session.save_beside()
            except OSError as exc:
                self.status.say(f"Could not save beside it: {exc.strerror or exc}")
                return
            self._asked_outside = False
            self.status.say(f"Kept yours in {p}; the file on disk is untouched, and Ctrl+S saves to {p.name}.")
            self.doc.notify("caption")
            if after:
                after()
        elif choice == "Compare":
            diffs = self.session.differences()
            text = "On disk and yours differ in: " + "; ".join(diffs)
            if self.dialogs.gui is None:
                self.status.warn(text)
                return
            self.dialogs.open(Buttons(self.dialogs.gui, "Compare", text, ["Reload", "Keep mine", "Overwrite", "Cancel"],
                                      lambda c: self.outside_choice(c, after), width=720))
        elif choice == "Overwrite":
            # answered: the watch asks no more while this save goes on (it may ask about the
            # layout first); a save that is written forgets the answer, Ctrl+S asks anew
            self._asked_outside = True
            self.save(after, overwrite=True)
        else:
            self.status.say("The file on disk and your board are both as they were; Ctrl+S asks again.")
            self.session.outside = None
            self._asked_outside = False

    # -- recovery ---------------------------------------------------------------------------------------
    def offer_recovery(self) -> None:
        """A recovery file kept for this file (or for new boards) by another session: a modal
        dialog says what it holds and when (title, units, changes, the time it was saved) and
        asks Restore / Discard / Keep for later (headless: the status line says so; F9 loads it)."""
        recs = self.session.recoveries()
        if not recs:
            return
        rec = recs[0]
        more = f" ({len(recs) - 1} older one{'s' if len(recs) > 2 else ''} too)" if len(recs) > 1 else ""
        if self.dialogs.gui is None:
            self.status.say(f"Unsaved work from an earlier session: {rec.describe()}{more}. "
                            "F9 loads it (Ctrl+Z goes back); saving then removes the recovery file.")
            return
        path = self.session.path
        on, back = (path.name, "the file as it is on disk") if path else ("a new board", "the empty board")
        text = (f"Unsaved work on {on} from an earlier session was kept: {rec.describe()}{more}. Restore it "
                f"(Ctrl+Z goes back to {back}), discard it for good, or keep it for later (F9 restores it)?")

        def chosen(choice: str) -> None:
            if choice == "Restore":
                self.restore_recovery(rec)
            elif choice == "Discard":
                gone = self.session.discard_recovery(rec)
                self.status.say(f"Discarded the unsaved work {rec.describe()}." if gone else
                                f"Could not remove {rec.path}; it is kept.")
                self.offer_recovery()  # an older one, if any
            else:
                for r in recs:
                    self.session.keep_for_later(r)
                self.status.say(f"Kept for later: {rec.describe()}. F9 restores it; it is removed "
                                f"{recovery.MAX_AGE_DAYS:g} days from now, or once its file is gone.")

        self.dialogs.open(Buttons(self.dialogs.gui, "Unsaved work found", text, ["Restore", "Discard", "Keep for later"],
                                  chosen, width=680, text_h=130))

    def restore_recovery(self, rec: Any) -> None:
        """Load recovery file ``rec`` as an edit (Ctrl+Z goes back); saving removes it."""
        try:
            board = self.session.restore(rec)
        except (ScenarioError, OSError) as exc:
            self.status.say(f"The recovery file cannot be read: {exc}")
            return
        self.session.apply(board)
        self.doc.edited(f"Restored the work {rec.describe()} (Ctrl+Z goes back; Ctrl+S saves it).")

    def load_autosave(self) -> None:
        """F9: this document's recovery file, else the newest one another session kept for it."""
        own = self.session.autosave_path
        recs = self.session.recoveries()
        try:
            if own.exists():
                board, what = self.session.open_board(own), own.name
            elif recs:
                board, what = self.session.restore(recs[0]), f"the work {recs[0].describe()}"
            else:
                self.status.say("There is no autosave to load.")
                return
        except (ScenarioError, OSError) as exc:
            self.status.say(f"The autosave cannot be read: {exc}")
            return
        self.session.apply(board)
        self.doc.edited(f"Loaded {what} (Ctrl+Z goes back).")

    # -- opening ----------------------------------------------------------------------------------
    def open_dialog(self) -> None:
        if self.dialogs.gui is None:
            return
        self.dialogs.open(FileDialog(self.dialogs.gui, "Open scenario", self.request_open,
                                     initial=str(self.open_folder()) + "/", must_exist=True))

    def open_folder(self) -> Path:
        """Where Open starts: the current file's folder, else the last file's, else the
        bundled scenarios (never wherever the program happened to be started)."""
        if self.session.path:
            return Path(self.session.path).resolve().parent
        for p in self.session.recent():
            if Path(p).parent.is_dir():
                return Path(p).resolve().parent
        return BUNDLED_SCENARIOS

    def recent_files(self) -> None:
        paths = self.session.recent()
        if not paths:
            self.status.say("No recent files yet: files you open or save are listed here.")
            return
        if self.dialogs.gui is not None:
            self.dialogs.open(recent_dialog(self.dialogs.gui, paths, self.request_open))

    def request_open(self, path: str) -> bool:
        """Open the scenario at ``path`` once it loads and analyses cleanly (unsaved changes
        are asked about first; a board of :data:`OFF_FRAME_MODELS` models or more is analysed
        once shown, in the worker: Esc cancels, a failure leaves it shown without roles). A file that fails is reported in the banner (file:line: field:
        message, as on the command line) and the board and its save path stay as they were."""
        try:
            board = self.session.open_board(path)
            rs = self.doc.rules.load(board.ruleset)
            if sum(len(u.models()) for u in board.units) < OFF_FRAME_MODELS:
                core_analysis.analyse(board, rs)  # a big board is analysed in the worker once shown (Esc cancels)
        except (ScenarioError, RulesetError) as exc:
            self.status.warn(f"Could not open {Path(path).name}: {exc}. Kept the current board; Esc dismisses this.")
            return False
        except OSError as exc:
            self.status.warn(f"Could not open {path}: {exc.strerror or exc}. Kept the current board; Esc dismisses "
                             "this.")
            return False
        except Exception as exc:  # noqa: BLE001 - an engine that fails on the file: keep the board
            self.status.error(f"{Path(path).name} could not be analysed", exc)
            return False
        self.guard(lambda: self.adopt(board, rs, path), f"open {Path(path).name}")
        return True

    def request_new(self) -> None:
        self.guard(self.new_board, "start a new board")

    def new_board(self) -> None:
        """An empty table under the current ruleset, with no file yet (saving asks where)."""
        board = Board(units=(), ruleset=self.doc.rs.id, table=(1200.0, 800.0))
        self.adopt(board, self.doc.rs, None)
        self.status.say("New board: U opens the unit palette; Ctrl+T sets the title; Ctrl+S saves.")

    def adopt(self, board: Board, rs: Ruleset, path: Optional[str]) -> None:
        """Show ``board`` (loaded from ``path``, or new) with a fresh history."""
        self.steps.leave(quiet=True)
        self.table.finish_drag()
        self.doc.adopt(board, rs, path)
        self._asked_outside = False
        if path:
            self.status.say(f"Opened {Path(path).name} ({len(board.units)} units, ruleset {rs.id}).")
            self.offer_recovery()

    # -- quitting -----------------------------------------------------------------------------------
    def quit(self) -> None:
        """Close the window; with unsaved changes ask Save / Discard / Cancel first (first each
        of :attr:`before_quit`'s, e.g. the demo recorder's unsaved steps, then the board's)."""
        go: Callable[[], None] = lambda: self.guard(lambda: self.stop("quit", keep=False), "quit")
        for ask in reversed(self.before_quit):
            go = (lambda a, then: lambda: a(then, "quit"))(ask, go)
        go()

    def stop(self, reason: str = "", keep: bool = True) -> None:
        """Stop the loop. ``keep``: unsaved changes go to the autosave file (signals, the
        frame count); what happened to them is printed."""
        if keep and self.session.unsaved():
            p = self.keep_unsaved()
            if p is not None:
                print(f"Unsaved changes were kept in {p}; open the file and press F9 to get them back.")
        if self.session.autosave_error:
            print(f"warning: {self.session.autosave_error}", file=sys.stderr)
        self.window.close()

    # -- title and caption ---------------------------------------------------------------------------
    def title_dialog(self) -> None:
        if self.dialogs.gui is None:
            return
        b = self.doc.board
        caption = caption_text(str(b.extra.get("caption") or ""))  # as kept: no blank line at the end of a | block
        self.dialogs.open(title_form(self.dialogs.gui, b.title, caption, self.set_title_caption))

    def set_title_caption(self, values: dict) -> Optional[str]:
        """Apply the title and caption form (one undoable edit; only the fields the user changed
        are checked: an untouched long caption never refuses a new title); returns an error or None."""
        b = self.doc.board
        ch = self.doc.editor.set_title_caption(b, values.get("title", b.title),
                                               values.get("caption", b.extra.get("caption") or ""))
        if not ch.ok or ch.board is None:
            return ch.message
        if ch.board is b:
            return None
        ch.message = f"Title: {ch.board.title or '(none)'}; caption: {ch.board.extra.get('caption') or '(none)'}"
        self.table.apply(ch)
        self.table.options.title = self.session.title()
        return None

    # -- export -------------------------------------------------------------------------------------
    def export_dialog(self) -> None:
        if self.dialogs.gui is None:
            return
        stem = self.session.path.stem if self.session.path else "figure"
        folder = self.session.save_folder()
        last = self.last_export or str(folder / f"{stem}.png")
        self.export_folder = Path(last).expanduser().parent  # a bare name typed is written there
        self.dialogs.open(export_form(self.dialogs.gui, self.dialogs, last, self.session.title(),
                                      self.doc.board.extra.get("caption", ""), self.export_figure))

    def export_live(self, folder: Path, title: str = "") -> Optional[str]:
        """Write the live page (``python main.py live``: :mod:`game.live.bundle`) of the board as
        shown into ``folder``; returns an error sentence or None."""
        from game.live.bundle import LiveError, build_board  # the live page: imported on its first export
        from game.render.figure import FigureError

        board = self.shown()[0]
        if title:
            board = dataclasses.replace(board, title=title)
        try:
            built = build_board(folder, board)
        except (LiveError, FigureError, RulesetError) as exc:
            return str(exc)
        self.last_export = str(folder)
        self.status.say(f"Wrote the live page {folder} ({built.size_bytes / 1e6:.1f} MB); "
                        f"serve it with: python main.py serve {folder}")
        return None

    def export_figure(self, values: dict) -> Optional[str]:
        """Write the figure the export form describes; returns an error sentence or None."""
        from game.render.figure import FigureError  # the figure pipeline: imported on the first export
        from game.window.export import export_view

        out = str(values.get("file", "")).strip()
        if not out:
            return "Choose a file name ending in .png, .svg or .pdf, or a folder for a live page."
        p = Path(out).expanduser()
        if not p.is_absolute():  # the folder the form showed, never the working folder
            p = self.export_folder / p
        if p.suffix == "" or out.endswith(("/", "\\")):
            return self.export_live(p, str(values.get("title", "")).strip())
        if p.suffix.lower() not in (".png", ".svg", ".pdf"):
            return "The file name must end in .png, .svg or .pdf (or name a folder, for a live page)."
        if p.suffix.lower() in SCENARIO_SUFFIXES or (self.session.path and p.resolve() == self.session.path.resolve()):
            return "That is the scenario file; choose another name for the figure."
        try:
            fo, box = figure_options(values, self.table.view_box_mm())
            b, a, _ = self.shown()
            export_view(b, a, fo, p, box_mm=box, caption=str(values.get("caption", "")).strip())
        except FigureError as exc:
            return str(exc)
        except OSError as exc:
            return f"Could not write {p}: {exc.strerror or exc}"
        self.last_export = str(p)
        self.status.say(f"Exported {p}.")
        return None
