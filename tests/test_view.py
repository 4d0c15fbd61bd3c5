"""The window, figures and the drawing protocol (headless: SDL dummy video driver)."""
from __future__ import annotations

import dataclasses

import os
import subprocess
import sys
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pytest  # noqa: E402

from apputil import drag  # noqa: E402
from game.core.analyse import analyse  # noqa: E402
from game.core.scenario import load_scenario  # noqa: E402
from game.render.canvas import Canvas  # noqa: E402
from game.render.palette import PALETTE  # noqa: E402
from game.render.options import SceneOptions
from game.render.scene import draw_scene, fit_view  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
PY = sys.executable


@pytest.fixture()
def board():
    return load_scenario(SCENARIO)


def _app(board):
    from apputil import Driver, FakeClock
    from game.window.app import App

    clock = FakeClock()
    return Driver(App(board, size=(1200, 800), clock=clock), clock)


def _drag(app, frm_mm, to_mm, frames=90):
    """Press at table point frm_mm, move to to_mm, let the physics follow, release."""
    drag(app, frm_mm, to_mm, frames)


def test_app_drag_onto_flank_changes_roles(board):
    app = _app(board)
    before = app.doc.roles("night_goblins")
    assert set(before.values()) == {"none"}
    assert app.doc.roles("dwarfs")["dwarfs.r2f1"] == "support"
    ng = board.unit("night_goblins")
    start = ng.center()
    # aim well past the dwarfs' left flank: the tray must stop flush against it
    _drag(app, start, (start[0] + 260, start[1]))
    after = app.doc.roles("night_goblins")
    # the dwarf flank (y 400-480) covers the first four files of the night goblins' front rank
    assert {k for k, r in after.items() if r == "attack"} == {f"night_goblins.r1f{f}" for f in range(1, 5)}
    dw = app.doc.roles("dwarfs")
    assert dw["dwarfs.r2f1"] == "attack" and dw["dwarfs.r4f1"] == "attack"
    # it stopped at the flank instead of passing through the dwarfs
    dwarfs = app.doc.board.unit("dwarfs")
    left_edge_x = min(p[0] for p in dwarfs.tray().points)
    front_x = app.doc.board.unit("night_goblins").front[0]
    assert abs(front_x - left_edge_x) < 0.6


def test_app_drag_front_goblins_away(board):
    app = _app(board)
    assert app.doc.roles("dwarfs")["dwarfs.r3f5"] == "support"
    gob = board.unit("goblins")
    c = gob.center()
    _drag(app, c, (c[0], c[1] - 150))
    assert set(app.doc.roles("dwarfs").values()) == {"none"}
    assert set(app.doc.roles("goblins").values()) == {"none"}


def test_app_rotate_and_bad_state_banner(board):
    app = _app(board)
    ng = board.unit("night_goblins")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=app.table.camera.to_px(ng.center()), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=app.table.camera.to_px(ng.center()), button=1))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=0))
    app.frame()
    assert app.doc.board.unit("night_goblins").facing_deg == pytest.approx(105)
    # a broken board (a unit with no files) must not kill the loop: banner + last good board
    app.doc.board = app.doc.board.with_unit(dataclasses.replace(app.doc.board.unit("night_goblins"), files=0))
    app.doc.recompute()
    app.frame()
    assert app.status.banner and app.doc.board.unit("night_goblins").files == 5


def test_figure_pixels_follow_roles(board):
    from game.render.pygame_canvas import PygameCanvas
    from game.render.figure import FigureOptions, draw_figure, render_png_surface

    a = analyse(board)
    fo = FigureOptions(size="1100x700", supersample=1, counts=False, style="screen")  # the window's colours
    surf, errors = render_png_surface(board, a, fo, (1100, 700))
    assert errors == []
    view, _ = draw_figure(PygameCanvas(pygame.Surface((1100, 700))), board, a, fo)
    u = board.unit("dwarfs")

    def colour_at(slot):
        r, f = int(slot[1]), int(slot[3:])
        p = view.to_px(u.slot_center(r, f))
        return tuple(surf.get_at((int(p[0]) - 3, int(p[1]) + 3)))[:3]

    assert colour_at("r1f2") == PALETTE["attack"]
    assert colour_at("r2f2") == PALETTE["support"]
    assert colour_at("r3f9") == PALETTE["support"]
    assert colour_at("r4f9") == PALETTE["none"]


