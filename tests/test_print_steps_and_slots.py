"""40k and slots in print (issue 40 item 8): reach rings off on paper unless asked, slot
allocation as short marks at the slot (never arrows across the block, never a filled dot left
alone), objectives named as the rules name them, demo captions without window instructions, and
the seed 003 worked example in the book as step panels with the rules' letters."""
from __future__ import annotations

import math
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402

from game.core.analyse import analyse  # noqa: E402
from game.core.ruleset import load_ruleset  # noqa: E402
from game.core.scenario import ScenarioError, load_scenario, parse_scenario  # noqa: E402
from game.render.figure import FigureOptions, draw_figure  # noqa: E402
from game.render.svg_canvas import SvgCanvas  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PRINT = dict(size="180x120mm", dpi=300, crop=True, legend_at="right")


def _draw(path, **opts):
    b = load_scenario(ROOT / path)
    c = SvgCanvas(2126, 1417, record=True)
    fo = FigureOptions(**{**PRINT, **opts})
    draw_figure(c, b, analyse(b, load_ruleset(b.ruleset)), fo)
    return c, fo


def test_reach_rings_are_off_in_print_unless_asked():
    c, _ = _draw("assets/scenarios/wh40k_pile_in.yaml")
    assert not c.find(tag_prefix="reach:")
    assert "reach" not in " ".join(x.args[1] for x in c.find("text", "legend")).lower()
    c, _ = _draw("assets/scenarios/wh40k_pile_in.yaml", reach=True)
    assert c.find(tag_prefix="reach:")
    c, _ = _draw("assets/scenarios/wh40k_pile_in.yaml", style="screen")
    assert c.find(tag_prefix="reach:")  # the window's look keeps them


def test_reach_is_a_book_option(tmp_path):
    from game.figures.book import load_book

    book = tmp_path / "b.yaml"
    book.write_text(f"figures:\n  - {{scenario: {ROOT}/assets/scenarios/wh40k_pile_in.yaml, output: a.png, options: {{reach: true}}}}\n")
    assert load_book(book)[1][0].options.reach is True


@pytest.mark.parametrize("path", ["assets/scenarios/slots_flank.yaml", "assets/scenarios/slots_large_model.yaml"])
def test_slot_moves_are_short_marks_at_the_slot(path):
    c, fo = _draw(path)
    arrows = c.find("arrow", "slotmove:")
    assert arrows
    fs = fo.scale()
    for a in arrows:
        (x0, y0), (x1, y1) = a.args[0][0], a.args[0][-1]
        assert math.hypot(x1 - x0, y1 - y0) <= 14 * fs + 0.5, a.get("tag")  # never across the block


def test_a_filled_slot_beside_its_filler_is_joined_to_it_by_a_short_mark():
    c, fo = _draw("assets/seeds/s004_trolls_charge_a_line.yaml")
    b = load_scenario(ROOT / "assets/seeds/s004_trolls_charge_a_line.yaml")
    from game.core.parts import CombatSlots

    a = analyse(b, load_ruleset(b.ruleset))
    shapes = {m.id: m.shape for m in b.models()}
    from game.core import geometry as g

    apart = [s for s in a.part(CombatSlots).slots
             if s.filled_by and g.gap_mm(shapes[s.filled_by], g.Circle(tuple(s.at), 0.01)) > 0]
    assert apart  # the trolls' side slots filled by the line's models beside them
    ticks = [x for x in c.find("line", "slot:") if x.name == "line"]
    assert len(ticks) >= len(apart)
    for t in ticks:
        (x0, y0), (x1, y1) = t.args[0][0], t.args[0][-1]
        assert math.hypot(x1 - x0, y1 - y0) <= 14 * fo.scale() + 4.5 * fo.scale() + 0.5


def test_objectives_carry_their_names():
    c, _ = _draw("assets/seeds/s003_fight_phase.yaml")
    assert "Objective C" in [x.args[1] for x in c.find("text", "objective:")]
    text = (ROOT / "assets/seeds/s003_fight_phase.yaml").read_text()
    with pytest.raises(ScenarioError) as ei:
        parse_scenario(text.replace("objective_names: [C]", "objective_names: [C, D]"), "s.yaml")
    assert ei.value.field == "context.objective_names" and "names 2 objectives" in str(ei.value)


def test_demo_step_captions_carry_no_window_instructions():
    from game.core.demo import build_steps, load_demo

    for demo in (ROOT / "assets/demos/wh40k_fight_phase.yaml", ROOT / "assets/seeds/s003_fight_phase_demo.yaml"):
        caps = [st.caption for st in build_steps(load_demo(demo))]
        assert any("could select" in c for c in caps)  # the choice is still said
        assert not [c for c in caps if "click" in c.lower()], demo.name


def test_the_window_still_says_how_to_choose():
    from game.window.steps_view import CHOOSE_HOW

    assert "Click" in CHOOSE_HOW


def test_seed_003_is_in_the_book_as_step_panels_with_the_rules_letters():
    from game.figures.book import load_book, panel_figure_of
    from game.render.figure_panels import panel_tag

    _, figs = load_book(ROOT / "assets" / "book.yaml")
    fig = next(f for f in figs if f.output == "seeds/s003_fight_phase_steps.png")
    pf = panel_figure_of(fig)
    kinds = [p.board.context.get("step") for p in pf.panels]
    assert kinds[0] == "pile_in" and "fight" in kinds and kinds[-1] == "consolidate"
    names = {u.name for p in pf.panels for u in p.board.units}
    assert {"Monster (A)", "Assault squad (B)"} <= names
    assert not [n for n in names if n.split()[0].lower() in ("red", "blue")]  # no colour word against the fills
    assert not pf.letters and panel_tag(pf, 0, 2) == "panel 1:"  # A, B, C are the units' and objective's letters


def test_no_bundled_unit_is_named_by_a_colour_its_fill_could_contradict():
    """Fills say the role (red fights, blue supports) and frames the player: a unit named "Blue
    Transport" printed red reads wrong, so no bundled unit name carries a colour word."""
    import re

    for path in sorted((ROOT / "assets").glob("**/*.yaml")):
        if path.name == "book.yaml" or "demos" in path.parts or path.name.endswith("_demo.yaml"):
            continue
        for u in load_scenario(path).units:
            assert not re.search(r"\b(red|blue)\b", u.name or "", re.I), (path.name, u.name)


def test_a_cropped_figure_shows_an_objective_it_would_cut_whole():
    from game.render.figure import figure_box
    from game.render.table_marks import OBJECTIVE_MM

    b = load_scenario(ROOT / "assets/scenarios/wh40k_fight_phase.yaml")
    box = figure_box(b, analyse(b, load_ruleset(b.ruleset)), FigureOptions(crop=True))
    for x, y in b.context["objectives"]:
        assert box[0] <= x - OBJECTIVE_MM and x + OBJECTIVE_MM <= box[2]
        assert box[1] <= y - OBJECTIVE_MM and y + OBJECTIVE_MM <= box[3]
