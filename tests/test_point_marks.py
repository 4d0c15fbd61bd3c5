"""Pointing marks (issue 40 item 9): scenario and book files mark models and contacts (a cross for
"cannot support", a ring for the touching corner, a tick or cross on one contact); the figure
draws them and keys those with words; bad marks are one line naming file, line and field."""
from __future__ import annotations

import dataclasses

import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402

from game.core.scenario import ScenarioError, load_scenario, parse_scenario  # noqa: E402
from game.render.figure import FigureOptions, draw_figure  # noqa: E402
from game.render.svg_canvas import SvgCanvas  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FLANK = """title: flank
ruleset: whfb8
units:
  - {id: dwarfs, player: 1, profile: {attacks: 1, initiative: 2}, base: [20, 20], files: 5, models: 15, front: [600, 400], facing: 0}
  - {id: goblins, player: 2, profile: {attacks: 1, initiative: 3}, base: [20, 20], files: 2, models: 6, front: [550, 418], facing: 90}
marks:
  - {mark: cross, models: [dwarfs.r1f2, dwarfs.r2f2], says: "No supporting attack to the flank"}
  - {mark: ring, contact: [dwarfs.r1f1, goblins.r1f2], says: "The contact"}
  - {mark: tick, contact: [dwarfs.r2f1, goblins.r1f2]}
"""


def _svg(board, **opts):
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset

    c = SvgCanvas(2126, 1417, record=True)
    draw_figure(c, board, analyse(board, load_ruleset(board.ruleset)),
                FigureOptions(size="180x120mm", dpi=300, crop=True, **opts))
    return c


def test_scenario_marks_are_drawn_on_the_models_and_contacts_they_name():
    c = _svg(parse_scenario(FLANK, "flank.yaml"), legend_at="right")
    tags = {x.get("tag") for x in c.calls if (x.get("tag") or "").startswith("pointmark:")}
    assert tags == {"pointmark:0:cross", "pointmark:1:ring", "pointmark:2:tick"}
    crosses = [x for x in c.find(tag_prefix="pointmark:0:") if x.name == "line"]
    assert len(crosses) == 8  # two models, two strokes each, each on a white casing
    legend = " ".join(x.args[1] for x in c.find("text", "legend"))
    assert "No supporting attack to the flank" in legend and "The contact" in legend  # keyed in its own words
    assert "tick" not in legend  # a mark without words is drawn, not keyed


def test_a_contact_ring_sits_where_the_two_bases_meet():
    from game.render.point_marks import contact_point

    b = parse_scenario(FLANK, "flank.yaml")
    shapes = {m.id: m.shape for m in b.models()}
    x, y = contact_point(shapes["dwarfs.r1f1"], shapes["goblins.r1f2"])
    assert x == pytest.approx(550.0, abs=0.6)  # the Dwarfs' left edge, where the Goblins' front meets it
    assert 400.0 <= y <= 420.0


def test_the_caption_key_lists_a_mark_in_its_own_words(tmp_path):
    from game.figures.figure_file import write_figure

    out = tmp_path / "f.svg"
    write_figure(parse_scenario(FLANK, "flank.yaml"), None, out, FigureOptions(size="180x120mm", dpi=300, crop=True))
    text = out.read_text()
    assert "No supporting attack to the flank" in text and 'id="' in text


@pytest.mark.parametrize("mark, field, words", [
    ("{mark: tick, models: [dwarfs.r1f2]}", "marks[0].mark", "must be cross or ring on models"),
    ("{mark: cross, models: [dwarfs.r9f2]}", "marks[0].models[0]", "no model 'dwarfs.r9f2'"),
    ("{mark: ring, contact: [dwarfs.r1f1]}", "marks[0].contact", "must be two model ids"),
    ("{mark: ring, contact: [dwarfs.r1f1, dwarfs.r1f2]}", "marks[0].contact", "models of two units"),
    ("{mark: ring, models: [dwarfs.r1f1], contact: [dwarfs.r1f1, goblins.r1f1]}", "marks[0]", "either models"),
    ("{mark: ring, models: [dwarfs.r1f1], colour: red}", "marks[0].colour", "unknown key"),
    ("{mark: ring, models: [dwarfs.r1f1], says: [1]}", "marks[0].says", "must be text"),
])
def test_a_bad_mark_is_one_line_naming_file_line_and_field(mark, field, words):
    text = FLANK.split("marks:")[0] + f"marks:\n  - {mark}\n"
    with pytest.raises(ScenarioError) as ei:
        parse_scenario(text, "s.yaml")
    assert ei.value.line == 7 and ei.value.field == field and words in str(ei.value), str(ei.value)
    assert "\n" not in str(ei.value)


