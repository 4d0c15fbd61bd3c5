"""The click-through demo window and its exports (PNG sequence, animated GIF).

Keys: Right / Down / Space / PageDown / left click = next step; Left / Up / Backspace / PageUp
/ right click = previous; Home or R = restart; Esc or Q = quit. The title bar shows the step
counter ("3 / 7") and the demo title; a dark band at the top of the table shows the caption.
Each step is drawn by :func:`game.render.figure.draw_figure` (so by ``draw_scene`` plus the
teaching marks), exactly like ``render`` and ``render-book``.

:class:`DemoView` is a :class:`~game.window.view.View` (its events, its drawing);
:class:`DemoPlayer` shows it in a :class:`~game.window.window.Window` on the loop the table
window uses. Tests drive the view directly (``view.dispatch(event)``, ``view.draw(surface)``)
or the player with posted events (``DemoPlayer(steps, title, surface=...)``, ``frame()``).
:func:`export_frames` and :func:`export_gif` need no window.
"""
from __future__ import annotations

import errno
import hashlib
import io
import json
import os
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import pygame

from game.core.atomic import make_folders, refuse_link, remove_empty, write_atomic
from game.core.demo import DemoStep

from game.render.pygame_canvas import PygameCanvas
from game.render.demo_frames import scene_boxes, step_marks, step_options, step_title
from game.render.figure import FigureOptions, draw_figure, png_bytes, render_png_surface
from game.window.loop import run_loop
from game.window.view import View
from game.window.window import Window

HINT = "Right, Space or click: next    Left: previous    R: restart    Esc: quit"


class DemoView(View):
    """Steps through ``steps``; ``index`` is the current step. ``close()`` is called on Esc,
    Q or the window's close button (the player stops its window)."""

    def __init__(self, steps: Sequence[DemoStep], title: str = "", *, options: Optional[FigureOptions] = None,
                 close: Optional[Callable[[], None]] = None) -> None:
        super().__init__()
        if not steps:
            raise ValueError("a demo needs at least one step")
        self.steps = list(steps)
        self.title = title
        self.index = 0
        self.options = options or FigureOptions(style="screen")
        self.close: Callable[[], None] = close or (lambda: None)
        self.boxes = scene_boxes(self.steps)
        self.errors: list[str] = []
        self._drawn: Optional[tuple] = None
        self._picture: Any = None  # the current step drawn (pygame.Surface), blitted until it changes
        self.pictures = 0          # how many times a step was drawn (not blitted)

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

    def on_event(self, ev: Any) -> bool:
        if ev.type == pygame.QUIT:
            self.close()
        elif ev.type == pygame.KEYDOWN:
            if ev.key in (pygame.K_ESCAPE, pygame.K_q):
                self.close()
            elif ev.key in (pygame.K_RIGHT, pygame.K_DOWN, pygame.K_SPACE, pygame.K_PAGEDOWN, pygame.K_RETURN):
                self.next()
            elif ev.key in (pygame.K_LEFT, pygame.K_UP, pygame.K_BACKSPACE, pygame.K_PAGEUP):
                self.previous()
            elif ev.key in (pygame.K_r, pygame.K_HOME):
                self.restart()
            else:
                return False
        elif ev.type == pygame.MOUSEBUTTONDOWN:
            if ev.button == 1:
                self.next()
            elif ev.button == 3:
                self.previous()
            else:
                return False
        else:
            return False
        return True

    # -- drawing -----------------------------------------------------------------------------
    def on_draw(self, screen: Any) -> None:
        """Draw the current step on ``screen`` (the figure is drawn again only when the step
        or the size changed; otherwise the last picture is blitted)."""
        key = (self.index, screen.get_size())
        if key != self._drawn or self._picture is None:
            st = self.steps[self.index]
            pic = pygame.Surface(screen.get_size())
            _, self.errors = draw_figure(PygameCanvas(pic), st.board, st.analysis, step_options(self.options, st), marks=step_marks(st),
                                         title=step_title(self.title, self.index, len(self.steps)), status=HINT,
                                         box_mm=self.boxes[self.index])
            self._picture, self._drawn = pic, key
            self.pictures += 1
        screen.blit(self._picture, (0, 0))

    def fingerprint(self) -> tuple:
        return (self.index,)


