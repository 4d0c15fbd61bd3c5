"""Where the shipped data lives: ``rulesets/`` and ``assets/`` (scenarios, demos, fonts, book).

In a checkout they sit beside the ``game`` package (the repository root). An installed copy
(``pip install .``) carries them inside the package as ``game/_data/{rulesets,assets}`` (the
build copies them there, see ``setup.py``). :data:`DATA_ROOT` is whichever of the two holds
``rulesets/``; every module finds shipped files through it, never through its own path.

* :data:`RULESET_DIR`, :data:`ASSETS_DIR`, :data:`FONT_DIR`, :data:`DEFAULT_SCENARIO`;
* :func:`available` -> ids of the shipped rulesets;
* :func:`display_path` -> ``rulesets/whfb8.yaml`` for a shipped file, else the path as given;
* :func:`out_dir` -> where commands write when the user named no file (``./out``).
"""
from __future__ import annotations

from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]
_INSTALLED = Path(__file__).resolve().parents[1] / "_data"

#: The folder holding ``rulesets/`` and ``assets/`` (a checkout's root, or the installed data).
DATA_ROOT = _CHECKOUT if (_CHECKOUT / "rulesets").is_dir() else _INSTALLED
RULESET_DIR = DATA_ROOT / "rulesets"
ASSETS_DIR = DATA_ROOT / "assets"
FONT_DIR = ASSETS_DIR / "fonts"
DEFAULT_SCENARIO = ASSETS_DIR / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def available(directory: Path | None = None) -> list[str]:
    """Ids of the rulesets shipped in ``rulesets/`` (or ``directory``), sorted."""
    return sorted(p.stem for p in (directory or RULESET_DIR).glob("*.yaml"))


def display_path(path: Path) -> str:
    """``rulesets/whfb8.yaml`` for a shipped file (relative to :data:`DATA_ROOT`), else the
    path as given."""
    try:
        return str(path.resolve().relative_to(DATA_ROOT))
    except ValueError:
        return str(path)


def out_dir() -> Path:
    """Where a command writes when no output file was named: ``out/`` in a checkout (as
    before), ``./out`` of the current folder for an installed copy."""
    return _CHECKOUT / "out" if DATA_ROOT == _CHECKOUT else Path.cwd() / "out"