def test_render_refuses_a_bad_mark_with_exit_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(FLANK.replace("goblins.r1f2]", "goblins.r7f2]", 1))
    out = subprocess.run([sys.executable, "main.py", "render", str(bad), "-o", str(tmp_path / "x.png")],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stderr.strip().splitlines()[-1].startswith(f"error: {bad}:8: marks[1].contact[1]: no model")


def test_book_figures_and_panels_take_marks_checked_against_their_board(tmp_path):
    from game.figures.book import BookError, load_book, panel_figure_of, render_book

    scen = tmp_path / "s.yaml"
    scen.write_text(FLANK.split("marks:")[0])
    book = tmp_path / "book.yaml"
    book.write_text(f"""figures:
  - scenario: {scen}
    output: a.svg
    options: {{size: 180x120mm, dpi: 300, crop: true}}
    marks:
      - {{mark: cross, models: [dwarfs.r1f2], says: "Cannot support"}}
  - output: p.svg
    panels:
      - {{scenario: {scen}, marks: [{{mark: tick, contact: [dwarfs.r1f1, goblins.r1f2]}}]}}
""")
    _, figs = load_book(book)
    pf = panel_figure_of(figs[1])
    assert [m.mark for m in pf.panels[0].marks.points] == ["tick"]
    render_book(book, tmp_path / "out", progress=False)
    assert "Cannot support" in (tmp_path / "out" / "a.svg").read_text()
    book.write_text(book.read_text().replace("dwarfs.r1f2]", "dwarfs.r1f9]"))
    with pytest.raises(BookError) as ei:
        render_book(book, tmp_path / "out2", progress=False)
    assert ei.value.line == 6 and ei.value.field == "figures[0].marks[0].models[0]"


def test_saving_a_scenario_keeps_its_marks(tmp_path):
    from game.core.scenario import save_scenario

    p = tmp_path / "s.yaml"
    p.write_text(FLANK)
    b = load_scenario(p)
    b = b.with_unit(dataclasses.replace(b.units[0], front=(601.0, 400.0)))
    save_scenario(b, p)
    assert "says: \"No supporting attack to the flank\"" in p.read_text()
    assert len(load_scenario(p).extra["marks"]) == 3


def test_a_title_never_names_a_unit_the_crop_leaves_out():
    """The bundled horde's title names the Night Goblins standing clear of the combat: the cropped
    figure holds them (and labels them); a title that does not name them leaves them out."""
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.render.figure import figure_box

    b = load_scenario(ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml")
    assert "Night Goblins" in b.title
    a = analyse(b, load_ruleset(b.ruleset))
    ng = [m.shape.bbox() for m in b.unit("night_goblins").models()]
    x0 = min(q[0] for q in ng)
    assert figure_box(b, a, FigureOptions(crop=True))[0] <= x0
    assert figure_box(b, a, FigureOptions(crop=True, title="The horde fights"))[0] > x0
    labels = {x.get("tag") for x in _svg(b).find("text", "label:")}
    assert "label:night_goblins" in labels


def test_a_mark_whose_words_no_font_prints_is_refused(tmp_path):
    """Words the figure's font cannot print are refused naming the characters, never boxes."""
    bad = tmp_path / "s.yaml"
    bad.write_text(FLANK.replace('"The contact"', '"接触"'))
    out = subprocess.run([sys.executable, "main.py", "render", str(bad), "-o", str(tmp_path / "x.png"),
                          "--size", "180x120mm", "--crop"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "接触" in out.stderr and "mark's words" in out.stderr, out.stderr
