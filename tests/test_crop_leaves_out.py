"""A cropped figure shows the combats and leaves out whole the units outside its box: the page
is often wider than the box (its aspect), and a unit standing there was drawn as an unlabelled
sliver cut by the page's edge (issue 40, "never a cut")."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.figure import FigureOptions, draw_figure
from game.render.svg_canvas import SvgCanvas

ROOT = Path(__file__).resolve().parents[1]


def _drawn_units(fo: FigureOptions) -> set[str]:
    b = load_scenario(ROOT / "assets/scenarios/whfb8_initiative.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    c = SvgCanvas(*fo.pixel_size(), record=True)
    draw_figure(c, b, a, fo)
    return {call.get("tag", "").split(":", 1)[1].split(".")[0] for call in c.calls
            if call.get("tag", "").startswith(("model:", "tray:"))}


@pytest.mark.parametrize("size", ["90x60mm", "180x120mm"])
def test_a_crop_draws_no_unit_it_leaves_out(size):
    # the Trolls stand 300 mm off, in no combat: the crop of the Orcs' fight leaves them out
    assert _drawn_units(FigureOptions(size=size, dpi=300, crop=True)) == {"orcs", "spearmen"}


def test_without_a_crop_every_unit_is_drawn():
    assert _drawn_units(FigureOptions(size="180x120mm", dpi=300)) == {"orcs", "spearmen", "trolls"}
