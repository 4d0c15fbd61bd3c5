"""Editing in the window, driven headless by pygame events: models, bases, files, new units
from the palette, duplicate, delete, rename, player, dropped files; a property test of random
edit sequences (save/load and undo-all give the same board)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from game.core.bases import RectBase, RoundBase
from game.core import edits as ed  # noqa: E402
from game.core.scenario import board_to_dict, load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
SKIRMISH = ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml"


def make_app(tmp_path, src=SCENARIO):
    from apputil import make_app as mk

    return mk(src, copy_to=tmp_path, recent_file=tmp_path / "recent.json")


@pytest.fixture()
def app(tmp_path):
    return make_app(tmp_path)


def key(app, k, mod=0):
    app.key(k, mod)


def click(app, p_mm):
    app.click(p_mm)


def select(app, uid, p_mm=None):
    app.select(uid, p_mm)


def n_models(app, uid):
    return sum(1 for m in app.doc.analysis.models if m.split(".")[0] == uid)


def test_model_count_keys_and_undo(app):
    select(app, "dwarfs")
    n0 = n_models(app, "dwarfs")
    key(app, pygame.K_PERIOD)
    assert n_models(app, "dwarfs") == n0 + 1 and app.doc.board.unit("dwarfs").ranks == 5
    key(app, pygame.K_COMMA)
    key(app, pygame.K_COMMA)
    assert n_models(app, "dwarfs") == n0 - 1
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert n_models(app, "dwarfs") == n0


def test_skirmish_add_beside_last_and_remove_last(tmp_path):
    app = make_app(tmp_path, SKIRMISH)
    u = app.doc.board.unit("cultists")
    select(app, "cultists", u.placed[0][0])
    last = u.placed[-1][0]
    key(app, pygame.K_PERIOD)
    new = app.doc.board.unit("cultists")
    assert len(new.placed) == len(u.placed) + 1
    gap = ((new.placed[-1][0][0] - last[0]) ** 2 + (new.placed[-1][0][1] - last[1]) ** 2) ** 0.5
    assert gap == pytest.approx(25 + ed.SKIRMISH_GAP_MM)  # beside the last model, bases 2 mm apart
    assert f"cultists.m{len(new.placed)}" in app.doc.analysis.models
    key(app, pygame.K_COMMA)
    key(app, pygame.K_COMMA)
    assert [p for p, _ in app.doc.board.unit("cultists").placed] == [p for p, _ in u.placed[:-1]]


def test_duplicate_delete_and_undo(app):
    select(app, "night_goblins")
    key(app, pygame.K_d, pygame.KMOD_CTRL)
    ids = [u.id for u in app.doc.board.units]
    assert ids[-1] == "night_goblins_2" and app.table.selection == "night_goblins_2"
    copy = app.doc.board.unit("night_goblins_2")
    assert copy.name.endswith("(copy)") and app.doc.editor.blocker(app.doc.board, copy) is None
    assert any(m.startswith("night_goblins_2.") for m in app.doc.analysis.models)
    key(app, pygame.K_DELETE)
    key(app, pygame.K_DELETE)  # nothing selected any more: refused with a hint
    assert "night_goblins_2" not in [u.id for u in app.doc.board.units] and "Select a unit first" in app.status.message
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.doc.board.unit("night_goblins_2").name == copy.name
    select(app, "dwarfs")
    key(app, pygame.K_DELETE)
    assert not any(m.startswith("dwarfs.") for m in app.doc.analysis.models)
    assert set(app.doc.roles("goblins").values()) == {"none"}  # nothing left to fight


def test_rename_base_files_and_player_in_the_panel(app):
    select(app, "dwarfs")
    key(app, pygame.K_F2)
    assert app.opened("unit") is not None
    app.key(pygame.K_RETURN)  # Enter: the cursor in the name field
    assert app.panels.unit.entry("name").is_focused
    app.enter_text(app.panels.unit.entry("name"), "Iron Guard")
    assert app.doc.board.unit("dwarfs").name == "Iron Guard"
    app.enter_text(app.panels.unit.entry("base"), "25x25")
    u = app.doc.board.unit("dwarfs")
    assert u.base == RectBase(25.0, 25.0)
    assert app.doc.editor.fits(app.doc.board, u)
    app.enter_text(app.panels.unit.entry("base"), "big")  # refused: the reason is shown, the board kept
    assert app.doc.board.unit("dwarfs").base == RectBase(25.0, 25.0) and "diameter" in app.status.message
    front = app.doc.board.unit("dwarfs").front
    app.enter_text(app.panels.unit.entry("files"), "8")
    u = app.doc.board.unit("dwarfs")
    assert u.files == 8 and u.front == pytest.approx(front) and u.ranks == 5
    app.choose(app.panels.unit.entry("player"), "Player 2")
    assert app.doc.board.unit("dwarfs").player == 2
    key(app, pygame.K_1, pygame.KMOD_CTRL)
    assert app.doc.board.unit("dwarfs").player == 1
    for _ in range(5):
        key(app, pygame.K_z, pygame.KMOD_CTRL)
    u = app.doc.board.unit("dwarfs")
    assert (u.name, u.base, u.files) == ("Dwarf Warriors", RectBase(20.0, 20.0), 10)


def test_new_unit_from_the_palette_at_the_cursor(app):
    key(app, pygame.K_u)
    assert app.opened("palette") is not None
    assert all(app.panels.palette.button_for(c.label) is not None for c in ed.BASE_PALETTE)
    app.click_px(app.panels.palette.button_for("round 32 mm").rect.center)
    assert app.table.tool == "place" and app.table.place_tool.choice.base == 32
    where = app.table.camera.to_mm((200, 740))  # open table, bottom left, clear of units and panels
    click(app, where)
    new = app.doc.board.units[-1]
    assert not new.is_ranked and new.base == RoundBase(32) and len(new.placed) == 5
    assert new.center() == pytest.approx(where)
    assert app.table.selection == new.id and app.table.tool == "move"
    assert f"{new.id}.m5" in app.doc.analysis.models
    # a rank-and-file base, for player 2, on top of another unit: refused
    app.choose(app.panels.palette.player, "Player 2")
    app.click_px(app.panels.palette.button_for("25x50 cavalry").rect.center)
    n = len(app.doc.board.units)
    click(app, app.doc.board.unit("dwarfs").center())
    assert len(app.doc.board.units) == n and "No room" in app.status.message
    spot = app.table.camera.to_mm((800, 760))  # open table, clear of the palette window and the legend
    click(app, spot)
    cav = app.doc.board.units[-1]
    assert cav.is_ranked and cav.base == RectBase(25.0, 50.0) and cav.player == 2 and cav.facing_deg == 180
    assert cav.center() == pytest.approx(spot)
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.doc.board.units[-1].id == new.id


def test_drop_good_and_bad_files(app, tmp_path):
    before = board_to_dict(app.doc.board)
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: whfb8\nunits:\n  - id: dwarfs\n    player: 1\n    base: [20, 20]\n    models: 10\n"
                   "    files: zero\n    front: [0, 0]\n")
    app.post(pygame.event.Event(pygame.DROPFILE, file=str(bad)))
    assert f"{bad}:7" in app.status.banner and "files" in app.status.banner
    assert board_to_dict(app.doc.board) == before
    key(app, pygame.K_ESCAPE)
    assert not app.status.banner
    good = ROOT / "assets" / "scenarios" / "t9a_knight_height2.yaml"
    app.post(pygame.event.Event(pygame.DROPFILE, file=str(good)))
    assert app.doc.board.title == load_scenario(good).title and app.doc.analysis.ruleset == "t9a"
    # a built-in scenario has no save path of its own: Ctrl+S asks where (Save As)
    assert app.doc.session.save_path is None and not app.doc.session.history.undo_depth and not app.status.banner


def test_shortcuts_listed_in_help():
    from game.window.keymap import KeyMap

    keys = " | ".join(k for k, _ in KeyMap().help_rows())
    for k in ("U", "F2", ",", ".", "Ctrl+D", "Delete", "Ctrl+1", "R", "Shift+R", "K", "Shift+K", "PageDown", "Home",
              "Drop a file", "Ctrl+N", "Ctrl+O", "Ctrl+Shift+S", "Ctrl+E", "Ctrl+T"):
        assert k in keys


# ---- property: random edit sequences ------------------------------------------------------------
OPS = st.lists(st.tuples(st.sampled_from(["add", "remove", "dup", "delete", "rename", "player", "base", "files",
                                          "rules", "place", "turn"]),
                         st.integers(0, 10), st.integers(0, 10)), min_size=1, max_size=6)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_random_edits_round_trip_and_undo(tmp_path, ops):
    from apputil import Driver, FakeClock
    from game.core.scenario import save_scenario
    from game.window.app import App

    board = load_scenario(SKIRMISH if ops[0][1] % 2 else SCENARIO)
    original = board_to_dict(board)
    clock = FakeClock()
    app = Driver(App(board, surface=pygame.Surface((900, 600)), gui=False, clock=clock,
                     out_dir=tmp_path), clock)
    edits = 0
    for op, i, j in ops:
        if not app.doc.board.units:
            break
        app.table.select(app.doc.board.units[i % len(app.doc.board.units)].id)
        n_undo = app.doc.session.history.undo_depth
        if op in ("add", "remove", "dup", "delete", "turn"):
            app.action({"add": "model:1", "remove": "model:-1", "dup": "duplicate", "delete": "delete",
                        "turn": f"turn:{15.0 * (j - 5)}"}[op])
        elif op == "rename":
            app.edit("rename", f"Unit {j}")
        elif op == "player":
            app.action(f"player:{1 + j % 2}")
        elif op == "base":
            app.edit("set_base", ["20x20", "25", "25x50", "32", "40x40"][j % 5])
        elif op == "files":
            app.edit("set_files", str(1 + j))
        elif op == "rules":
            app.action("ruleset:1" if j % 2 else "ruleset:-1")
        elif op == "place":
            # under wh40k only round bases: its pile-in of ranked trays is slow (the rule adapter says so)
            choices = [c for c in ed.BASE_PALETTE if c.round or app.doc.rs.strategy != "wh40k"]
            app.table.arm_place(choices[j % len(choices)])
            app.click((100.0 + 90 * i, 80.0 + 60 * j))
        assert app.doc.session.history.undo_depth in (n_undo, n_undo + 1)
        edits += app.doc.session.history.undo_depth - n_undo
    path = tmp_path / "edited.yaml"
    save_scenario(app.doc.board, path)
    assert board_to_dict(load_scenario(path)) == board_to_dict(app.doc.board)
    for _ in range(edits):
        app.action("undo")
    assert board_to_dict(app.doc.board) == original
    assert app.doc.rs.id == original["ruleset"]
    assert not app.doc.dirty  # undone back to the board as loaded: nothing unsaved
