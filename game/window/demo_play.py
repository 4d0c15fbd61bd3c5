"""Playing a recorded demo inside the window: a view over the demo player's steps.

:class:`DemoPlayView` shows built demo steps (:func:`game.core.demo.build_steps`) with the
demo player's keys (Right, Down, Space, Enter, PageDown or a left click = next; Left, Up,
Backspace, PageUp or a right click = previous; R or Home = restart) and draws each step as
``demo`` and the HTML page do (:func:`game.render.figure.draw_figure` with the step's marks).
Esc or Q goes back to the view it came from (``back``).
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import pygame

from game.render.pygame_canvas import PygameCanvas
from game.render.demo_frames import scene_boxes, step_marks, step_options, step_title
from game.render.figure import FigureOptions, draw_figure
from game.window.view import View

HINT = "Right, Space or click: next    Left: previous    R: restart    Esc: back to the recorder"


class DemoPlayView(View):
    """``steps`` of a demo titled ``title``; ``back()`` is called on Esc / Q."""

    def __init__(self, steps: Sequence[Any], title: str, back: Callable[[], None]) -> None:
        super().__init__()
        if not steps:
            raise ValueError("a demo needs at least one step")
        self.steps = list(steps)
        self.title = title
        self.back = back
        self.index = 0
        self.boxes = scene_boxes(self.steps)
        self.options = FigureOptions(style="screen")
        self.errors: list[str] = []

    def counter(self) -> str:
        return f"{self.index + 1} / {len(self.steps)}"

    def go(self, delta: Optional[int]) -> None:
        """``delta`` steps on (None: back to the first)."""
        self.index = 0 if delta is None else max(0, min(len(self.steps) - 1, self.index + delta))

    def on_event(self, ev: Any) -> bool:
        if ev.type == pygame.KEYDOWN:
            if ev.key in (pygame.K_ESCAPE, pygame.K_q):
                self.back()
            elif ev.key in (pygame.K_RIGHT, pygame.K_DOWN, pygame.K_SPACE, pygame.K_PAGEDOWN, pygame.K_RETURN):
                self.go(1)
            elif ev.key in (pygame.K_LEFT, pygame.K_UP, pygame.K_BACKSPACE, pygame.K_PAGEUP):
                self.go(-1)
            elif ev.key in (pygame.K_r, pygame.K_HOME):
                self.go(None)
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN:
            if ev.button == 1:
                self.go(1)
            elif ev.button == 3:
                self.go(-1)
            return True
        return ev.type in (pygame.KEYUP, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL)

    def on_draw(self, screen: Any) -> None:
        st = self.steps[self.index]
        _, self.errors = draw_figure(PygameCanvas(screen), st.board, st.analysis, step_options(self.options, st), marks=step_marks(st),
                                     title=step_title(self.title, self.index, len(self.steps)), status=HINT,
                                     box_mm=self.boxes[self.index])

    def fingerprint(self) -> tuple:
        return (self.index,)
