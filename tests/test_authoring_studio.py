"""The authoring studio's second round (issue 23): the view recorded per step, steps recorded
from the N / P phase steps, group drags that respect the no-overlap rule, the chosen step
highlighted in the recorder's list, a readout after a click charge, and saving in one pass."""
from __future__ import annotations
import dataclasses

import re

import pytest
import yaml

from game.core import demo as demo_mod
from game.core import manoeuvre as mv
from game.core.demo import DemoError, build_steps, load_demo, parse_demo
from game.core.demo_writer import DemoRecorder, RecordedStep, recorder_from_demo, step_key
from game.core.editor import Editor
from game.core.ruleset import load_ruleset
from game.core.registry import strategy_of
from game.core.scenario import load_scenario
from game.render.demo_frames import scene_boxes
from game.render.html_page import demo_page

from tests.apputil import SCENARIOS, make_app

HORDE = SCENARIOS / "dwarf_horde_vs_goblins.yaml"
ROUND = SCENARIOS / "whfb8_initiative.yaml"
FIGHT = SCENARIOS / "wh40k_fight_phase.yaml"


# -- 2. the view of each step -------------------------------------------------------------------
def test_the_view_is_written_per_step_and_played_back(tmp_path):
    b = load_scenario(HORDE)
    rec = DemoRecorder("views")
    rec.add(RecordedStep("Wide.", b, view=(0.0, 0.0, 1200.0, 800.0)))
    rec.add(RecordedStep("Close on the Goblins.", b, view=(540.0, 300.0, 740.0, 420.0)))
    rec.add(RecordedStep("Fitted again.", b))
    out = tmp_path / "views.yaml"
    out.write_text(rec.to_text(str(out)))
    text = out.read_text()
    views = [[a["view"] for a in s["actions"] if "view" in a] for s in yaml.safe_load(text)["steps"]]
    assert views == [[{"centre": [600.0, 400.0], "size": [1200.0, 800.0]}],
                     [{"centre": [640.0, 360.0], "size": [200.0, 120.0]}], []]
    steps = build_steps(load_demo(out))
    assert steps[0].view_mm == (0.0, 0.0, 1200.0, 800.0)
    assert steps[1].view_mm == (540.0, 300.0, 740.0, 420.0) and steps[2].view_mm is None
    boxes = scene_boxes(steps)           # what `demo`, the window's Play, PNG / GIF and HTML fit
    assert boxes[0] == (0.0, 0.0, 1200.0, 800.0) and boxes[1] == (540.0, 300.0, 740.0, 420.0)
    assert boxes[2] != boxes[1]
    # the HTML page draws each step at its own view
    page = demo_page(steps, "views", size=(640, 420))
    svgs = re.findall(r"<svg .*?</svg>", page, flags=re.S)
    assert len(svgs) == 3 and len(set(svgs)) == 3
    # opened again for editing, the views stay
    again = recorder_from_demo(load_demo(out), steps)
    assert [s.view for s in again.steps] == [(0.0, 0.0, 1200.0, 800.0), (540.0, 300.0, 740.0, 420.0), None]
    assert again.to_text(str(out)) == text


def test_a_bad_view_names_its_field():
    text = ("title: t\nsteps:\n  - caption: x\n    actions:\n      - load: dwarf_horde_vs_goblins.yaml\n"
            "      - view: {centre: [1, 2], size: [0, 5]}\n")
    with pytest.raises(DemoError) as e:
        parse_demo(text, str(SCENARIOS / "bad.yaml"))
    assert e.value.line == 6 and "steps[0].actions[1].view.size[0]" in str(e.value)


def test_the_window_records_the_camera_and_show_brings_it_back(tmp_path):
    d = make_app(HORDE, copy_to=tmp_path)
    d.action("demo_recorder")
    rec = d.recorder
    rec.set_text("caption", "Fitted.")
    rec.run("add")
    d.table.camera.zoom_about(2.0, d.table.camera.to_px((640.0, 400.0)))
    zoomed = d.table.view_box_mm()
    rec.set_text("caption", "Zoomed in.")
    rec.run("add")
    assert rec.rec.steps[1].view == pytest.approx(zoomed)
    assert rec.rec.steps[0].view != pytest.approx(zoomed)
    d.table.fit()
    rec.rec.index = 1
    rec.run("show")
    assert d.table.view_box_mm() == pytest.approx(zoomed, abs=1.0)   # the camera as it was recorded


