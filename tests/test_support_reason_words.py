"""Why a model does not support, in plain sentences: no brackets inside brackets when the
ruleset's rule name has its own ("Restricted Attacks (Supporting Attacks)"), and rows seen
from the front are called ranks throughout ("The 3rd rank ... only 1 rank behind")."""
from __future__ import annotations

from pathlib import Path

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario

GOLDEN = Path(__file__).resolve().parent / "golden"


def _whys(name: str) -> list[str]:
    board = load_scenario(GOLDEN / name)
    res = analyse(board, load_ruleset(board.ruleset))
    return [m.why for m in res.models.values() if "too far back" in m.why]


def _nested(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += ch == "("
        if depth > 1:
            return True
        depth -= ch == ")"
    return False


def test_too_far_back_under_t9a_has_no_nested_brackets_and_says_rank():
    whys = _whys("t9a_gap_in_front_rank.yaml")
    assert whys
    for w in whys:
        assert not _nested(w), w
        assert " row " not in w, w
        assert w.startswith("The 3rd rank from the front is too far back: only 1 rank behind the fighting rank "
                            "supports. Rule: Restricted Attacks (Supporting Attacks)."), w


def test_the_horde_hint_stays_one_bracket_before_the_rule():
    whys = _whys("whfb8_horde_casualties.yaml")
    assert whys
    hinted = [w for w in whys if "(The Horde: at least 10 files wide" in w]
    assert hinted, whys
    for w in whys:
        assert not _nested(w), w
        assert w.endswith("Rule: Supporting Attacks."), w
