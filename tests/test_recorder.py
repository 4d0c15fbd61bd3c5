"""The demo recorder's pygame-free part (game/window/recorder.py: Recording)."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core import manoeuvre as mv
from game.core.demo import build_steps, load_demo
from game.core.scenario import load_scenario
from game.window.recorder import Recording, parse_callouts, parse_casualties, parse_ids, parse_strike

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def test_typed_marks_are_parsed():
    assert parse_ids("dwarfs, goblins.r1f2  night_goblins") == ["dwarfs", "goblins.r1f2", "night_goblins"]
    assert parse_callouts("dwarfs.r1f1: no support; goblins.r2f3: blocked") == [
        ("dwarfs.r1f1", "no support"), ("goblins.r2f3", "blocked")]
    assert parse_casualties("dwarfs: r1f1 r1f2; goblins: 2") == {"dwarfs": ["r1f1", "r1f2"], "goblins": 2}
    assert parse_strike("") is None and parse_strike("2") == 2 and parse_strike("Initiative 5") == "Initiative 5"
    with pytest.raises(ValueError):
        parse_callouts("just text")
    with pytest.raises(ValueError):
        parse_casualties("dwarfs")


def test_record_three_steps_save_reopen_edit_and_export(tmp_path):
    b = load_scenario(SCENARIO)
    r = Recording("Three steps")
    r.add(r.make_step(b, "whfb8", "Two blocks meet."))
    b2 = b.copy()
    b2 = b2.with_unit(mv.forward(b2.unit("night_goblins"), 30))
    r.add(r.make_step(b2, "whfb8", "The Night Goblins come closer.", ring="night_goblins",
                      callouts="dwarfs.r3f9: supports"))
    r.add(r.make_step(b2, "t9a", "The same board under T9A.", strike="1", casualties="dwarfs: r1f1"))
    assert r.labels()[1].startswith("2. The Night Goblins")
    with pytest.raises(ValueError, match="step 4: .*no model or unit 'orcs'"):
        r.add(r.make_step(b2, "whfb8", "bad", ring="orcs"))
    assert len(r.steps) == 3                                   # the refused step is not kept
    out = tmp_path / "three.yaml"
    assert "Saved the demo (3 steps)" in r.save(str(out))
    steps = build_steps(load_demo(out))
    assert [s.caption for s in steps] == ["Two blocks meet.", "The Night Goblins come closer.", "The same board under T9A."]
    assert steps[2].ruleset.id == "t9a" and steps[2].marks.fallen == ["dwarfs.r1f1"]

    again = Recording()
    again.open(str(out))
    assert len(again.steps) == 3
    again.index = 2
    again.move(-1)
    again.index = 0
    again.update(again.make_step(b, "whfb8", "Edited first caption."))
    again.save(str(out))
    steps = build_steps(load_demo(out))
    assert [s.caption for s in steps] == ["Edited first caption.", "The same board under T9A.",
                                          "The Night Goblins come closer."]
    page = tmp_path / "three.html"
    assert "3 steps" in again.html(str(page))
    assert page.read_text().count('<section class="step"') == 3


def test_save_never_replaces_a_file_that_is_not_a_demo(tmp_path):
    r = Recording()
    r.add(r.make_step(load_scenario(SCENARIO), "whfb8", "One."))
    scen = tmp_path / "scenario.yaml"
    scen.write_text(SCENARIO.read_text())
    with pytest.raises(ValueError, match="not a demo file"):
        r.save(str(scen))
    assert scen.read_text() == SCENARIO.read_text()
    with pytest.raises(ValueError):
        r.save(str(tmp_path / "x.txt"))
