"""No ×N badge under another mark (issue 40, "badges only where they teach"): the gap arrows are
drawn after the badges, over the models, so a badge placed where an arrow will run is hidden
under it. The badges keep off the arrows' boxes wherever a spot of theirs is clear."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.canvas import overlap_area
from game.render.figure import FigureOptions, draw_figure
from game.render.svg_canvas import SvgCanvas

ROOT = Path(__file__).resolve().parents[1]


def _box(c: SvgCanvas, call) -> tuple[float, float, float, float]:
    """The px box of a recorded text call drawn anchored at its centre."""
    (x, y), text, size = call.args[0], call.args[1], call.get("size")
    w, h = c.text_size(text, size, True)
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


@pytest.mark.parametrize("size", ["60x80mm", "90x80mm", "180x120mm"])
def test_no_attack_badge_sits_under_a_gap_arrow(size):
    b = load_scenario(ROOT / "tests/golden/rear_gap_both_rulesets.yaml")
    a = analyse(b, load_ruleset("whfb8"))
    assert a.gap_links, "the scenario fights across gaps"
    opts = FigureOptions(size=size, dpi=300, crop=True, count_all=True)
    w, h = opts.pixel_size()
    c = SvgCanvas(w, h, record=True)
    draw_figure(c, b, a, opts)
    badges = c.find("text", "count:")
    assert badges, "a figure about attacks badges the models making 2"
    arrows = [call for call in c.find("arrow", "gap:")]
    assert arrows
    for badge in badges:
        bx = _box(c, badge)
        for arrow in arrows:
            pts = arrow.args[0]
            xs, ys = [q[0] for q in pts], [q[1] for q in pts]
            shaft = (min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1)
            assert overlap_area(bx, shaft) == 0, f"{badge.get('tag')} under {arrow.get('tag')} at {size}"


@pytest.mark.parametrize("size", ["60x80mm", "90x80mm"])
def test_no_attack_badge_sits_on_another_units_bases(size):
    """A badge pushed off its crowded base goes beside its own unit, not onto the enemy's bases
    (a ×2 on a goblin reads as the goblin's)."""
    b = load_scenario(ROOT / "tests/golden/rear_gap_both_rulesets.yaml")
    a = analyse(b, load_ruleset("whfb8"))
    opts = FigureOptions(size=size, dpi=300, crop=True, count_all=True)
    w, h = opts.pixel_size()
    c = SvgCanvas(w, h, record=True)
    draw_figure(c, b, a, opts)
    goblins = [call.args[0] for call in c.calls if call.get("tag", "").startswith("model:goblins.")
               and call.name == "polygon"]
    assert goblins, "the goblins' bases are drawn, tagged"
    xs = [q[0] for pts in goblins for q in pts]
    ys = [q[1] for pts in goblins for q in pts]
    enemy = (min(xs), min(ys), max(xs), max(ys))
    for badge in c.find("text", "count:dwarfs."):
        assert overlap_area(_box(c, badge), enemy) == 0, f"{badge.get('tag')} on the goblins at {size}"
