"""The interactive window: pan, zoom, drag and turn units, hover for the reasons.

:class:`App` owns the board (the truth), its analysis, a :class:`~game.physics.trays.TraySpace`
used as the drag input device, and the view. One frame = handle the queued pygame events,
step the drag physics (writing the dragged pose back to the board and re-analysing), then
``draw_scene`` on the window surface. A frame that raises shows a red banner with the error and
goes on from the last good board; the loop never dies on a bad state.

The app reads mouse positions from the events themselves (not ``pygame.mouse.get_pos()``), so
tests can drive it headless with ``pygame.event.post``.
"""
from __future__ import annotations

import os
import time
import traceback
from pathlib import Path
from typing import Any, Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.core import geometry as g  # noqa: E402
from game.core.analysis import Analysis, analyse  # noqa: E402
from game.core.board import Board  # noqa: E402
from game.core.ruleset import Ruleset, load_ruleset  # noqa: E402
from game.physics.trays import Key, TraySpace, penetration_mm, pose_of, with_position  # noqa: E402
from game.services import default_services  # noqa: E402

from .canvas import PygameCanvas  # noqa: E402
from .scene import DrawnModel, SceneOptions, draw_scene, drawn_models, fit_view, model_at, scene_layout  # noqa: E402
from .transform import View  # noqa: E402

ROTATE_STEP_DEG = 15.0
ROTATE_FINE_DEG = 1.0
PAN_STEP_PX = 60
ZOOM_STEP = 1.15


def init_pygame() -> None:
    """Initialise only the display and fonts (no audio: no ALSA noise on machines without sound)."""
    if not pygame.display.get_init():
        pygame.display.init()
    if not pygame.font.get_init():
        pygame.font.init()


