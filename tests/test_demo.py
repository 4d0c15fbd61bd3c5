"""Demos: the bundled demos run headless to their last step; bad demos name file, line, field."""
from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.core.demo import DemoError, build_steps, load_demo, parse_demo  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DEMOS = sorted((ROOT / "assets" / "demos").glob("*.yaml"))
STEPS_CACHE: dict = {}


def _steps(path: Path):
    if path not in STEPS_CACHE:
        STEPS_CACHE[path] = build_steps(load_demo(path))
    return STEPS_CACHE[path]


def test_there_is_a_demo_per_seed_system():
    names = {p.stem.split("_")[0] for p in DEMOS}
    assert {"whfb8", "t9a", "wh40k", "slots"} <= names


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: p.stem)
def test_bundled_demo_steps_through_to_the_end(path):
    from game.window.demo_view import DemoPlayer

    steps = _steps(path)
    assert len(steps) >= 2 and all(s.caption for s in steps)
    player = DemoPlayer(steps, load_demo(path).title, surface=pygame.Surface((640, 420)))
    view = player.view
    for _ in range(len(steps) + 2):  # clicking past the end stays on the last step
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0))
        player.frame()
        assert view.errors == []
    assert view.index == len(steps) - 1
    assert view.counter == f"{len(steps)} / {len(steps)}"
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0, unicode="", scancode=0))
    player.frame()
    assert view.index == len(steps) - 2
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(10, 10), button=1))
    player.frame()
    assert view.index == len(steps) - 1
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r, mod=0, unicode="", scancode=0))
    player.frame()
    assert view.index == 0
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    player.frame()
    assert not player.running


def test_the_demo_view_takes_events_and_draws_without_a_window():
    """The demo view alone: synthetic events to :meth:`View.dispatch`, drawing on any surface
    (the figure is drawn once per step and size, then blitted)."""
    from game.window.demo_view import DemoView

    steps = _steps(DEMOS[0])
    closed = []
    view = DemoView(steps, "t", close=lambda: closed.append(1))
    key = lambda k: view.dispatch(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0))  # noqa: E731
    assert key(pygame.K_SPACE) and view.index == 1 and view.counter == f"2 / {len(steps)}"
    assert key(pygame.K_LEFT) and view.index == 0
    assert not key(pygame.K_z)  # not the demo's: left to others
    assert view.dispatch(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(5, 5), button=1)) and view.index == 1
    surf = pygame.Surface((320, 200))
    view.draw(surf)
    view.draw(surf)
    assert view.pictures == 1 and view.errors == []  # the same step: blitted, not drawn again
    view.dispatch(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_HOME, mod=0))
    view.draw(surf)
    assert view.index == 0 and view.pictures == 2
    key(pygame.K_ESCAPE)
    assert closed == [1]


def test_wh40k_demo_expands_the_fight_phase():
    """One step per entry of wh40k.fight_phase_steps: start, two pile-ins, the selections,
    two consolidations (the captions are that function's own)."""
    steps = _steps(ROOT / "assets" / "demos" / "wh40k_fight_phase.yaml")
    caps = [s.caption for s in steps]
    assert caps[0].startswith("Start of the Fight phase")
    assert [c.split(",")[0] for c in caps[1:3]] == ["Pile In", "Pile In"]
    assert sum("selection" in c for c in caps) >= 3
    assert [s.board.context.get("step") for s in steps[-2:]] == ["consolidate", "consolidate"]
    assert any(s.analysis.moves for s in steps)


def test_strike_step_dims_everyone_else():
    steps = _steps(ROOT / "assets" / "demos" / "whfb8_close_combat.yaml")
    first = next(s for s in steps if s.marks.strike == "Initiative 5")
    striking = set(first.analysis.strike_order[0].models)
    assert striking and all(m.startswith("spearmen.") for m in striking)
    assert set(first.marks.dim) == {m.id for m in first.board.models()} - striking


def test_casualties_recalculate_slots():
    steps = _steps(ROOT / "assets" / "demos" / "slots_large_model.yaml")
    before, melee, after, end = steps[1], steps[2], steps[3], steps[4]
    assert melee.marks.fallen == ["goblins.r1f2", "goblins.r1f3", "goblins.r1f4"]
    assert len(melee.board.unit("goblins").models()) == len(before.board.unit("goblins").models())
    assert len(after.board.unit("goblins").models()) == len(before.board.unit("goblins").models()) - 3
    assert after.analysis.to_json()["allocation"] != before.analysis.to_json()["allocation"]
    assert end.board.context["round_winner"] == "spider"
    # the second scene: the goblins win the round and become the attacker (Recalculation)
    won = steps[-1]
    assert won.board.context["round_winner"] == "goblins"
    assert won.analysis.to_json()["allocation"]["goblins"]["attacker_because"] == "round_winner"
    assert steps[-2].analysis.to_json()["allocation"]["goblins"]["attacker"] == "spiders"


