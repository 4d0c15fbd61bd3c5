"""Save As onto the file the window already has open (its own file) checks the file as Save
does: changed on disk since it was opened or saved, the window asks Reload / Keep mine /
Compare / Overwrite before writing; never a silent overwrite. Driven headless with synthetic
events (the file dialog answered with the same path)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pygame

from apputil import make_app
from game.window.dialogs import Buttons

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def opened_and_edited(tmp_path):
    battle = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, battle)
    d = make_app(battle, recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    d.select("night_goblins")
    d.key(pygame.K_t)
    assert d.doc.dirty
    return d, battle


def outside_edit(path: Path) -> bytes:
    data = path.read_bytes().replace(b"initiative: 3}", b"initiative: 5}  # theirs")
    path.write_bytes(data)
    return data


def test_save_as_onto_its_own_changed_file_asks_first(tmp_path):
    d, battle = opened_and_edited(tmp_path)
    theirs = outside_edit(battle)
    d.key(pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    d.pick_file(str(battle))
    d.frame()
    q = d.dialogs.top()
    assert isinstance(q, Buttons) and q.button("Overwrite") is not None, d.status.message
    assert "changed on disk" in q.text
    assert battle.read_bytes() == theirs  # nothing written while it asks
    d.answer("Cancel")
    assert battle.read_bytes() == theirs and d.doc.dirty
    d.key(pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    d.pick_file(str(battle))
    d.frame()
    d.answer("Overwrite")  # the user's explicit choice writes
    d.frame()
    assert b"initiative: 5}" not in battle.read_bytes() and not d.doc.dirty


def test_save_as_onto_its_own_unchanged_file_just_saves(tmp_path):
    d, battle = opened_and_edited(tmp_path)
    assert d.files.save_as(str(battle))
    assert not d.doc.dirty and d.dialogs.top() is None


def test_headless_session_save_as_own_file_refuses(tmp_path):
    from game.window.session import OutsideChange

    d, battle = opened_and_edited(tmp_path)
    theirs = outside_edit(battle)
    try:
        d.doc.session.save_as(battle)
    except OutsideChange as exc:
        assert exc.what == "changed"
    else:
        raise AssertionError("Save As wrote over an outside edit of its own file")
    assert battle.read_bytes() == theirs
    d.doc.session.save_as(battle, overwrite=True)
    assert b"initiative: 5}" not in battle.read_bytes()
