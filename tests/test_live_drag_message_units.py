"""The live page's drag message gives the distance as the window does: inches first, then
millimetres ('Wolves moved 2.0" (50.8 mm).'), not millimetres alone."""
from __future__ import annotations

import json

import game  # noqa: F401 - the composition root: engine discovery
from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.live.frame import first_frame
from game.live.session import LiveSession
from tests.live_support import ROOT

APART = ROOT / "tests" / "fixtures" / "live" / "slots_apart.yaml"


def test_a_drag_says_inches_and_mm():
    board = load_scenario(APART)
    s = LiveSession(board, first_frame(board, analyse(board, load_ruleset(board.ruleset))), ["slots"])
    s.picture()
    assert json.loads(s.begin("wolves"))["ok"]
    k = s._view[2]
    s.drag(-50.8 * k, 0.0, False)
    msg = json.loads(s.drop())["message"]
    name = s.board.unit("wolves").name or "wolves"
    assert msg == f'{name} moved 2.0" (50.8 mm).', msg
