"""Command line of the pygame side: the window, ``render``, ``demo`` and ``render-book``.

``main.py`` hands every command except ``analyse`` to :func:`run`. Exit status: 0 on success,
2 for a bad scenario or ruleset (one message naming the file, line and field on stderr),
1 for anything else.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[2]
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
    # headless commands keep Python's SIGINT/SIGTERM handling (a clean exit), not SDL's
    os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")


def write_figure(board, rs, out: Path, *, width: Optional[int] = None, height: Optional[int] = None,
                 scale: Optional[float] = None, legend: bool = True, title: Optional[str] = None) -> tuple[float, list[str]]:
    """Analyse ``board`` and save its figure to ``out`` (PNG). Returns (seconds, drawing errors)."""
    _headless_env()
    from game.core.analysis import analyse
    from game.services import default_services
    from game.render.figure import FigureOptions
    from game.render.figure import write_figure as _write

    t0 = time.perf_counter()
    analysis = analyse(board, rs, **default_services())
    fo = FigureOptions(size=f"{width}x{height}" if width and height else None, legend=legend, title=title,
                       scale_px_per_mm=scale)
    errors = _write(board, analysis, out, fo, services={})
    return time.perf_counter() - t0, errors


def run(cmd: str, argv: list[str], ap: argparse.ArgumentParser) -> int:
    """Entry point for ``window`` (default), ``render``, ``demo`` and ``render-book``."""
    from game.core.ruleset import RulesetError
    from game.core.scenario import ScenarioError

    if cmd == "render":
        return _cmd_render(argv, ap)
    if cmd == "demo":
        return _cmd_demo(argv, ap)
    if cmd == "render-book":
        return _cmd_render_book(argv, ap)

    # the window
    ap.add_argument("file", nargs="?", default=str(DEFAULT_SCENARIO), help="scenario YAML (default: built-in)")
    ap.add_argument("--frames", type=int, help="run this many frames, then exit 0 (smoke test)")
    ap.add_argument("--ruleset", help="analyse under this ruleset id instead of the file's")
    ap.add_argument("--size", default="1400x880", help="window size WxH in px")
    args = ap.parse_args(argv)
    from game.cli.args import MAX_FRAMES, UsageError, check_int, check_ruleset, check_size

    try:
        check_ruleset(args.ruleset)
        check_int(args.frames, "--frames", 0, MAX_FRAMES)
        w, h = check_size(args.size)
        board, rs = _load(args.file, args.ruleset)
    except (ScenarioError, RulesetError, UsageError) as exc:
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
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from game.window.app import App
    from game.window.session import default_recent_file

    try:
        app = App(board, ruleset=rs, path=args.file, size=(w, h), recent_file=default_recent_file())
    except Exception as exc:  # e.g. the display refused the window
        return _err(f"could not open the window: {exc}", 1)
    return app.run(frames=args.frames)


def _on_off(v: str) -> bool:
    v = str(v).lower()
    if v in ("on", "yes", "true", "1"):
        return True
    if v in ("off", "no", "false", "0"):
        return False
    raise argparse.ArgumentTypeError(f"must be on or off (got {v!r})")


def _legend_place(v: str):
    """``on``/``off`` (bool) or ``right``/``below`` (where the legend sits)."""
    if str(v).lower() in ("right", "below"):
        return str(v).lower()
    return _on_off(v)


def _wrote(output: str, errors: list, seconds: float) -> int:
    """Report a written figure: drawing warnings on stderr, one line on stdout; exit 0."""
    for e in errors:
        print(f"warning: {e}", file=sys.stderr)
    print(f"wrote {output} in {seconds * 1000:.0f} ms")
    return 0


def _cmd_render(argv: list[str], ap: argparse.ArgumentParser) -> int:
    """``render FILE -o OUT.png|OUT.svg`` with print options (see ``docs/DEMOS.md``)."""
    from game.core.ruleset import RulesetError
    from game.core.scenario import ScenarioError

    ap.add_argument("file", help="scenario YAML")
    ap.add_argument("-o", "--output", required=True, help="PNG, SVG, PDF or HTML (by suffix) to write; HTML: a one-step page with hover texts")
    ap.add_argument("--size", help="figure size: WxH px (1200x800) or WxHmm (180x120mm, with --dpi)")
    ap.add_argument("--dpi", type=int, default=150, help="pixels per inch for mm sizes; stored in the PNG (default 150)")
    ap.add_argument("--width", type=int, help="figure width in px (with --height; same as --size WxH)")
    ap.add_argument("--height", type=int, help="figure height in px (with --width)")
    ap.add_argument("--scale", type=float, help="px per table mm (PNG only, instead of a size)")
    ap.add_argument("--ruleset", help="draw under this ruleset id instead of the file's")
    ap.add_argument("--legend", type=_legend_place, default=True, metavar="on|off|right|below",
                    help="the legend: right of the figure (on, the default), below it, or off")
    ap.add_argument("--style", default="print", choices=["print", "screen"],
                    help="print: white paper, no grid (the default); screen: the window's look")
    ap.add_argument("--table", action="store_true", help="print style: keep the table tint and the 6-inch grid")
    ap.add_argument("--no-legend", action="store_true", help="same as --legend off")
    ap.add_argument("--caption", type=_on_off, default=True, metavar="on|off", help="the title bar (default on)")
    ap.add_argument("--labels", type=_on_off, default=True, metavar="on|off", help="unit labels (default on)")
    ap.add_argument("--title", help="caption text (default: the scenario's title)")
    ap.add_argument("--crop", action="store_true", help="fit the view to the engaged units")
    ap.add_argument("--crop-margin", type=float, default=40.0, metavar="MM", help="margin around the crop (mm, default 40)")
    ap.add_argument("--palette", default="default", choices=["default", "colourblind", "colorblind", "greyscale", "grayscale"],
                    help="colourblind: Okabe-Ito colours plus role patterns; greyscale: roles by shade and outline")
    ap.add_argument("--ids", action="store_true", help="unit labels add the unit id after the name")
    ap.add_argument("--letters", action="store_true", help="name units A: name, B: name... in labels and legend")
    ap.add_argument("--counts", type=_on_off, default=True, metavar="on|off",
                    help="draw xN on models making other than 1 attack (default on)")
    ap.add_argument("--compare", metavar="A,B", help="two rulesets: panels side by side, differing models ringed")
    ap.add_argument("--compare-mode", default="side", choices=["side", "overlay"],
                    help="side: two panels; overlay: one panel under A with the differences ringed")
    ap.add_argument("--font-scale", type=float, help="text scale (default: from --dpi for mm sizes, else 1)")
    from game.cli.args import add_budget_option, budgets

    add_budget_option(ap)
    args = ap.parse_args(argv)
    with budgets(args, args.file):
        return _render(args)


def _render(args) -> int:
    from game.core.ruleset import RulesetError
    from game.core.scenario import ScenarioError

    from game.cli.args import UsageError, check_int, check_number, check_output, check_pair, check_ruleset, check_text
    from game.core.validate import short

    if (args.width is None) != (args.height is None):
        return _err("give both --width and --height, or --size", 2)
    if Path(args.output).suffix.lower() not in (".png", ".svg", ".pdf", ".html", ".htm"):
        return _err(f"-o must end in .png, .svg, .pdf or .html (got {short(args.output)})", 2)
    if args.scale is not None and not (math.isfinite(args.scale) and 0 < args.scale <= 20):
        return _err(f"--scale must be a number of px per mm above 0 and at most 20 (got {args.scale})", 2)
    compare = None
    try:
        check_ruleset(args.ruleset)
        if args.compare:
            compare = check_pair(args.compare)
        check_int(args.width, "--width", 1, 8000)
        check_int(args.height, "--height", 1, 8000)
        check_int(args.dpi, "--dpi", 30, 2400)
        check_number(args.font_scale, "--font-scale", 0.05, 10)
        check_number(args.crop_margin, "--crop-margin", 0, 10_000)
        check_number(args.time_budget, "--time-budget", 0, 86_400)
        check_number(args.memory_budget, "--memory-budget", 0, 10 ** 7)
        check_text(args.title, "--title")
        check_output(args.output, [args.file])
        board, rs = _load(args.file, args.ruleset)
    except (ScenarioError, RulesetError, UsageError) as exc:
        return _err(str(exc), 2)
    _headless_env()
    out = Path(args.output)
    if args.scale and not (args.size or args.width) and out.suffix.lower() == ".png":
        try:  # the original --scale path
            dt, errors = write_figure(board, rs, out, scale=args.scale, legend=args.legend and not args.no_legend,
                                      title=args.title)
        except OSError as exc:
            return _err(f"cannot write {args.output}: {exc.strerror or exc}", 1)
        return _wrote(args.output, errors, dt)
    from game.render.figure import FigureError, FigureOptions
    from game.render.figure import write_figure as write_fig

    if args.size is not None and not args.size.strip():
        return _err("--size must look like 1200x800 (px) or 180x120mm (got an empty value)", 2)
    size = args.size or (f"{args.width}x{args.height}" if args.width else None)
    legend_at = args.legend if isinstance(args.legend, str) else None
    fo = FigureOptions(size=size, dpi=args.dpi, legend=bool(args.legend) and not args.no_legend, caption=args.caption,
                       style=args.style, table=args.table, legend_at=legend_at,
                       labels=args.labels, title=args.title, crop=args.crop, crop_margin_mm=args.crop_margin,
                       palette={"colorblind": "colourblind", "grayscale": "greyscale"}.get(args.palette, args.palette),
                       compare=compare, compare_mode=args.compare_mode, font_scale=args.font_scale, ids=args.ids,
                       letters=args.letters, counts=args.counts)
    t0 = time.perf_counter()
    if out.suffix.lower() in (".html", ".htm"):
        return _render_html(board, rs, fo, out, args.output, t0)
    try:
        fo.pixel_size()
        errors = write_fig(board, None, out, fo)
    except FigureError as exc:  # a bad option value: a usage error, like argparse's (exit 2)
        return _err(str(exc), 2)
    except RulesetError as exc:
        return _err(str(exc), 2)
    except OSError as exc:
        return _err(f"cannot write {args.output}: {exc.strerror or exc}", 1)
    return _wrote(args.output, errors, time.perf_counter() - t0)


def _render_html(board, rs, fo, out: Path, name: str, t0: float) -> int:
    """``render FILE -o OUT.html``: the scenario as a one-step page (hover texts, no network)."""
    from game.core.analysis import analyse
    from game.core.atomic import write_atomic
    from game.core.ruleset import RulesetError
    from game.render.figure import FigureError
    from game.render.html_page import PAGE_SIZE, scenario_page
    from game.services import default_services

    try:
        size = fo.pixel_size() or PAGE_SIZE
        fo.size = f"{size[0]}x{size[1]}"
        an = analyse(board, rs, **default_services())
        write_atomic(out, scenario_page(board, an, size=size, options=fo).encode("utf-8"))
    except (FigureError, RulesetError) as exc:
        return _err(str(exc), 2)
    except OSError as exc:
        return _err(f"cannot write {name}: {exc.strerror or exc}", 1)
    return _wrote(name, [], time.perf_counter() - t0)


def _cmd_demo(argv: list[str], ap: argparse.ArgumentParser) -> int:
    """``demo FILE``: the click-through window, or ``--export DIR`` / ``--gif OUT`` headless."""
    from game.core.demo import DemoError, build_steps, load_demo

    ap.add_argument("file", help="demo YAML (docs/DEMOS.md)")
    ap.add_argument("--frames", type=int, help="run this many frames, then exit 0 (smoke test)")
    ap.add_argument("--export", metavar="DIR", help="write step_01.png, step_02.png... to DIR (no window)")
    ap.add_argument("--gif", metavar="OUT.gif", help="write an animated GIF, one frame per step (no window)")
    ap.add_argument("--html", metavar="OUT.html", help="write one self-contained HTML page: every step, keys, hover texts (no window)")
    ap.add_argument("--size", default="1280x820", help="window / frame size WxH in px (default 1280x820)")
    ap.add_argument("--seconds", type=float, default=4.0, help="GIF: seconds per step (default 4)")
    from game.cli.args import add_budget_option, budgets

    add_budget_option(ap)
    args = ap.parse_args(argv)
    headless = bool(args.export or args.gif or args.html or not has_display())
    # a window waits for its user: only headless runs are bounded in CPU time and memory
    with budgets(args, args.file, enabled=headless):
        return _demo(args)


def _demo(args) -> int:
    from game.core.demo import DemoError, build_steps, load_demo

    from game.cli.args import (MAX_FRAME_PX, MAX_FRAMES, MAX_SECONDS, MIN_SECONDS, UsageError, check_int,
                              check_number, check_output, check_size)

    try:
        w, h = check_size(args.size, hi=MAX_FRAME_PX)
        check_number(args.seconds, "--seconds", MIN_SECONDS, MAX_SECONDS)
        check_int(args.frames, "--frames", 0, MAX_FRAMES)
        check_number(args.time_budget, "--time-budget", 0, 86_400)
        check_number(args.memory_budget, "--memory-budget", 0, 10 ** 7)
        if args.gif:
            check_output(args.gif, [args.file], "--gif")
        if args.html:
            if Path(args.html).suffix.lower() not in (".html", ".htm"):
                raise UsageError(f"--html must end in .html or .htm (got {args.html})")
            check_output(args.html, [args.file], "--html")
    except UsageError as exc:
        return _err(str(exc), 2)
    try:
        demo = load_demo(args.file)
        here = Path(demo.source).parent
        loaded = [str(here / a.value) for s in demo.steps for a in s.actions if a.kind == "load" and isinstance(a.value, str)]
        for opt, out in (("--gif", args.gif), ("--html", args.html)):
            if out:  # nor any scenario the demo loads
                check_output(out, [args.file] + loaded, opt)
        from game.services import default_services

        steps = build_steps(demo, default_services())
    except (DemoError, UsageError) as exc:
        return _err(str(exc), 2)
    from game.window import demo_view

    if args.export or args.gif or args.html or not has_display():
        _headless_env()
        export = args.export
        if not export and not args.gif and not args.html:
            export = str(OUT_DIR / "demos" / Path(args.file).stem)
            print(f"No display found (neither DISPLAY nor WAYLAND_DISPLAY is set), so no window opened; "
                  f"writing the steps to {export} instead.")
        try:
            if export:
                paths = demo_view.export_frames(steps, demo.title, export, size=(w, h))
                print(f"wrote {len(paths)} steps to {export}")
            if args.gif:
                demo_view.export_gif(steps, demo.title, args.gif, size=(w, h), seconds_per_step=args.seconds)
                print(f"wrote {args.gif} ({len(steps)} frames)")
            if args.html:
                from game.core.atomic import write_atomic
                from game.render.html_page import demo_page

                write_atomic(args.html, demo_page(steps, demo.title, size=(w, h)).encode("utf-8"))
                print(f"wrote {args.html} ({len(steps)} steps, one self-contained page)")
        except BrokenPipeError:
            raise  # the reader of our messages went away: a quiet end (main.py's guard)
        except OSError as exc:
            return _err(f"cannot write {exc.filename or export or args.gif or args.html}: {exc.strerror or exc}", 1)
        return 0
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    try:
        view = demo_view.DemoView(steps, demo.title, size=(w, h))
    except Exception as exc:  # e.g. the display refused the window
        return _err(f"could not open the window: {exc}", 1)
    return view.run(frames=args.frames)


def _cmd_render_book(argv: list[str], ap: argparse.ArgumentParser) -> int:
    """``render-book BOOK.yaml -o DIR``: every figure of a book, with a progress bar."""
    ap.add_argument("book", help="book YAML (docs/DEMOS.md)")
    ap.add_argument("-o", "--output", required=True, metavar="DIR", help="directory for the figures")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    from game.cli.args import UsageError, add_budget_option, budgets, check_budget

    add_budget_option(ap)
    args = ap.parse_args(argv)
    try:
        check_budget(args.time_budget, args.memory_budget)
    except UsageError as exc:
        return _err(str(exc), 2)
    _headless_env()
    from game.render.book import BookError, render_book

    t0 = time.perf_counter()
    try:
        with budgets(args, args.book):
            results = render_book(args.book, args.output, progress=not args.quiet)
    except BookError as exc:
        return _err(str(exc), 2)
    except OSError as exc:
        return _err(f"cannot write into {args.output}: {exc.strerror or exc}", 1)
    for name, _, errors in results:
        for e in errors:
            print(f"warning: {name}: {e}", file=sys.stderr)
    print(f"wrote {len(results)} figure{'' if len(results) == 1 else 's'} to {args.output} in {time.perf_counter() - t0:.1f} s")
    return 0
