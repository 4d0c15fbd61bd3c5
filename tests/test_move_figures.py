"""Moves drawn as a rulebook draws a unit's move: a unit whose models all made the same move
(closing up) gets one arrow per moved file, not one per model, and its frame and front marker go with it
(the dashed outlines show where it stood)."""
from __future__ import annotations

from pathlib import Path

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.figure import FigureOptions, draw_figure
from game.render.svg_canvas import SvgCanvas

ROOT = Path(__file__).resolve().parents[1]


def _drawn(name: str):
    b = load_scenario(ROOT / "tests" / "golden" / name)
    a = analyse(b, load_ruleset(b.ruleset))
    c = SvgCanvas(1200, 800, record=True)
    view, _ = draw_figure(c, b, a, FigureOptions(size="1200x800"))
    return b, a, c, view


def test_a_unit_closing_up_is_two_arrows_and_its_frame_moves_with_it():
    from shapely.geometry import Point, Polygon

    b, a, c, view = _drawn("whfb8_closing_up.yaml")
    moved = [m for m in a.moves if m.startswith("dwarfs.")]
    assert len(moved) == 10  # every dwarf moved forward alike...
    arrows = {x.get("tag") for x in c.find("arrow", "move:")}
    assert len(arrows) == 5, arrows  # ...drawn as one arrow per moved file (five files), from its leading model
    ghosts = {x.get("tag") for x in c.calls if (x.get("tag") or "").startswith("ghost:")}
    assert len(ghosts) == 10  # every model still shows where it stood
    frame = next(x for x in c.find("polygon", "tray:dwarfs") if x.get("fill") is None)
    poly = Polygon(frame.args[0]).buffer(1.0)
    ends = [view.to_px(a.moves[m][-1]) for m in moved]
    assert all(poly.contains(Point(p)) for p in ends)  # the frame holds the models where they are
    assert b.unit("dwarfs").front == load_scenario(ROOT / "tests" / "golden" / "whfb8_closing_up.yaml").unit("dwarfs").front


def test_a_unit_whose_models_moved_differently_keeps_every_arrow():
    from game.render.move_marks import thinned

    _, a, _, _ = _drawn("whfb8_closing_up.yaml")
    moves = {m: list(p) for m, p in a.moves.items()}
    first = next(iter(moves))
    moves[first] = [moves[first][0], (moves[first][1][0] + 5.0, moves[first][1][1])]  # one moved otherwise
    kept = thinned(moves, a)
    assert first in kept and len(kept) == 6  # its own arrow, and one per file of the alike rest


def test_where_a_model_started_is_dotted_in_its_own_tint_not_dashed_like_an_empty_place():
    from game.render.palette import PRINT

    _, _, c, _ = _drawn("whfb8_closing_up.yaml")
    ghosts = [x for x in c.calls if x.name == "line" and (x.get("tag") or "").startswith("ghost:")]
    assert ghosts and all(x.get("dashed") == "dot" for x in ghosts)
    assert PRINT["ghost"] != PRINT["empty_hatch"]
