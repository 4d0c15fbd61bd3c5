"""The window as an authoring tool, driven headless: New, Open, Save As, recent files, the
unsaved-changes question, title and caption, the unit panel's profile fields, export to PNG
and SVG, autosave failures, signals, idling, the toolbar on a small window, and drawing that
stays bounded on absurd tables."""
from __future__ import annotations
import dataclasses

import os
import shutil
import signal
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from apputil import FakeClock, make_app, make_blank  # noqa: E402
from game.core import edits as ed  # noqa: E402
from game.core.scenario import dump_scenario, load_scenario  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
T9A = ROOT / "assets" / "scenarios" / "t9a_knight_height2.yaml"
CTRL, SHIFT = pygame.KMOD_CTRL, pygame.KMOD_SHIFT


@pytest.fixture()
def builtin(tmp_path):
    return make_app(SCENARIO, recent_file=tmp_path / "recent.json", out_dir=tmp_path / "out")


def test_a_builtin_scenario_is_saved_only_where_the_user_chooses(builtin, tmp_path):
    app = builtin
    before = SCENARIO.read_text()
    app.select("night_goblins")
    app.key(pygame.K_t)
    app.key(pygame.K_s, CTRL)  # no file of its own: Save As asks where
    assert app.doc.dirty and app.dialogs.top() is not None and SCENARIO.read_text() == before
    chosen = tmp_path / "mine" / "flank"
    app.pick_file(str(chosen))
    saved = tmp_path / "mine" / "flank.yaml"
    assert saved.exists() and not app.doc.dirty and app.doc.session.save_path == saved
    assert dump_scenario(load_scenario(saved)) == dump_scenario(app.doc.board)
    app.key(pygame.K_t)
    app.key(pygame.K_s, CTRL)  # now Ctrl+S writes the chosen file, silently
    assert app.dialogs.top() is None and not app.doc.dirty
    assert load_scenario(saved).unit("night_goblins").facing_deg == pytest.approx(270)
    assert SCENARIO.read_text() == before  # the shipped file was never written
    assert str(saved.resolve()) in (tmp_path / "recent.json").read_text()


def test_new_board_palette_unit_has_a_profile_and_a_sensible_name(tmp_path):
    app = make_blank(out_dir=tmp_path / "out", recent_file=tmp_path / "recent.json")
    app.key(pygame.K_n, CTRL)
    assert app.doc.board.units == () and app.doc.session.save_path is None and not app.doc.dirty
    app.table.arm_place(next(c for c in ed.BASE_PALETTE if c.label == "20 mm square"))
    app.click(app.table.camera.to_mm((600, 500)))
    u = app.doc.board.units[-1]
    assert u.name == "Infantry 1" and u.id == "p1_infantry_1"
    assert u.profile["initiative"] == 3 and u.profile["attacks"] == 1  # never "Initiative 0"
    app.table.arm_place(next(c for c in ed.BASE_PALETTE if c.label == "20 mm square"))
    app.click(app.table.camera.to_mm((900, 300)))
    assert app.doc.board.units[-1].name == "Infantry 2"
    app.key(pygame.K_s, CTRL)
    assert app.dialogs.top() is not None  # a new board asks where to save


def test_unit_panel_edits_the_values_the_ruleset_reads(builtin):
    app = builtin
    app.select("dwarfs")
    app.key(pygame.K_F2)
    fields = list(app.panels.unit.els)
    assert {"f:attacks", "f:initiative", "f:keywords", "last_rank", "models"} <= set(fields)
    assert "f:agility" not in fields and "f:height" not in fields  # whfb8 reads neither
    app.enter_text(app.panels.unit.entry("f:initiative"), "4")
    app.enter_text(app.panels.unit.entry("f:attacks"), "2")
    app.enter_text(app.panels.unit.entry("f:keywords"), "horde, stubborn")
    app.enter_text(app.panels.unit.entry("models"), "37")
    app.choose(app.panels.unit.entry("last_rank"), "left")
    u = app.doc.board.unit("dwarfs")
    assert u.profile["initiative"] == 4 and u.profile["attacks"] == 2
    assert u.keywords == ["horde", "stubborn"] and u.last_rank == "left"
    assert len(u.occupied_slots()) == 37 and u.occupied_slots()[-7:] == [(4, f) for f in range(1, 8)]
    app.enter_text(app.panels.unit.entry("f:initiative"), "many")  # refused with the reason
    assert app.doc.board.unit("dwarfs").profile["initiative"] == 4 and "whole number" in app.status.message
    app.key(pygame.K_ESCAPE)  # leave the field: keys are board shortcuts again
    for _ in range(5):
        app.key(pygame.K_z, CTRL)
    assert app.doc.board.unit("dwarfs").profile == load_scenario(SCENARIO).unit("dwarfs").profile
    assert not app.doc.dirty