class DemoPlayer:
    """A window (or any ``surface``) showing a :class:`DemoView` of ``steps``."""

    def __init__(self, steps: Sequence[DemoStep], title: str = "", *, size: tuple[int, int] = (1280, 820),
                 surface: Optional[pygame.Surface] = None, options: Optional[FigureOptions] = None) -> None:
        self.window = Window(size=size, surface=surface)
        self.view = DemoView(steps, title, options=options, close=self.window.close)
        self.window.set_caption(f"Melee Lens demo: {title}")
        self.window.show_view(self.view)

    @property
    def running(self) -> bool:
        return self.window.running

    def frame(self) -> bool:
        """Handle pending events and draw what changed; True when it drew."""
        return self.window.frame()

    def run(self, frames: Optional[int] = None) -> int:
        """Loop until Esc / close, a signal (or ``frames`` frames), on the window loop the
        table window uses too. Returns the exit status (0; 128 + the signal's number)."""
        status = run_loop(self.window, frames, fps=30)
        if self.window.windowed:
            pygame.display.quit()
        return status


def render_step(step: DemoStep, i: int, n: int, title: str, size: tuple[int, int] = (1280, 820),
                options: Optional[FigureOptions] = None, box_mm: Optional[tuple] = None):
    """Off-screen surface of step ``i`` of ``n`` (as the window draws it, without the key hint)."""
    fo = options or FigureOptions(style="screen")
    surf, _ = render_png_surface(step.board, step.analysis, step_options(fo, step), size, marks=step_marks(step),
                                 title=step_title(title, i, n), box_mm=box_mm)
    return surf


#: The file in an ``--export`` folder naming the steps this program wrote there, with the
#: SHA-256 of each (``{"step_01.png": "<hex>"}``): only those, unchanged, are ever replaced.
STEPS_LIST = ".melee_lens_steps.json"


def step_names(n: int) -> list[str]:
    """``step_01.png`` ... the files of an export of ``n`` steps."""
    return [f"step_{i + 1:02d}.png" for i in range(n)]


def _written(folder: Path) -> dict:
    try:
        data = json.loads((folder / STEPS_LIST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def wrote_it(path: Path) -> bool:
    """True when ``path`` is a step this program wrote in its folder and nobody changed since
    (its SHA-256 is the one :data:`STEPS_LIST` keeps)."""
    want = _written(path.parent).get(path.name)
    try:
        return isinstance(want, str) and hashlib.sha256(path.read_bytes()).hexdigest() == want
    except OSError:
        return False


def export_frames(steps: Sequence[DemoStep], title: str, out_dir: str | os.PathLike, *,
                  size: tuple[int, int] = (1280, 820), options: Optional[FigureOptions] = None) -> list[Path]:
    """Write ``step_01.png``, ``step_02.png``... to ``out_dir``; returns the paths. A step
    file there that this program did not write (or that was changed since), or a link onto
    an existing file, is never replaced: ``FileExistsError`` naming it, before anything is
    written. A folder made here is removed again when writing fails (a full disk)."""
    d = Path(out_dir)
    names = step_names(len(steps))
    for name in [*names, STEPS_LIST]:
        p = d / name
        try:
            refuse_link(p)
        except ValueError as exc:
            raise FileExistsError(errno.EEXIST, str(exc), str(p)) from None
        if name != STEPS_LIST and p.exists() and not wrote_it(p):
            raise FileExistsError(errno.EEXIST, f"{name} is not a step this program wrote there; "
                                                "it is left as it is", str(p))
    made = make_folders(d)
    fo = options or FigureOptions(style="screen")
    out = []
    boxes = scene_boxes(steps)
    written = _written(d)
    try:
        for i, st in enumerate(steps):
            p = d / names[i]
            data = png_bytes(render_step(st, i, len(steps), title, size, fo, boxes[i]), fo.dpi)
            written[p.name] = hashlib.sha256(data).hexdigest()
            write_atomic(d / STEPS_LIST, json.dumps(written, indent=1, sort_keys=True))
            write_atomic(p, data)
            out.append(p)
    except BaseException:
        if made and not out:
            try:
                (d / STEPS_LIST).unlink()
            except OSError:
                pass
            remove_empty(made)
        raise
    return out


def export_gif(steps: Sequence[DemoStep], title: str, out: str | os.PathLike, *, size: tuple[int, int] = (960, 615),
               seconds_per_step: float = 4.0, options: Optional[FigureOptions] = None) -> Path:
    """An animated GIF, one frame per step, looping forever (Pillow); returns the path."""
    from PIL import Image

    frames = []
    boxes = scene_boxes(steps)
    for i, st in enumerate(steps):
        surf = render_step(st, i, len(steps), title, size, options, boxes[i])
        img = Image.frombytes("RGB", surf.get_size(), pygame.image.tobytes(surf, "RGB"))
        frames.append(img.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
    p = Path(out)
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=int(seconds_per_step * 1000),
                   loop=0, optimize=False, disposal=1)
    write_atomic(p, buf.getvalue())
    return p