def test_recording_canvas_structure(board):
    a = analyse(board)
    c = Canvas(1200, 800)
    errors = draw_scene(c, board, a, fit_view(1200, 800, board, SceneOptions()), options=SceneOptions())
    assert errors == []
    red = [x for x in c.find("polygon", "model:") if x.get("fill") == PALETTE["attack"]]
    blue = [x for x in c.find("polygon", "model:") if x.get("fill") == PALETTE["support"]]
    assert len(red) == sum(r.role == "attack" for r in a.models.values()) == 20
    assert len(blue) == sum(r.role == "support" for r in a.models.values()) == 30
    assert {x.get("tag") for x in c.find("polygon", "front:")} == {"front:dwarfs", "front:goblins", "front:night_goblins"}
    texts = [x.args[1] for x in c.find("text", "label:")]
    assert "Dwarf Warriors" in texts  # names, not ids
    c2 = Canvas(1200, 800)
    draw_scene(c2, board, a, fit_view(1200, 800, board, SceneOptions()), options=SceneOptions(ids=True, letters=True))
    assert "A: Dwarf Warriors (dwarfs)" in [x.args[1] for x in c2.find("text", "label:")]
    assert any("Initiative 2" in x.args[1] for x in c.find("text", "legend"))


def test_scene_survives_bad_analysis_and_draws_extras(board):
    from game.core.analysis import Analysis, ModelResult

    a = analyse(board)
    from game.core.parts import Allocation, Allocations, CombatSlot, CombatSlots, FightSelection, FightSequence, MoveReach
    a.put(FightSequence((FightSelection(1, "dwarfs", 1, "normal", True), FightSelection(2, "nobody", None, None, None))),
          MoveReach(76.2),
          CombatSlots((CombatSlot("goblins.r1f1", (600, 380), "regular", "front"), CombatSlot("x", None, None, None))),
          Allocations({"dwarfs": Allocation(final=8, actual=8, base=0.7, bonus=1)}))
    a.moves = {"dwarfs.r4f1": [(550, 470), (530, 470)]}
    a.gap_links = [("dwarfs.r1f1", "goblins.r1f1"), ("ghost.x", "y")]
    a.models["dwarfs.r1f1"] = ModelResult(role="attack", at=None)  # odd: no position
    c = Canvas(1000, 700)
    errors = draw_scene(c, board, a, fit_view(1000, 700, board, SceneOptions()),
                        options=SceneOptions(hover="dwarfs.r1f2", hover_px=(300, 300), selection=("dwarfs",),
                                             status="ok", banner="boom"))
    assert len(errors) >= 1  # the odd entries failed alone ...
    assert c.find("circle", "badge:dwarfs") and c.find("circle", "reach:") and c.find("arrow", "move:")
    assert c.find("circle", "slot:goblins.r1f1")  # ... and the good ones were drawn
    assert any("Allocation" in x.args[1] for x in c.find("text", "legend"))
    assert c.find("polygon", "tooltip") and c.find("polygon", "banner")
    # no analysis at all still draws every base, neutral
    c2 = Canvas(1000, 700)
    draw_scene(c2, board, None, fit_view(1000, 700, board, SceneOptions()))
    assert len([x for x in c2.find("polygon", "model:") if x.get("fill") == PALETTE["none"]]) == 85
    assert isinstance(Analysis, type)


def _run(args, env_extra=None, drop=()):
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(env_extra or {})
    return subprocess.run([PY, str(ROOT / "main.py"), *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)


def test_window_frames_exit_zero():
    r = _run(["--frames", "5"], {"SDL_VIDEODRIVER": "dummy"})
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr


def test_no_display_writes_png():
    r = _run([], drop=("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"))
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    assert len(lines) == 1 and "No display found" in lines[0]
    path = Path(lines[0].rsplit(" to ", 1)[1].split(" instead")[0])
    assert path.suffix == ".png" and path.stat().st_size > 1000
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_render_broken_scenario_exits_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: whfb8\nunits:\n  - id: dwarfs\n    player: 1\n    base: [20, 20]\n    models: 10\n"
                   "    files: zero\n    front: [0, 0]\n")
    r = _run(["render", str(bad), "-o", str(tmp_path / "x.png")])
    assert r.returncode == 2
    assert f"{bad}:7" in r.stderr and "files" in r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "x.png").exists()


def test_render_writes_png(tmp_path):
    out = tmp_path / "fig.png"
    r = _run(["render", str(SCENARIO), "-o", str(out), "--width", "900", "--height", "600", "--no-legend",
              "--title", "Test"])
    assert r.returncode == 0, r.stderr
    assert pygame.image.load(str(out)).get_size() == (900, 600)
