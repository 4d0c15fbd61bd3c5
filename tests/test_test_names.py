"""Test files are named by their subject (``test_overlap_marks.py``), never by the issue, review
round or QA pass that found what they test (``test_issue18_inputs.py``, ``test_app_qa2.py``):
a reader looking for the tests of a subject finds them by name."""
from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent

#: words of a file name that say where a test came from, not what it tests (a trailing number
#: too: ``qa2``, ``issue18``); ``round`` only as the game's ``combat_round``
ORIGIN_WORD = re.compile(r"^(issue|issues|qa|review|reviews|trial|defects?|findings?|round)\d*$")


def origin_words(name: str) -> list[str]:
    """The words of a test file's name (``test_app_qa2.py`` -> ``['qa2']``) that name an issue, a
    review round or a QA pass."""
    words = Path(name).stem.split("_")
    return [w for i, w in enumerate(words)
            if ORIGIN_WORD.match(w.lower()) and not (w == "round" and i and words[i - 1] == "combat")]


def test_no_test_file_is_named_after_an_issue_or_a_review():
    bad = {p.name: origin_words(p.name) for p in TESTS.rglob("test_*.py") if origin_words(p.name)}
    assert bad == {}, f"name these test files by their subject: {bad}"


def test_the_check_knows_an_origin_from_a_subject():
    for name in ("test_issue18_inputs.py", "test_issue21_defects.py", "test_qa_trial.py", "test_app_qa2.py",
                 "test_qa_findings.py", "test_review_round3.py", "test_round2.py"):
        assert origin_words(name), name
    for name in ("test_background.py", "test_combat_round.py", "test_app_combat_round.py", "test_equal_steps.py",
                 "test_hostile_inputs.py", "test_cli_errors.py"):
        assert origin_words(name) == [], name
