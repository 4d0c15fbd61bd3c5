"""``python main.py live FILE -o DIR``: the folder of a live page (any static host serves it).

:func:`build` writes into ``DIR``:

* ``index.html``: the page (:mod:`game.live.page`), the static figure inline (the SVG
  ``render FILE -o x.svg`` writes, shown at once) with its hover texts;
* ``scenario.yaml``: the scenario file, byte for byte;
* ``live.json``: what the page's Python reads (:func:`game.live.session.start`);
* ``wheels/``: the project's own wheel (the rules core, the engines, the drawing code and the
  page's session, with the rulesets; no window, pygame or pymunk) and PyYAML's pure-Python
  files as a wheel (both ``py3-none-any``, unpacked into the page's Python from the folder);
* ``fonts.json``: the text metrics table (:mod:`game.render.font_table`: the page has no Pillow),
  ``fonts/``: the shipped DejaVu Sans for the page's text;
* ``pyodide/``: the Pyodide runtime copied from the pinned npm package (``package.json`` at
  the root, ``npm ci``); nothing is fetched from elsewhere at build or view time.

Raises :class:`LiveError` (one line) when the runtime is not installed or the folder cannot be written.
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

from game.core import paths
from game.core.analyse import analyse
from game.core.board import Board
from game.core.compare import usable
from game.core.ruleset import load_ruleset
from game.live.frame import first_frame, static_svg
from game.live.session import unit_models
from game.live.page import page_html
from game.render.text_metrics import pil_font
from game.render.font_table import build_table
from game.render.glyphs import covered
from game.render.html_page import hover_map

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
    """Write a ``py3-none-any`` wheel of ``files`` ``{archive path: bytes}`` (plus its dist-info)."""
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
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for arc in sorted(files):
            info_ = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            info_.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info_, files[arc])
    return out


def own_wheel(folder: Path) -> Path:
    """The project's wheel: ``game/__init__.py``, :data:`PACKAGES` and the rulesets as ``game/_data``."""
    game = ROOT / "game"
    files = {"game/__init__.py": (game / "__init__.py").read_bytes()}
    for pkg in PACKAGES:
        for p in sorted((game / pkg).rglob("*.py")):
            files[p.relative_to(ROOT).as_posix()] = p.read_bytes()
    for p in sorted(paths.RULESET_DIR.rglob("*.yaml")):
        files["game/_data/rulesets/" + p.relative_to(paths.RULESET_DIR).as_posix()] = p.read_bytes()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    return _wheel(folder, "melee_lens", version, files)


def yaml_wheel(folder: Path) -> Path:
    """PyYAML's pure-Python files (its C speed-up left out) as a wheel."""
    import yaml

    src = Path(yaml.__file__).parent
    files = {f"yaml/{p.name}": p.read_bytes() for p in sorted(src.glob("*.py"))}
    return _wheel(folder, "PyYAML", importlib.metadata.version("PyYAML"), files)


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
    """Write the live folder of ``board`` (loaded from ``scenario``) into ``out`` (see the module
    doc). Raises :class:`LiveError`, ``RulesetError``, ``FigureError``."""
    rt = runtime_dir()
    folder = Path(out)
    an = analyse(board, load_ruleset(board.ruleset))
    frame = first_frame(board, an)
    svg = static_svg(board, an)
    text = Path(scenario).read_bytes()
    rulesets = usable(board, paths.available(), keep=board.ruleset)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for sub in ("wheels", "pyodide", "fonts"):
            shutil.rmtree(folder / sub, ignore_errors=True)
            (folder / sub).mkdir()
        wheels = [own_wheel(folder / "wheels"), yaml_wheel(folder / "wheels")]
        for f in RUNTIME:
            shutil.copyfile(rt / f, folder / "pyodide" / f)
        for f in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVu-LICENSE.txt"):
            shutil.copyfile(paths.FONT_DIR / f, folder / "fonts" / f)
        (folder / "scenario.yaml").write_bytes(text)
        table = build_table(page_chars(text.decode("utf-8", "replace")), pil_font, covered())
        (folder / "fonts.json").write_text(json.dumps(table, separators=(",", ":"), sort_keys=True), encoding="utf-8")
        config = {"scenario": "scenario.yaml", "fonts": "fonts.json", "size_px": list(frame.size_px),
                  "box_mm": list(frame.box_mm), "rulesets": rulesets, "ruleset": board.ruleset,
                  "wheels": [f"wheels/{w.name}" for w in wheels]}
        (folder / "live.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
        page = page_html(board.title or "Melee Lens", svg, hover_map(board, an), unit_models(board, an), config)
        (folder / "index.html").write_text(page, encoding="utf-8")
    except OSError as exc:
        raise LiveError(f"cannot write {folder}: {exc.strerror or exc}") from None
    return Built(folder, _folder_size(folder), [w.name for w in wheels])
