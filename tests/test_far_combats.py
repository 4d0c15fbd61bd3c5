"""Combats far apart print as insets: a cropped figure whose combats stand far apart on the table
draws each combat in its own panel, cropped to it, all at one scale, so the models print at a
usable size (a base at least 3 mm wide at 180x120 mm, text at least 6 pt, every check of the
printer's passing), in SVG, PNG and PDF alike; combats near each other stay one picture."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from print_ready import check

ROOT = Path(__file__).resolve().parents[1]
NS = "{http://www.w3.org/2000/svg}"
USABLE_BASE_MM = 3.0

TWO_FAR = """title: Two combats far apart
ruleset: whfb8
table: {width: 1800, height: 1200}
units:
  - {id: elves, player: 2, name: Spearmen, profile: {attacks: 1, initiative: 5}, base: [20, 20], files: 5, models: 15, front: [300, 400], facing: 0}
  - {id: orcs, player: 1, name: Orc Boyz, profile: {attacks: 1, initiative: 2}, base: [25, 25], files: 4, models: 12, front: [300, 400], facing: 180}
  - {id: dwarfs, player: 2, name: Dwarfs, profile: {attacks: 1, initiative: 2}, base: [20, 20], files: 5, models: 15, front: [1500, 900], facing: 0}
  - {id: gobs, player: 1, name: Goblins, profile: {attacks: 1, initiative: 2}, base: [20, 20], files: 5, models: 15, front: [1500, 900], facing: 180}
"""


def _board(tmp_path):
    from game.core.scenario import load_scenario

    f = tmp_path / "two_far.yaml"
    f.write_text(TWO_FAR, encoding="utf-8")
    return load_scenario(f)


def _write(board, out: Path, **kw) -> Path:
    from game.render.figure import FigureOptions
    from game.figures.figure_file import write_figure

    write_figure(board, None, out, FigureOptions(size="180x120mm", dpi=200, crop=True, **kw))
    return out


def _smallest_base_mm(svg: Path) -> float:
    """The narrowest model base printed (mm): the width of each model group's first shape."""
    root = ET.parse(svg).getroot()
    width_px = float(root.get("viewBox").split()[2])
    mm_per_px = float(root.get("width").rstrip("m")) / width_px
    widths = []
    for g in root.iter(NS + "g"):
        if not re.match(r"(\w+-)?model-", g.get("id") or ""):
            continue
        el = next(iter(g.iter(NS + "polygon")), None)
        if el is not None:
            v = [float(x) for x in re.split(r"[\s,]+", el.get("points").strip()) if x]
            widths.append(min(max(v[0::2]) - min(v[0::2]), max(v[1::2]) - min(v[1::2])))
    assert widths
    return min(widths) * mm_per_px


