"""``python main.py live FILE -o DIR``: the folder of a live page (any static host serves it).

:func:`build` (a scenario file), :func:`build_board` (a board, as the window's Export writes it)
and :func:`build_demo` (a demo's steps: ``live DEMO.yaml``, the demo recorder) write into ``DIR``:

* ``index.html``: the page (:mod:`game.live.page`), the static figure inline (the SVG
  ``render FILE -o x.svg`` writes, shown at once) with its hover texts;
* ``scenario.yaml``: the scenario file, byte for byte;
* ``live.json``: what the page's Python reads (:func:`game.live.session.start`);
* ``steps/NN.yaml``: each step's board (:mod:`game.live.steps`: a demo's steps, or the phase
  steps of the opening board), drawn inline in the page as well;
* ``wheels/``: the project's own wheel (the rules core, the engines, the drawing code and the
  page's session, with the rulesets; no window, pygame or pymunk) and PyYAML's pure-Python
  files as a wheel (both ``py3-none-any``, unpacked into the page's Python from the folder),
  each with its modules' bytecode for the page's Python (:mod:`game.live.bytecode`);
* ``fonts.json``: the text metrics table (:mod:`game.render.font_table`: the page has no Pillow),
  ``fonts/``: the shipped DejaVu Sans for the page's text;
* ``pyodide/``: the Pyodide runtime copied from the pinned npm package (``package.json`` at
  the root, ``npm ci``); nothing is fetched from elsewhere at build or view time.

Raises :class:`LiveError` (one line) when the runtime is not installed or the folder cannot be
written, or holds files that are not a live page's (:func:`check_folder`).
"""
from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

from game.core import paths
from game.core.analyse import analyse
from game.core.board import Board
from game.core.compare import usable
from game.core.ruleset import load_ruleset
from game.core.scenario import dump_scenario
from game.live.bytecode import compile_pyc
from game.live.frame import first_frame, static_svg
from game.live.session import unit_models
from game.live.steps import LiveStep, demo_steps, phase_steps, write_steps
from game.live.page import page_html
from game.render.text_metrics import pil_font
from game.render.font_table import build_table
from game.render.glyphs import covered
from game.render.html_page import hover_map
from game.core.ruleset import ruleset_name

