"""Saved positions: a position a move computed is written to 0.01 mm (not
``655.5365909959892``), a position a person typed is written as typed, and a save that
changes nothing keeps the file byte for byte."""
from __future__ import annotations

import re
from dataclasses import replace

import pygame

from game.core import manoeuvre as mv
from game.core.demo_writer import board_actions
from game.core.scenario import dump_scenario, load_scenario, save_scenario

from tests.apputil import SCENARIOS, make_app

LONG = re.compile(r"\d\.\d{3,}")  # more than 2 decimals


def test_a_computed_front_is_written_to_a_hundredth_of_a_mm():
    b = load_scenario(SCENARIOS / "t9a_misaligned_no_cap.yaml")
    u = b.unit("goblins")
    b = b.with_unit(replace(u, front=(655.5365909959892, 303.7406503343442)))
    text = dump_scenario(b)
    assert "front: [655.54, 303.74]" in text
    assert load_scenario_text(text).unit("goblins").front == (655.54, 303.74)


def test_a_typed_front_is_written_as_typed(tmp_path):
    b = load_scenario(SCENARIOS / "t9a_misaligned_no_cap.yaml")
    u = b.unit("goblins")
    b = b.with_unit(replace(u, front=(600.125, -0.5)))
    assert "front: [600.125, -0.5]" in dump_scenario(b)


def test_an_unchanged_file_with_long_decimals_is_kept_byte_for_byte(tmp_path):
    src = (SCENARIOS / "t9a_misaligned_no_cap.yaml").read_text()
    text = re.sub(r"front: \[593\.0154, 382\.899\]", "front: [593.0154000000001, 382.8990000000002]", src)
    assert text != src
    p = tmp_path / "long.yaml"
    p.write_text(text)
    save_scenario(load_scenario(p), p)
    assert p.read_text() == text


def test_a_charge_saved_from_the_window_has_no_long_decimals(tmp_path):
    d = make_app(SCENARIOS / "t9a_misaligned_no_cap.yaml", copy_to=tmp_path)
    d.put_unit(mv.turn(mv.forward(d.doc.board.unit("goblins"), -97.3), 6.3))
    d.action("tool:charge")
    d.click(d.doc.board.unit("goblins").center())
    d.click(d.doc.board.unit("dwarfs").center())
    assert "charged the" in d.status.message
    d.key(pygame.K_s, pygame.KMOD_CTRL)
    d.frame()
    saved = (tmp_path / "t9a_misaligned_no_cap.yaml").read_text()
    fronts = re.findall(r"front: \[([^\]]*)\]", saved)
    assert fronts and not any(LONG.search(f) for f in fronts), fronts


def test_a_demo_move_is_written_to_a_hundredth_of_a_mm():
    b = load_scenario(SCENARIOS / "t9a_misaligned_no_cap.yaml")
    moved = b.with_unit(mv.forward(b.unit("goblins"), 12.3456789))
    acts = board_actions(b, moved)
    to = [a["move"]["to"] for a in acts if "move" in a][0]
    assert all(round(v, 2) == v for v in to), to


def load_scenario_text(text: str):
    from game.core.scenario import parse_scenario
    return parse_scenario(text, "<test>")