def test_two_far_apart_combats_print_their_models_at_a_usable_size(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    board = _board(tmp_path)
    svg = _write(board, tmp_path / "far.svg")
    assert _smallest_base_mm(svg) >= USABLE_BASE_MM
    report = check(str(svg))
    assert report["problems"] == [] and report["smallest_pt"] >= 6.0, report
    text = svg.read_text(encoding="utf-8")
    assert "panel-frame-a" in text and "panel-frame-b" in text  # one inset a combat
    for uid in ("elves", "orcs", "dwarfs", "gobs"):
        assert f"model-{uid}." in text  # every unit of both combats shown


def test_the_one_picture_of_the_same_board_prints_them_too_small(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    svg = _write(_board(tmp_path), tmp_path / "one.svg", insets=False)
    assert _smallest_base_mm(svg) < USABLE_BASE_MM  # what the insets are for


def test_each_inset_shows_only_its_own_combat(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = _write(_board(tmp_path), tmp_path / "far.svg").read_text(encoding="utf-8")
    panels = {m.group(1): set() for m in re.finditer(r'id="panel-frame-(\w+)"', text)}
    for p, uid in re.findall(r'id="(\w+)-model-(\w+)\.', text):
        panels[p].add(uid)
    assert sorted(map(sorted, panels.values())) == [["dwarfs", "gobs"], ["elves", "orcs"]]


def test_the_insets_print_in_png_and_pdf_as_well(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    board = _board(tmp_path)
    png = _write(board, tmp_path / "far.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pdf = _write(board, tmp_path / "far.pdf")
    assert pdf.read_bytes()[:5] == b"%PDF-"


@pytest.mark.parametrize("golden", ["tow_martial_prowess_flank", "tow_initiative_modifiers"])
def test_the_golden_cases_of_separate_combats_print_as_insets(tmp_path, monkeypatch, golden):
    from game.core.scenario import load_scenario

    monkeypatch.chdir(ROOT)
    svg = _write(load_scenario(ROOT / "tests" / "golden" / f"{golden}.yaml"), tmp_path / f"{golden}.svg")
    assert "panel-frame-b" in svg.read_text(encoding="utf-8")
    assert _smallest_base_mm(svg) >= USABLE_BASE_MM
    assert check(str(svg))["problems"] == []


def test_combats_near_each_other_stay_one_picture(tmp_path, monkeypatch):
    from game.core.scenario import load_scenario

    monkeypatch.chdir(ROOT)
    svg = _write(load_scenario(ROOT / "assets" / "scenarios" / "whfb8_initiative.yaml"), tmp_path / "init.svg")
    assert "panel-frame-b" not in svg.read_text(encoding="utf-8")


def test_combat_groups_join_units_by_engagement_and_nearness(tmp_path):
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.render.insets import combat_groups

    board = _board(tmp_path)
    a = analyse(board, load_ruleset(board.ruleset))
    assert combat_groups(board, a, 40.0) == [["elves", "orcs"], ["dwarfs", "gobs"]]
    assert combat_groups(board, a, 1000.0) == [["elves", "orcs", "dwarfs", "gobs"]]  # boxes overlap: one


def test_the_key_names_every_unit_by_its_name_once(tmp_path, monkeypatch):
    from game.render.figure import FigureOptions
    from game.figures.figure_file import write_figure

    monkeypatch.chdir(ROOT)
    out = tmp_path / "far.svg"
    write_figure(_board(tmp_path), None, out, FigureOptions(size="180x120mm", dpi=200, crop=True, sections=True))
    text = out.read_text(encoding="utf-8")
    assert "panel-frame-b" in text
    legend = text[text.index('inkscape:label="Legend"'):]
    words = " ".join(re.findall(r">([^<>]+)</text>", legend))
    assert "Spearmen" in words and "Dwarfs" in words
    assert not re.search(r"\b(elves|orcs|dwarfs|gobs)\b", words)  # names, never the ids of units another panel holds
    assert "left:" not in words and "right:" not in words  # one key for the figure, not one per inset


def test_unit_tags_keep_the_whole_board_order_in_one_picture(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = _write(_board(tmp_path), tmp_path / "tags.svg", letters=True).read_text(encoding="utf-8")
    assert "panel-frame-b" not in text and "D: Goblins" in text


def test_a_scale_bar_in_a_narrow_inset_keeps_its_words_inside_it(tmp_path, monkeypatch):
    from print_ready import text_width

    from game.core.scenario import load_scenario
    from game.render.figure import FigureOptions
    from game.figures.figure_file import write_figure

    monkeypatch.chdir(ROOT)
    out = tmp_path / "three.svg"
    write_figure(load_scenario(ROOT / "tests" / "golden" / "tow_initiative_modifiers.yaml"), None, out,
                 FigureOptions(size="120x80mm", dpi=200, crop=True))
    root = ET.parse(out).getroot()
    frames = {}
    for g in root.iter(NS + "g"):
        m = re.fullmatch(r"panel-frame-(\w+)", g.get("id") or "")
        if m:
            v = [float(x) for x in re.split(r"[\s,]+", next(g.iter(NS + "polygon")).get("points").strip()) if x]
            frames[m.group(1)] = (min(v[0::2]), max(v[0::2]))
    assert len(frames) == 3  # three combats, three insets
    for g in root.iter(NS + "g"):
        m = re.fullmatch(r"(\w+)-scale_bar", g.get("id") or "")
        if not m:
            continue
        for t in g.iter(NS + "text"):
            x, fs = float(t.get("x")), float(t.get("font-size"))
            assert frames[m.group(1)][0] <= x and x + text_width(t.text, fs, False) <= frames[m.group(1)][1], t.text
