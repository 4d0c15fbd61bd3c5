"""What the pygame-side commands share: error lines, the display check, loading a board, the
headless environment and the quick figure (:func:`write_figure`)."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from dataclasses import replace
from typing import Optional

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import check_override, load_scenario


def err(msg: str, code: int) -> int:
    print(f"error: {msg}", file=sys.stderr)
    return code


def has_display() -> bool:
    """False on Linux/BSD when neither X11 nor Wayland is reachable and SDL was not told
    which video driver to use (e.g. ``SDL_VIDEODRIVER=dummy`` for headless runs)."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def load(path: str, ruleset: Optional[str]):
    """(board, ruleset) or raises ScenarioError / RulesetError."""
    board = load_scenario(path)
    if ruleset:
        board = replace(board, ruleset=ruleset)
        check_override(board, ruleset, path)  # the file was checked under its own
    return board, load_ruleset(board.ruleset)


def headless_env() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # headless commands keep Python's SIGINT/SIGTERM handling (a clean exit), not SDL's
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")


def write_figure(board, rs, out: Path, *, width: Optional[int] = None, height: Optional[int] = None,
                 scale: Optional[float] = None, legend: bool = True, title: Optional[str] = None) -> tuple[float, list[str]]:
    """Analyse ``board`` and save its figure to ``out`` (PNG). Returns (seconds, drawing errors)."""
    from game.render.figure import FigureOptions  # the figure pipeline: not at the window's start-up
    from game.figures.figure_file import write_figure as write_fig

    headless_env()

    t0 = time.perf_counter()
    analysis = analyse(board, rs)
    fo = FigureOptions(size=f"{width}x{height}" if width and height else None, legend=legend, title=title,
                       scale_px_per_mm=scale)
    errors = write_fig(board, analysis, out, fo)
    return time.perf_counter() - t0, errors
