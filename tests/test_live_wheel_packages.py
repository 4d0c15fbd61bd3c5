"""The live page's wheel holds every package the page imports: each ``game`` module that
``game.live`` reaches through its imports (counted statically, inside functions too) lies in a
package of :data:`game.live.bundle.PACKAGES` (the figure pipelines moved to ``game/figures``:
a wheel without it could not draw the page's first picture)."""
from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

from game.live.bundle import PACKAGES

ROOT = Path(__file__).resolve().parents[1]


def _modules() -> dict[str, Path]:
    out = {}
    for f in (ROOT / "game").rglob("*.py"):
        parts = list(f.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = f
    return out


def reached(start: str) -> set[str]:
    """The ``game`` modules ``start`` (a package) reaches through its imports."""
    known = _modules()
    todo = deque(m for m in known if m == start or m.startswith(start + "."))
    seen = set(todo)
    while todo:
        for node in ast.walk(ast.parse(known[todo.popleft()].read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for n in names:
                if n in known and n not in seen:
                    seen.add(n)
                    todo.append(n)
    return seen


def test_the_wheel_holds_every_package_the_page_imports():
    outside = sorted(m for m in reached("game.live") if m.count(".") >= 1 and m.split(".")[1] not in PACKAGES)
    assert not outside, outside