def test_unit_panel_under_t9a_has_agility_height_and_parts(tmp_path):
    app = make_app(T9A, recent_file=tmp_path / "r.json", out_dir=tmp_path)
    uid = app.doc.board.units[0].id
    app.select(uid)
    app.key(pygame.K_F2)
    fields = set(list(app.panels.unit.els))
    assert {"f:agility", "f:height", "f:parts"} <= fields and "f:initiative" not in fields
    app.enter_text(app.panels.unit.entry("f:parts"), "rider 2/5, mount 1/3")
    parts = app.doc.board.unit(uid).profile["parts"]
    assert parts == [{"name": "rider", "attacks": 2, "agility": 5}, {"name": "mount", "attacks": 1, "agility": 3}]


def test_title_and_caption(builtin):
    app = builtin
    app.key(pygame.K_t, CTRL)
    app.fill({"title": "Flank charge", "caption": "The rear rank moves into contact."})
    app.answer("Apply")
    assert app.doc.board.title == "Flank charge" and app.doc.board.extra["caption"] == "The rear rank moves into contact."
    assert any(x.args[1] == "Flank charge" for x in app.recorded().find("text", "title"))
    app.key(pygame.K_z, CTRL)
    assert app.doc.board.title == load_scenario(SCENARIO).title and "caption" not in app.doc.board.extra


def test_export_png_and_svg(builtin, tmp_path):
    app = builtin
    for name, sig in (("fig.png", b"\x89PNG"), ("fig.svg", b"<?xml")):
        app.key(pygame.K_e, CTRL)
        app.fill({"file": str(tmp_path / name), "size": "800x500", "caption": "Caption here",
                  "title": "Export test"})
        app.answer("Export")
        data = (tmp_path / name).read_bytes()
        assert data.startswith(sig) and app.dialogs.top() is None and "Exported" in app.status.message
    svg = (tmp_path / "fig.svg").read_text()
    assert "Caption here" in svg and "Export test" in svg
    from PIL import Image

    assert Image.open(tmp_path / "fig.png").size == (800, 500)
    app.key(pygame.K_e, CTRL)
    app.fill({"file": str(tmp_path / "fig.yaml")})
    app.answer("Export")
    assert app.dialogs.top() is not None and not (tmp_path / "fig.yaml").exists()  # refused, the form stays


