"""Overwrite, after another program rewrote the whole file, goes on to save (asking first when
the save cannot keep the new layout), never back to the same "Changed on disk" question; Cancel
there leaves the file as the other program wrote it, and the next Ctrl+S asks again."""
from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import yaml

from apputil import make_app
from game.core.scenario import load_scenario
from game.window.dialogs import Buttons

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
CTRL = pygame.KMOD_CTRL


def rewrite_outside(path: Path) -> bytes:
    """Another program rewrites the whole file: one flow-style document, units reordered."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["units"].reverse()
    data["title"] = "Rewritten by another program"
    text = "# rewritten\n" + yaml.safe_dump(data, default_flow_style=True, width=60)
    path.write_text(text, encoding="utf-8")
    return text.encode("utf-8")


def top_title(d) -> str:
    q = d.dialogs.top()
    return q.window.window_display_title if isinstance(q, Buttons) else ""


def open_changed(tmp_path):
    p = tmp_path / "battle.yaml"
    shutil.copy(SCENARIO, p)
    d = make_app(p, recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    d.select("night_goblins")
    d.key(pygame.K_t)
    theirs = rewrite_outside(p)
    d.key(pygame.K_s, CTRL)
    assert top_title(d) == "Changed on disk"
    return d, p, theirs


def test_overwrite_goes_on_to_save_and_never_loops(tmp_path):
    d, p, theirs = open_changed(tmp_path)
    d.answer("Overwrite")
    d.clock.advance(60)  # the watch looks again, several times
    d.frame(5)
    if top_title(d) == "Save changes the layout":
        d.clock.advance(60)
        d.frame(5)
        assert top_title(d) == "Save changes the layout"  # still that question, not "Changed on disk"
        d.answer("Save anyway")
    d.clock.advance(60)
    d.frame(5)
    assert d.dialogs.top() is None, top_title(d)
    assert not d.doc.dirty
    assert load_scenario(p).unit("night_goblins").facing_deg == d.doc.board.unit("night_goblins").facing_deg


def test_cancel_after_overwrite_keeps_theirs_and_ctrl_s_asks_again(tmp_path):
    d, p, theirs = open_changed(tmp_path)
    d.answer("Overwrite")
    d.frame(3)
    if top_title(d) != "Save changes the layout":
        return  # saved at once: nothing to cancel
    d.answer("Cancel")
    d.clock.advance(60)
    d.frame(5)
    assert d.dialogs.top() is None and p.read_bytes() == theirs and d.doc.dirty
    d.key(pygame.K_s, CTRL)
    assert top_title(d) == "Changed on disk" and p.read_bytes() == theirs
