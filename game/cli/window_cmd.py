"""The window (the default command) and ``demo`` (the click-through window, or its frames
exported headless).

Exit status: 0 on success, 2 for a bad scenario, ruleset, demo or option (one message naming
the file, line and field on stderr), 1 for anything else (a window that cannot open).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from game.cli.args import (MAX_FRAME_PX, MAX_FRAMES, MAX_SECONDS, MIN_SECONDS, UsageError, add_budget_option, budgets,
                           check_export, check_int, check_number, check_output, check_ruleset, check_size)
from game.cli.common import err, has_display, headless_env, load, write_figure
from game.core.paths import DEFAULT_SCENARIO, out_dir
from game.core.ruleset import RulesetError
from game.core.scenario import ScenarioError
from game.window.app import App
from game.window.display import hidden_note
from game.window.recovery import default_recent_file


def run(cmd: str, argv: list[str], ap: argparse.ArgumentParser) -> int:
    """Entry point for ``window`` (the default) and ``demo``."""
    if cmd == "demo":
        return _cmd_demo(argv, ap)
    # the window
    ap.add_argument("file", nargs="?", default=str(DEFAULT_SCENARIO), help="scenario YAML (default: built-in)")
    ap.add_argument("--frames", type=int, help="run this many frames, then exit 0 (smoke test)")
    ap.add_argument("--ruleset", help="analyse under this ruleset id instead of the file's")
    ap.add_argument("--size", default="1400x880", help="window size WxH in px")
    args = ap.parse_args(argv)

    try:
        check_ruleset(args.ruleset)
        check_int(args.frames, "--frames", 0, MAX_FRAMES)
        w, h = check_size(args.size)
        board, rs = load(args.file, args.ruleset)
    except (ScenarioError, RulesetError, UsageError) as exc:
        return err(str(exc), 2)
    if not has_display():
        out = out_dir() / f"{Path(args.file).stem}.png"
        try:
            write_figure(board, rs, out)
        except OSError as exc:
            return err(f"no display found, and writing the figure to {out} failed: {exc.strerror or exc}", 1)
        print(f"No display found (neither DISPLAY nor WAYLAND_DISPLAY is set), so no window opened; "
              f"wrote the figure to {out} instead.")
        return 0
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    _say_hidden(args.frames)
    try:
        app = App(board, ruleset=rs, path=args.file, size=(w, h), recent_file=default_recent_file())
    except Exception as exc:  # e.g. the display refused the window
        return err(f"could not open the window: {exc}", 1)
    return app.run(frames=args.frames)


def _cmd_demo(argv: list[str], ap: argparse.ArgumentParser) -> int:
    """``demo FILE``: the click-through window, or ``--export DIR`` / ``--gif OUT`` headless."""
    ap.add_argument("file", help="demo YAML (docs/DEMOS.md)")
    ap.add_argument("--frames", type=int, help="run this many frames, then exit 0 (smoke test)")
    ap.add_argument("--export", metavar="DIR", help="write step_01.png, step_02.png... to DIR (no window)")
    ap.add_argument("--gif", metavar="OUT.gif", help="write an animated GIF, one frame per step (no window)")
    ap.add_argument("--html", metavar="OUT.html", help="write one self-contained HTML page: every step, keys, hover texts (no window)")
    ap.add_argument("--size", default="1280x820", help="window / frame size WxH in px (default 1280x820)")
    ap.add_argument("--seconds", type=float, default=4.0, help="GIF: seconds per step (default 4)")

    add_budget_option(ap)
    args = ap.parse_args(argv)
    headless = bool(args.export or args.gif or args.html or not has_display())
    # a window waits for its user: only headless runs are bounded in CPU time and memory
    with budgets(args, args.file, enabled=headless):
        return _demo(args)


def _demo(args) -> int:
    # the demo's modules, imported for the demo command only (not at the window's start-up)
    from game.core.atomic import write_atomic
    from game.core.demo import DemoError, build_steps, load_demo
    from game.render.html_page import demo_page
    from game.window import demo_view

    try:
        w, h = check_size(args.size, hi=MAX_FRAME_PX)
        check_number(args.seconds, "--seconds", MIN_SECONDS, MAX_SECONDS)
        check_int(args.frames, "--frames", 0, MAX_FRAMES)
        check_number(args.time_budget, "--time-budget", 0, 86_400)
        check_number(args.memory_budget, "--memory-budget", 0, 10 ** 7)
        if args.gif:
            if Path(args.gif).suffix.lower() != ".gif":  # the suffix says what the file holds
                raise UsageError(f"--gif must end in .gif, as the file it writes is a GIF (got {args.gif})")
            check_output(args.gif, [args.file], "--gif")
        if args.html:
            if Path(args.html).suffix.lower() not in (".html", ".htm"):
                raise UsageError(f"--html must end in .html or .htm (got {args.html})")
            check_output(args.html, [args.file], "--html")
    except UsageError as exc:
        return err(str(exc), 2)
    try:
        demo = load_demo(args.file)
        here = Path(demo.source).parent
        loaded = [str(here / a.value) for s in demo.steps for a in s.actions if a.kind == "load" and isinstance(a.value, str)]
        for opt, out in (("--gif", args.gif), ("--html", args.html)):
            if out:  # nor any scenario the demo loads
                check_output(out, [args.file] + loaded, opt)

        steps = build_steps(demo)
        if args.export:
            check_export(args.export, demo_view.step_names(len(steps)), demo_view.wrote_it)
    except (DemoError, UsageError) as exc:
        return err(str(exc), 2)

    if args.export or args.gif or args.html or not has_display():
        headless_env()
        export = args.export
        if not export and not args.gif and not args.html:
            export = str(out_dir() / "demos" / Path(args.file).stem)
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
                write_atomic(args.html, demo_page(steps, demo.title, size=(w, h)).encode("utf-8"))
                print(f"wrote {args.html} ({len(steps)} steps, one self-contained page)")
        except BrokenPipeError:
            raise  # the reader of our messages went away: a quiet end (main.py's guard)
        except OSError as exc:
            return err(f"cannot write {exc.filename or export or args.gif or args.html}: {exc.strerror or exc}", 1)
        return 0
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    _say_hidden(args.frames)
    try:
        view = demo_view.DemoPlayer(steps, demo.title, size=(w, h))
    except Exception as exc:  # e.g. the display refused the window
        return err(f"could not open the window: {exc}", 1)
    return view.run(frames=args.frames)


def _say_hidden(frames) -> None:
    """A window that runs until stopped but shows nothing (``SDL_VIDEODRIVER=dummy``) says so."""
    note = hidden_note(os.environ)
    if note and frames is None:
        print(note, file=sys.stderr)
