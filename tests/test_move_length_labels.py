"""The length of a rule-mandated move is printed off the models: its label's box touches no
drawn base (its own model's neither), over every bundled scenario and golden case that moves
models, rendered as SVG at 180x120 mm cropped; a label moved far from its arrow is joined to it
by a leader; one arrow standing for a rank shuffled sideways says how many models it moves."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NS = "{http://www.w3.org/2000/svg}"
MOVING = ["assets/scenarios/wh40k_fight_phase.yaml", "assets/scenarios/wh40k_pile_in.yaml",
          "assets/scenarios/whfb8_incomplete_rank_left_flank.yaml", "tests/golden/whfb8_closing_up.yaml",
          "tests/golden/tow_closing_up.yaml", "tests/golden/t9a_closing_up_no_turn.yaml"]


def _shapes(g):
    """('c', cx, cy, r) circles and ('b', x0, y0, x1, y1) polygon boxes a group draws (px)."""
    out = []
    for el in g.iter():
        t = el.tag.replace(NS, "")
        if t == "circle":
            out.append(("c",) + tuple(float(el.get(k)) for k in ("cx", "cy", "r")))
        elif t == "polygon":
            v = [float(x) for x in re.split(r"[\s,]+", el.get("points").strip()) if x]
            out.append(("b", min(v[0::2]), min(v[1::2]), max(v[0::2]), max(v[1::2])))
    return out


def _touches(box, s) -> bool:
    x0, y0, x1, y1 = box
    if s[0] == "c":
        _, cx, cy, r = s
        nx, ny = min(max(cx, x0), x1), min(max(cy, y0), y1)
        return (nx - cx) ** 2 + (ny - cy) ** 2 < r * r - 1.0
    _, a0, b0, a1, b1 = s
    return min(x1, a1) - max(x0, a0) > 1.0 and min(y1, b1) - max(y0, b0) > 1.0


def _svg(tmp_path, rel: str) -> Path:
    from game.core.scenario import load_scenario
    from game.render.figure import FigureOptions
    from game.figures.figure_file import write_figure

    out = tmp_path / (Path(rel).stem + ".svg")
    write_figure(load_scenario(ROOT / rel), None, out, FigureOptions(size="180x120mm", dpi=200, crop=True))
    return out


def _labels_on_models(svg: Path) -> tuple[int, list]:
    root = ET.parse(svg).getroot()
    labels, models = [], []
    for g in root.iter(NS + "g"):
        gid = g.get("id") or ""
        if gid.startswith("movelen-"):
            boxes = [s[1:] for s in _shapes(g) if s[0] == "b"]
            if boxes:
                labels.append((gid, boxes[0]))
        elif gid.startswith("model-"):
            models.append((gid, _shapes(g)))
    return len(labels), [(lab, m) for lab, box in labels for m, ss in models if any(_touches(box, s) for s in ss)]


@pytest.mark.parametrize("rel", MOVING, ids=[Path(r).stem for r in MOVING])
def test_a_move_length_label_sits_off_every_base(tmp_path, monkeypatch, rel):
    monkeypatch.chdir(ROOT)
    n, on = _labels_on_models(_svg(tmp_path, rel))
    assert n >= 1 and on == []


def test_a_rank_shuffled_sideways_is_one_arrow_that_counts_its_models(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    svg = _svg(tmp_path, "assets/scenarios/whfb8_incomplete_rank_left_flank.yaml").read_text()
    texts = re.findall(r'<g id="movelen-[^"]*"[^>]*>(.*?)</g>', svg, re.S)
    words = [re.sub(r"<[^>]+>", "", t).strip() for t in texts]
    assert len(words) == 1 and words[0].endswith("(3 models)"), words


def test_files_closing_up_along_themselves_carry_no_count(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    svg = _svg(tmp_path, "tests/golden/whfb8_closing_up.yaml").read_text()
    assert "movelen-" in svg and "models)" not in svg
