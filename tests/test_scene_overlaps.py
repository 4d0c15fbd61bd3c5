"""Figures keep their marks apart: fight-order badges clear of unit labels, terrain labels
beside a small terrain piece (not over it), unit labels clear of combat-slot markers."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core.parts import FightSelection, FightSequence

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.canvas import Canvas, anchored
from game.render.options import SceneOptions
from game.render.scene import draw_scene, fit_view

ROOT = Path(__file__).resolve().parents[1]
SCEN = ROOT / "assets" / "scenarios"


def _area(a, b):
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _text_boxes(c: Canvas, tag_prefix: str):
    out = []
    for call in c.find("text", tag_prefix):
        size, bold = call.get("size"), call.get("bold")
        w, h = c.text_size(call.args[1], size, bold)
        x, y = anchored(call.args[0], w, h, call.get("anchor"))
        out.append((x, y, x + w, y + h))
    return out


def _circle_boxes(c: Canvas, tag_prefix: str):
    return [(x - r, y - r, x + r, y + r) for (x, y), r in (call.args[:2] for call in c.find("circle", tag_prefix))]


def _draw(board, analysis, size=(1000, 700)):
    o = SceneOptions()
    c = Canvas(*size)
    assert draw_scene(c, board, analysis, fit_view(*size, board, o), options=o) == []
    return c


def _fast_analysis(board):
    return analyse(board, load_ruleset(board.ruleset))


@pytest.mark.parametrize("name", ["wh40k_pile_in.yaml", "wh40k_fight_phase.yaml", "slots_flank.yaml",
                                  "dwarf_horde_vs_goblins.yaml"])
def test_fight_order_badges_stay_clear_of_unit_labels(name):
    board = load_scenario(SCEN / name)
    a = _fast_analysis(board) if board.ruleset != "wh40k" else analyse(board, load_ruleset("whfb8"))
    a.put(FightSequence(tuple(FightSelection(i + 1, u.id, u.player, "normal", True) for i, u in enumerate(board.units))))
    c = _draw(board, a)
    labels = _text_boxes(c, "label:")
    badges = _circle_boxes(c, "badge:") + _text_boxes(c, "badge:")
    assert len(labels) == len(board.units) and len(c.find("circle", "badge:")) == len(board.units)
    assert all(_area(b, lb) == 0 for b in badges for lb in labels)


def test_a_small_terrain_piece_is_not_covered_by_its_label():
    board = load_scenario(SCEN / "t9a_misaligned_terrain.yaml")
    c = _draw(board, _fast_analysis(board))
    polys = c.find("polygon", "terrain:")
    assert polys
    pts = polys[0].args[0]
    piece = (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))
    (label,) = _text_boxes(c, "terrain:")
    assert _area(label, piece) == 0
    assert c.find("text", "terrain:")[0].get("size") < 12  # smaller than the unit labels (13)
    assert all(_area(label, lb) == 0 for lb in _text_boxes(c, "label:"))


def test_unit_labels_stay_clear_of_combat_slot_markers():
    board = load_scenario(SCEN / "slots_flank.yaml")
    c = _draw(board, _fast_analysis(board), size=(960, 600))
    slots = _circle_boxes(c, "slot:")
    labels = _text_boxes(c, "label:")
    assert slots and labels
    assert all(_area(s, lb) == 0 for s in slots for lb in labels)
