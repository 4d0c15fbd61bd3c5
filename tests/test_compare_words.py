"""Comparing two rulesets says each model's difference in words ("does not fight under
whfb8; fights with 1 attack under t9a"), not in code ("whfb8 none x0, t9a attack x1"): in
``analyse --compare``, in the window's compare tooltips and in the compare figure's."""
from __future__ import annotations

from game.core.compare import Difference, role_words
from game.figures.figure_compare import differ_tooltips


def test_role_words():
    assert role_words("none", 0) == "does not fight"
    assert role_words("attack", 1) == "fights with 1 attack"
    assert role_words("attack", 3) == "fights with 3 attacks"
    assert role_words("support", 1) == "makes 1 supporting attack"


def test_describe_is_words_not_code():
    d = Difference("Blue unit (rank 1, file 2)", ("none", 0), ("attack", 1))
    text = d.describe("whfb8", "t9a")
    assert text == "Blue unit (rank 1, file 2): does not fight under whfb8; fights with 1 attack under t9a"
    assert " x0" not in text and " x1" not in text and " none " not in text


def test_the_compare_figure_tooltips_are_words():
    d = Difference("dwarfs.r1f1", ("none", 0), ("attack", 2))
    line = differ_tooltips([d], "a", "T9A")["dwarfs.r1f1"]
    assert line == "Under T9A: fights with 2 attacks"
