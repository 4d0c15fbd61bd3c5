"""The renderer is a function of what it is handed (issue 35, "a pure renderer").

* Nothing in ``game/render`` imports, directly or through the modules it imports, the ruleset
  loader (``game.core.ruleset``), the analyse entry point (``game.core.analyse``) or what calls
  them (``game.core.compare``, ``game.core.demo``, the registry): the figure pipelines that
  analyse live above it, in ``game/figures``. Counted statically over every import in a file
  (inside functions and ``TYPE_CHECKING`` blocks too), as the cycle check counts them.
* The title bar names the ruleset by the display name it is handed
  (``SceneOptions.ruleset_name``), never by loading the ruleset.
* A part the renderer cannot draw raises (:class:`game.render.drawers.NoDrawer`), unless its type
  says it is only written to the JSON (``json_only``); every part type the core and the engines
  define is one or the other.
"""
from __future__ import annotations

import ast
import importlib
import pkgutil
from collections import deque
from pathlib import Path
from typing import ClassVar

import pytest

from game.core.analysis import Analysis
from game.core.board import Board
from game.core.parts import Part
from game.core.record import record
from game.core.scenario import load_scenario
from game.render.canvas import RecordingCanvas
from game.render.drawers import NoDrawer, drawer_of
from game.render.options import SceneOptions
from game.render.scene import draw_scene
from game.render.transform import View

ROOT = Path(__file__).resolve().parents[1]
BOARD = ROOT / "tests" / "golden" / "t9a_gap_in_front_rank.yaml"
#: what loads a ruleset or analyses a board (the renderer is handed the results instead)
BANNED = ("game.core.ruleset", "game.core.analyse", "game.core.compare", "game.core.demo", "game.core.registry",
          "game.core.combat_round", "game.engines", "game.figures")


def _banned(name: str) -> bool:
    return any(name == b or name.startswith(b + ".") for b in BANNED)


def _modules(root: Path) -> dict[str, Path]:
    out = {}
    for f in (root / "game").rglob("*.py"):
        parts = list(f.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The ``game`` modules ``path`` imports anywhere in the file (``from a import b`` counts
    module ``a.b`` when that is a module)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return {n for n in names if n in known or (_banned(n) and not _banned(n.rpartition('.')[0]))}


def banned_reached(root: Path, package: str = "game.render") -> list[str]:
    """Each banned module the modules of ``package`` reach, with the chain of imports that
    reaches it (``game.core.analyse <- game.render.book``)."""
    known = _modules(root)
    parent: dict[str, str] = {}
    todo = deque(m for m in sorted(known) if m == package or m.startswith(package + "."))
    seen = set(todo)
    out = []
    while todo:
        m = todo.popleft()
        if _banned(m):
            chain = [m]
            while chain[-1] in parent:
                chain.append(parent[chain[-1]])
            out.append(" <- ".join(chain))
            continue
        for n in sorted(_imports(known[m], known)):
            if n not in seen:
                seen.add(n)
                parent[n] = m
                todo.append(n)
    return out


def test_render_reaches_neither_the_ruleset_loader_nor_analyse():
    bad = banned_reached(ROOT)
    assert not bad, "\n".join(bad)


def test_the_check_finds_a_loader_reached_through_another_module(tmp_path):
    """The check itself: render -> a core module -> the ruleset loader is reported."""
    for d in ("game", "game/render", "game/core"):
        (tmp_path / d).mkdir(parents=True, exist_ok=True)
        (tmp_path / d / "__init__.py").write_text("")
    (tmp_path / "game/core/ruleset.py").write_text("def load_ruleset(i):\n    pass\n")
    (tmp_path / "game/core/helper.py").write_text("def f():\n    from game.core.ruleset import load_ruleset\n")
    (tmp_path / "game/render/scene.py").write_text("from game.core import helper\n")
    assert banned_reached(tmp_path) == ["game.core.ruleset <- game.core.helper <- game.render.scene"]


def noting_loads(monkeypatch: pytest.MonkeyPatch) -> list:
    """A list that notes every ruleset load from now on, however the loader was imported
    (``load_ruleset`` reads its cache first; a load still returns the ruleset)."""
    import game.core.ruleset as loader

    loaded: list = []

    class Noting(dict):
        def get(self, key, default=None):  # type: ignore[override]
            loaded.append(key)
            return super().get(key, default)

    monkeypatch.setattr(loader, "_cache", Noting(loader._cache))
    return loaded


def _titled(board: Board, options: SceneOptions) -> list[str]:
    canvas = RecordingCanvas(1200, 800)
    errors = draw_scene(canvas, board, None, View(), options=options)
    assert not errors, errors
    return [c.args[1] for c in canvas.find("text", "title")]


def test_the_title_names_the_ruleset_by_the_name_it_is_handed(monkeypatch):
    board = load_scenario(BOARD)
    loaded = noting_loads(monkeypatch)
    texts = _titled(board, SceneOptions(wrap_title=True, title="A title", ruleset_name="The Handed Name"))
    assert "The Handed Name" in texts, texts
    assert "t9a" in _titled(board, SceneOptions(wrap_title=True, title="A title"))  # not looked up: the id
    assert "ruleset: t9a" in _titled(board, SceneOptions(title="A title"))  # the window names the id
    assert not loaded, loaded


@record
class _Undrawable(Part):
    key: ClassVar[str] = "undrawable"
    n: int = 0


@record
class _JsonOnly(Part):
    key: ClassVar[str] = "json_only_test"
    json_only: ClassVar[bool] = True
    n: int = 0


def _analysed_with(part: Part) -> Analysis:
    a = Analysis(ruleset="t9a")
    a.parts.put(part)
    return a


def test_a_part_with_no_drawer_raises():
    board = load_scenario(BOARD)
    with pytest.raises(NoDrawer, match="_Undrawable"):
        draw_scene(RecordingCanvas(1200, 800), board, _analysed_with(_Undrawable(1)), View())


def test_a_json_only_part_is_not_drawn_and_does_not_raise():
    board = load_scenario(BOARD)
    assert draw_scene(RecordingCanvas(1200, 800), board, _analysed_with(_JsonOnly(1)), View()) == []
    assert drawer_of(_JsonOnly) is None


def _subclasses(kind: type) -> list[type]:
    out = []
    for sub in kind.__subclasses__():
        out += [sub] + _subclasses(sub)
    return out


def test_every_part_type_of_the_core_and_the_engines_is_drawn_or_json_only():
    import game.engines
    import game.render.part_marks  # noqa: F401 - registers the drawers of the core part types

    for info in pkgutil.walk_packages(game.engines.__path__, "game.engines."):
        if info.name.endswith(".parts"):
            importlib.import_module(info.name)
    bad = []
    for kind in _subclasses(Part):
        if kind.__module__.startswith(("game.core", "game.engines")):
            try:
                drawer_of(kind)
            except NoDrawer as exc:
                bad.append(str(exc))
    assert not bad, "\n".join(bad)


def test_a_figure_of_an_analysed_board_loads_no_ruleset(monkeypatch):
    """The figure drawing (layout, legend, title, marks) of a board handed with its analysis
    and the ruleset's name reads no ruleset file: the name in the title is the one handed."""
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.render.figure import FigureOptions, svg_text

    board = load_scenario(BOARD)
    analysis = analyse(board, load_ruleset(board.ruleset))
    loaded = noting_loads(monkeypatch)
    text, errors = svg_text(board, analysis, FigureOptions(format="svg", title="A title", ruleset_name="Handed Rules"),
                            (1200, 800))
    assert not errors, errors
    assert "Handed Rules" in text
    assert not loaded, loaded
