"""Never losing a user's work in the real window, driven headless (issue 26): synthetic events,
the fake clock.

Drags autosave on the timer; Discard and undoing back to the saved board remove the recovery
file; the next window on the file offers it with what it holds and when, F9 loads it and a save
removes it; a file changed, moved or deleted outside is noticed and asked about (Reload / Keep
mine / Compare / Overwrite), never silently overwritten; two windows on one file: B's save does
not revert A's saved rename; a file made invalid outside and saved over keeps the comments of
the text opened; editing only the title keeps an untouched long caption; a unit removed by undo
is deselected (Charge then hints); a MemoryError never ends the window with status 0.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from apputil import FakeClock, make_app
from game.core.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
CTRL = pygame.KMOD_CTRL


@pytest.fixture
def battle(tmp_path):
    p = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, p)
    p.write_text("# my battle: keep this comment\n" + p.read_text())
    return p


def _app(path, tmp_path, clock=None, **kw):
    return make_app(path, clock=clock or FakeClock(), out_dir=tmp_path / "recovery", recent_file=tmp_path / "r.json",
                    **kw)


def test_a_drag_is_autosaved_on_the_timer(battle, tmp_path):
    app = _app(battle, tmp_path)
    u = app.doc.board.unit("night_goblins")
    app.drag(u.center(), (u.center()[0] + 60, u.center()[1]), frames=5)
    assert app.doc.board.unit("night_goblins").center() != u.center()
    assert not app.doc.session.autosave_path.exists()
    app.clock.advance(11)
    app.frame()
    assert app.doc.session.autosave_path.exists()
    assert load_scenario(app.doc.session.autosave_path).unit("night_goblins").center() == pytest.approx(
        app.doc.board.unit("night_goblins").center(), abs=0.01)  # (positions a move computed: to 0.01 mm)


def test_discard_and_back_to_saved_remove_the_recovery_file(battle, tmp_path):
    app = _app(battle, tmp_path)
    app.select("night_goblins")
    app.key(pygame.K_t)
    app.clock.advance(11)
    app.frame()
    auto = app.doc.session.autosave_path
    assert auto.exists()
    app.key(pygame.K_z, CTRL)  # back to the saved board
    app.clock.advance(11)
    app.frame()
    assert not auto.exists()
    app.key(pygame.K_t)
    app.clock.advance(11)
    app.frame()
    assert auto.exists()
    app.action("new")
    app.answer("Discard")
    assert not auto.exists() and not app.doc.dirty


def test_the_next_window_offers_the_work_and_f9_brings_it_back(battle, tmp_path):
    first = _app(battle, tmp_path)
    first.select("night_goblins")
    first.key(pygame.K_t)
    turned = first.doc.board.unit("night_goblins").facing_deg
    first.clock.advance(11)
    first.frame()
    kept = first.doc.session.autosave_path
    assert kept.exists()  # then the first window crashes: nothing else happens to it
    second = _app(battle, tmp_path, surface=pygame.Surface((1400, 880)), gui=False)  # no dialogs: the status line
    assert "Unsaved work from an earlier session" in second.status.message and "UTC" in second.status.message
    assert "units" in second.status.message
    second.key(pygame.K_F9)
    assert second.doc.board.unit("night_goblins").facing_deg == turned and second.doc.dirty
    second.key(pygame.K_s, CTRL)
    assert load_scenario(battle).unit("night_goblins").facing_deg == turned
    assert not kept.exists()  # its work is in the file now


def test_outside_change_is_asked_about_and_reload_keeps_mine_in_recovery(battle, tmp_path):
    app = _app(battle, tmp_path)
    app.select("night_goblins")
    app.key(pygame.K_t)
    theirs = battle.read_text().replace("Dwarf Warriors", "Dwarfs renamed elsewhere")
    battle.write_text(theirs)
    app.clock.advance(3)
    app.frame()
    d = app.dialogs.top()
    assert d is not None and "changed on disk" in d.text
    app.answer("Compare")
    assert "dwarfs" in app.dialogs.top().text
    app.answer("Reload")
    assert app.doc.board.unit("dwarfs").name == "Dwarfs renamed elsewhere" and not app.doc.dirty
    assert battle.read_text() == theirs
    assert "F9 brings them back" in app.status.message


def test_save_over_an_outside_change_asks_and_keep_mine_saves_beside(battle, tmp_path):
    app = _app(battle, tmp_path)
    app.select("night_goblins")
    app.key(pygame.K_t)
    theirs = battle.read_text().replace("Dwarf Warriors", "Theirs")
    battle.write_text(theirs)
    app.key(pygame.K_s, CTRL)  # before the watch timer: the save itself looks first
    assert app.dialogs.top() is not None and battle.read_text() == theirs
    app.answer("Keep mine")
    beside = battle.with_name("battle.mine.yaml")
    assert battle.read_text() == theirs and beside.exists() and app.doc.session.save_path == beside
    assert load_scenario(beside).unit("night_goblins").facing_deg == app.doc.board.unit("night_goblins").facing_deg


def test_two_windows_b_does_not_revert_a_saved_rename(battle, tmp_path):
    a = _app(battle, tmp_path)
    b = _app(battle, tmp_path, surface=pygame.Surface((1400, 880)))  # a second window: its own surface
    a.select("dwarfs")
    assert a.edit("rename", "Renamed by A")
    a.key(pygame.K_s, CTRL)
    assert load_scenario(battle).unit("dwarfs").name == "Renamed by A"
    b.select("night_goblins")
    b.key(pygame.K_t)
    b.key(pygame.K_s, CTRL)
    assert b.dialogs.top() is not None
    assert load_scenario(battle).unit("dwarfs").name == "Renamed by A"


def test_deleted_file_is_noticed_while_open(battle, tmp_path):
    app = _app(battle, tmp_path)
    battle.unlink()
    app.clock.advance(3)
    app.frame()
    assert "moved or deleted" in app.dialogs.top().text


def test_a_file_made_invalid_outside_keeps_its_comments_when_saved_over(battle, tmp_path):
    app = _app(battle, tmp_path)
    app.select("night_goblins")
    app.key(pygame.K_t)
    battle.write_text("units: [this is not a scenario\n")
    app.key(pygame.K_s, CTRL)
    app.answer("Overwrite")
    text = battle.read_text()
    assert text.startswith("# my battle: keep this comment\n")
    assert load_scenario(battle).unit("night_goblins").facing_deg == app.doc.board.unit("night_goblins").facing_deg


def test_editing_only_the_title_keeps_a_long_caption(battle, tmp_path):
    caption = ("A caption written in the file, longer than the old dialog allowed. " * 10)[:639]
    battle.write_text(battle.read_text() + f'caption: "{caption}"\n')
    app = _app(battle, tmp_path)
    app.key(pygame.K_t, CTRL)
    app.fill({"title": "Only the title changes"})
    app.answer("Apply")
    assert app.dialogs.top() is None, "the form refused"
    assert app.doc.board.title == "Only the title changes" and app.doc.board.extra["caption"] == caption


def test_a_unit_removed_by_undo_is_deselected(battle, tmp_path):
    app = _app(battle, tmp_path)
    app.key(pygame.K_u)
    app.click_px(app.panels.palette.button_for("round 32 mm").rect.center)
    app.click(app.table.camera.to_mm((200, 740)))
    new = app.doc.board.units[-1].id
    assert app.table.selection == new
    app.key(pygame.K_z, CTRL)
    assert new not in {u.id for u in app.doc.board.units} and app.table.selection is None
    app.key(pygame.K_ESCAPE)
    app.action("tool:charge")
    app.click(app.doc.board.unit("night_goblins").center())
    assert "last good board" not in app.status.banner


def test_a_memory_error_never_exits_0(battle, tmp_path, monkeypatch):
    app = _app(battle, tmp_path)
    from game.window import live

    def out_of_memory(*a, **k):
        raise MemoryError("Unable to allocate 763 MiB")

    monkeypatch.setattr(live, "analyse", out_of_memory)  # as 2 x 10,000 skirmishers under a 2 GB cap did
    app.doc.recompute()
    assert "MemoryError" in app.status.banner
    assert app.run(frames=2) == 1
