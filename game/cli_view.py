"""Command line of the pygame side: the window, ``render``, ``demo`` and ``render-book``.

``main.py`` hands every command except ``analyse`` to :func:`run`. Exit status: 0 on success,
2 for a bad scenario or ruleset (one message naming the file, line and field on stderr),
1 for anything else.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
OUT_DIR = ROOT / "out"


def _err(msg: str, code: int) -> int:
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


def _load(path: str, ruleset: Optional[str]):
    """(board, ruleset) or raises ScenarioError / RulesetError."""
    from game.core.ruleset import load_ruleset
    from game.core.scenario import load_scenario

    board = load_scenario(path)
    if ruleset:
        board.ruleset = ruleset
    return board, load_ruleset(board.ruleset)


def _headless_env() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def write_figure(board, rs, out: Path, *, width: Optional[int] = None, height: Optional[int] = None,
                 scale: Optional[float] = None, legend: bool = True, title: Optional[str] = None) -> tuple[float, list[str]]:
    """Analyse ``board`` and save its figure to ``out`` (PNG). Returns (seconds, drawing errors)."""
    _headless_env()
    from game.core.analysis import analyse
    from game.services import default_services
    from game.view.figure import save_png
    from game.view.scene import SceneOptions

    t0 = time.perf_counter()
    analysis = analyse(board, rs, **default_services())
    opts = SceneOptions(legend=legend, title=title)
    errors = save_png(board, analysis, out, width=width, height=height, scale_px_per_mm=scale, options=opts)
    return time.perf_counter() - t0, errors


def run(cmd: str, argv: list[str], ap: argparse.ArgumentParser) -> int:
    """Entry point for ``window`` (default), ``render``, ``demo`` and ``render-book``."""
    from game.core.ruleset import RulesetError
    from game.core.scenario import ScenarioError

    if cmd == "render":
        ap.add_argument("file", help="scenario YAML")
        ap.add_argument("-o", "--output", required=True, help="PNG to write")
        ap.add_argument("--width", type=int, help="figure width in px (with --height)")
        ap.add_argument("--height", type=int, help="figure height in px (with --width)")
        ap.add_argument("--scale", type=float, help="px per table mm (instead of --width/--height)")
        ap.add_argument("--ruleset", help="draw under this ruleset id instead of the file's")
        ap.add_argument("--no-legend", action="store_true", help="leave out the legend panel")
        ap.add_argument("--title", help="caption (default: the scenario's title)")
        args = ap.parse_args(argv)
        if (args.width is None) != (args.height is None):
            return _err("give both --width and --height, or --scale", 1)
        try:
            board, rs = _load(args.file, args.ruleset)
        except (ScenarioError, RulesetError) as exc:
            return _err(str(exc), 2)
        try:
            dt, errors = write_figure(board, rs, Path(args.output), width=args.width, height=args.height,
                                      scale=args.scale, legend=not args.no_legend, title=args.title)
        except OSError as exc:
            return _err(f"cannot write {args.output}: {exc.strerror or exc}", 1)
        for e in errors:
            print(f"warning: {e}", file=sys.stderr)
        print(f"wrote {args.output} in {dt * 1000:.0f} ms")
        return 0

    if cmd in ("demo", "render-book"):
        ap.add_argument("rest", nargs="*")
        ap.parse_args(argv)
        return _err(f"'{cmd}' is not available in this version yet", 1)

    # the window
    ap.add_argument("file", nargs="?", default=str(DEFAULT_SCENARIO), help="scenario YAML (default: built-in)")
    ap.add_argument("--frames", type=int, help="run this many frames, then exit 0 (smoke test)")
    ap.add_argument("--ruleset", help="analyse under this ruleset id instead of the file's")
    ap.add_argument("--size", default="1400x880", help="window size WxH in px")
    args = ap.parse_args(argv)
    try:
        board, rs = _load(args.file, args.ruleset)
    except (ScenarioError, RulesetError) as exc:
        return _err(str(exc), 2)
    if not has_display():
        out = OUT_DIR / f"{Path(args.file).stem}.png"
        try:
            write_figure(board, rs, out)
        except OSError as exc:
            return _err(f"no display found, and writing the figure to {out} failed: {exc.strerror or exc}", 1)
        print(f"No display found (neither DISPLAY nor WAYLAND_DISPLAY is set), so no window opened; "
              f"wrote the figure to {out} instead.")
        return 0
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        return _err(f"--size must look like 1400x880 (got {args.size!r})", 1)
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from game.view.app import App

    try:
        app = App(board, ruleset=rs, path=args.file, size=(w, h))
    except Exception as exc:  # e.g. the display refused the window
        return _err(f"could not open the window: {exc}", 1)
    return app.run(frames=args.frames)
