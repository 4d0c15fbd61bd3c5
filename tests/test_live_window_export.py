"""The live page written from the window, driven headless: the Export dialog (Ctrl+E) with a folder
for its file writes the live page of the board as shown (a unit moved in the window is where the
page's scenario has it); a folder holding other files is refused and left as it was; the demo
recorder's Live button writes the demo's steps as a live page."""
from __future__ import annotations

import json

import pygame

from game.core import manoeuvre as mv
from game.core.scenario import load_scenario
from tests.apputil import SCENARIOS, make_app
from tests.live_support import need_runtime

SCENARIO = SCENARIOS / "dwarf_horde_vs_goblins.yaml"


def _places(board):
    return {u.id: (round(u.front[0], 3), round(u.front[1], 3), round(u.facing_deg, 3)) for u in board.units}


def test_export_to_a_folder_writes_the_live_page_of_the_board_as_shown(tmp_path):
    need_runtime()
    d = make_app(SCENARIO, copy_to=tmp_path)
    d.put_unit(mv.forward(d.doc.board.unit("night_goblins"), 30))
    d.key(pygame.K_e, pygame.KMOD_CTRL)
    d.fill({"file": str(tmp_path / "page"), "title": "Goblins come on"})
    d.answer("Export")
    assert d.dialogs.top() is None, d.status.message
    assert "Wrote the live page" in d.status.message and "python main.py serve" in d.status.message
    page = tmp_path / "page"
    assert (page / "index.html").is_file() and "Goblins come on" in (page / "index.html").read_text(encoding="utf-8")
    cfg = json.loads((page / "live.json").read_text(encoding="utf-8"))
    assert not cfg["demo"] and cfg["ruleset"] == d.doc.board.ruleset
    written = load_scenario(page / cfg["scenario"])
    assert _places(written) == _places(d.doc.board) != _places(load_scenario(SCENARIO))
    assert written.title == "Goblins come on"


def test_export_refuses_a_folder_holding_other_files(tmp_path):
    need_runtime()
    mine = tmp_path / "mine"
    (mine / "fonts").mkdir(parents=True)
    (mine / "fonts" / "my.ttf").write_bytes(b"mine")
    d = make_app(SCENARIO, copy_to=tmp_path)
    d.key(pygame.K_e, pygame.KMOD_CTRL)
    d.fill({"file": str(mine)})
    d.answer("Export")
    form = d.dialogs.top()
    assert form is not None   # refused: the form stays, saying why
    assert (mine / "fonts" / "my.ttf").read_bytes() == b"mine" and not (mine / "index.html").exists()


def test_the_recorder_writes_the_demo_as_a_live_page(tmp_path):
    need_runtime()
    d = make_app(SCENARIO, copy_to=tmp_path)
    d.action("demo_recorder")
    rec = d.recorder
    rec.set_text("title", "Recorded live")
    rec.set_text("caption", "Two blocks meet.")
    rec.run("add")
    d.put_unit(mv.forward(d.doc.board.unit("night_goblins"), 30))
    rec.set_text("caption", "The Night Goblins come on.")
    rec.run("add")
    rec.run("live")
    d.pick_file(str(tmp_path / "demo_live"))
    d.frame()
    assert "Wrote the live page" in d.status.message, d.status.message
    page = tmp_path / "demo_live"
    cfg = json.loads((page / "live.json").read_text(encoding="utf-8"))
    assert cfg["demo"] and [s["caption"] for s in cfg["steps"]] == ["Two blocks meet.", "The Night Goblins come on."]
    assert _places(load_scenario(page / cfg["steps"][1]["scenario"])) == _places(d.doc.board)
    assert "Recorded live" in (page / "index.html").read_text(encoding="utf-8")
    rec.run("live")
    d.pick_file(str(tmp_path / "demo.html"))   # a file name, not a folder: refused in one line
    d.frame()
    assert d.status.message.startswith("Demo: the live page is a folder") and not (tmp_path / "demo.html").exists()
