"""A demo step's ring (``highlight``) is drawn with the bases, under the gap arrows' letters
and the labels, so it never covers gap letter "a" (which sits on the ringed base's edge in
``whfb8_rear_gap.yaml``); each ring is drawn once."""
from __future__ import annotations

from pathlib import Path

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.canvas import Canvas
from game.render.figure import FigureOptions, draw_figure
from game.render.marks import Marks

GAP = Path(__file__).resolve().parents[1] / "assets" / "scenarios" / "whfb8_rear_gap.yaml"


def test_the_ring_is_drawn_under_gap_letter_a():
    b = load_scenario(GAP)
    a = analyse(b, load_ruleset(b.ruleset))
    c = Canvas(1280, 820)
    _, errors = draw_figure(c, b, a, FigureOptions(style="screen"), marks=Marks(highlight=["dwarfs.r2f3"]))
    assert not errors
    tags = [call.kwargs.get("tag", "") for call in c.calls]
    letter = next(i for i, t in enumerate(tags) if t.startswith("gapletter:a:") and "dwarfs.r2f3" in t)
    rings = [i for i, t in enumerate(tags) if t == "highlight:dwarfs.r2f3"]
    assert len(rings) == 2  # one ring: its white edge and its colour
    assert max(rings) < letter  # under the letter
