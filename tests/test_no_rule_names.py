"""Nothing outside the engines (game/engines/) and their registry names a rule system.

No module compares a value with a ruleset id or strategy name (``==``, ``!=``, ``in`` a
literal collection, a literal dict keyed by one, ``.get(<name>)``), and none imports an engine
module: they ask the strategy (game.core.registry) instead.
"""
from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

from game.core.paths import RULESET_DIR
from game.core.ruleset import available
from game.engines import available as engine_packages

ROOT = Path(__file__).resolve().parents[1]
ALLOWED = {ROOT / "game" / "core" / "registry.py"}
#: the package root is the composition root: it imports the engines package (never one engine)
#: so that the engines install their discovery in the core's registry
COMPOSITION_ROOT = ROOT / "game" / "__init__.py"
ENGINES = ROOT / "game" / "engines"


def sources() -> list[Path]:
    files = [ROOT / "main.py"] + sorted((ROOT / "game").rglob("*.py"))
    return [f for f in files if f not in ALLOWED and ENGINES not in f.parents]


#: ruleset ids that are also ordinary words of the contract: ``slots`` is the output key (and
#: legend swatch) of combat slots, so a literal "slots" is not a reference to the ruleset
CONTRACT_WORDS = {"slots"}


@lru_cache(maxsize=1)
def rule_names() -> frozenset[str]:
    """Every ruleset id (but the contract's words) and strategy name, read once per run: the
    engine packages (each named as the strategy it provides, :mod:`game.engines`) and every
    ``strategy:`` a ruleset file gives, found without importing an engine."""
    given = {m for p in RULESET_DIR.glob("*.yaml")
             for m in re.findall(r"^strategy:\s*['\"]?(\w+)", p.read_text(encoding="utf-8"), re.M)}
    return frozenset((set(available()) - CONTRACT_WORDS) | set(engine_packages()) | given)


def offences(path: Path, banned: set[str] | frozenset[str], root: Path = ROOT) -> list[str]:
    """Each place of ``path`` (parsed once) that names a rule system or imports an engine, as
    ``'file:line: what'``; every node of the tree is looked at."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    rel = path.relative_to(root)  # once per file: the line is added only where something is found
    out: list[str] = []

    def named(node) -> bool:
        return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in banned

    for node in ast.walk(tree):
        if not isinstance(node, _LOOKED_AT):
            continue
        where = f"{rel}:{node.lineno}"
        if isinstance(node, ast.Compare):
            sides = [node.left] + list(node.comparators)
            for op, right in zip(node.ops, node.comparators):
                left = sides[sides.index(right) - 1]
                if isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)) and (named(left) or named(right)):
                    out.append(f"{where}: compares with a rule system's name")
                if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Tuple, ast.List, ast.Set)) and \
                        any(named(e) for e in right.elts):
                    out.append(f"{where}: tests membership in rule system names")
                if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, ast.Dict) and any(named(k) for k in right.keys):
                    out.append(f"{where}: tests membership in rule system names")
        elif isinstance(node, ast.Dict) and any(k is not None and named(k) for k in node.keys):
            out.append(f"{where}: a table keyed by rule system names")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and \
                node.args and named(node.args[0]):
            out.append(f"{where}: looks up a rule system by name")
        elif isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".")
            if parts[:2] == ["game", "engines"]:
                out.append(f"{where}: imports an engine ({node.module})")
            elif parts == ["game"] and any(a.name == "engines" for a in node.names):
                out.append(f"{where}: imports the engines package")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "game.engines" and path == COMPOSITION_ROOT:
                    continue
                if a.name.split(".")[:2] == ["game", "engines"]:
                    out.append(f"{where}: imports an engine ({a.name})")
    return out


#: the node types an offence can be (every other node is only walked through)
_LOOKED_AT = (ast.Compare, ast.Dict, ast.Call, ast.ImportFrom, ast.Import)


def test_no_module_outside_the_engines_names_a_rule_system_or_imports_an_engine():
    banned = rule_names()
    assert {"whfb8", "t9a", "wh40k", "rank_and_file", "engagement_range", "combat_slots"} <= banned
    found = [o for f in sources() for o in offences(f, banned)]
    assert found == []


def test_the_names_are_those_the_registry_gives():
    """The names read without importing an engine are the registry's (which imports them all)."""
    from game.core.registry import names
    assert set(names()) <= rule_names()


def test_the_scan_finds_what_it_forbids(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('from game.engines.engagement_range import engine\nimport game.engines.rank_and_file.engine\n'
                   'if rs.strategy == "wh40k": pass\nif x in ("whfb8", "t9a"): pass\nP = {"whfb8": "t9a"}\n'
                   'q = P.get("t9a")\nok = "slots" in d\nif rs.strategy != "combat_slots": pass\n', encoding="utf-8")
    found = offences(bad, rule_names(), tmp_path)
    assert len(found) == 7, found  # the key test on a mapping ("slots" in d) is allowed
