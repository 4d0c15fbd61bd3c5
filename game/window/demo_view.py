"""The click-through demo window and its exports (PNG sequence, animated GIF).

Keys: Right / Down / Space / PageDown / left click = next step; Left / Up / Backspace / PageUp
/ right click = previous; Home or R = restart; Esc or Q = quit. The title bar shows the step
counter ("3 / 7") and the demo title; a dark band at the top of the table shows the caption.
Each step is drawn by :func:`game.render.figure.draw_figure` (so by ``draw_scene`` plus the
teaching marks), exactly like ``render`` and ``render-book``.

Headless use (tests): ``DemoView(steps, title, surface=pygame.Surface(...))`` then
:meth:`DemoView.handle` events and :meth:`DemoView.frame`; ``run(frames=N)`` stops after N
frames. :func:`export_frames` and :func:`export_gif` need no window.
"""
from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Optional, Sequence

from game.core.atomic import write_atomic
from game.core.demo import DemoStep

from game.render.demo_frames import scene_boxes, step_marks, step_title  # noqa: F401 (re-exported)
from game.render.figure import FigureOptions, draw_figure, png_bytes, render_png_surface
from game.render.canvas import PygameCanvas
from game.window.loop import run_loop

HINT = "Right, Space or click: next    Left: previous    R: restart    Esc: quit"


class DemoView:
    """A window (or any ``surface``) stepping through ``steps``; ``index`` is the current step."""

    def __init__(self, steps: Sequence[DemoStep], title: str = "", *, size: tuple[int, int] = (1280, 820),
                 surface=None, options: Optional[FigureOptions] = None):
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        if not steps:
            raise ValueError("a demo needs at least one step")
        self.pg = pygame
        self.steps = list(steps)
        self.title = title
        self.index = 0
        self.running = True
        self.options = options or FigureOptions(style="screen")
        if surface is None:
            pygame.display.init()
            pygame.font.init()
            self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
            pygame.display.set_caption(f"Melee Lens demo: {title}")
            self.windowed = True
        else:  # off-screen (tests): events still need SDL's video subsystem (dummy driver is fine)
            pygame.display.init()
            pygame.font.init()
            self.screen = surface
            self.windowed = False
        self._drawn: Optional[tuple] = None
        self.boxes = scene_boxes(self.steps)
        self.errors: list[str] = []

    # -- navigation --------------------------------------------------------------------------
    @property
    def counter(self) -> str:
        """``"3 / 7"``."""
        return f"{self.index + 1} / {len(self.steps)}"

    def next(self) -> None:
        self.index = min(len(self.steps) - 1, self.index + 1)

    def previous(self) -> None:
        self.index = max(0, self.index - 1)

    def restart(self) -> None:
        self.index = 0

    def handle(self, event) -> None:
        """Apply one pygame event."""
        pg = self.pg
        if event.type == pg.QUIT:
            self.running = False
        elif event.type == pg.KEYDOWN:
            if event.key in (pg.K_ESCAPE, pg.K_q):
                self.running = False
            elif event.key in (pg.K_RIGHT, pg.K_DOWN, pg.K_SPACE, pg.K_PAGEDOWN, pg.K_RETURN):
                self.next()
            elif event.key in (pg.K_LEFT, pg.K_UP, pg.K_BACKSPACE, pg.K_PAGEUP):
                self.previous()
            elif event.key in (pg.K_r, pg.K_HOME):
                self.restart()
        elif event.type == pg.MOUSEBUTTONDOWN:
            if event.button == 1:
                self.next()
            elif event.button == 3:
                self.previous()
        elif event.type in (getattr(pg, "VIDEORESIZE", -1), getattr(pg, "WINDOWSIZECHANGED", -1)):
            if self.windowed:
                self.screen = pg.display.get_surface()
            self._drawn = None

    # -- drawing -----------------------------------------------------------------------------
    def draw(self) -> bool:
        """Draw the current step (only when the step or the window size changed); True when it drew."""
        key = (self.index, self.screen.get_size())
        if key == self._drawn:
            return False
        st = self.steps[self.index]
        canvas = PygameCanvas(self.screen)
        _, self.errors = draw_figure(canvas, st.board, st.analysis, self.options, marks=step_marks(st),
                                     title=step_title(self.title, self.index, len(self.steps)), status=HINT,
                                     box_mm=self.boxes[self.index])
        self._drawn = key
        return True

    def frame(self) -> bool:
        """Handle pending events and draw what changed; True when it drew (the shared loop
        :func:`game.window.loop.run_loop` then shows it)."""
        for ev in self.pg.event.get():
            self.handle(ev)
        if not self.running:
            return False
        return self.draw()

    def idle(self) -> bool:
        """Nothing to draw until the next event: the loop waits for one."""
        return self._drawn == (self.index, self.screen.get_size())

    def stop(self, reason: str = "") -> None:
        self.running = False

    def run(self, frames: Optional[int] = None) -> int:
        """Loop until Esc / close, a signal (or ``frames`` frames), on the window loop the
        table window uses too. Returns the exit status (0; 128 + the signal's number)."""
        status = run_loop(self, frames, fps=30)
        if self.windowed:
            self.pg.display.quit()
        return status


def render_step(step: DemoStep, i: int, n: int, title: str, size: tuple[int, int] = (1280, 820),
                options: Optional[FigureOptions] = None, box_mm: Optional[tuple] = None):
    """Off-screen surface of step ``i`` of ``n`` (as the window draws it, without the key hint)."""
    fo = options or FigureOptions(style="screen")
    surf, _ = render_png_surface(step.board, step.analysis, fo, size, marks=step_marks(step),
                                 title=step_title(title, i, n), box_mm=box_mm)
    return surf


def export_frames(steps: Sequence[DemoStep], title: str, out_dir: str | os.PathLike, *,
                  size: tuple[int, int] = (1280, 820), options: Optional[FigureOptions] = None) -> list[Path]:
    """Write ``step_01.png``, ``step_02.png``... to ``out_dir``; returns the paths."""
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    fo = options or FigureOptions(style="screen")
    out = []
    boxes = scene_boxes(steps)
    for i, st in enumerate(steps):
        p = d / f"step_{i + 1:02d}.png"
        write_atomic(p, png_bytes(render_step(st, i, len(steps), title, size, fo, boxes[i]), fo.dpi))
        out.append(p)
    return out


def export_gif(steps: Sequence[DemoStep], title: str, out: str | os.PathLike, *, size: tuple[int, int] = (960, 615),
               seconds_per_step: float = 4.0, options: Optional[FigureOptions] = None) -> Path:
    """An animated GIF, one frame per step, looping forever (Pillow); returns the path."""
    from PIL import Image

    pg = __import__("pygame")
    frames = []
    boxes = scene_boxes(steps)
    for i, st in enumerate(steps):
        surf = render_step(st, i, len(steps), title, size, options, boxes[i])
        img = Image.frombytes("RGB", surf.get_size(), pg.image.tobytes(surf, "RGB"))
        frames.append(img.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
    p = Path(out)
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=int(seconds_per_step * 1000),
                   loop=0, optimize=False, disposal=1)
    write_atomic(p, buf.getvalue())
    return p
