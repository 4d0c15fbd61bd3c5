"""Words of the drag readout and the legend's role rows: a reach is not named twice
("Movement 4.0" (Movement)"), and a count never follows a bracket ("(...) (6 models)")."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core import manoeuvre as mv
from game.core import measure as ms
from game.core.analyse import analyse
from game.core.board import Board, Unit
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.caption_key import key_words
from game.render.drawn import drawn_models
from game.render.legend import legend_items, role_rows, with_count
from game.render.options import SceneOptions

GOLDEN = Path(__file__).parent / "golden"


def _unit(front, facing, uid, player):
    return Unit(id=uid, player=player, kind="ranked", base=(20.0, 20.0), facing_deg=facing, files=5, count=15,
                front=front, name=uid, profile={"movement": 4})


@pytest.mark.parametrize("rid", ["whfb8", "t9a"])
def test_the_readout_names_the_movement_once(rid):
    start, enemy = _unit((500, 500), 0, "u", 1), _unit((500, 300), 180, "gobs", 2)
    rs = load_ruleset(rid)
    far = mv.forward(start, 4.7 * 25.4)
    line = ms.drag_readout(start, far, Board(units=[start, enemy], ruleset=rid), rs.measure, rs.values).lines()[-1]
    assert line == 'Movement 4.0": 0.7" beyond'


def test_a_reach_named_apart_from_its_rule_still_cites_it():
    r = ms.DragReadout("u", 10.0, None, [("Pile-in", "Pile-in Moves", 76.2)], "in")
    assert r.lines()[-1] == 'Pile-in 3.0" (Pile-in Moves): within'


def test_a_count_never_follows_a_bracket():
    assert with_count("Fights (allocated: Combat Slots)", "6 models") == "Fights (allocated: Combat Slots): 6 models"
    assert with_count("Supporting attack", "1 model") == "Supporting attack (1 model)"
    rows = role_rows(None, {"attack": 6, "support": 2, "none": 1})
    assert [r.text for r in rows] == ["Fights: in base contact or across a gap (6 models)",
                                      "Supporting attack (2 models)", "Does not fight (1 model)"]


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.yaml")), ids=lambda p: p.stem)
def test_no_legend_row_of_a_golden_scenario_has_two_brackets_in_a_row(path):
    board = load_scenario(path)
    a = analyse(board, load_ruleset(board.ruleset))
    items = legend_items(board, a, drawn_models(board, a), SceneOptions())
    bad = [it.text for it in items if ") (" in it.text and it.swatch.startswith("role:")]
    assert not bad
    for it in items:  # the figure key still strips the count, whichever way it is written
        if it.swatch.startswith("role:"):
            assert "model" not in key_words(it).split()[-1]


def test_the_gap_row_counts_its_arrows_and_the_key_drops_the_count():
    """The gap row counts the arrows drawn (as many as the letters; a slanted gap's arrows
    stand for more pairs of models), and says so."""
    board = load_scenario(GOLDEN / "whfb8_rear_gap.yaml")
    a = analyse(board, load_ruleset(board.ruleset))
    rows = [it for it in legend_items(board, a, drawn_models(board, a), SceneOptions()) if it.swatch == "gap"]
    assert rows and rows[0].text.endswith(" (3 arrows)"), rows
    assert "arrow" not in key_words(rows[0])
