"""The SVG back end: structure (ids, classes, colours), determinism, one renderer."""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"

import pytest  # noqa: E402

from game.core.analyse import analyse  # noqa: E402
from game.core.ruleset import load_ruleset  # noqa: E402
from game.core.scenario import load_scenario  # noqa: E402
from game.render.figure import FigureOptions, svg_text  # noqa: E402
from game.figures.figure_file import write_figure

ROOT = Path(__file__).resolve().parents[1]
NS = "{http://www.w3.org/2000/svg}"


def _hex(c):
    return "#%02x%02x%02x" % tuple(c[:3])


def _svg(name, **opts):
    b = load_scenario(ROOT / name)
    a = analyse(b, load_ruleset(b.ruleset))
    text, errors = svg_text(b, a, FigureOptions(**opts), (900, 600))
    assert errors == []
    return b, a, text, ET.fromstring(text.encode("utf-8"))


def _groups(root, cls):
    return [g for g in root.iter(f"{NS}g") if cls in (g.get("class") or "").split()]


@pytest.mark.parametrize("name", ["tests/golden/whfb8_rear_gap.yaml", "assets/scenarios/dwarf_horde_vs_goblins.yaml",
                                  "tests/golden/t9a_knight_height2.yaml", "assets/scenarios/slots_large_model.yaml"])
def test_one_group_per_model_with_its_role(name):
    b, a, _, root = _svg(name)
    for role in ("attack", "support"):
        groups = [g for g in _groups(root, "model") if role in g.get("class").split()]
        assert len(groups) == sum(1 for r in a.models.values() if r.role == role)
    ids = {g.get("id") for g in _groups(root, "model")}
    assert ids == {f"model-{m.id}" for m in b.models()} | {f"model-{m}" for m in a.models}


def test_attack_models_are_red_and_support_blue():
    b, a, _, root = _svg("assets/scenarios/dwarf_horde_vs_goblins.yaml")
    g = root.find(f".//{NS}g[@id='model-dwarfs.r1f1']")
    assert g.get("class") == "model attack"
    from game.render.palette import PRINT  # figures are drawn in the print style

    assert g.find(f"{NS}polygon").get("fill") == _hex(PRINT["attack"])
    g2 = root.find(f".//{NS}g[@id='model-dwarfs.r2f1']")
    assert g2.find(f"{NS}polygon").get("fill") == _hex(PRINT["support"])


def test_gap_links_are_short_arrows_with_heads():
    _, a, _, root = _svg("tests/golden/whfb8_rear_gap.yaml")
    gaps = _groups(root, "gap")
    assert len(gaps) == len({frozenset(x) for x in a.gap_links}) == 3
    assert all(g.findall(f"{NS}polygon[@class='head']") for g in gaps)


def test_text_uses_the_shipped_font_with_a_fallback():
    _, _, text, root = _svg("tests/golden/whfb8_initiative.yaml")
    texts = list(root.iter(f"{NS}text"))
    assert texts and all(t.get("font-family") == "DejaVu Sans, sans-serif" for t in texts)
    assert any("Strike order" == t.text for t in texts)


def test_mm_size_and_ids_unique():
    _, _, text, root = _svg("tests/golden/whfb8_initiative.yaml", size="180x120mm", dpi=300)
    assert root.get("width") == "180mm" and root.get("height") == "120mm"
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))


def test_svg_is_deterministic(tmp_path):
    b = load_scenario(ROOT / "tests/golden/t9a_gap_in_front_rank.yaml")
    rs = load_ruleset(b.ruleset)
    for opts in ({}, {"palette": "colourblind", "crop": True}, {"compare": ("t9a", "whfb8")}):
        p1, p2 = tmp_path / "a.svg", tmp_path / "b.svg"
        write_figure(b, analyse(b, rs), p1, FigureOptions(**opts))
        b2 = load_scenario(ROOT / "tests/golden/t9a_gap_in_front_rank.yaml")
        write_figure(b2, analyse(b2, rs), p2, FigureOptions(**opts))
        assert p1.read_bytes() == p2.read_bytes()
        ET.fromstring(p1.read_bytes())


def test_compare_side_by_side_has_two_panels_and_rings_differences(tmp_path):
    b = load_scenario(ROOT / "tests/golden/rear_gap_both_rulesets.yaml")
    out = tmp_path / "c.svg"
    write_figure(b, None, out, FigureOptions(compare=("whfb8", "t9a")))
    root = ET.fromstring(out.read_bytes())
    caps = [g for g in root.iter(f"{NS}g") if (g.get("class") or "") == "panel-caption"]
    assert [g.get("id") for g in caps] == ["a-panel-caption-a", "b-panel-caption-b"] or \
        [g.get("id") for g in caps] == ["panel-caption-a", "panel-caption-b"]
    assert "Warhammer Fantasy Battle" in "".join(t.text or "" for t in caps[0].iter(f"{NS}text"))
    from game.core.compare import compare

    _, _, diffs = compare(b, load_ruleset("whfb8"), load_ruleset("t9a"))
    differ = [g.get("id") for g in _groups(root, "differ")]
    for letter in ("a", "b"):  # each panel rings every differing model, its ids behind its letter
        assert len([i for i in differ if i.startswith(f"{letter}-differ-")]) == len(diffs) > 0


def test_svg_and_recording_canvas_see_the_same_calls():
    """draw_scene is the only renderer: the SVG canvas receives exactly the pygame canvas's calls."""
    import pygame

    from game.render.pygame_canvas import PygameCanvas
    from game.render.figure import draw_figure
    from game.render.svg_canvas import SvgCanvas

    pygame.font.init()
    b = load_scenario(ROOT / "tests/golden/whfb8_rear_gap.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    rec, svg = PygameCanvas(pygame.Surface((800, 500)), record=True), SvgCanvas(800, 500, record=True)
    svg.text_size = rec.text_size  # same metrics -> same layout
    draw_figure(rec, b, a, FigureOptions())
    draw_figure(svg, b, a, FigureOptions())
    assert [(c.name, c.get("tag")) for c in rec.calls] == [(c.name, c.get("tag")) for c in svg.calls]