def test_export_picks_print_or_screen_style_print_by_default(builtin, tmp_path):
    """The window keeps its screen look; Export draws a figure for paper (white, no grid) unless
    the user picks ``screen`` (the window's look) or ``print on the table`` (tint and grid)."""
    from PIL import Image

    from game.render.palette import PALETTE, style_palette

    app = builtin
    screen_bg = tuple(PALETTE["table"][:3])
    assert app.recorded().find("polygon", "table")  # the window draws its table tint
    looks = {}
    for style in (None, "screen", "print on the table"):
        app.key(pygame.K_e, CTRL)
        assert app.dialogs.top().values()["style"] == "print"  # the form's default
        name = f"fig-{style or 'default'}.png"
        values = {"file": str(tmp_path / name), "size": "400x300", "view": "all units"}
        if style:
            values["style"] = style
        app.fill(values)
        app.answer("Export")
        assert app.dialogs.top() is None, app.status.message
        im = Image.open(tmp_path / name).convert("RGB")
        looks[style] = im.getpixel((20, im.size[1] // 2))  # the table's left edge, away from the units (under it: the key)
    assert looks[None] == (255, 255, 255)  # print: white paper
    assert looks["screen"] == screen_bg != (255, 255, 255)  # the window's look, when asked for
    table_tint = tuple(style_palette("print", "default", True)["table"][:3])
    assert looks["print on the table"] == table_tint != (255, 255, 255)
    for name, sig, style in (("fig.svg", b"<?xml", "screen"), ("fig.pdf", b"%PDF", "print")):
        app.key(pygame.K_e, CTRL)
        app.fill({"file": str(tmp_path / name), "size": "120x80mm", "style": style})
        app.answer("Export")
        assert (tmp_path / name).read_bytes().startswith(sig), app.status.message
    svg = (tmp_path / "fig.svg").read_text()
    assert 'fill="#%02x%02x%02x"' % screen_bg in svg  # the screen style's table tint


def test_open_asks_about_unsaved_changes_and_a_failing_file_keeps_board_and_path(tmp_path, monkeypatch):
    shutil.copy(SCENARIO, tmp_path / "battle.yaml")
    app = make_app(tmp_path / "battle.yaml", recent_file=tmp_path / "r.json")
    app.select("night_goblins")
    app.key(pygame.K_t)
    board = dump_scenario(app.doc.board)
    app.key(pygame.K_o, CTRL)
    app.pick_file(str(T9A))
    assert app.dialogs.top() is not None  # unsaved changes: Save / Discard / Cancel
    app.answer("Cancel")
    assert dump_scenario(app.doc.board) == board and app.doc.session.save_path == tmp_path / "battle.yaml"
    # a file whose analysis fails: the board and the save path stay
    import game.core.analyse as analysis_mod

    real = analysis_mod.analyse
    monkeypatch.setattr(analysis_mod, "analyse", lambda b, *a, **k: (_ for _ in ()).throw(ValueError("engine"))
                        if b.ruleset == "t9a" else real(b, *a, **k))
    app.post(pygame.event.Event(pygame.DROPFILE, file=str(T9A)))
    assert "could not be analysed" in app.status.banner and dump_scenario(app.doc.board) == board
    assert app.doc.session.save_path == tmp_path / "battle.yaml"
    monkeypatch.setattr(analysis_mod, "analyse", real)
    app.post(pygame.event.Event(pygame.DROPFILE, file=str(T9A)))
    app.answer("Discard")
    assert app.doc.rs.id == "t9a" and not app.doc.dirty and app.doc.session.save_path is None  # built-in: Save As next time
    assert load_scenario(tmp_path / "battle.yaml").unit("night_goblins").facing_deg == pytest.approx(90)


def test_recent_files(tmp_path):
    shutil.copy(SCENARIO, tmp_path / "a.yaml")
    app = make_app(tmp_path / "a.yaml", recent_file=tmp_path / "r.json")
    app.key(pygame.K_s, CTRL)
    app.button("@recent")
    d = app.dialogs.top()
    assert d is not None and [Path(p) for p in d.buttons.values()] == [(tmp_path / "a.yaml").resolve()]


def test_autosave_failure_is_shown_and_printed_on_exit(tmp_path, capsys):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the autosave folder should be")
    clock = FakeClock()
    app = make_app(SCENARIO, clock=clock, out_dir=blocked / "out", recent_file=tmp_path / "r.json")
    app.select("night_goblins")
    clock.advance(60)
    app.key(pygame.K_t)
    assert "Autosave" in app.doc.session.autosave_error and "Autosave" in app.status_line()
    app.window.stop("test")
    assert "Autosave" in capsys.readouterr().err


def test_a_signal_stops_the_window_and_keeps_the_work(tmp_path, capsys):
    shutil.copy(SCENARIO, tmp_path / "battle.yaml")
    app = make_app(tmp_path / "battle.yaml")
    app.select("night_goblins")
    app.key(pygame.K_t)
    calls = []

    def on_frame(n):
        calls.append(n)
        if n == 3:
            os.kill(os.getpid(), signal.SIGTERM)  # as `kill` would, in the middle of the loop

    status = app.run(50, on_frame)
    assert status == 128 + signal.SIGTERM and not app.window.running and calls == [1, 2, 3]
    assert app.doc.session.autosave_path.exists()
    assert load_scenario(app.doc.session.autosave_path).unit("night_goblins").facing_deg != 0
    assert "Unsaved changes were kept" in capsys.readouterr().out
    assert signal.getsignal(signal.SIGTERM) is not None


def test_no_redraw_when_idle(builtin):
    app = builtin
    app.clock.advance(10)
    drawn = app.window.frames
    for _ in range(5):
        app.frame()
    assert app.window.frames == drawn and app.window.idle()  # nothing happened: nothing drawn
    app.move_mouse((500, 500))
    assert app.window.frames == drawn + 1


def test_the_toolbar_wraps_on_a_small_window(tmp_path):
    app = make_app(SCENARIO, size=(1000, 700))
    rects = app.toolbar.rects()
    assert rects and all(r.right <= 1000 for r in rects)
    assert len({r.top for r in rects}) >= 2  # more than one row
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert max(r.bottom for r in rects) <= app.table.layout().table[1]
    for action, label in (("turn:180", "Turn 180"), ("reform:1", "Wider"), ("reform:-1", "Narrower")):
        assert app.toolbar.button_rect(action) is not None
        assert app.toolbar.label(action) == label


def test_r_names_the_rulesets_it_skips(builtin, monkeypatch):
    app = builtin
    real = app.doc.rules.unavailable_reason

    def refuse_slots(board, rid, current):  # a ruleset this board cannot use (none ships one today)
        return "cannot analyse this board (test)" if rid == "slots" else real(board, rid, current)

    monkeypatch.setattr(app.doc.rules, "unavailable_reason", refuse_slots)
    for _ in range(6):
        app.key(pygame.K_r)
        if "skipped slots" in app.status.message:
            break
    assert "skipped slots: cannot analyse this board (test)" in app.status.message
    assert not app.ruleset_buttons()["slots"].is_enabled


def test_r_reaches_wh40k_on_a_rank_and_file_board(builtin):
    app = builtin
    for _ in range(6):
        app.key(pygame.K_r)
        if app.doc.rs.id == "wh40k":
            break
    assert app.doc.rs.id == "wh40k" and "skipped" not in app.status.message


@pytest.mark.parametrize("what", ["table", "base"])
def test_drawing_stays_bounded_on_absurd_sizes(what):
    from apputil import Driver
    from game.window.app import App

    board = load_scenario(SCENARIO)
    if what == "table":
        board = dataclasses.replace(board, table=(1e308, 1e308))
    else:
        board = board.with_unit(dataclasses.replace(board.unit("goblins"), base=(1e15, 1e15)))
    clock = FakeClock()
    app = Driver(App(board, size=(1000, 700), clock=clock), clock)
    app.table.camera.zoom_about(1e4, (500, 400))
    canvas = app.recorded()
    assert len(canvas.calls) < 20000  # bounded by the screen, not by the table


def test_a_dialog_is_modal_and_gets_the_keyboard(builtin):
    """Typing a file name in Save As never reaches the board (it once ran f, l, a, n, k, r...)."""
    app = builtin
    app.key(pygame.K_s, CTRL | SHIFT)
    assert app.dialogs.top() is not None
    board, rules, tool = dump_scenario(app.doc.board), app.doc.rs.id, app.table.tool
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="r"))
    for k in (pygame.K_f, pygame.K_l, pygame.K_a, pygame.K_r, pygame.K_k, pygame.K_g):
        app.key(k)
    app.press(app.table.camera.to_px(app.doc.board.unit("dwarfs").center()))
    assert dump_scenario(app.doc.board) == board and app.doc.rs.id == rules and app.table.tool == tool
    assert app.table.options.legend and app.table.selection is None
    app.gui.focus(None)
    app.key(pygame.K_ESCAPE)
    assert app.dialogs.top() is None
