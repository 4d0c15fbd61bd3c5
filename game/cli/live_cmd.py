"""``live FILE -o DIR`` (a folder holding a live page of the scenario) and ``serve DIR`` (serve
such a folder on 127.0.0.1). See :mod:`game.live.bundle`.

Exit status: 0 on success, 2 for a bad scenario or option (one line), 1 when the folder cannot
be built or written or the port cannot be opened.
"""
from __future__ import annotations

import argparse
import functools
import http.server
import sys
import time
from pathlib import Path

from game.cli.common import err, load
from game.core.ruleset import RulesetError
from game.core.scenario import ScenarioError


def run(cmd: str, argv: list[str], ap: argparse.ArgumentParser) -> int:
    """Entry point for ``live`` and ``serve``."""
    return _serve(argv, ap) if cmd == "serve" else _live(argv, ap)


def _live(argv: list[str], ap: argparse.ArgumentParser) -> int:
    ap.add_argument("file", help="scenario YAML, or a demo YAML (its steps in the page, docs/DEMOS.md)")
    ap.add_argument("-o", "--output", required=True, help="the folder to write (made if missing; its page files replaced)")
    args = ap.parse_args(argv)
    from game.core.demo import DemoError, build_steps, load_demo
    from game.live.bundle import LiveError, build, build_demo, check_folder
    from game.render.figure import FigureError

    out = Path(args.output)
    try:
        check_folder(out)
    except LiveError as exc:
        return err(f"-o {args.output}: {exc}", 2)
    demo = None
    try:
        if is_demo(args.file):
            demo = load_demo(args.file)
            steps = build_steps(demo)
        else:
            board, _ = load(args.file, None)
    except (ScenarioError, RulesetError, DemoError) as exc:
        return err(str(exc), 2)
    t0 = time.perf_counter()
    try:
        built = build_demo(out, steps, demo.title) if demo is not None else build(args.file, out, board)
    except (FigureError, RulesetError) as exc:
        return err(str(exc), 2)
    except LiveError as exc:
        return err(str(exc), 1)
    print(f"wrote {out}/ ({built.size_bytes / 1e6:.1f} MB) in {time.perf_counter() - t0:.1f} s; "
          f"serve it with: python main.py serve {out}")
    return 0


def is_demo(path: str) -> bool:
    """Is the YAML file at ``path`` a demo (a mapping with ``steps`` and no ``units``)? A file
    that cannot be read or parsed is not (the scenario loader then says why)."""
    from game.core.yamlfile import FileError, parse_yaml, read_text

    try:
        data, _ = parse_yaml(read_text(path, ScenarioError), path, ScenarioError)
    except (ScenarioError, FileError, OSError):
        return False
    return isinstance(data, dict) and "steps" in data and "units" not in data


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the types a page needs (``.wasm``, ``.mjs``), quiet."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm",
                      ".mjs": "text/javascript", ".js": "text/javascript", ".whl": "application/zip",
                      ".json": "application/json", ".yaml": "text/plain; charset=utf-8"}

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - http.server's name
        pass


def serve(folder: Path, port: int = 0) -> http.server.ThreadingHTTPServer:
    """A server of ``folder`` on 127.0.0.1 (``port`` 0: a free one; ``server.server_port`` says which)."""
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=str(folder)))


def _serve(argv: list[str], ap: argparse.ArgumentParser) -> int:
    ap.add_argument("folder", help="a folder written by `live FILE -o DIR`")
    ap.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default 8000; 0: any free port)")
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    if not (folder / "index.html").is_file():
        return err(f"{args.folder} holds no index.html; write one with: python main.py live FILE -o {args.folder}", 2)
    if not 0 <= args.port <= 65535:
        return err(f"--port must be from 0 to 65535 (got {args.port})", 2)
    try:
        server = serve(folder, args.port)
    except OSError as exc:
        return err(f"cannot serve on 127.0.0.1:{args.port}: {exc.strerror or exc}", 1)
    print(f"serving {folder} at http://127.0.0.1:{server.server_port}/ (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()
    return 0
