"""Files, authoring and export commands of the window (mixed into :class:`game.window.app.App`).

New, Open (file dialog, recent files, a dropped file), Save, Save As, the autosave, the
unsaved-changes question (Save / Discard / Cancel) before anything would drop the board,
quitting, the title and caption, the unit panel's property edits, and exporting the view as a
PNG or SVG figure through the same drawing code as ``render``.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable, Optional

from game.core.board import Board
from game.core.ruleset import RulesetError
from game.core.scenario import ScenarioError

from game.window.session import NeedsSaveAs

SCENARIO_SUFFIXES = {".yaml", ".yml"}


class FilesMixin:

    # -- unsaved changes ------------------------------------------------------------------------
    def guard(self, then: Callable[[], None], what: str) -> None:
        """Run ``then`` now when the board is saved; else ask Save / Discard / Cancel first
        (headless: keep the changes in the autosave file, then go on)."""
        if not self.session.dirty:
            then()
            return
        if self.gui is None:
            self.keep_unsaved()
            then()
            return
        from game.window.dialogs import Buttons

        def chosen(choice: str) -> None:
            if choice == "Save":
                self.save(after=then)
            elif choice == "Discard":
                then()
            else:
                self.message = f"Cancelled: {what} can wait; the board is as it was."

        self.open_dialog(Buttons(self, "Unsaved changes",
                                 f"{self.session.title()} has unsaved changes. Save them before you {what}?",
                                 ["Save", "Discard", "Cancel"], chosen))

    def keep_unsaved(self) -> Optional[Path]:
        """Write unsaved changes to the autosave file (a failure is kept and shown)."""
        p = self.session.autosave()
        if self.session.autosave_error:
            self.banner = self.session.autosave_error
        return p

    # -- saving -----------------------------------------------------------------------------------
    def save(self, after: Optional[Callable[[], None]] = None) -> bool:
        """Save to the file the user chose; a new or built-in board asks where (Save As)."""
        try:
            p = self.session.save()
        except NeedsSaveAs:
            self.save_as_dialog(after)
            return False
        except OSError as exc:
            self.message = f"Could not save {self.session.save_path}: {exc.strerror or exc}"
            return False
        self.message = f"Saved {p}."
        self.update_caption()
        if after:
            after()
        return True

    def save_as_dialog(self, after: Optional[Callable[[], None]] = None) -> None:
        if self.gui is None:
            self.message = "Save As needs the window's file dialog; this board has no file of its own yet."
            return
        from game.window.dialogs import FileDialog

        sp = self.session.save_path
        stem = self.session.path.stem if self.session.path else "scenario"
        initial = str(sp) if sp else str(Path.cwd() / f"{stem}.yaml")
        self.open_dialog(FileDialog(self, "Save scenario as", lambda p: self.save_as(p, after), initial=initial))

    def save_as(self, path: str, after: Optional[Callable[[], None]] = None) -> bool:
        """Save the board to ``path`` (the user's choice) and keep saving there."""
        try:
            p = self.session.save_as(path)
        except OSError as exc:
            self.message = f"Could not save {path}: {exc.strerror or exc}"
            return False
        self.message = f"Saved {p}."
        self.update_caption()
        if after:
            after()
        return True

    def load_autosave(self) -> None:
        p = self.session.autosave_path
        if not p.exists():
            self.message = "There is no autosave to load."
            return
        try:
            board = self.session.open_board(p)
        except (ScenarioError, OSError) as exc:
            self.message = f"The autosave cannot be read: {exc}"
            return
        self.session.apply(board)
        self.after_edit(f"Loaded the autosave {p.name} (Ctrl+Z goes back).")

    # -- opening ----------------------------------------------------------------------------------
    def open_dialog_files(self) -> None:
        if self.gui is None:
            return
        from game.window.dialogs import FileDialog

        start = self.session.path.parent if self.session.path else Path.cwd()
        self.open_dialog(FileDialog(self, "Open scenario", self.request_open, initial=str(start) + "/",
                                    must_exist=True))

    def recent_files(self) -> None:
        from game.window.dialogs import recent_dialog

        self.open_dialog(recent_dialog(self))

    def request_open(self, path: str) -> bool:
        """Open the scenario at ``path`` once it loads and analyses cleanly (unsaved changes
        are asked about first). A file that fails is reported in the banner (file:line: field:
        message, as on the command line) and the board and its save path stay as they were."""
        try:
            board = self.session.open_board(path)
            rs = self.rules.load(board.ruleset)
            from game.core.analysis import analyse

            analyse(board, rs, **self.services)
        except (ScenarioError, RulesetError) as exc:
            self.banner = f"Could not open {Path(path).name}: {exc}. Kept the current board; Esc dismisses this."
            return False
        except OSError as exc:
            self.banner = f"Could not open {path}: {exc.strerror or exc}. Kept the current board; Esc dismisses this."
            return False
        except Exception as exc:  # noqa: BLE001 - an engine that fails on the file: keep the board
            self.show_error(f"{Path(path).name} could not be analysed", exc)
            return False
        self.guard(lambda: self.adopt(board, rs, path), f"open {Path(path).name}")
        return True

    def request_new(self) -> None:
        self.guard(self.new_board, "start a new board")

    def new_board(self) -> None:
        """An empty table under the current ruleset, with no file yet (saving asks where)."""
        board = Board(units=[], ruleset=self.rs.id, table=(1200.0, 800.0))
        self.adopt(board, self.rs, None)
        self.message = "New board: U opens the unit palette; Ctrl+T sets the title; Ctrl+S saves."

    def adopt(self, board: Board, rs: Any, path: Optional[str]) -> None:
        """Show ``board`` (loaded from ``path``, or new) with a fresh history."""
        self.steps.leave(self, quiet=True)
        self.finish_drag()
        self.session.adopt(board, path)
        self.rs = rs
        self.sync_ruleset()
        self.banner = ""
        self.select(None)
        self.tools["place"].choice = None
        self.set_tool("move", quiet=True)
        from game.physics.trays import TraySpace

        from game.render.scene import fit_view

        self.space = TraySpace(board)
        self.options.title = self.session.title()
        self.view = fit_view(*self.screen.get_size(), board, self.options, margin_mm=80)
        self.recompute()
        self.update_caption()
        if path:
            self.message = f"Opened {Path(path).name} ({len(board.units)} units, ruleset {rs.id})."

    def open_file(self, path: str) -> bool:
        """Open a scenario (as a dropped file is)."""
        return self.request_open(path)

    # -- quitting -----------------------------------------------------------------------------------
    def quit(self) -> None:
        """Close the window; with unsaved changes ask Save / Discard / Cancel first."""
        self.guard(lambda: self.stop("quit", keep=False), "quit")

    def stop(self, reason: str = "", keep: bool = True) -> None:
        """Stop the loop. ``keep``: unsaved changes go to the autosave file (signals, the
        frame count); what happened to them is printed."""
        if keep and self.session.dirty:
            p = self.keep_unsaved()
            if p is not None:
                print(f"Unsaved changes were kept in {p}; open the file and press F9 to get them back.")
        if self.session.autosave_error:
            print(f"warning: {self.session.autosave_error}", file=sys.stderr)
        self.running = False

    # -- title, caption, unit panel ---------------------------------------------------------------
    def title_dialog(self) -> None:
        if self.gui is None:
            return
        from game.window.dialogs import title_form

        self.open_dialog(title_form(self))

    def set_title_caption(self, values: dict) -> Optional[str]:
        """Apply the title and caption form (one undoable edit; only the fields the user changed
        are checked); returns an error or None."""
        b = self.board
        ch = self.editor.set_title_caption(b, values.get("title", b.title), values.get("caption", b.extra.get("caption") or ""))
        if not ch.ok:
            return ch.message
        if ch.board is b:
            return None
        ch.message = f"Title: {ch.board.title or '(none)'}; caption: {ch.board.extra.get('caption') or '(none)'}"
        self.apply(ch)
        self.options.title = self.session.title()
        return None

    def unit_command(self, name: str, *args: Any) -> bool:
        """A unit panel edit of the selected unit (``rename``, ``set_base``, ``set_profile``...)."""
        return self.on_selected("edit it", lambda uid: getattr(self.editor, name)(self.board, uid, *args))

    # -- export -------------------------------------------------------------------------------------
    def export_dialog(self) -> None:
        if self.gui is None:
            return
        from game.window.dialogs import export_form

        self.open_dialog(export_form(self))

    def view_box_mm(self) -> tuple[float, float, float, float]:
        """The part of the table on screen (x0, y0, x1, y1) mm."""
        from game.render.scene import scene_layout

        l, t, w, h = scene_layout(self.canvas, self.board, self.options).table
        (x0, y0), (x1, y1) = self.view.to_mm((l, t)), self.view.to_mm((l + w, t + h))
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

    def export_figure(self, values: dict) -> Optional[str]:
        """Write the figure the export form describes; returns an error sentence or None."""
        from game.window.dialogs import figure_options
        from game.window.export import export_view
        from game.render.figure import FigureError

        out = str(values.get("file", "")).strip()
        if not out:
            return "Choose a file name ending in .png or .svg."
        p = Path(out).expanduser()
        if p.suffix.lower() not in (".png", ".svg"):
            return "The file name must end in .png or .svg."
        if p.suffix.lower() in SCENARIO_SUFFIXES or (self.session.path and p.resolve() == self.session.path.resolve()):
            return "That is the scenario file; choose another name for the figure."
        try:
            fo, box = figure_options(values, self.view_box_mm())
            b, a, _ = self.shown()
            export_view(b, a, fo, p, box_mm=box, caption=str(values.get("caption", "")).strip())
        except FigureError as exc:
            return str(exc)
        except OSError as exc:
            return f"Could not write {p}: {exc.strerror or exc}"
        self.last_export = str(p)
        self.message = f"Exported {p}."
        return None
