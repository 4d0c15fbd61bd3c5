"""The architecture holds: imports run one way and a whfb8 command loads only what it needs.

* No import cycle among the modules of ``game``, counting imports anywhere in a file (inside
  functions and ``TYPE_CHECKING`` blocks too): ``tests/tools/import_cycles.py`` (a copy of the
  shared tool, so this runs without ``../shared``).
* ``game.render`` never imports ``game.figures`` nor ``game.window``; ``game.figures`` (the
  figure pipelines that analyse) not the window; ``game.core`` imports none of them, nor the CLI,
  nor an engine (``game.engines`` installs its discovery in the core's registry).
* Whole-process ``main.py analyse SMALL_whfb8.yaml --json`` imports neither scipy, shapely nor
  another engine than ``rank_and_file`` (the registry imports an engine when a ruleset names it).
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tests" / "tools" / "import_cycles.py"
SMALL = ROOT / "tests" / "golden" / "whfb8_equal_initiative.yaml"


def _cycles(root: Path) -> list[str]:
    out = subprocess.run([sys.executable, str(TOOL), str(root), "game"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()


def test_no_import_cycle_counting_imports_inside_functions():
    lines = _cycles(ROOT)
    assert lines[-1].startswith("0 import cycles"), "\n".join(lines)


def test_the_cycle_check_finds_a_cycle_hidden_in_a_function(tmp_path):
    """The tool itself: a cycle made only by an import inside a function is reported."""
    pkg = tmp_path / "game"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from game import b\n")
    (pkg / "b.py").write_text("def f():\n    from game.a import x\n")
    assert _cycles(tmp_path)[-1].startswith("1 import cycles")


def test_the_cycle_check_follows_import_module(tmp_path):
    """A module that imports another by ``importlib.import_module`` (a name, or an f-string
    naming a package's modules) closes a cycle the check reports."""
    pkg = tmp_path / "game"
    (pkg / "engines").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "reg.py").write_text("import importlib\ndef load(n):\n    importlib.import_module(f'game.engines.{n}')\n")
    (pkg / "engines" / "__init__.py").write_text("")
    (pkg / "engines" / "one.py").write_text("from game.reg import load\n")
    assert _cycles(tmp_path)[-1].startswith("1 import cycles")
    (pkg / "reg.py").write_text("from importlib import import_module\nimport_module('game.engines.one')\n")
    assert _cycles(tmp_path)[-1].startswith("1 import cycles")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_imports_run_one_way_between_packages():
    """core -> nothing above it (not the engines either); render -> not figures, window, cli;
    figures (the pipelines that analyse, above render) -> not window, cli; window -> not cli."""
    above = {"core": ("game.engines", "game.figures", "game.render", "game.window", "game.cli", "game.physics"),
             "render": ("game.figures", "game.window", "game.cli"), "figures": ("game.window", "game.cli"),
             "window": ("game.cli",),
             "engines": ("game.render", "game.window", "game.cli", "game.physics")}
    bad = []
    for pkg, banned in above.items():
        for f in sorted((ROOT / "game" / pkg).rglob("*.py")):
            for name in _imports(f):
                if name.startswith(banned):
                    bad.append(f"{f.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)


def test_a_whfb8_analysis_imports_neither_scipy_shapely_nor_another_engine():
    code = ("import json, runpy, sys\n"
            f"sys.argv = ['main.py', 'analyse', {str(SMALL)!r}, '--json']\n"
            "try:\n"
            f"    runpy.run_path({str(ROOT / 'main.py')!r}, run_name='__main__')\n"
            "except SystemExit as e:\n"
            "    assert not e.code, e.code\n"
            "sys.stderr.write(json.dumps(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["models"], "the analysis ran"
    mods = json.loads(out.stderr.strip().splitlines()[-1])
    assert "game.engines.rank_and_file" in mods
    heavy = [m for m in mods if m.split(".")[0] in {"scipy", "shapely", "pygame", "pymunk", "pygame_gui", "PIL"}
             or (m.startswith("game.engines.") and not m.startswith("game.engines.rank_and_file"))
             or m.startswith(("game.render", "game.window", "game.physics"))]
    assert not heavy, heavy
    # only what an analysis reads: not The Old World's policies (policy.LAZY), the combat round's
    # step-through, --compare or saving
    unused = {"game.engines.rank_and_file.tow", "game.engines.rank_and_file.tow_rules", "game.core.combat_round",
              "game.core.compare", "game.core.savefile", "game.core.yamlpatch", "tempfile"}
    assert not unused & set(mods), sorted(unused & set(mods))


def test_geometry_is_written_once():
    """One inch (``geometry.MM_PER_INCH``), one model id -> unit id (``board.unit_of``): no
    module defines 25.4 again or splits a model id by hand."""
    import re

    split = re.compile(r"[A-Za-z_][\w\]]*\.split\(\"\.\", 1\)\[0\]")
    inch = re.compile(r"[=*/(,]\s*25\.4\b")  # 25.4 as a number in code (not a word in a docstring)
    bad = []
    for f in sorted((ROOT / "game").rglob("*.py")):
        rel = f.relative_to(ROOT).as_posix()
        text = f.read_text()
        if rel != "game/core/board.py":
            bad += [f"{rel}: {m.group(0)}" for m in split.finditer(text)]
        if rel != "game/core/geometry.py":
            bad += [f"{rel}: uses 25.4 ({m.group(0)!r}); use geometry.MM_PER_INCH" for m in inch.finditer(text)]
    assert not bad, "\n".join(bad)


_NOT_STATE = {"Protocol", "Generic", "Exception", "ValueError", "NamedTuple", "Enum", "str", "int", "float"}


def mixin_classes(root: Path) -> list[str]:
    """Classes under ``root`` with two or more base classes that could share one ``self``
    (bases other than typing ``Protocol``/``Generic``, exceptions and value types): the render
    painter was ``_Painter(LabelPainter, LegendPainter, WindowPainter)`` on one ``self``."""
    out = []
    for f in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ClassDef):
                names = [ast.unparse(b).split("[")[0].split(".")[-1] for b in node.bases]
                if len([n for n in names if n not in _NOT_STATE]) > 1:
                    out.append(f"{f.relative_to(root)}: class {node.name}({', '.join(names)})")
    return out


def test_no_class_mixes_layers_on_one_self():
    """Split by job: the painter's layers are modules of functions on one typed ``Paint``
    (game/render/painter.py), the window's views own their sections; no class in ``game``
    inherits from two classes sharing state."""
    assert not mixin_classes(ROOT / "game"), "\n".join(mixin_classes(ROOT / "game"))


def test_the_mixin_check_finds_a_mixin(tmp_path):
    (tmp_path / "m.py").write_text("class A:\n    pass\n\n\nclass B:\n    pass\n\n\nclass C(A, B):\n    pass\n"
                                   "class P(Protocol, Generic[T]):\n    pass\n")
    assert mixin_classes(tmp_path) == ["m.py: class C(A, B)"]


def reexports(root: Path) -> list[str]:
    """Imports kept only to be imported from here (``# noqa: F401`` that is not a module
    imported for its registrations): a re-export shim."""
    out = []
    for f in sorted(root.rglob("*.py")):
        for i, line in enumerate(f.read_text().splitlines(), start=1):
            if "noqa: F401" in line and "registers" not in line:
                out.append(f"{f.relative_to(root)}:{i}: {line.strip()}")
    return out


def test_no_reexport_shims():
    """A name is imported from the module that defines it (scene.py re-exported SceneOptions,
    session.py the recovery helpers, legend.py part marks, analysis.py Ruleset)."""
    assert not reexports(ROOT / "game"), "\n".join(reexports(ROOT / "game"))


def test_the_reexport_check_finds_one(tmp_path):
    (tmp_path / "a.py").write_text("from b import X  # noqa: F401 (re-exported)\nimport c  # noqa: F401 registers c\n")
    assert reexports(tmp_path) == ["a.py:1: from b import X  # noqa: F401 (re-exported)"]
