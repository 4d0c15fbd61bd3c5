"""The caption key of a print figure (issue 40): the roles and marks actually drawn, in a line or
two under the picture, without counts; the strike order and other sections only when asked; at
most 15 % of the page, the picture at least 70 %; the legend panel still there as an option and
in the screen style."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from game.core.scenario import load_scenario
from game.render.figure import FigureOptions
from game.figures.figure_file import render_figure

ROOT = Path(__file__).resolve().parents[1]
SVG, INK = "{http://www.w3.org/2000/svg}", "{http://www.inkscape.org/namespaces/inkscape}"


def _svg(path, **kw):
    b = load_scenario(ROOT / path)
    opts = dict(size="180x120mm", dpi=150, format="svg", crop=True)
    opts.update(kw)
    return ET.fromstring(render_figure(b, None, FigureOptions(**opts)))


def _layer(root, name):
    return next(g for g in root.iter(f"{SVG}g") if g.get(f"{INK}label") == name)


def _texts(g):
    return ["".join(t.itertext()) for t in g.iter(f"{SVG}text")]


def _box(g):
    ys = []
    for el in g.iter():
        if el.tag == f"{SVG}text":
            ys.append(float(el.get("y")))
        elif el.tag == f"{SVG}polygon":
            ys += [float(v) for v in re.split(r"[\s,]+", el.get("points").strip())[1::2]]
    return min(ys), max(ys)


def test_the_key_names_only_the_marks_drawn_without_counts_or_sections():
    root = _svg("tests/golden/whfb8_rear_gap.yaml")
    words = _texts(_layer(root, "Legend"))
    assert words[:3] == ["Fights", "Supporting attack", "Does not fight"]
    assert any(w.startswith("In contact across a gap") for w in words)
    assert not any(re.search(r"\(\d+( [a-z]+)?\)", w) for w in words), words  # no counts ("(3)", "(3 pairs)")
    assert "Legend" not in words and not any(w.startswith(("Strike order", "Player", "Front")) for w in words)


def test_the_key_takes_at_most_15_percent_and_the_picture_is_large():
    for path in ("assets/scenarios/wh40k_fight_phase.yaml", "tests/golden/whfb8_rear_gap.yaml",
                 "assets/scenarios/tow_round.yaml", "assets/scenarios/slots_flank.yaml"):
        root = _svg(path)
        H = float(root.get("viewBox").split()[3])
        y0, y1 = _box(_layer(root, "Legend"))
        assert (y1 - y0) <= 0.15 * H, path
        frame = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "panel-frame")
        f0, f1 = _box(frame)
        assert f1 <= y0 and (f1 - f0) >= 0.7 * H, path  # the picture: at least 70 % of the page, above the key


def test_the_strike_order_is_in_the_key_only_when_asked():
    plain = _texts(_layer(_svg("assets/scenarios/whfb8_initiative.yaml"), "Legend"))
    asked = _texts(_layer(_svg("assets/scenarios/whfb8_initiative.yaml", sections=True), "Legend"))
    assert "Strike order:" not in plain and "Strike order:" in asked


def test_the_legend_panel_stays_as_an_option_and_in_the_screen_style():
    for kw in (dict(legend_at="right"), dict(style="screen")):
        assert "Legend" in _texts(_layer(_svg("tests/golden/whfb8_rear_gap.yaml", **kw), "Legend")), kw
