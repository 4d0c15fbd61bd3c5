"""The pure-Python array path (game.core.arrays): the same ``analyse --json`` bytes as numpy.

Every golden, bundled and fixture scenario of the rank-and-file and slots engines (whfb8, t9a,
tow, tow_2024, slots; the conformance cases copied into tests/fixtures/conformance) is analysed
in one subprocess where numpy and scipy cannot be imported (a ``sys.meta_path`` finder refuses
them) and in one with numpy, each file as ``analyse FILE --json`` prints it; the texts must
be the same bytes."""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BLOCK = (
    "import sys\n"
    "class _No:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.split('.')[0] in ('numpy', 'scipy'):\n"
    "            raise ImportError('numpy blocked')\n"
    "sys.meta_path.insert(0, _No())\n"
)
#: analyse each ``FILE[@RULESET]`` named on the command line as ``analyse FILE --json [--ruleset
#: RULESET]`` would; print a JSON list of ``[exit status, stdout text]``, and whether numpy was imported
RUN = (
    "import contextlib, io, json, sys\n"
    "sys.path.insert(0, '.')\n"
    "from game.cli.main import main\n"
    "out = []\n"
    "for a in sys.argv[1:]:\n"
    "    f, _, rid = a.partition('@')\n"
    "    buf = io.StringIO()\n"
    "    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):\n"
    "        rc = main(['analyse', f, '--json'] + (['--ruleset', rid] if rid else []))\n"
    "    out.append([rc, buf.getvalue()])\n"
    "print(json.dumps({'numpy': 'numpy' in sys.modules, 'out': out}))\n"
)
RULES = ("whfb8", "t9a", "tow", "tow_2024", "slots")
RANK_AND_FILE = ("whfb8", "t9a", "tow", "tow_2024")


def _ruleset(path: pathlib.Path) -> str:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return str(data.get("ruleset", "")) if isinstance(data, dict) else ""


def files() -> list[pathlib.Path]:
    """Every scenario file of the rank-and-file and slots rule systems the suite holds."""
    found = [*sorted((ROOT / "tests" / "golden").glob("*.yaml")), *sorted((ROOT / "assets" / "scenarios").rglob("*.yaml")),
             *sorted((ROOT / "tests" / "fixtures").rglob("*.yaml"))]
    return [p for p in found if _ruleset(p) in RULES]


def cases() -> list[str]:
    """``FILE`` for each of :func:`files`, and ``FILE@RULESET`` for a rank-and-file file under
    each other rank-and-file ruleset (no tow_2024 file is bundled: the tow files run under it)."""
    out = []
    for p in files():
        out.append(str(p))
        if _ruleset(p) in RANK_AND_FILE:
            out += [f"{p}@{rid}" for rid in RANK_AND_FILE if rid != _ruleset(p)]
    return out


def _analyse_all(paths: list[str], blocked: bool) -> dict:
    code = (BLOCK if blocked else "") + RUN
    r = subprocess.run([sys.executable, "-c", code, *paths], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-800:]
    return json.loads(r.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def answers() -> tuple[list[str], dict, dict]:
    paths = cases()
    return paths, _analyse_all(paths, True), _analyse_all(paths, False)


def test_every_rules_case_is_covered(answers):
    paths, _pure, _np = answers
    got = {p.partition("@")[2] or _ruleset(pathlib.Path(p)) for p in paths}
    assert set(RULES) <= got, got
    assert len(files()) >= 60


def test_same_json_without_numpy(answers):
    paths, pure, with_np = answers
    assert not pure["numpy"] and with_np["numpy"]
    differ = [p for p, a, b in zip(paths, pure["out"], with_np["out"]) if a != b]
    assert not differ, differ
    assert all(rc == 0 and text for p, (rc, text) in zip(paths, pure["out"]) if "@" not in p), "every file analyses"
    assert sum(rc == 0 for rc, _t in pure["out"]) > len(files()), "most files also under the other rulesets"


def test_only_np_twins_import_numpy_in_core_and_engines():
    for folder in ("game/core", "game/engines/combat_slots", "game/engines/rank_and_file"):
        for p in (ROOT / folder).glob("*.py"):
            if not p.name.endswith("_np.py"):
                text = p.read_text()
                assert "import numpy" not in text and "scipy" not in text.replace("scipy's", ""), p