class App:
    """The window on one board.

    ``board``: the scenario (the app works on it in place); ``ruleset``: override of the
    board's ruleset; ``path``: the scenario file (for the title); ``size``: window size (px).
    """

    def __init__(self, board: Board, *, ruleset: Optional[Ruleset] = None, path: Optional[str] = None,
                 size: tuple[int, int] = (1280, 820), surface: Optional[pygame.Surface] = None):
        init_pygame()
        self.path = path
        self.board = board
        self.rs = ruleset or load_ruleset(board.ruleset)
        self.services = default_services()
        if surface is None:
            pygame.display.set_caption(f"Melee Lens - {board.title or Path(path or 'scenario').name}")
            surface = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.screen = surface
        self.canvas = PygameCanvas(self.screen)
        self.options = SceneOptions(status=" ")
        self.view = fit_view(*self.screen.get_size(), board, self.options, margin_mm=80)
        self.space = TraySpace(board)
        self.analysis: Analysis = Analysis(ruleset=self.rs.id)
        self.models: list[DrawnModel] = []
        self.last_good: Board = board.copy()
        self.selection: Optional[str] = None
        self.hover: Optional[str] = None
        self.mouse_px: tuple[float, float] = (0.0, 0.0)
        self.drag_key: Optional[Key] = None
        self.drag_offset_mm: tuple[float, float] = (0.0, 0.0)
        self.pan_from: Optional[tuple[float, float]] = None
        self.message = "Drag a unit with the left mouse button; wheel or Q/E turns it; right-drag pans; Ctrl+wheel zooms."
        self.banner = ""
        self.running = True
        self.frame_ms = 0.0
        self.analyse_ms = 0.0
        self.frames = 0
        self.recompute()

    # -- state ---------------------------------------------------------------------------
    def recompute(self) -> bool:
        """Re-analyse the board; on failure restore the last good board and show a banner."""
        t0 = time.perf_counter()
        try:
            self.analysis = analyse(self.board, self.rs, **self.services)
            self.models = drawn_models(self.board, self.analysis)
        except Exception as exc:  # noqa: BLE001
            self.show_error("analysis failed", exc)
            self.restore()
            return False
        self.analyse_ms = (time.perf_counter() - t0) * 1000
        self.last_good = self.board.copy()
        return True

    def restore(self) -> None:
        """Go back to the last board that analysed cleanly."""
        self.board = self.last_good.copy()
        self.drag_key = None
        try:
            self.space.sync(self.board)
            self.analysis = analyse(self.board, self.rs, **self.services)
            self.models = drawn_models(self.board, self.analysis)
        except Exception as exc:  # noqa: BLE001
            self.show_error("could not restore the last good board", exc)

    def show_error(self, what: str, exc: BaseException) -> None:
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" ({Path(tb[-1].filename).name}:{tb[-1].lineno})" if tb else ""
        self.banner = f"{what}: {type(exc).__name__}: {exc}{where}. Kept the last good board; press Esc to dismiss."

    def roles(self, unit_id: str) -> dict[str, str]:
        """{model id: role} of one unit in the current analysis (used by tests and the status)."""
        return {k: v.role for k, v in self.analysis.models.items() if k.split(".", 1)[0] == unit_id}

    # -- geometry helpers ----------------------------------------------------------------
    def in_table_area(self, px: tuple[float, float]) -> bool:
        l, t, w, h = scene_layout(self.canvas, self.board, self.options).table
        return l <= px[0] < l + w and t <= px[1] < t + h

    def body_at(self, p_mm: g.Point) -> Optional[Key]:
        """The draggable body under table point ``p_mm`` (tray or skirmish model)."""
        for u in reversed(self.board.units):
            if u.kind == "ranked":
                if g.point_in_poly(p_mm, u.tray().points):
                    return (u.id, None)
            else:
                for i, m in enumerate(u.models()):
                    s = m.shape
                    inside = (g.dist(p_mm, s.center) <= s.radius_mm) if isinstance(s, g.Circle) else g.point_in_poly(p_mm, s.points)
                    if inside:
                        return (u.id, i)
        return None

    # -- edits ---------------------------------------------------------------------------
    def rotate_selected(self, deg: float) -> bool:
        """Turn the selected unit ``deg`` clockwise about its centre; refused if it would overlap."""
        uid = self.selection
        if uid is None:
            self.message = "Select a unit first (click it), then turn it with the wheel or Q/E."
            return False
        u = self.board.unit(uid)
        turned = u.rotated(deg, u.center())
        keys = [(uid, None)] if u.kind == "ranked" else [(uid, i) for i in range(len(u.placed))]
        before = max(penetration_mm(self.board, k) for k in keys)
        after = max(penetration_mm(self.board, k, turned) for k in keys)
        if after > max(0.5, before + 1e-6):
            self.message = f"Cannot turn {u.name}: it would overlap another unit."
            return False
        dragging = self.drag_key
        self.board.replace_unit(turned)
        self.space.sync(self.board)
        if dragging is not None:
            self.space.start_drag(self.board, dragging, self.view.to_mm(self.mouse_px))
        self.recompute()
        self.message = f"{u.name} faces {turned.facing_deg:.0f} deg."
        return True

    # -- events --------------------------------------------------------------------------
    def handle(self, ev: pygame.event.Event) -> None:
        """Apply one pygame event."""
        if ev.type == pygame.QUIT:
            self.running = False
        elif ev.type == pygame.VIDEORESIZE:
            self.screen = pygame.display.get_surface() or self.screen
            self.canvas = PygameCanvas(self.screen)
        elif ev.type == pygame.MOUSEMOTION:
            self.on_motion(ev.pos)
        elif ev.type == pygame.MOUSEBUTTONDOWN:
            self.mouse_px = ev.pos
            if ev.button == 1:
                self.on_left_down(ev.pos)
            elif ev.button in (2, 3):
                self.pan_from = ev.pos
        elif ev.type == pygame.MOUSEBUTTONUP:
            self.mouse_px = ev.pos
            if ev.button == 1:
                self.on_left_up()
            elif ev.button in (2, 3):
                self.pan_from = None
        elif ev.type == pygame.MOUSEWHEEL:
            self.on_wheel(ev.y, pygame.key.get_mods())
        elif ev.type == pygame.KEYDOWN:
            self.on_key(ev.key, getattr(ev, "mod", 0))

    def on_motion(self, pos: tuple[float, float]) -> None:
        if self.pan_from is not None:
            self.view.pan(pos[0] - self.pan_from[0], pos[1] - self.pan_from[1])
            self.pan_from = pos
        self.mouse_px = pos

    def on_left_down(self, pos: tuple[float, float]) -> None:
        if not self.in_table_area(pos):
            return
        p = self.view.to_mm(pos)
        key = self.body_at(p)
        if key is None:
            self.selection = None
            self.message = "Nothing there. Click a unit to select it; drag to move it."
            return
        self.selection = key[0]
        self.drag_key = key
        self.space.start_drag(self.board, key, p)
        u = self.board.unit(key[0])
        self.message = f"Dragging {u.name}. Wheel or Q/E turns it."

    def on_left_up(self) -> None:
        if self.drag_key is not None:
            self.space.end_drag()
            u = self.board.unit(self.drag_key[0])
            self.message = f"{u.name} placed."
            self.drag_key = None

    def on_wheel(self, dy: float, mods: int) -> None:
        if dy == 0:
            return
        if mods & pygame.KMOD_CTRL or (self.selection is None and self.drag_key is None):
            self.view.zoom_about(ZOOM_STEP ** dy, self.mouse_px)
        else:
            step = ROTATE_FINE_DEG if mods & pygame.KMOD_SHIFT else ROTATE_STEP_DEG
            self.rotate_selected(step * (1 if dy > 0 else -1))

    def on_key(self, key: int, mod: int) -> None:
        shift = bool(mod & pygame.KMOD_SHIFT)
        if key == pygame.K_ESCAPE:
            if self.banner:
                self.banner = ""
            else:
                self.selection = None
        elif key == pygame.K_q and mod & pygame.KMOD_CTRL:
            self.running = False
        elif key in (pygame.K_q, pygame.K_e):
            step = ROTATE_FINE_DEG if shift else ROTATE_STEP_DEG
            self.rotate_selected(step if key == pygame.K_e else -step)
        elif key == pygame.K_LEFT:
            self.view.pan(PAN_STEP_PX, 0)
        elif key == pygame.K_RIGHT:
            self.view.pan(-PAN_STEP_PX, 0)
        elif key == pygame.K_UP:
            self.view.pan(0, PAN_STEP_PX)
        elif key == pygame.K_DOWN:
            self.view.pan(0, -PAN_STEP_PX)
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.view.zoom_about(ZOOM_STEP, self._zoom_anchor())
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.view.zoom_about(1 / ZOOM_STEP, self._zoom_anchor())
        elif key == pygame.K_f:
            self.view = fit_view(*self.screen.get_size(), self.board, self.options, margin_mm=80)
        elif key == pygame.K_l:
            self.options.legend = not self.options.legend

    def _zoom_anchor(self) -> tuple[float, float]:
        if self.in_table_area(self.mouse_px):
            return self.mouse_px
        l, t, w, h = scene_layout(self.canvas, self.board, self.options).table
        return (l + w / 2, t + h / 2)

    # -- frame ---------------------------------------------------------------------------
    def update(self) -> None:
        """Step the drag: pull the dragged body toward the mouse, write its pose to the board
        and re-analyse when it moved."""
        if self.drag_key is not None:
            target = self.view.to_mm(self.mouse_px)
            pos = self.space.drag_to(self.board, target)
            if pos is not None:
                uid, idx = self.drag_key
                self.board.replace_unit(with_position(self.board.unit(uid), idx, pos))
                self.recompute()
        if self.drag_key is None and self.pan_from is None and self.in_table_area(self.mouse_px):
            dm = model_at(self.models, self.view.to_mm(self.mouse_px))
            self.hover = dm.id if dm else None
        else:
            self.hover = None

    def status_text(self) -> str:
        sel = ""
        if self.selection:
            try:
                u = self.board.unit(self.selection)
                c, f = pose_of(u)
                sel = f"{u.name}: facing {f:.0f} deg, centre ({c[0]:.0f}, {c[1]:.0f}) mm  |  "
            except KeyError:
                self.selection = None
        return (f"{sel}{self.message}  |  frame {self.frame_ms:.1f} ms, analysis {self.analyse_ms:.1f} ms, "
                f"{self.view.scale:.2f} px/mm")

    def draw(self) -> None:
        self.options.selection = (self.selection,) if self.selection else ()
        self.options.hover = self.hover
        self.options.hover_px = self.mouse_px if self.hover else None
        self.options.status = self.status_text()
        self.options.banner = self.banner
        errors = draw_scene(self.canvas, self.board, self.analysis, self.view, options=self.options)
        if errors and not self.banner:
            self.banner = f"drawing: {errors[0]}" + (f" (+{len(errors) - 1} more)" if len(errors) > 1 else "")

    def frame(self) -> None:
        """One frame: events, update, draw. Never raises (errors go to the banner)."""
        t0 = time.perf_counter()
        try:
            for ev in pygame.event.get():
                self.handle(ev)
            self.update()
        except Exception as exc:  # noqa: BLE001
            self.show_error("update failed", exc)
            self.restore()
        try:
            self.draw()
        except Exception as exc:  # noqa: BLE001
            self.show_error("drawing failed", exc)
            try:
                self.screen.fill((60, 0, 0))
                self.canvas.text((10, 10), self.banner[:200], 14, (255, 255, 255))
            except Exception:  # noqa: BLE001
                pass
        self.frame_ms = 0.9 * self.frame_ms + 0.1 * (time.perf_counter() - t0) * 1000 if self.frames else \
            (time.perf_counter() - t0) * 1000
        self.frames += 1

    def run(self, frames: Optional[int] = None, fps: int = 60) -> int:
        """Run until the window closes (or for ``frames`` frames). Returns an exit status (0)."""
        clock = pygame.time.Clock()
        n = 0
        while self.running and (frames is None or n < frames):
            self.frame()
            if pygame.display.get_surface() is not None:
                pygame.display.flip()
            n += 1
            if fps:
                clock.tick(fps)
        return 0