# -- 3. recording from the N / P phase steps ------------------------------------------------------
def test_a_phase_step_is_written_as_phase_step_and_builds_the_same(tmp_path):
    b = load_scenario(ROUND)
    rs = load_ruleset(b.ruleset)
    phase = strategy_of(rs).phase_steps(b, rs)
    assert [p.kind for p in phase] == ["strike", "strike", "end"]
    rec = DemoRecorder("round")
    rec.add(RecordedStep("The round begins.", b))
    rec.add(RecordedStep("", b, phase=1))
    rec.add(RecordedStep("The Orcs strike back.", b, highlight=["orcs"], phase=2))
    rec.add(RecordedStep("After the round.", b))
    out = tmp_path / "round.yaml"
    text = rec.to_text(str(out))
    out.write_text(text)
    assert text.count("phase_step: 1") == 1 and text.count("phase_step: 2") == 1
    steps = build_steps(load_demo(out))
    assert len(steps) == 4
    for st, n in ((steps[1], 1), (steps[2], 2)):
        p = phase[n - 1]
        assert sorted(st.marks.dim) == sorted(p.dim) and sorted(st.marks.fallen) == sorted(p.fallen)
        assert st.marks.strike == p.label and st.phase == n
        assert {k: (r.role, r.attacks) for k, r in st.analysis.models.items()} == \
            {k: (r.role, r.attacks) for k, r in p.analysis.models.items()}
    assert steps[1].caption == phase[0].caption            # no caption typed: the phase step's own
    assert steps[2].caption == "The Orcs strike back." and steps[2].marks.highlight
    # opened for editing: still phase steps, and written again the same
    again = recorder_from_demo(load_demo(out), steps)
    assert [s.phase for s in again.steps] == [None, 1, 2, None]
    steps2 = build_steps(parse_demo(again.to_text(str(out)), str(out)))
    assert [step_key(s) for s in steps2] == [step_key(s) for s in steps]


def test_phase_step_refuses_what_it_cannot_show(tmp_path):
    head = "title: t\nsteps:\n  - caption: x\n    actions:\n      - load: whfb8_initiative.yaml\n"
    with pytest.raises(DemoError) as e:
        build_steps(parse_demo(head + "      - phase_step: 9\n", str(SCENARIOS / "x.yaml")))
    assert "the phase has 3 steps" in str(e.value)
    with pytest.raises(DemoError) as e:
        parse_demo(head + "      - phase_step: 1\n      - strike: 1\n", str(SCENARIOS / "x.yaml"))
    assert "not with fight_phase, strike or casualties" in str(e.value)


def test_add_step_while_stepping_records_that_step(tmp_path):
    d = make_app(ROUND, copy_to=tmp_path)
    d.action("demo_recorder")
    rec = d.recorder
    rec.set_text("caption", "The board.")
    rec.run("add")
    d.action("step:1")
    d.action("step:1")                                     # N, N: the second strike step
    assert d.steps.active and d.steps.index == 1
    rec.set_text("caption", "Initiative 2.")
    rec.run("add")
    assert d.steps.active                                   # still stepping: Add step does not leave
    assert rec.rec.steps[1].phase == 2 and rec.rec.labels()[1].startswith("2. [step 2]")
    rec.set_text("strike", "1")
    rec.run("add")
    assert "a phase step shows its own strike step" in d.status.message and len(rec.rec.steps) == 2
    out = tmp_path / "stepped.yaml"
    rec.rec.save(str(out))
    st = build_steps(load_demo(out))[1]
    shown = d.steps.steps[1]
    assert sorted(st.marks.dim) == sorted(shown.dim) and st.marks.strike == shown.label
    d.action("board")
    rec.rec.index = 1
    rec.run("show")                                         # back on that phase step
    assert d.steps.active and d.steps.index == 1


def test_a_40k_fight_phase_step_is_recorded():
    b = load_scenario(FIGHT)
    rs = load_ruleset(b.ruleset)
    phase = strategy_of(rs).phase_steps(b, rs)
    n = min(3, len(phase))
    rec = DemoRecorder("fight")
    rec.add(RecordedStep("", b, phase=n))
    steps = build_steps(parse_demo(rec.to_text(), "<rec>"))
    assert steps[0].caption == phase[n - 1][0]
    assert steps[0].analysis.moves == phase[n - 1][2].moves


# -- 4. group drags --------------------------------------------------------------------------------
def _drag_group(d, leader: str, dy_px: float) -> None:
    u = d.doc.board.unit(leader)
    a = d.table.camera.to_px(u.center())
    d.move_mouse(a)
    d.press(a)
    for i in range(1, 7):
        d.move_mouse((a[0], a[1] + dy_px * i / 6), (1, 0, 0))
        d.frame(4)
    d.frame(20)
    d.release((a[0], a[1] + dy_px))


def test_a_group_drag_stops_where_a_follower_would_overlap(tmp_path):
    d = make_app(HORDE, copy_to=tmp_path)
    t = d.table
    t.select("night_goblins")
    t.toggle_in_selection("goblins")                        # the Goblins touch the Dwarfs' front
    g0, n0 = d.doc.board.unit("goblins").center(), d.doc.board.unit("night_goblins").center()
    _drag_group(d, "night_goblins", 60)                     # down the table: into the Dwarfs
    b = d.doc.board
    others = b.with_units(u for u in b.units if u.id == "dwarfs")
    assert Editor().penetration(others, b.unit("goblins")) <= Editor().tol_mm + 1e-6
    dg = b.unit("goblins").center()[1] - g0[1]
    dn = b.unit("night_goblins").center()[1] - n0[1]
    assert dg == pytest.approx(dn, abs=0.01) and dn < 1.0  # held back together, never sunk in
    _drag_group(d, "night_goblins", -60)                    # away: free
    assert d.doc.board.unit("goblins").center()[1] < g0[1] - 5


