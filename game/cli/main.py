"""Melee Lens: see which models fight in a melee, and why.

    python main.py                          open the window on the built-in scenario
    python main.py FILE.yaml                open the window on a scenario
    python main.py --frames N [FILE]        run N frames and exit (smoke test)
    python main.py analyse FILE --json      print the analysis (the public JSON contract)
    python main.py render FILE -o OUT.png   draw a figure headless
    python main.py demo FILE.yaml           a click-through demo (--export DIR, --gif OUT.gif)
    python main.py render-book BOOK -o DIR  every figure of a book file
    python main.py live FILE -o DIR         a live web page of a scenario (drag, turn, hover)
    python main.py serve DIR                serve that folder on 127.0.0.1
    python main.py COMMAND --help           the options of one command

Installed (``pip install .``), the same command is ``melee-lens``.

Exit status: 0 on success; 2 for a bad scenario, ruleset, demo or book file (a message naming
the file, line and field) or a bad option value; 1 when something else fails (a file that
cannot be written, a window that cannot open); 130 after Ctrl+C, 143 after SIGTERM, 141 when
the reader of the output went away (``analyse ... | head``), each without a traceback.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from game.cli import analyse_cmd
from game.cli.args import guarded

COMMANDS = ("analyse", "render", "demo", "render-book", "live", "serve")


def _prog() -> str:
    """``melee-lens`` when run as the installed command, else ``main.py`` (``python main.py``)."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "melee-lens" if name.startswith("melee-lens") else "main.py"


def _usage() -> str:
    """The module doc as the help text, naming the command as it was run."""
    doc = __doc__ or ""
    return doc if _prog() == "main.py" else doc.replace("python main.py", "melee-lens")


def main(argv: list[str] | None = None) -> int:
    """Run one command; see the module doc for the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # SIGTERM ends the command, the window's loading and first analysis included (installed
    # before pygame starts, so SDL leaves it alone instead of turning it into a quit event that
    # only the loop would read); once the window loop runs, the loop's own handler keeps the work
    return guarded(lambda: _main(argv))


def not_a_command(word: str) -> str:
    """The error line for a first argument that is neither a command nor a file: a word with
    no file suffix and no folder that names no existing file ("" when it may be a file)."""
    if word.startswith("-") or word in COMMANDS or os.path.exists(word) or Path(word).suffix or os.sep in word \
            or "/" in word:
        return ""
    return (f"error: {word}: no such command, and no file of that name (commands: {', '.join(COMMANDS)}; "
            f"or give a scenario file to open in the window; {_prog()} --help lists them)")


def _main(argv: list[str]) -> int:
    if argv and argv[0] in COMMANDS:
        cmd = argv.pop(0)
    else:
        cmd = "window"
        wrong = not_a_command(argv[0]) if argv else ""
        if wrong:
            print(wrong, file=sys.stderr)
            return 2
    ap = argparse.ArgumentParser(prog=f"{_prog()} {cmd if cmd != 'window' else ''}".strip(), description=_usage(),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    if cmd == "analyse":
        return analyse_cmd.run(argv, ap)
    # pygame and the drawing code are imported only on the paths that draw (start-up of analyse)
    if cmd in ("render", "render-book"):
        from game.cli import render_cmd

        return render_cmd.run(cmd, argv, ap)
    if cmd in ("live", "serve"):
        from game.cli import live_cmd

        return live_cmd.run(cmd, argv, ap)
    from game.cli import window_cmd

    return window_cmd.run(cmd, argv, ap)
