"""The interactive window on one board: a hands-on table, and an authoring tool for positions.

:class:`App` only builds and wires the parts (see ``docs/ARCHITECTURE.md``, "The window"):

* :class:`~game.window.window.Window`: the surface, the pygame_gui manager, the frame loop;
* :class:`~game.window.document.Document`: the board, its file and history, the ruleset, the
  live analysis (pygame-free);
* the views: :class:`~game.window.table_view.TableView` (the editable table: tools, selection,
  camera) and :class:`~game.window.steps_view.StepsView` (a phase step by step);
* the sections both views share, in the order events reach them:
  :class:`~game.window.gui.GuiFirst`, :class:`~game.window.dialogs.DialogsSection`,
  :class:`~game.window.panels.PanelsSection`, :class:`~game.window.recorder_panel.RecorderSection`
  (the demo recorder, F6), :class:`~game.window.toolbar.ToolbarSection`,
  :class:`~game.window.gui.GuiLast`, :class:`~game.window.help.HelpSection`,
  :class:`~game.window.files.FilesSection`;
* :class:`~game.window.status.Status` (message and banner) and the
  :class:`~game.window.actions.Actions` every key and button runs, registered by the part
  that implements each (:meth:`App.register_actions`).

Mouse positions come from the events themselves, so tests drive the window headless with
``pygame.event.post`` (see ``tests/apputil.py``). A frame that raises shows a red banner and
goes on from the last board that analysed cleanly.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Optional

import pygame

from game.core.board import Board
from game.core.ruleset import Ruleset
from game.window.actions import Actions
from game.window.analysing import AnalysingSection
from game.window.dialogs import DialogsSection
from game.window.document import Document
from game.window.files import FilesSection
from game.window.gui import Gui, GuiFirst, GuiLast
from game.window.help import HelpSection
from game.window.keymap import KeyMap
from game.window.loop import run_loop
from game.window.panels import PanelsSection
from game.window.recorder_panel import RecorderSection
from game.window.rulesets import RulesetCommands
from game.window.status import Status
from game.window.steps_view import StepsView
from game.window.table_view import Scene, TableView
from game.window.toolbar import ToolbarSection
from game.window.view import Section
from game.window.window import Window


class App:
    """The window on ``board``.

    ``ruleset``: override of the board's ruleset; ``path``: the scenario file (title, saving,
    autosave); ``size``: window size (px); ``surface``: draw there instead of opening a
    window; ``gui``: build the pygame_gui toolbar, panels and dialogs; ``clock``: seconds
    (autosave, drag throttles, idling; tests inject one); ``recent_file`` / ``out_dir``: where
    recent files and autosaves of new boards are kept; ``background``: the worker analysing
    drags off the frame (see :class:`~game.window.document.Document`).
    """

    def __init__(self, board: Board, *, ruleset: Optional[Ruleset] = None, path: Optional[str] = None,
                 size: tuple[int, int] = (1280, 820), surface: Optional[pygame.Surface] = None, gui: bool = True,
                 clock: Optional[Callable[[], float]] = None,
                 recent_file: Optional[Path] = None, out_dir: Optional[Path] = None,
                 background: Optional[Any] = None) -> None:
        self.window = Window(size=size, surface=surface, clock=clock)
        self.status = Status()
        self.doc = Document(board, self.status, ruleset=ruleset, path=path, clock=self.window.clock,
                            live_clock=clock or time.perf_counter, recent_file=recent_file,
                            out_dir=out_dir, background=background)
        self.gui: Optional[Gui] = Gui(self.window.size()) if gui else None
        self.window.gui = self.gui
        self.keymap = KeyMap()
        self.actions = Actions(after=self.window.invalidate)  # an action may change anything shown
        self.table = TableView(self.window, self.doc, self.status, self.keymap, self.actions)
        self.steps = StepsView(self.table)
        self.dialogs = DialogsSection(self.gui)
        # a dialog opens beside the units where it can (the table stays in sight behind it)
        self.dialogs.keep_clear = lambda: [self.table.camera.to_px(m.center) for m in self.doc.board.models()]
        self.help = HelpSection(self.gui, self.keymap, self.status, lambda: self.table.options.top_inset)
        self.panels = PanelsSection(self.gui, self.table, self.status, self.actions.run)
        self.rulesets = RulesetCommands(self.doc, self.status, self.dialogs, self.table, self.steps)
        self.toolbar = ToolbarSection(self.gui, self.keymap, self.doc, self.table, self.press,
                                      self.rulesets.set_compare)
        self.files = FilesSection(self.window, self.doc, self.status, self.dialogs, self.table, self.steps, self.shown)
        self.recorder = RecorderSection(self.gui, self.doc, self.table, self.status, self.dialogs, self.steps)
        self.analysing = AnalysingSection(self.doc, self.status, lambda: self.dialogs.top() is not None)
        sections: list[Section] = [self.analysing, self.help, self.files]
        if self.gui is not None:
            sections = [self.analysing, GuiFirst(self.gui), self.dialogs, self.panels, self.recorder, self.toolbar,
                        GuiLast(self.gui, lambda: self.window.mouse_px)] + sections[1:]
        self.table.sections = self.steps.sections = sections
        self.table.covered = self.covered
        self.files.before_quit.append(self.recorder.guard)  # the demo recorder's unsaved steps, then the board's
        self.window.on_stop = self.stop
        self.window.failed = lambda: self.status.failed  # the loop's exit status is never 0 after a MemoryError
        self.register_actions()
        self.doc.listeners.append(self.follow)
        self.toolbar.layout(self.window.size()[0])
        self.table.fit()
        self.window.show_view(self.table)
        self.update_caption()
        self.files.offer_recovery()
        self.recorder.offer_recovery()  # a demo recorded here before, with no file, that was not saved
        self.doc.analyse_first()  # a big board: in the worker, the window drawn at once (Esc cancels)
        self.window.collector.loaded(sum(len(u.models()) for u in board.units))

    def register_actions(self) -> None:
        """Every key-map action, registered by the part that does it."""
        a, f, r, p = self.actions, self.files, self.rulesets, self.panels
        for name, run in {
            "undo": self.doc.undo, "redo": self.doc.redo, "save": lambda: f.save(), "save_as": lambda: f.save_as_dialog(),
            "open": f.open_dialog, "@recent": f.recent_files, "new": f.request_new, "export": f.export_dialog,
            "title": f.title_dialog, "quit": f.quit, "autosave_load": f.load_autosave,
            "help": self.help.toggle, "palette": p.toggle_palette, "panel": lambda: p.toggle_unit_panel(),
            "panel_name": lambda: p.toggle_unit_panel(focus_name=True), "escape": self.escape,
            "compare": r.toggle_compare, "compare_next": r.cycle_compare, "rules_menu": r.menu,
            "demo_recorder": self.recorder.toggle,
        }.items():
            a.add(name, run)
        a.add_prefix("ruleset", lambda arg: r.cycle(int(arg)))
        self.table.register(a)
        self.steps.register(a)

    def stop(self, reason: str = "") -> None:
        """A signal or the frame count stops the window: the recorder's unsaved steps and the
        board's unsaved changes are kept in their recovery files."""
        self.recorder.keep_unsaved()
        self.files.stop(reason)

    # -- what the window shows -------------------------------------------------------------------
    def shown(self) -> Scene:
        """The board, or the phase step shown."""
        return self.steps.shown() if self.steps.active else self.table.shown()

    def covered(self, px: tuple[float, float]) -> bool:
        """True when the help is open or a widget is under ``px`` (no tooltip on the table then)."""
        return self.help.is_open() or (self.gui is not None and self.gui.over(px))

    def update_caption(self) -> None:
        star = "*" if self.doc.dirty else ""
        self.window.set_caption(f"{star}Melee Lens - {self.doc.title()}")

    def follow(self, what: str) -> None:
        if what == "caption":
            self.update_caption()

    # -- actions that span sections ----------------------------------------------------------------
    def press(self, action: str) -> None:
        """A toolbar button: on a phase step, one that does not work there leaves the steps first."""
        if self.steps.active and not self.steps.allows_button(action):
            self.steps.leave(quiet=True)
        self.actions.run(action)

    def escape(self) -> None:
        """Esc: close the newest dialog, the help, the unit panel or the palette; else dismiss
        the banner; else leave the phase steps; else the table's Esc (tool, selection)."""
        if self.dialogs.close_top() or self.help.close() or self.panels.close() or self.status.dismiss():
            return
        if self.steps.active:
            self.steps.leave()
        else:
            self.table.escape()

    # -- the loop ----------------------------------------------------------------------------------
    def run(self, frames: Optional[int] = None, fps: int = 60) -> int:
        """Run until the window closes (or for ``frames`` frames). Returns an exit status."""
        status = run_loop(self.window, frames, fps)
        if self.window.running and frames is not None and (self.doc.session.unsaved() or self.recorder.unsaved()):
            self.stop("the frame count was reached")
        if not self.window.running:
            self.doc.live.close()
        return status
