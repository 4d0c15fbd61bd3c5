"""A unit's base is typed (round, rectangle, oval) however the file or the caller writes it, draws
its own outline, and is written back to a scenario file in the form it was read in."""
import dataclasses
from pathlib import Path

import pytest

from game.core import geometry as g
from game.core.bases import OvalBase, RectBase, RoundBase, base_of
from game.core.board import Unit, base_shape
from game.core.scenario import board_to_dict, dump_scenario, load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[1]


def test_a_loaded_board_has_typed_bases():
    board = load_scenario(ROOT / "assets" / "scenarios" / "wh40k_fight_phase.yaml")
    assert OvalBase in {type(u.base) for u in board.units}
    for u in board.units:
        assert isinstance(u.base, (RoundBase, RectBase, OvalBase))
        assert all(b is None or isinstance(b, (RoundBase, RectBase, OvalBase)) for _p, b in u.placed)
    transport = next(u for u in board.units if isinstance(u.base, OvalBase))
    assert (transport.base.width_mm, transport.base.depth_mm) == (150, 90)


def test_the_file_forms_are_read_as_bases_and_written_back():
    assert base_of(32) == RoundBase(32) and base_of([25, 50]) == RectBase(25, 50)
    assert base_of((20.0, 20.0)) == RectBase(20, 20) and base_of({"oval": [60, 35]}) == OvalBase(60, 35)
    assert base_of(RectBase(1, 2)) == RectBase(1, 2)
    for bad in ("25", [1, 2, 3], {"oval": [1]}, None, True):
        with pytest.raises(ValueError):
            base_of(bad)
    u = Unit(id="s", player=1, kind="skirmish", base=32, placed=[((0.0, 0.0), {"oval": [60, 35]}), ((90.0, 0.0), None)])
    assert u.base == RoundBase(32) and u.placed[0][1] == OvalBase(60, 35)
    assert dataclasses.replace(u, base=(20, 40)).base == RectBase(20, 40)
    text = dump_scenario(load_scenario(ROOT / "assets" / "scenarios" / "wh40k_fight_phase.yaml"))
    raw = [x.get("base") for x in board_to_dict(parse_scenario(text))["units"]]
    assert {"oval": [150, 90]} in raw and all(isinstance(b, (int, float, list, dict)) for b in raw)


@pytest.mark.parametrize("base,want", [
    (RoundBase(32), lambda c, f: g.Circle(c, 16.0)),
    (RectBase(25, 50), lambda c, f: g.rect(c, 25.0, 50.0, f)),
    (OvalBase(60, 35), lambda c, f: g.oval(c, 60.0, 35.0, f)),
])
def test_each_base_draws_its_own_outline(base, want):
    c, f = (100.0, 200.0), 30.0
    assert base.shape(c, f) == want(c, f) == base_shape(base.raw(), c, f)
