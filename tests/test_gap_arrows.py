"""Contacts over gaps drawn as rulebooks draw them (seed 001, "Fighting over Gaps"): one short
arrow per extended base, a slanted run of contacts as its two end arrows ("d and e"), every
arrow lettered, each letter next to its own arrow."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.drawn import drawn_models
from game.render.gap_marks import arrows

ROOT = Path(__file__).resolve().parents[1]
SCEN = ROOT / "assets" / "scenarios"
GOLDEN = ROOT / "tests" / "golden"


def _arrows(path: Path) -> list:
    b = load_scenario(path)
    a = analyse(b, load_ruleset(b.ruleset))
    return arrows(b, a, {dm.id: dm.shape for dm in drawn_models(b, a)})


def _per_pair(arr: list) -> dict:
    out: dict = {}
    for s, t, _, _ in arr:
        k = frozenset((s.split(".", 1)[0], t.split(".", 1)[0]))
        out[k] = out.get(k, 0) + 1
    return out


@pytest.mark.parametrize("name", ["t9a_misaligned_no_cap", "t9a_misaligned_other_unit", "t9a_misaligned_terrain"])
def test_units_not_aligned_draw_two_arrows_the_ends_of_the_slanted_gap(name):
    b = load_scenario(GOLDEN / f"{name}.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    assert len(a.gap_links) >= 3  # several model links...
    arr = _arrows(GOLDEN / f"{name}.yaml")
    assert len(arr) == 2, arr  # ...drawn as seed 001 does: "arrows d and e"
    lengths = sorted(abs(s[1] - e[1]) for _, _, s, e in arr)
    assert lengths[1] - lengths[0] > 1.0  # the narrow and the wide end of the gap


def test_a_gap_in_the_formation_draws_one_arrow_per_contact():
    arr = _arrows(GOLDEN / "whfb8_rear_gap.yaml")  # three empty places behind: "arrows a, b and c"
    assert sorted(s for s, _, _, _ in arr) == ["dwarfs.r2f3", "dwarfs.r2f4", "dwarfs.r2f5"]


def _gap_scenarios():
    out = []
    for p in sorted(SCEN.glob("*.yaml")) + sorted(GOLDEN.glob("*.yaml")):
        out.append(pytest.param(p, id=f"{p.parent.name}/{p.stem}"))
    return out


@pytest.mark.parametrize("path", _gap_scenarios())
def test_arrow_count_per_unit_pair_stays_small(path):
    b = load_scenario(path)
    a = analyse(b, load_ruleset(b.ruleset))
    if not a.gap_links:
        return
    arr = _arrows(path)
    models = {s for s, _, _, _ in arr}
    assert len(models) == len(arr)  # never two arrows from one base
    for pair, n in _per_pair(arr).items():
        assert n <= 4, (path.name, pair, n)  # was 8 for two misaligned units


def _gap_figure():
    from game.figures.book import load_book, panel_figure_of
    from game.render.figure_panels import draw_panels, panel_size
    from game.render.svg_canvas import SvgCanvas

    _, figs = load_book(ROOT / "assets" / "book.yaml")
    fig = next(f for f in figs if f.output == "panels/t9a_fighting_over_gaps.png")
    pf = panel_figure_of(fig)
    c = SvgCanvas(*(fig.options.pixel_size() or panel_size(pf, fig.options)), record=True)
    subs: list = []
    draw_panels(c, pf, fig.options, record=subs)
    return subs


def test_every_arrow_of_the_gap_figure_is_lettered_next_to_its_own_arrow():
    from figcheck import arrows_per_unit_pair, letter_problems

    subs = _gap_figure()
    letters = []
    for sub in subs:
        assert letter_problems(sub) == []
        letters += [c.args[1] for c in sub.calls if c.name == "text" and (c.get("tag") or "").startswith("gapletter:")]
        assert all(n <= 2 for n in arrows_per_unit_pair(sub).values())
    assert letters == ["a", "b", "c", "d", "e"]  # lettered on from panel to panel, every arrow


def test_letter_check_catches_a_letter_away_from_its_arrow():
    from figcheck import letter_problems
    from game.render.canvas import Canvas

    c = Canvas(400, 300)
    c.tag = "gap:x.a|y.b"
    c.arrow([(100, 100), (100, 80)], (0, 0, 0), 2)
    c.tag = "gap:x.c|y.d"
    c.arrow([(200, 100), (200, 80)], (0, 0, 0), 2)
    c.tag = "gapletter:a:x.a|y.b"
    c.text((110, 90), "a", 12, (0, 0, 0), anchor="center")
    assert letter_problems(c) == []
    c.calls[-1].args = ((190, 90),) + c.calls[-1].args[1:]  # by the other arrow
    assert any("nearer the arrow" in p for p in letter_problems(c))
    c.calls[-1].args = ((100, 250),) + c.calls[-1].args[1:]  # far from any
    assert any("from its arrow" in p for p in letter_problems(c))