def test_whfb8_demo_steps_through_a_round():
    """Seed 002: the Elves strike first and six Orcs fall; at Initiative 2 the Orcs strike
    with what is left. Seed 000: the Dwarfs close up after the Goblins' rear rank falls."""
    steps = _steps(ROOT / "assets" / "demos" / "whfb8_close_combat.yaml")
    i5 = next(s for s in steps if s.marks.strike == "Initiative 5")
    assert len(i5.marks.fallen) == 6 and all(m.startswith("orcs.") for m in i5.marks.fallen)
    i2 = next(s for s in steps if s.marks.strike == "Initiative 2" and s.board.unit("orcs") is not None
              and any(u.id == "orcs" for u in s.board.units))
    assert len(i2.board.unit("orcs").models()) == 6
    striking = [m for m, r in i2.analysis.models.items() if m.startswith("orcs.") and m not in i2.marks.dim
                and r.attacks]
    assert len(striking) == 6 and "surviving Orcs strike" in i2.caption
    last = steps[-1]
    assert last.analysis.moves and all(m.startswith("dwarfs.") for m in last.analysis.moves)
    assert "move straight forward" in last.caption


def test_tow_demo_shows_stepped_forward_models_that_cannot_attack():
    steps = _steps(ROOT / "assets" / "demos" / "tow_combat_round.yaml")
    i3 = steps[2]
    assert i3.marks.strike == "Initiative 3"
    grey = {"marauders.r1f1", "marauders.r1f2", "marauders.r1f5"}
    assert all(i3.analysis.models[m].attacks == 0 for m in grey)
    assert grey <= set(i3.marks.dim)
    assert sum(1 for m, r in i3.analysis.models.items() if m.startswith("marauders.") and r.attacks) == 7


@pytest.mark.parametrize("action,field,msg", [
    ("casualties: {orks: [r1f1]}", "steps[0].actions[1].casualties.orks", "no unit"),
    ("casualties: {orcs: [r9f9]}", "steps[0].actions[1].casualties.orcs[0]", "no model"),
    ("casualties: {orcs: 0}", "steps[0].actions[1].casualties.orcs", ""),
    ("casualties: []", "steps[0].actions[1].casualties", ""),
    ("end_round: true", "steps[0].actions[1].end_round", "no combat round"),
])
def test_bad_casualties_name_file_line_and_field(tmp_path, action, field, msg):
    scen = ROOT / "assets" / "scenarios" / "whfb8_initiative.yaml"
    demo = tmp_path / "d.yaml"
    demo.write_text(f"title: t\nsteps:\n  - caption: a\n    actions:\n      - load: {scen}\n      - {action}\n")
    with pytest.raises(DemoError) as e:
        build_steps(load_demo(demo))
    text = str(e.value)
    assert f"d.yaml:6: {field}" in text and msg in text


def test_moves_wheels_and_removals(tmp_path):
    scen = ROOT / "assets" / "scenarios" / "whfb8_initiative.yaml"
    demo = tmp_path / "d.yaml"
    demo.write_text(f"""title: t
steps:
  - caption: a
    actions:
      - load: {scen}
      - move: {{unit: trolls, forward_mm: 10}}
      - wheel: {{unit: orcs, deg: 90, pivot: left}}
      - remove: {{unit: spearmen, count: 5}}
      - remove: {{unit: orcs, slots: [r1f1]}}
      - annotate: {{model: orcs.r1f2, text: hello}}
""")
    (st,) = build_steps(load_demo(demo))
    t = st.board.unit("trolls")
    assert t.front == pytest.approx((900.0, 410.0))  # facing 180: forward is down the page
    assert st.board.unit("orcs").facing_deg == pytest.approx(270.0)
    assert len(st.board.unit("spearmen").models()) == 10
    assert "orcs.r1f1" not in {m.id for m in st.board.unit("orcs").models()}
    assert st.marks.notes == [("orcs.r1f2", "hello")]