ROOT = Path(__file__).resolve().parents[2]
#: The runtime files the page loads (from the npm package ``pyodide``).
RUNTIME = ("pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: The packages of the project's wheel: what the page imports (no window, physics or command line).
PACKAGES = ("core", "engines", "render", "figures", "live")


class LiveError(Exception):
    """A live folder that cannot be built; ``str()`` is one line."""


@dataclass
class Built:
    """What :func:`build` wrote: the folder, its size in bytes, the wheels' names."""

    folder: Path
    size_bytes: int
    wheels: list


def runtime_dir() -> Path:
    """The installed npm package ``pyodide`` (``MELEE_PYODIDE_DIR`` overrides). Raises :class:`LiveError`."""
    d = Path(os.environ.get("MELEE_PYODIDE_DIR") or ROOT / "node_modules" / "pyodide")
    missing = [f for f in RUNTIME if not (d / f).is_file()]
    if missing:
        raise LiveError(f"the Pyodide runtime is not installed ({d / missing[0]} is missing): run `npm ci` "
                        f"in {ROOT} (package.json pins it)")
    return d


def _wheel(path: Path, name: str, version: str, files: dict[str, bytes]) -> Path:
    """Write a ``py3-none-any`` wheel of ``files`` ``{archive path: bytes}`` (plus its dist-info),
    its entries stored: the page reads them out without inflating (CPU, not bytes, is what a
    page's start waits for; a host may compress the transfer)."""
    dist = f"{re.sub(r'[^A-Za-z0-9.]+', '_', name)}-{version}"
    info = f"{dist}.dist-info"
    files = dict(files)
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: melee-lens live\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = []
    for arc, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{arc},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    out = path / f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for arc in sorted(files):
            info_ = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            info_.compress_type = zipfile.ZIP_STORED   # the page slices files out, inflating nothing
            z.writestr(info_, files[arc])
    return out


def own_files() -> dict[str, bytes]:
    """The project's wheel's files ``{archive path: bytes}``: ``game/__init__.py``, :data:`PACKAGES`
    and the rulesets as ``game/_data``."""
    game = ROOT / "game"
    files = {"game/__init__.py": (game / "__init__.py").read_bytes()}
    for pkg in PACKAGES:
        for p in sorted((game / pkg).rglob("*.py")):
            files[p.relative_to(ROOT).as_posix()] = p.read_bytes()
    for p in sorted(paths.RULESET_DIR.rglob("*.yaml")):
        files["game/_data/rulesets/" + p.relative_to(paths.RULESET_DIR).as_posix()] = p.read_bytes()
    return files


def yaml_files() -> dict[str, bytes]:
    """PyYAML's pure-Python files (its C speed-up left out) ``{archive path: bytes}``."""
    import yaml

    src = Path(yaml.__file__).parent
    return {f"yaml/{p.name}": p.read_bytes() for p in sorted(src.glob("*.py"))}


def wheels(folder: Path, runtime: Path) -> list[Path]:
    """The project's wheel and PyYAML's, written into ``folder``, each with its modules'
    bytecode for the page's Python (:mod:`game.live.bytecode`; sources only without Node)."""
    own, yml = own_files(), yaml_files()
    pyc = compile_pyc(runtime, {**own, **yml})
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    return [_wheel(folder, "melee_lens", version, {**own, **{a: b for a, b in pyc.items() if a.startswith("game/")}}),
            _wheel(folder, "PyYAML", importlib.metadata.version("PyYAML"),
                   {**yml, **{a: b for a, b in pyc.items() if a.startswith("yaml/")}})]


def page_chars(scenario_text: str) -> set[str]:
    """Every character the page may measure: printable ASCII, the scenario's, the rulesets' and
    those in the drawing and rules code's own texts."""
    chars = {chr(i) for i in range(32, 127)} | set(scenario_text)
    sources = list(paths.RULESET_DIR.rglob("*.yaml")) + [p for pkg in PACKAGES for p in (ROOT / "game" / pkg).rglob("*.py")]
    for p in sources:
        chars |= {c for c in p.read_text(encoding="utf-8") if ord(c) > 126}
    return {c for c in chars if c.isprintable()}


def _folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def build(scenario: str | os.PathLike, out: str | os.PathLike, board: Board) -> Built:
    """Write the live folder of ``board`` (loaded from the scenario file ``scenario``) into
    ``out`` (see the module doc). Raises :class:`LiveError`, ``RulesetError``, ``FigureError``."""
    return build_board(out, board, Path(scenario).read_bytes())


def build_board(out: str | os.PathLike, board: Board, text: Optional[bytes] = None) -> Built:
    """The live folder of ``board``; ``text`` the scenario file's bytes (written as they are;
    None: the board written as scenario YAML, what the window shows). A board whose ruleset
    steps through a phase carries those steps as computed here (the page shows them when its
    engine cannot run in the browser). Raises as :func:`build`."""
    an = analyse(board, load_ruleset(board.ruleset))
    return _write(out, board, an, text if text is not None else dump_scenario(board).encode("utf-8"),
                  phase_steps(board, an), demo=False, title=board.title or "Melee Lens")


def build_demo(out: str | os.PathLike, built: Sequence[Any], title: str) -> Built:
    """The live folder of a built demo (``built``: :func:`game.core.demo.build_steps`): its steps
    in the page, each draggable from where the demo left it. Raises as :func:`build`, and
    :class:`LiveError` for a demo without steps."""
    steps = demo_steps(built)
    if not steps:
        raise LiveError("the demo has no steps")
    first = steps[0]
    return _write(out, first.board, first.analysis, dump_scenario(first.board).encode("utf-8"), steps,
                  demo=True, title=title or "Melee Lens demo")


def _write(out: str | os.PathLike, board: Board, an: Any, text: bytes, steps: list[LiveStep], *,
           demo: bool, title: str) -> Built:
    rt = runtime_dir()
    folder = Path(out)
    check_folder(folder)
    marks = steps[0].marks if demo else None   # a demo opens on its first step, marks and all
    frame = first_frame(board, an, marks)
    svg = static_svg(board, an, marks)
    rulesets = usable(board, paths.available(), keep=board.ruleset)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for sub in ("wheels", "pyodide", "fonts", "steps"):
            shutil.rmtree(folder / sub, ignore_errors=True)
            (folder / sub).mkdir()
        built = wheels(folder / "wheels", rt)
        for f in RUNTIME:
            shutil.copyfile(rt / f, folder / "pyodide" / f)
        for f in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVu-LICENSE.txt"):
            shutil.copyfile(paths.FONT_DIR / f, folder / "fonts" / f)
        (folder / "scenario.yaml").write_bytes(text)
        entries, drawn = write_steps(steps, folder, unit_models)
        chars = text.decode("utf-8", "replace") + title + "".join(
            e["caption"] + e["why"] + ((folder / e["scenario"]).read_text(encoding="utf-8") if e["scenario"] else "")
            for e in entries)
        table = build_table(page_chars(chars), pil_font, covered())
        (folder / "fonts.json").write_text(json.dumps(table, separators=(",", ":"), sort_keys=True), encoding="utf-8")
        every = sorted(set(rulesets).union(*(e["rulesets"] for e in entries)))
        config = {"scenario": "scenario.yaml", "fonts": "fonts.json", "size_px": list(frame.size_px),
                  "box_mm": list(frame.box_mm), "rulesets": rulesets, "ruleset": board.ruleset,
                  "ruleset_names": {r: ruleset_name(r) for r in every},
                  "steps": entries, "demo": demo, "wheels": [f"wheels/{w.name}" for w in built]}
        (folder / "live.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
        page = page_html(title, svg, hover_map(board, an), unit_models(board, an), config, drawn)
        (folder / "index.html").write_text(page, encoding="utf-8")
    except OSError as exc:
        raise LiveError(f"cannot write {folder}: {exc.strerror or exc}") from None
    return Built(folder, _folder_size(folder), [w.name for w in built])


def check_folder(folder: Path) -> None:
    """Refuse (:class:`LiveError`) a ``folder`` that is a file, or a folder holding files that are
    not a live page's (no ``live.json``): writing a page replaces its ``wheels/``, ``pyodide/``,
    ``fonts/`` and ``steps/``, and a user's own files there must never be lost."""
    if folder.exists() and not folder.is_dir():
        raise LiveError(f"{folder} is a file; give a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / "live.json").is_file():
        raise LiveError(f"{folder} holds other files and no live page; give a new or empty folder")
