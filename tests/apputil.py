"""Driving the window headless in tests: a small facade over :class:`game.window.app.App`.

Tests see the window as a user does (keys, clicks, drags, toolbar buttons, panel fields,
dialogs) plus what it shows (board, analysis, status line, banner, drawn marks), through
:class:`Driver`, never the App's private state. Time is a :class:`FakeClock` the test moves;
nothing here reads the wall clock or sleeps.

Set ``SDL_VIDEODRIVER=dummy`` before importing (tests/conftest.py does).
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Optional

import pygame

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
    """The window as a test drives it."""

    def __init__(self, app: Any, clock: FakeClock):
        self._app = app
        self.clock = clock

    # -- what the window shows -------------------------------------------------------------------
    board = property(lambda self: self._app.doc.board)
    analysis = property(lambda self: self._app.doc.analysis)
    view = property(lambda self: self._app.table.camera)
    message = property(lambda self: self._app.status.message)
    banner = property(lambda self: self._app.status.banner)
    selection = property(lambda self: self._app.table.selection)
    tool = property(lambda self: self._app.table.tool)
    dirty = property(lambda self: self._app.doc.dirty)
    running = property(lambda self: self._app.window.running)
    ruleset = property(lambda self: self._app.doc.rs.id)
    ruleset_strategy = property(lambda self: self._app.doc.rs.strategy)
    save_path = property(lambda self: self._app.doc.session.save_path)
    undo_depth = property(lambda self: self._app.doc.session.history.undo_depth)
    overlaps = property(lambda self: self._app.doc.live.overlaps)
    compare_id = property(lambda self: self._app.doc.live.compare_id)
    diffs = property(lambda self: self._app.doc.live.diffs)
    analysis_paused = property(lambda self: self._app.doc.live.paused)
    analyse_ms = property(lambda self: self._app.doc.live.analyse_ms)
    dragging = property(lambda self: self._app.table.busy())
    hover = property(lambda self: self._app.window.view.hover)
    place_base = property(lambda self: getattr(self._app.table.place_tool.choice, "base", None))
    screen_size = property(lambda self: self._app.window.size())
    options = property(lambda self: self._app.table.options)
    frames_drawn = property(lambda self: self._app.window.frames)
    autosave_error = property(lambda self: self._app.doc.session.autosave_error)
    models = property(lambda self: self._app.doc.live.models)
    moved_mm = property(lambda self: self._app.doc.session.moved_mm)
    mouse_px = property(lambda self: self._app.window.mouse_px)
    screen = property(lambda self: self._app.window.screen)   # the window surface as last drawn

    def over_gui(self, px=None) -> bool:
        """True when a window, panel or toolbar element is under ``px`` (default: the mouse)."""
        gui = self._app.gui
        return gui is not None and gui.over(self._app.window.mouse_px if px is None else px)

    @property
    def step_caption(self) -> str:
        """The caption band of the phase step shown ("" on the editable board)."""
        return self._app.steps.caption() if self._app.steps.active else ""

    @property
    def step(self) -> Optional[tuple[int, int]]:
        """(index, count) of the phase step shown, or None on the editable board."""
        s = self._app.steps
        return (s.index, len(s.steps)) if s.active else None

    def status(self, max_w: Optional[float] = None) -> str:
        return self._app.table.status_text(max_w, self._app.steps.mode() if self._app.steps.active else None)

    def roles(self, uid: str) -> dict:
        return self._app.doc.roles(uid)

    def shown(self):
        return self._app.shown()

    def layout(self):
        return self._app.table.layout()

    def in_table(self, px) -> bool:
        return self._app.table.in_table_area(px)

    def fits(self, unit) -> bool:
        return self._app.doc.editor.fits(self._app.doc.board, unit)

    def blocker(self, unit):
        return self._app.doc.editor.blocker(self._app.doc.board, unit)

    def text_width(self, text: str, size: int) -> float:
        return self._app.window.canvas.text_size(text, size)[0]

    def recorded(self, record_canvas: bool = False):
        """Draw one frame on a recording canvas (``record_canvas``: a pygame canvas that
        records, else the plain recording :class:`Canvas`) and return that canvas."""
        from game.render.canvas import Canvas, PygameCanvas

        w = self._app.window
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
            self._app.window.frame()

    def post(self, ev: pygame.event.Event) -> None:
        pygame.event.post(ev)
        self._app.window.frame()

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
        self._app.window.frame()

    def click(self, p_mm) -> None:
        self.click_px(self._app.table.camera.to_px(p_mm))

    def select(self, uid: Optional[str], p_mm=None) -> None:
        """Click unit ``uid`` with the move tool (None: clear the selection)."""
        if uid is None:
            self._app.table.select(None)
            return
        self._app.table.set_tool("move")
        self.click(p_mm or self._app.doc.board.unit(uid).center())
        assert self._app.table.selection == uid

    def drag(self, a_mm, b_mm, frames: int = 60) -> None:
        """Press at table point ``a_mm``, move to ``b_mm`` in five steps, let the physics
        follow for ``frames`` frames, release."""
        a, b = self._app.table.camera.to_px(a_mm), self._app.table.camera.to_px(b_mm)
        self.move_mouse(a)
        self.press(a)
        for i in range(1, 6):
            self.move_mouse((a[0] + (b[0] - a[0]) * i / 5, a[1] + (b[1] - a[1]) * i / 5), (1, 0, 0))
        self.frame(frames)
        self.release(b)

    def action(self, action: str) -> None:
        """What a toolbar button or key does, by its key-map action (``"undo"``, ``"turn:90"``)."""
        self._app.actions.run(action)
        self._app.window.frame()

    def button(self, action: str) -> None:
        """Click the toolbar button of ``action``."""
        r = self._app.toolbar.button_rect(action)
        assert r is not None, f"no toolbar button for {action}"
        self.click_px(r.center)

    def button_rect(self, action: str):
        return self._app.toolbar.button_rect(action)

    def toolbar_rects(self) -> list:
        return self._app.toolbar.rects()

    def help_text(self) -> str:
        return self._app.help.text()

    # -- gui: windows, fields, drop-downs --------------------------------------------------------
    def window(self, name: str):
        """The pygame_gui window ``help``, ``palette``, ``unit`` or ``dialog`` (newest), or None."""
        a = self._app
        a.panels.forget_closed()
        if name == "help":
            return a.help.window if a.help.is_open() else None
        if name == "palette":
            return a.panels.palette.window if a.panels.palette else None
        if name == "unit":
            return a.panels.unit.window if a.panels.unit else None
        if name == "dialog":
            d = a.dialogs.top()
            return d.window if d else None
        raise KeyError(name)

    def dialog(self):
        return self._app.dialogs.top()

    def palette_button(self, label: str):
        return self._app.panels.palette.button_for(label)

    def palette_player(self):
        return self._app.panels.palette.player

    def entry(self, name: str):
        """Unit panel field ``name`` (``name``, ``base``, ``files``, ``models``, ``f:attacks``...)."""
        return self._app.panels.unit.entry(name) if self._app.panels.unit else None

    def panel_fields(self) -> list[str]:
        return list(self._app.panels.unit.els) if self._app.panels.unit else []

    def focus(self, element) -> None:
        self._app.gui.focus(element)

    def enter_text(self, element, text: str) -> None:
        """Type into a pygame_gui entry the way a user finishes it: text, then Enter."""
        self.focus(element)
        element.set_text(text)
        self.key(pygame.K_RETURN)
        self._app.window.frame()

    def choose(self, element, text: str) -> None:
        """Pick ``text`` in a pygame_gui drop-down."""
        import pygame_gui

        self.post(pygame.event.Event(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, text=text, ui_element=element))

    def ruleset_buttons(self) -> dict:
        """Open the ruleset chooser (Ctrl+R): {ruleset id: its button}."""
        self.key(pygame.K_r, pygame.KMOD_CTRL)
        d = self.dialog()
        return {rid: b for b, rid in d.buttons.items()}

    def choose_ruleset(self, rid: str) -> bool:
        """Pick ``rid`` in the ruleset chooser as a user would; False when its button is greyed."""
        b = self.ruleset_buttons()[rid]
        if not b.is_enabled:
            self.key(pygame.K_ESCAPE)
            return False
        self.click_px(b.rect.center)
        return True

    def dropdown(self, name: str):
        """The toolbar drop-down ``rules`` or ``compare``."""
        return self._app.toolbar.dropdowns.get(name)

    def pick_file(self, path: str) -> None:
        """Answer the file dialog on top with ``path``."""
        import pygame_gui

        d = self.dialog()
        assert d is not None, "no dialog is open"
        d.window.kill()  # as pygame_gui does on OK: the window is gone before its event arrives
        self._app.window.frame()
        self.post(pygame.event.Event(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, text=str(path), ui_element=d.window))

    def answer(self, label: str) -> None:
        """Click button ``label`` of the dialog on top (Save / Discard / Cancel, OK, Export...)."""
        d = self.dialog()
        assert d is not None, "no dialog is open"
        b = d.button(label) if hasattr(d, "button") else (d.ok if label == d.ok.text else d.extra)
        assert b is not None, f"no button {label}"
        import pygame_gui

        self.post(pygame.event.Event(pygame_gui.UI_BUTTON_PRESSED, ui_element=b))

    def fill(self, values: dict) -> None:
        """Set fields of the form on top (text entries by name)."""
        d = self.dialog()
        for k, v in values.items():
            e = d.els[k]
            if hasattr(e, "set_text"):
                e.set_text(str(v))
            else:
                self.choose(e, v)

    def edit(self, command: str, *args) -> bool:
        """A unit-panel edit of the selected unit (``rename``, ``set_base``, ``set_profile``...)."""
        ok = self._app.table.unit_command(command, *args)
        self._app.window.frame()
        return ok

    def reanalyse(self) -> None:
        """Analyse the board again (as any edit does)."""
        self._app.doc.recompute()

    def usable_rulesets(self) -> list[str]:
        return self._app.rulesets.usable()

    def differ_lines(self) -> dict:
        """{model id: tooltip line} of compare mode."""
        return self._app.doc.live.differ_options(self._app.doc.rs.id)[0]

    def say(self, text: str) -> None:
        """Put ``text`` in the status line as the window's message (test set-up)."""
        self._app.status.say(text)

    def put_unit(self, unit) -> None:
        """Put ``unit`` on the board in place of the unit of its id (test set-up, one undoable edit)."""
        from game.core.editor import Change

        b = self._app.doc.board.copy()
        b.replace_unit(unit)
        self._app.table.apply(Change(b, "set up by the test"))

    @property
    def tape(self):
        """The tape tool's reading: ``{"gap_mm", "text", ...}`` or None."""
        return self._app.table.tape_tool.tape

    def pick_base(self, choice) -> None:
        """Choose a palette entry (:class:`game.core.edits.BaseChoice`): the place tool is armed."""
        self._app.table.arm_place(choice)

    def select_id(self, uid: Optional[str]) -> None:
        """Select unit ``uid`` as the unit list would (no click)."""
        self._app.table.select(uid)

    # -- the loop ------------------------------------------------------------------------------
    def run(self, frames: int, on_frame=None) -> int:
        """Run the window loop (:func:`game.window.loop.run_loop`) for ``frames`` frames;
        ``on_frame(n)`` is called before frame ``n`` (1-based)."""
        from game.window.loop import run_loop

        a, real, n = self._app.window, self._app.window.frame, [0]

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

    def stop(self, reason: str = "test") -> None:
        """Stop as a signal does (unsaved work goes to the autosave file)."""
        self._app.window.stop(reason)

    def idle(self) -> bool:
        return self._app.window.idle()

    def button_label(self, action: str) -> str:
        return self._app.toolbar.label(action)

    # -- analysis services (tests swap in a slow or counting engine) --------------------------------
    def set_services(self, services: dict) -> None:
        self._app.doc.set_services(services)


def make_app(path, size=(1400, 880), copy_to=None, clock: Optional[FakeClock] = None, gui: bool = True,
             services: Optional[dict] = None, recent_file=None, **kw) -> Driver:
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
    app = App(load_scenario(path), path=str(path), size=size, clock=clock, gui=gui, services=services,
              recent_file=recent_file, out_dir=out_dir, **kw)
    app.window.frame()
    return Driver(app, clock)


def make_blank(size=(1400, 880), clock: Optional[FakeClock] = None, out_dir=None, recent_file=None,
               ruleset: str = "whfb8") -> Driver:
    """A window on a new, empty board (no file)."""
    from game.core.board import Board
    from game.window.app import App

    clock = clock or FakeClock()
    app = App(Board(units=[], ruleset=ruleset), size=size, clock=clock, out_dir=out_dir, recent_file=recent_file)
    app.window.frame()
    return Driver(app, clock)


# the old helper functions, kept for tests written against them
def key(d: Driver, k, mod=0, text=""):
    d.key(k, mod, text)


def move_mouse(d: Driver, px, buttons=(0, 0, 0)):
    d.move_mouse(px, buttons)


def drag(d: Driver, a_mm, b_mm, frames=60):
    d.drag(a_mm, b_mm, frames)
