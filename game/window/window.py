"""The window: one pygame surface showing one :class:`~game.window.view.View` at a time.

:class:`Window` owns what every view shares and nothing of a board: the screen surface and
its canvas, the pygame_gui manager (:class:`~game.window.gui.Gui`, or None headless), the
mouse position (from the events themselves, so tests post synthetic events), the injected
clock, and the frame loop's bookkeeping (drawing only when something changed, idling, frame
times). Each frame it hands every pending event to the view shown
(:meth:`~game.window.view.View.dispatch`), updates it, and draws it. A frame that raises never
stops the window: the view is told (:meth:`~game.window.view.View.on_error`) and the loop
goes on. :func:`game.window.loop.run_loop` runs it.
"""
from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Callable, Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.render.pygame_canvas import PygameCanvas  # noqa: E402
from game.window.collector import COLLECTOR  # noqa: E402
from game.window.display import open_display  # noqa: E402
from game.window.view import View  # noqa: E402

if TYPE_CHECKING:
    from game.window.gui import Gui

ACTIVE_S = 1.5       # after the last event the window keeps drawing this long (tooltips), then idles
TITLE_PX = 34        # the title bar drawn at the top of the window; the toolbar sits under it


def init_pygame() -> None:
    """Initialise only the display and fonts (no audio: no ALSA noise on machines without sound)."""
    if not pygame.display.get_init():
        pygame.display.init()
    if not pygame.font.get_init():
        pygame.font.init()


class Window:
    """``size``: window size (px); ``surface``: draw there instead of opening a window (tests,
    benchmarks); ``clock``: seconds (idling; tests inject a fake one)."""

    def __init__(self, *, size: tuple[int, int] = (1280, 820), surface: Optional[pygame.Surface] = None,
                 clock: Optional[Callable[[], float]] = None) -> None:
        if surface is None:
            open_display()  # a display that does not answer: waited for a few seconds, then NoDisplay
        init_pygame()
        self.clock: Callable[[], float] = clock or time.monotonic
        self.windowed = surface is None
        self.screen: pygame.Surface = surface if surface is not None else pygame.display.set_mode(size, pygame.RESIZABLE)
        self.canvas = PygameCanvas(self.screen)
        self.gui: Optional[Gui] = None
        self.view: Optional[View] = None
        self.mouse_px: tuple[float, float] = (0.0, 0.0)
        #: the pointer is in the window: set by a mouse event there, cleared when it leaves (no
        #: tooltip for a pointer that has gone, nor for where it stood when the window opened)
        self.pointer_in = False
        self.running = True
        self.frame_ms = 0.0
        self.frames = 0
        self.needs_draw = True
        self.last_active = self.clock()
        self._drawn_fp: object = None  # the view's fingerprint when it was last drawn
        self.collector = COLLECTOR
        #: called by :meth:`stop` (signals, the frame count); the default just stops
        self.on_stop: Callable[[str], None] = lambda reason: self.close()
        self.failed: Callable[[], str] = lambda: ""  # why the run failed ("" when it did not): exit status 1

    # -- views ---------------------------------------------------------------------------------
    def show_view(self, view: View) -> None:
        """Show ``view`` from the next frame on (the one shown before is told first)."""
        if view is self.view:
            return
        if self.view is not None:
            self.view.on_hide()
        self.view = view
        view.on_show()
        self.invalidate()

    def set_caption(self, text: str) -> None:
        """The title of the operating system's window (nothing when drawing on a surface)."""
        if self.windowed and pygame.display.get_surface() is self.screen:
            pygame.display.set_caption(text)

    def size(self) -> tuple[int, int]:
        return self.screen.get_size()

    # -- events --------------------------------------------------------------------------------
    def handle(self, ev: pygame.event.Event) -> None:
        """Apply one pygame event: the mouse position and window size here, the rest to the view."""
        if ev.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.mouse_px = ev.pos
            self.pointer_in = True
        elif ev.type == pygame.WINDOWLEAVE:
            self.pointer_in = False
        if ev.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
            self.resized()
        if self.view is not None:
            self.view.dispatch(ev)

    def resized(self) -> None:
        """Follow the operating system's window to its new size."""
        if self.windowed:
            self.screen = pygame.display.get_surface() or self.screen
        self.canvas = PygameCanvas(self.screen)
        if self.gui is not None:
            self.gui.manager.set_window_resolution(self.screen.get_size())
        if self.view is not None:
            self.view.resize(self.screen.get_size())
        self.invalidate()

    # -- the loop (see game.window.loop.run_loop) ----------------------------------------------------
    def invalidate(self) -> None:
        """Draw on the next frame even if nothing happened."""
        self.needs_draw = True

    def busy(self) -> bool:
        return self.view is not None and self.view.busy()

    def _gui_live(self, events: list) -> bool:
        """Does the widget layer need its update (and the frame its drawing) though the view
        has nothing new: an event came, a text field has the keyboard (its cursor blinks) or the
        mouse rests on a widget (its tooltip comes after a delay)? Without widgets, False."""
        gui = self.gui
        if gui is None:
            return False
        return bool(events) or gui.typing() or gui.over(self.mouse_px)

    def idle(self) -> bool:
        """Nothing moves and nothing happened for :data:`ACTIVE_S`: the loop may sleep."""
        return not self.needs_draw and not self.busy() and self.clock() - self.last_active > ACTIVE_S

    def frame(self, dt: float = 1 / 60) -> bool:
        """One frame: events, update, draw (only when something changed or lately active).
        Never raises (errors go to the view). Returns True when it drew."""
        view = self.view
        if view is None:
            return False
        t0 = time.perf_counter()
        before = view.fingerprint()
        events: list = []
        gui_live = False
        try:
            events = pygame.event.get()
            for ev in events:
                self.handle(ev)
            gui_live = self._gui_live(events)
            if gui_live and self.gui is not None:
                self.gui.manager.update(dt)
            view = self.view or view
            view.update()
        except Exception as exc:  # noqa: BLE001
            events = [None]
            view.on_error("update failed", exc)
        view = self.view or view
        now = self.clock()
        after = view.fingerprint()
        if events or self.busy() or before != after:
            self.last_active = now
            self.needs_draw = True
        # the garbage collector held while the user acts, collecting once idle (collector.py)
        self.collector.frame(active=self.needs_draw or self.busy() or now - self.last_active <= ACTIVE_S)
        if not (self.needs_draw or now - self.last_active <= ACTIVE_S):
            return False
        if not self.needs_draw and not gui_live and after == self._drawn_fp and not view.settling():
            return False  # lately active, but nothing changed since the last picture: it stands
        self._drawn_fp = after
        try:
            view.draw(self.screen)
            if self.gui is not None:
                self.gui.manager.draw_ui(self.screen)
        except Exception as exc:  # noqa: BLE001
            text = view.on_error("drawing failed", exc) or f"drawing failed: {exc}"
            try:
                self.screen.fill((60, 0, 0))
                self.canvas.text((10, 10), str(text)[:200], 14, (255, 255, 255))
            except Exception:  # noqa: BLE001
                pass
        self.needs_draw = False
        ms = (time.perf_counter() - t0) * 1000
        self.frame_ms = 0.9 * self.frame_ms + 0.1 * ms if self.frames else ms
        self.frames += 1
        return True

    def stop(self, reason: str = "") -> None:
        """Stop as a signal or the frame count does (:attr:`on_stop` keeps unsaved work)."""
        self.on_stop(reason)

    def close(self) -> None:
        """Leave the loop after this frame (the garbage collector back on)."""
        self.running = False
        self.collector.release()
