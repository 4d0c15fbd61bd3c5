"""Recording demos (game.core.demo_writer): record -> save -> load_demo -> the same steps."""
from __future__ import annotations
import dataclasses

from pathlib import Path

import pytest

from game.core import manoeuvre as mv
from game.core.analyse import analyse
from game.core.demo import DemoError, build_steps, load_demo, parse_demo
from game.core.demo_writer import DemoRecorder, RecordedStep, recorder_from_demo, step_key
from game.core.ruleset import load_ruleset
from game.core.scenario import board_to_dict, load_scenario
from game.core.validate import MAX_COORD_MM

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def _rounded(d):
    if isinstance(d, float):
        return round(d, 6) + 0.0
    if isinstance(d, dict):
        return {k: _rounded(v) for k, v in d.items() if k != "facing"}
    if isinstance(d, list):
        return [_rounded(v) for v in d]
    return d


def _record() -> DemoRecorder:
    b = load_scenario(SCENARIO)
    rec = DemoRecorder("Recorded in the window")
    rec.add(RecordedStep("Two blocks meet.", b))
    b2 = b.copy()
    b2 = b2.with_unit(mv.turn(b2.unit("night_goblins"), 30))
    b2 = b2.with_unit(mv.forward(b2.unit("night_goblins"), 40))
    rec.add(RecordedStep("The Night Goblins turn and advance.", b2, highlight=["night_goblins"],
                         notes=[("dwarfs.r3f9", "a supporting attack")]))
    b3 = b2.copy()
    b3 = dataclasses.replace(b3, context=dict(b3.context, charged=["goblins"]))
    rec.add(RecordedStep("The Goblins strike; two Dwarfs fall.", b3, strike=1, casualties={"dwarfs": ["r1f1", "r1f2"]}))
    b4 = b3.copy()
    b4 = b4.with_unit(dataclasses.replace(b4.unit("goblins"), empty=["r3f1"]))
    rec.add(RecordedStep("A new scene: the Dwarfs are whole again, a Goblin is missing.", b4))
    return rec


def _same_as_recorded(rec: DemoRecorder, steps) -> None:
    assert [s.caption for s in steps] == [r.caption for r in rec.steps]
    for r, s in zip(rec.steps, steps):
        assert _rounded(board_to_dict(s.board)) == _rounded(board_to_dict(r.board)) or r.casualties
        assert s.ruleset.id == r.board.ruleset
        assert [n for n in s.marks.notes] == [tuple(n) for n in r.notes]
        fallen = sorted(f"{u}.{sl}" for u, sls in r.casualties.items() for sl in sls)
        assert sorted(s.marks.fallen) == fallen


def test_record_save_load_gives_the_same_steps(tmp_path):
    rec = _record()
    out = tmp_path / "recorded.yaml"
    out.write_text(rec.to_text(str(out)), encoding="utf-8")
    demo = load_demo(out)                      # validated like any demo
    steps = build_steps(demo)
    _same_as_recorded(rec, steps)
    assert steps[1].marks.highlight and all(m.startswith("night_goblins.") for m in steps[1].marks.highlight)
    assert steps[2].marks.strike                # the strike step's label
    assert steps[2].scene == steps[1].scene == steps[0].scene and steps[3].scene > steps[2].scene
    text = out.read_text()
    assert "turn:" in text and "move:" in text and "casualties:" in text and text.count("load:") == 2
    # and again: the reopened demo saves to the same steps
    again = recorder_from_demo(demo, steps)
    steps2 = build_steps(parse_demo(again.to_text(str(out)), str(out)))
    assert [step_key(a) for a in steps] == [step_key(b) for b in steps2]


def test_edit_reorder_delete():
    rec = _record()
    rec.edit(1, caption="Edited caption")
    rec.move(3, 0)
    rec.delete(1)
    assert [s.caption for s in rec.steps] == ["A new scene: the Dwarfs are whole again, a Goblin is missing.",
                                              "Edited caption", "The Goblins strike; two Dwarfs fall."]
    steps = build_steps(parse_demo(rec.to_text()))
    _same_as_recorded(rec, steps)
    with pytest.raises(AttributeError):
        rec.edit(0, colour="red")
    with pytest.raises(ValueError):
        DemoRecorder("empty").to_text()


@pytest.mark.parametrize("name", ["whfb8_close_combat.yaml", "wh40k_fight_phase.yaml", "tow_combat_round.yaml"])
def test_bundled_demos_open_for_editing_and_save_losslessly(tmp_path, name):
    demo = load_demo(ROOT / "assets" / "demos" / name)
    steps = build_steps(demo)
    rec = recorder_from_demo(demo, steps)
    out = tmp_path / "copy" / name                    # saved elsewhere: load paths follow
    out.parent.mkdir()
    out.write_text(rec.to_text(str(out)), encoding="utf-8")
    again = build_steps(load_demo(out))
    assert [step_key(a) for a in steps] == [step_key(b) for b in again]


def test_an_inline_scenario_is_checked_with_file_line_and_field():
    text = """title: t
steps:
  - caption: c
    actions:
      - load:
          ruleset: whfb8
          units:
            - {id: a, player: 1, base: [20, 20], files: 0, models: 10, front: [0, 0], facing: 0}
"""
    with pytest.raises(DemoError) as e:
        parse_demo(text, "x.yaml")
    msg = str(e.value)
    assert msg.startswith("x.yaml:8:") and "steps[0].actions[0].load.units[0].files" in msg
