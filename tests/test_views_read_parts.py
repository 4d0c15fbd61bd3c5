"""The render and window packages read an analysis only through its core and typed parts.

Issue 21: no ``getattr(analysis, ...)`` (or ``getattr(self.a, ...)``), no ``.extra`` / ``.more``
read of an analysis, no engine's result key looked up by string, no strategy name, no unit-kind
string comparison (``u.kind == "ranked"``: ask ``u.is_ranked``), no test of a reason's wording
(``"rank-and-file" in why``). Each rule is proved to fire on a planted line.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VIEWS = [ROOT / "game" / "render", ROOT / "game" / "window"]

#: names an analysis goes by in the views
ANALYSIS_NAMES = {"analysis", "an", "a", "res", "shown_analysis"}
#: JSON keys of engine parts: the views use the part types instead
ENGINE_KEYS = {"fight_sequence", "allocation", "slots", "move_reach_mm", "pile_in_targets", "move_targets",
               "consolidation", "rank_bonus", "rank_bonus_why", "fighting_ranks", "fighting_rank_models",
               "not_in_contact", "legend_rows", "initiative", "locked", "off_table", "moves_preview",
               "selected_to_fight", "step_caption", "destroyed_models"}
STRATEGIES = {"rank_and_file", "engagement_range", "combat_slots"}
KINDS = {"ranked", "skirmish"}
WORDING = re.compile(r"""["'][^"']*["']\s+(not\s+)?in\s+(why|reason|r\.why|text|caption|msg)\b""")


def _is_analysis(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id in ANALYSIS_NAMES
    return isinstance(node, ast.Attribute) and node.attr in {"a", "analysis"}


def offences(source: str, where: str) -> list[str]:
    """Every forbidden read in ``source`` (``where``: the file name for messages)."""
    out = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        line = f"{where}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and \
                node.args and _is_analysis(node.args[0]):
            out.append(f"{line}: getattr on an analysis")
        if isinstance(node, ast.Attribute) and node.attr in {"extra", "more"} and _is_analysis(node.value):
            out.append(f"{line}: reads an analysis' .{node.attr}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "part" and node.args:
            out.append(f"{line}: looks a part up by key")
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and \
                node.slice.value in ENGINE_KEYS and _is_analysis(node.value):
            out.append(f"{line}: reads an engine key {node.slice.value!r}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and \
                node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value in ENGINE_KEYS:
            out.append(f"{line}: looks up an engine key {node.args[0].value!r}")
        if isinstance(node, ast.Compare):
            consts = [n for n in [node.left, *node.comparators] if isinstance(n, ast.Constant)]
            vals = {c.value for c in consts if isinstance(c.value, str)}
            if vals & STRATEGIES:
                out.append(f"{line}: compares with a strategy name")
            if vals & KINDS:
                out.append(f"{line}: compares a unit kind string (use Unit.is_ranked)")
    for i, text in enumerate(source.splitlines(), start=1):
        if WORDING.search(text):
            out.append(f"{where}:{i}: tests a reason's wording")
    return out


def view_files() -> list[Path]:
    return sorted(f for d in VIEWS for f in d.rglob("*.py"))


def test_views_read_only_the_core_and_typed_parts():
    found = []
    for f in view_files():
        found += offences(f.read_text(encoding="utf-8"), str(f.relative_to(ROOT)))
    assert found == []


@pytest.mark.parametrize("line", [
    "x = getattr(analysis, 'slots', None)",
    "x = getattr(self.a, 'moves', None)",
    "x = analysis.extra.get('fight_sequence')",
    "x = self.a.more['initiative']",
    "x = part(analysis, 'slots')",
    "x = analysis['off_table']",
    "x = d.get('fighting_ranks')",
    "ok = rs.strategy == 'engagement_range'",
    "ok = u.kind == 'ranked'",
    "ok = 'skirmish' != unit.kind",
    "short = 'not for ranked units' if 'rank-and-file' in why else ''",
])
def test_the_scan_catches_a_planted_line(line):
    assert offences(line + "\n", "planted.py"), line


def test_typed_reads_pass():
    ok = "\n".join(["r = analysis.part(CombatSlots)", "m = analysis.models.get(mid)", "ranked = u.is_ranked",
                    "cap = board.extra.get('caption')"])
    assert offences(ok + "\n", "ok.py") == []
