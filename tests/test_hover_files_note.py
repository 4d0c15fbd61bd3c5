"""A hover that names an enemy's files says how files are counted: from each unit's own left
as its models face, so two units face to face number their files opposite ways ("Dwarf
Warriors (rank 1, file 3) ... Targets: Goblin Spearmen (rank 1, files 7, 8 and 9)" read as a
mismatch by a fresh user)."""
from __future__ import annotations

from pathlib import Path

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.window_layers import FILES_NOTE, hover_lines

ROOT = Path(__file__).resolve().parents[1]


def _hovers(path):
    board = load_scenario(path)
    a = analyse(board, load_ruleset(board.ruleset))
    return {mid: [t for t, _ in hover_lines(board, a, mid)] for mid in a.models}, a


def test_a_ranked_model_with_ranked_targets_says_how_files_count():
    hov, a = _hovers(ROOT / "tests" / "golden" / "whfb8_supporting_attacks.yaml")
    with_targets = [mid for mid, r in a.models.items() if r.targets]
    assert with_targets
    for mid in with_targets:
        lines = hov[mid]
        assert FILES_NOTE in lines
        assert lines.index(FILES_NOTE) == next(i for i, t in enumerate(lines) if t.startswith("Targets:")) + 1


def test_a_model_without_targets_has_no_note():
    hov, a = _hovers(ROOT / "tests" / "golden" / "whfb8_supporting_attacks.yaml")
    for mid, r in a.models.items():
        if not r.targets:
            assert FILES_NOTE not in hov[mid]
