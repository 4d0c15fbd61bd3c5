"""``pip install .`` gives a ``melee-lens`` command that finds its data outside a checkout.

The build step (``setup.py``'s ``build_py``) is run on a copy of the project in a temporary
folder (no network, nothing written in the checkout); the built package is then imported
from another folder, where ``game/core/paths.py`` must find the rulesets, scenarios and fonts
copied into ``game/_data`` and ``analyse --json`` must give the checkout's answer.
(The full ``pip install .`` into a fresh virtual environment is what the issue's note
records; it needs the package registry, so it is not a test.)
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "tests" / "golden" / "whfb8_equal_initiative.yaml"


def test_the_console_command_is_main():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["scripts"]["melee-lens"] == "game.cli.main:main"
    import main
    from game.cli.main import main as entry

    assert main.main is entry


def _build(tmp_path: Path) -> Path:
    """``setup.py build_py`` on a copy of the project; returns the built library folder."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "requirements.txt", "README.md"):
        shutil.copy(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "_data")
    for name in ("game", "rulesets", "assets"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    lib = tmp_path / "lib"
    out = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(lib)], cwd=src,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return lib


def test_a_built_package_finds_its_data_outside_the_checkout(tmp_path):
    lib = _build(tmp_path)
    data = lib / "game" / "_data"
    assert (data / "rulesets" / "whfb8.yaml").is_file() and (data / "assets" / "fonts" / "DejaVuSans.ttf").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import json, sys\n"
            "from game.core import paths\n"
            "from game.cli.main import main\n"
            "print(json.dumps([str(paths.DATA_ROOT), str(paths.DEFAULT_SCENARIO), str(paths.FONT_DIR)]))\n"
            f"sys.exit(main(['analyse', {str(SMALL)!r}, '--json', '--compact']))\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": str(lib), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})
    assert run.returncode == 0, run.stderr
    first, rest = run.stdout.split("\n", 1)
    root, scenario, fonts = json.loads(first)
    assert Path(root) == data and Path(scenario).is_file() and Path(fonts).is_dir()
    here = subprocess.run([sys.executable, str(ROOT / "main.py"), "analyse", str(SMALL), "--json", "--compact"],
                          capture_output=True, text=True, timeout=120)
    assert json.loads(rest) == json.loads(here.stdout)


BOOK = ROOT / "assets" / "book.yaml"


def _book_files(book: Path) -> list[Path]:
    from game.figures.book import load_book
    out = []
    for f in load_book(book)[1]:
        out += [p.scenario or p.demo for p in f.panels] if f.panels else [f.scenario]
    return [Path(p) for p in out if p is not None]


def test_the_book_names_only_files_inside_assets():
    """Every scenario and demo the bundled book draws is a file under ``assets/`` (it named
    ``../tests/golden/`` before, which an installed package does not have); the golden ones are
    copies of ``tests/golden`` kept equal, so a fix to one is not lost in the other."""
    assets = (ROOT / "assets").resolve()
    files = _book_files(BOOK)
    assert len(files) > 60
    outside = [str(p) for p in files if assets not in p.resolve().parents or not p.is_file()]
    assert not outside, outside
    for p in (ROOT / "assets" / "scenarios" / "golden").glob("*.yaml"):
        assert p.read_bytes() == (ROOT / "tests" / "golden" / p.name).read_bytes(), p.name


def test_render_book_from_a_built_package_in_another_folder(tmp_path):
    """``melee-lens render-book <installed book> -o OUT`` run outside the checkout draws figures
    of bundled and golden scenarios (two of them: the whole book takes minutes)."""
    lib = _build(tmp_path)
    book = lib / "game" / "_data" / "assets" / "book.yaml"
    assert all(lib in p.resolve().parents for p in _book_files(book))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for only in ("golden/whfb8_rear_gap", "scenarios/wh40k_pile_in"):
        run = subprocess.run([sys.executable, "-c", "import sys\nfrom game.cli.main import main\nsys.exit(main(sys.argv[1:]))",
                              "render-book", str(book), "-o", "out", "--only", only, "--quiet"], cwd=elsewhere,
                             capture_output=True, text=True, timeout=300,
                             env={"PYTHONPATH": str(lib), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1",
                                  "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
        assert run.returncode == 0, run.stderr
        assert (elsewhere / "out" / f"{only}.png").stat().st_size > 10_000