@pytest.mark.parametrize("text, line, field", [
    ("title: x\nsteps:\n  - caption: a\n    actions:\n      - load: nope.yaml\n", 5, "steps[0].actions[0].load"),
    ("title: x\nsteps:\n  - caption: a\n    actions:\n      - jump: 3\n", 5, "steps[0].actions[0].jump"),
    ("title: x\nsteps:\n  - caption: a\n    actions:\n      - move: {unit: orcs}\n", 5, "steps[0].actions[0].move"),
    ("title: x\nsteps: []\n", 2, "steps"),
    ("title: x\nsteps:\n  - caption: a\n    actions: []\n", 4, "steps[0].actions"),
    ("title: x\nsteps:\n  - caption: a\n    colour: red\n    actions: []\n", 4, "steps[0].colour"),
])
def test_parse_errors_name_file_line_and_field(text, line, field):
    with pytest.raises(DemoError) as ei:
        build_steps(parse_demo(text, str(ROOT / "assets" / "demos" / "bad.yaml")))
    e = ei.value
    assert (e.line, e.field) == (line, field)
    assert str(e).startswith(f"{e.file}:{line}: {field}: ")
    assert e.file.endswith("bad.yaml")


def test_unknown_unit_names_the_line(tmp_path):
    scen = ROOT / "assets" / "scenarios" / "whfb8_initiative.yaml"
    demo = tmp_path / "bad.yaml"
    demo.write_text(f"title: t\nsteps:\n  - caption: a\n    actions:\n      - load: {scen}\n"
                    f"  - caption: b\n    actions:\n      - turn: {{unit: ghosts, deg: 10}}\n")
    with pytest.raises(DemoError) as ei:
        build_steps(load_demo(demo))
    assert ei.value.line == 8 and ei.value.field == "steps[1].actions[0].turn.unit"
    assert "ghosts" in ei.value.message


def test_demo_yaml_is_safe_loaded(tmp_path):
    demo = tmp_path / "evil.yaml"
    demo.write_text("title: !!python/object/apply:os.system ['echo hi']\nsteps: []\n")
    with pytest.raises(DemoError):
        load_demo(demo)


def test_gif_export_has_one_frame_per_step(tmp_path):
    from PIL import Image

    from game.window.demo_view import export_frames, export_gif

    path = ROOT / "assets" / "demos" / "slots_large_model.yaml"
    steps = _steps(path)
    out = export_gif(steps, "slots", tmp_path / "d.gif", size=(320, 210))
    with Image.open(out) as im:
        assert im.n_frames == len(steps)
    pngs = export_frames(steps[:2], "slots", tmp_path / "frames", size=(320, 210))
    assert [p.name for p in pngs] == ["step_01.png", "step_02.png"]


def test_cli_demo_frames_and_errors(tmp_path, capsys):
    import main

    path = ROOT / "assets" / "demos" / "t9a_melee.yaml"
    assert main.main(["demo", str(path), "--frames", "2", "--size", "400x300"]) == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: x\nsteps:\n  - caption: a\n    actions:\n      - wheel: {unit: a, deg: x}\n")
    assert main.main(["demo", str(bad)]) == 2
    assert f"{bad}:5: steps[0].actions[0].wheel.deg: must be a number" in capsys.readouterr().err


def test_a_scenario_given_as_a_demo_is_named_as_such():
    path = Path(__file__).resolve().parents[1] / "assets" / "scenarios" / "whfb8_rear_gap.yaml"
    with pytest.raises(DemoError) as e:
        load_demo(path)
    msg = str(e.value)
    assert "looks like a scenario file" in msg and "unknown key" not in msg
    assert f"python main.py {path}" in msg and "render" in msg


def test_whfb8_demo_equal_initiative_casualties_strike_before_removal():
    """Seed 002, Equal Initiative: the models marked at Initiative 3 are among the strikers of
    that step, and both sides' dead are gone on the next step."""
    steps = _steps(ROOT / "assets" / "demos" / "whfb8_close_combat.yaml")
    i = next(k for k, s in enumerate(steps) if s.marks.strike == "Initiative 3" and "Gor" in s.caption)
    st, after = steps[i], steps[i + 1]
    assert set(st.marks.fallen) == {"humans.r1f2", "humans.r1f3", "beastmen.r1f2"}
    assert not set(st.marks.fallen) & set(st.marks.dim)          # they strike at this step
    assert len(after.board.unit("humans").models()) == 7 and len(after.board.unit("beastmen").models()) == 7
    assert all(f"humans.r1f{f}" in {m.id for m in after.board.unit("humans").models()} for f in range(1, 6))


def test_t9a_demo_agility_step_on_what_is_left():
    steps = _steps(ROOT / "assets" / "demos" / "t9a_melee.yaml")
    a4, a3 = steps[2], steps[3]
    assert a4.marks.strike.startswith("Agility 4") and len(a4.marks.fallen) == 5
    assert len(a3.board.unit("halberds").models()) == 10 and a3.board.unit("halberds").ranks == 2
