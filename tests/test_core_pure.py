"""The rules core (game/core) and the engines (game/engines) import neither pygame nor pymunk,
directly or indirectly."""
import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "game" / "core"
ENGINES = ROOT / "game" / "engines"
FORBIDDEN = {"pygame", "pymunk", "pygame_gui"}


def test_no_forbidden_import_statements():
    offenders = []
    for path in [*CORE.rglob("*.py"), *ENGINES.rglob("*.py")]:
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for n in names:
                if n.split(".")[0] in FORBIDDEN:
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {n}")
    assert not offenders, offenders


def test_importing_and_running_core_loads_no_pygame_or_pymunk():
    """Import every core module and analyse a scenario in a fresh interpreter; check sys.modules."""
    code = (
        "import sys, pkgutil, importlib, game.core, game.engines\n"
        "for m in pkgutil.walk_packages(game.core.__path__, 'game.core.'): importlib.import_module(m.name)\n"
        "for m in pkgutil.walk_packages(game.engines.__path__, 'game.engines.'): importlib.import_module(m.name)\n"
        "from game.core.scenario import load_scenario\n"
        "from game.core.analyse import analyse\n"
        "import glob\n"
        "for f in sorted(glob.glob('tests/golden/*.yaml')): analyse(load_scenario(f))\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'pygame', 'pymunk', 'pygame_gui'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"core pulled in: {out.stdout.strip()}"