def test_group_shift_bisects_to_flush():
    b = load_scenario(HORDE)
    ed = Editor()
    others = b.with_units([b.unit("dwarfs")])
    gob = mv.forward(b.unit("goblins"), -20.0)             # 20 mm back from the Dwarfs (it faces them)
    shift = ed.group_shift(others, [gob], {"goblins": 0.0}, (0.0, 0.0), (0.0, 50.0))
    assert shift[1] == pytest.approx(20.0, abs=0.1)        # stops at contact, not 50 mm on
    assert ed.group_shift(others, [gob], {"goblins": 0.0}, (0.0, 0.0), (0.0, -30.0)) == (0.0, -30.0)


# -- 5. the chosen step highlighted; the readout of a click charge --------------------------------
def test_the_chosen_step_is_highlighted_in_the_list(tmp_path):
    d = make_app(HORDE, copy_to=tmp_path)
    d.action("demo_recorder")
    rec = d.recorder
    for cap in ("One.", "Two.", "Three."):
        rec.set_text("caption", cap)
        rec.run("add")
        d.frame()
    assert rec.chosen_row() == 2
    rec.rec.index = 0
    rec.run("down")
    d.frame()
    assert rec.rec.index == 1 and rec.chosen_row() == 1
    buttons = [it["button_element"] for it in rec.list.item_list]
    assert [bool(b and b.is_selected) for b in buttons] == [False, True, False]


def test_a_click_charge_shows_the_readout(tmp_path):
    d = make_app(SCENARIOS / "t9a_misaligned_no_cap.yaml", copy_to=tmp_path)
    gob = mv.forward(d.doc.board.unit("goblins"), -60)
    gob = dataclasses.replace(gob, profile=dict(gob.profile, movement=4))  # a Movement to show as the reach bar
    d.put_unit(gob)
    d.action("tool:charge")
    d.click(d.doc.board.unit("goblins").center())
    d.click(d.doc.board.unit("dwarfs").center())
    d.frame()
    ro = [o for o in d.table.options.overlays if o[0] == "drag_readout"]
    assert ro, d.table.options.overlays
    lines = ro[0][3].lines()
    assert lines[0].startswith("moved ") and f"touching {d.doc.board.unit('dwarfs').name}" in lines
    assert ro[0][3].reach and d.status.banner == ""     # the reach bar is drawn without an error
    d.put_unit(mv.forward(d.doc.board.unit("goblins"), -30))   # moved on: the readout goes
    d.frame()
    assert not [o for o in d.table.options.overlays if o[0] == "drag_readout"]


# -- 6. saving in one pass -----------------------------------------------------------------------
def test_saving_applies_each_step_once(monkeypatch):
    b = load_scenario(ROUND)
    rec = DemoRecorder("many casualties")
    for i in range(12):
        rec.add(RecordedStep(f"Step {i + 1}.", b if i == 0 else rec.steps[-1].board,
                             casualties={"orcs": 1} if i % 2 == 0 else {}))
    fed: list[int] = []
    real = demo_mod.StepBuilder.feed

    def counting(self, si, spec):
        fed.append(si)
        return real(self, si, spec)

    monkeypatch.setattr(demo_mod.StepBuilder, "feed", counting)
    rec.to_text()
    assert len(fed) == len(set(fed)) <= len(rec.steps)     # every step applied at most once: linear


# -- 7. friction found in the trial ---------------------------------------------------------------
def test_the_open_palette_follows_the_ruleset(tmp_path):
    d = make_app(HORDE, copy_to=tmp_path)               # whfb8
    d.action("palette")
    assert d.panels.palette.button_for("Knights 25x50") is None
    d.choose_ruleset("t9a")
    assert d.panels.palette is not None and d.panels.palette.alive()
    assert d.panels.palette.button_for("Knights 25x50") is not None   # t9a's troop types now


def test_a_group_side_by_side_moves_into_its_own_old_place(tmp_path):
    """A unit following the dragged one may move into where the dragged one stood: the group
    is checked against the units outside it only."""
    d = make_app(HORDE, copy_to=tmp_path)
    b = d.doc.board
    ng = b.unit("night_goblins")                             # faces east, 60 mm deep
    ahead = dataclasses.replace(b.unit("night_goblins"), id="ng2", name="Second goblins")
    ahead = ahead.translated(0.0, -ng.width_mm - 5.0)        # 5 mm above it, side by side
    from game.core.editor import Change

    d.app.table.apply(Change(b.with_units([*b.units, ahead]), "a second unit"))
    t = d.table
    t.select("night_goblins")
    t.toggle_in_selection("ng2")
    y0, y1 = d.doc.board.unit("ng2").center()[1], ng.center()[1]
    _drag_group(d, "night_goblins", 40)                       # down: the second unit into the first's place
    dy_lead = d.doc.board.unit("night_goblins").center()[1] - y1
    dy_ahead = d.doc.board.unit("ng2").center()[1] - y0
    assert dy_lead > 15 and dy_ahead == pytest.approx(dy_lead, abs=0.01)
