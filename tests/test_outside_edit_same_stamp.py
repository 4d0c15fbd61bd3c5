"""An outside edit that keeps the file's size and modification time (``cp -p``, ``rsync -t``,
a coarse file-system clock) is noticed when the user saves: Ctrl+S asks (Reload / Keep mine /
Compare / Overwrite), it never silently writes the window's board over it. Driven headless."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pygame

from apputil import make_app
from game.window.dialogs import Buttons

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def edit_keeping_stamp(path: Path, old: bytes, new: bytes) -> bytes:
    """Replace ``old`` by ``new`` (same length) in place: same inode, size and mtime (ns)."""
    assert len(old) == len(new)
    st = os.stat(path)
    data = path.read_bytes()
    assert data.count(old) == 1
    data = data.replace(old, new)
    with open(path, "r+b") as fh:
        fh.write(data)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    after = os.stat(path)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (st.st_ino, st.st_size, st.st_mtime_ns)
    return data


def test_ctrl_s_notices_an_edit_that_kept_size_and_time(tmp_path):
    battle = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, battle)
    d = make_app(battle, recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    d.select("night_goblins")
    d.key(pygame.K_t)
    theirs = edit_keeping_stamp(battle, b"initiative: 3}", b"initiative: 5}")
    d.clock.advance(30)  # the watch looks (one stat: nothing moved)
    d.frame()
    d.key(pygame.K_s, pygame.KMOD_CTRL)
    q = d.dialogs.top()
    assert isinstance(q, Buttons) and q.button("Overwrite") is not None, d.status.message
    assert "changed on disk" in q.text
    assert battle.read_bytes() == theirs  # nothing written while it asks
    d.answer("Cancel")
    assert battle.read_bytes() == theirs and d.doc.dirty


def test_headless_save_refuses_and_overwrite_is_a_choice(tmp_path):
    from game.window.session import OutsideChange

    battle = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, battle)
    d = make_app(battle, gui=False, recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    d.select("night_goblins")
    d.key(pygame.K_t)
    theirs = edit_keeping_stamp(battle, b"initiative: 3}", b"initiative: 5}")
    session = d.doc.session
    try:
        session.save()
    except OutsideChange as exc:
        assert exc.what == "changed"
    else:
        raise AssertionError("saved over an outside edit")
    assert battle.read_bytes() == theirs
    session.save(overwrite=True)  # the user's explicit choice
    assert b"initiative: 3}" in battle.read_bytes()
