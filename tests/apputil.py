"""Driving the window headless in tests.

:class:`Driver` is thin: it posts events as a user would (keys, clicks, drags, toolbar
buttons, panel fields, dialog answers) and runs frames; tests read what the window holds
through the public API of its parts (``d.doc.board``, ``d.table.selection``,
``d.status.message``, ``d.steps.position()``, ``d.panels.unit``, ``d.dialogs.top()``...),
never private state. Time is a :class:`FakeClock` the test moves; nothing here reads the
wall clock or sleeps.

Set ``SDL_VIDEODRIVER=dummy`` before importing (tests/conftest.py does).
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Optional

import pygame

from game.window.background import InlineBackground
from game.core.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "assets" / "scenarios"


class FakeClock:
    """Seconds that move only when the test says so (``advance``), or by ``step`` per read."""

    def __init__(self, t: float = 1000.0, step: float = 0.0):
        self.t, self.step = t, step

    def __call__(self) -> float:
        self.t += self.step
        return self.t

    def advance(self, s: float) -> None:
        self.t += s


class Driver:
    """The window as a test drives it: posts events as a user would and runs frames; what the
    window holds is read through its parts' public API (``d.doc``, ``d.table``, ``d.steps``,
    ``d.status``, ``d.toolbar``, ``d.panels``, ``d.dialogs``, ``d.help``, ``d.files``,
    ``d.rulesets``, ``d.recorder``, ``d.window``, ``d.gui``; see docs/ARCHITECTURE.md, "The window")."""

    def __init__(self, app: Any, clock: FakeClock):
        self.app = app
        self.clock = clock
        self.window, self.doc, self.status, self.table, self.steps = app.window, app.doc, app.status, app.table, app.steps
        self.toolbar, self.panels, self.dialogs, self.help = app.toolbar, app.panels, app.dialogs, app.help
        self.files, self.rulesets, self.gui = app.files, app.rulesets, app.gui
        self.recorder = app.recorder  # the demo recorder (F6)

    def status_line(self, max_w: Optional[float] = None) -> str:
        """The status line of the view shown (``max_w``: fitted to that many px)."""
        return self.table.status_text(max_w, self.steps.mode() if self.steps.active else None)

    def opened(self, name: str):
        """The pygame_gui window ``help``, ``palette``, ``unit`` or ``dialog`` (newest), or None."""
        if name == "help":
            return self.help.window if self.help.is_open() else None
        if name == "dialog":
            d = self.dialogs.top()
            return d.window if d else None
        self.panels.forget_closed()
        panel = {"palette": self.panels.palette, "unit": self.panels.unit}[name]
        return panel.window if panel else None

    def recorded(self, record_canvas: bool = False):
        """Draw one frame on a recording canvas (``record_canvas``: a pygame canvas that
        records, else the plain recording :class:`Canvas`) and return that canvas."""
        from game.render.canvas import Canvas
        from game.render.pygame_canvas import PygameCanvas

        w = self.window
        real = w.canvas
        w.canvas = PygameCanvas(w.screen, record=True) if record_canvas else Canvas(*w.screen.get_size())
        try:
            w.invalidate()
            w.frame()
            return w.canvas
        finally:
            w.canvas = real

    # -- input ---------------------------------------------------------------------------------
    def frame(self, n: int = 1) -> None:
        for _ in range(n):
            self.app.window.frame()

    def post(self, ev: pygame.event.Event) -> None:
        pygame.event.post(ev)
        self.app.window.frame()

    def key(self, k: int, mod: int = 0, text: str = "") -> None:
        self.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=text))

    def move_mouse(self, px, buttons=(0, 0, 0)) -> None:
        self.post(pygame.event.Event(pygame.MOUSEMOTION, pos=px, rel=(0, 0), buttons=buttons))

    def press(self, px, button: int = 1) -> None:
        self.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=px, button=button))

    def release(self, px, button: int = 1) -> None:
        self.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=px, button=button))

    def wheel(self, y: int) -> None:
        self.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False))

    def click_px(self, px, button: int = 1) -> None:
        self.move_mouse(px)
        self.press(px, button)
        self.release(px, button)
        self.app.window.frame()

    def click(self, p_mm) -> None:
        self.click_px(self.app.table.camera.to_px(p_mm))

    def select(self, uid: Optional[str], p_mm=None) -> None:
        """Click unit ``uid`` with the move tool (None: clear the selection)."""
        if uid is None:
            self.app.table.select(None)
            return
        self.app.table.set_tool("move")
        self.click(p_mm or self.app.doc.board.unit(uid).center())
        assert self.app.table.selection == uid

    def drag(self, a_mm, b_mm, frames: int = 60) -> None:
        """Press at table point ``a_mm``, move to ``b_mm`` in five steps, let the physics
        follow for ``frames`` frames, release."""
        a, b = self.app.table.camera.to_px(a_mm), self.app.table.camera.to_px(b_mm)
        self.move_mouse(a)
        self.press(a)
        for i in range(1, 6):
            self.move_mouse((a[0] + (b[0] - a[0]) * i / 5, a[1] + (b[1] - a[1]) * i / 5), (1, 0, 0))
        self.frame(frames)
        self.release(b)

    def action(self, action: str) -> None:
        """What a toolbar button or key does, by its key-map action (``"undo"``, ``"turn:90"``)."""
        self.app.actions.run(action)
        self.app.window.frame()

    def button(self, action: str) -> None:
        """Click the toolbar button of ``action``."""
        r = self.app.toolbar.button_rect(action)
        assert r is not None, f"no toolbar button for {action}"
        self.click_px(r.center)

    # -- gui: windows, fields, drop-downs --------------------------------------------------------
    def enter_text(self, element, text: str) -> None:
        """Type into a pygame_gui entry the way a user finishes it: text, then Enter."""
        self.gui.focus(element)
        element.set_text(text)
        self.key(pygame.K_RETURN)
        self.app.window.frame()

    def choose(self, element, text: str) -> None:
        """Pick ``text`` in a pygame_gui drop-down."""
        import pygame_gui

        self.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text=text, ui_element=element))

    def ruleset_buttons(self) -> dict:
        """Open the ruleset chooser (Ctrl+R): {ruleset id: its button}."""
        self.key(pygame.K_r, pygame.KMOD_CTRL)
        d = self.dialogs.top()
        return {rid: b for b, rid in d.buttons.items()}

    def choose_ruleset(self, rid: str) -> bool:
        """Pick ``rid`` in the ruleset chooser as a user would; False when its button is greyed."""
        b = self.ruleset_buttons()[rid]
        if not b.is_enabled:
            self.key(pygame.K_ESCAPE)
            return False
        self.click_px(b.rect.center)
        return True

    def pick_file(self, path: str) -> None:
        """Answer the file dialog on top with ``path``."""
        import pygame_gui

        d = self.dialogs.top()
        assert d is not None, "no dialog is open"
        d.window.kill()  # as pygame_gui does on OK: the window is gone before its event arrives
        self.app.window.frame()
        self.post(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(path), ui_element=d.window))

    def answer(self, label: str) -> None:
        """Click button ``label`` of the dialog on top (Save / Discard / Cancel, OK, Export...)."""
        d = self.dialogs.top()
        assert d is not None, "no dialog is open"
        b = d.button(label) if hasattr(d, "button") else (d.ok if label == d.ok.text else d.extra)
        assert b is not None, f"no button {label}"
        import pygame_gui

        self.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=b))

    def fill(self, values: dict) -> None:
        """Set fields of the form on top (text entries by name)."""
        d = self.dialogs.top()
        for k, v in values.items():
            e = d.els[k]
            if hasattr(e, "set_text"):
                e.set_text(str(v))
            else:
                self.choose(e, v)

    def edit(self, command: str, *args) -> bool:
        """A unit-panel edit of the selected unit (``rename``, ``set_base``, ``set_profile``...)."""
        ok = self.app.table.unit_command(command, *args)
        self.app.window.frame()
        return ok

    def put_unit(self, unit) -> None:
        """Put ``unit`` on the board in place of the unit of its id (test set-up, one undoable edit)."""
        from game.core.editor import Change

        self.app.table.apply(Change(self.app.doc.board.with_unit(unit), "set up by the test"))

    # -- the loop ------------------------------------------------------------------------------
    def run(self, frames: int, on_frame=None) -> int:
        """Run the window loop (:func:`game.window.loop.run_loop`) for ``frames`` frames;
        ``on_frame(n)`` is called before frame ``n`` (1-based)."""
        from game.window.loop import run_loop

        a, real, n = self.app.window, self.app.window.frame, [0]

        def frame():
            n[0] += 1
            if on_frame:
                on_frame(n[0])
            return real()

        a.frame = frame
        try:
            return run_loop(a, frames=frames)
        finally:
            del a.frame


def make_app(path, size=(1400, 880), copy_to=None, clock: Optional[FakeClock] = None, gui: bool = True,
             recent_file=None, **kw) -> Driver:
    """A window on the scenario at ``path`` (copied into ``copy_to`` first when given, so
    saving goes there), with a fake clock, one frame drawn."""
    from game.window.app import App

    path = Path(path)
    if copy_to is not None:
        dst = Path(copy_to) / path.name
        shutil.copy(path, dst)
        path = dst
    clock = clock or FakeClock()
    out_dir = kw.pop("out_dir", Path(copy_to) / "out" if copy_to is not None else None)
    kw.setdefault("background", InlineBackground())  # drags analysed off the frame, deterministically
    app = App(load_scenario(path), path=str(path), size=size, clock=clock, gui=gui,
              recent_file=recent_file, out_dir=out_dir, **kw)
    app.window.frame()
    return Driver(app, clock)


def make_blank(size=(1400, 880), clock: Optional[FakeClock] = None, out_dir=None, recent_file=None,
               ruleset: str = "whfb8") -> Driver:
    """A window on a new, empty board (no file)."""
    from game.core.board import Board
    from game.window.app import App

    clock = clock or FakeClock()
    app = App(Board(units=[], ruleset=ruleset), size=size, clock=clock, out_dir=out_dir, recent_file=recent_file,
              background=InlineBackground())
    app.window.frame()
    return Driver(app, clock)


# the old helper functions, kept for tests written against them
def key(d: Driver, k, mod=0, text=""):
    d.key(k, mod, text)


def move_mouse(d: Driver, px, buttons=(0, 0, 0)):
    d.move_mouse(px, buttons)


def drag(d: Driver, a_mm, b_mm, frames=60):
    d.drag(a_mm, b_mm, frames)
