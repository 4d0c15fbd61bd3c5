"""The title and caption form checks only what the user changed (issue 26, item 4): editing
the title never refuses because of an untouched long caption (the format allows 4,000
characters); captions keep their line breaks; the limits are the format's
(docs/SCENARIO_FORMAT.md: titles 500, captions 4,000)."""
from __future__ import annotations

from pathlib import Path

from game.core.board import Board
from game.core.editor import Editor
from game.core.validate import MAX_CAPTION, MAX_TITLE


def _board(caption: str) -> Board:
    b = Board(units=[], ruleset="whfb8", title="Old")
    b.extra["caption"] = caption
    return b


def test_editing_only_the_title_keeps_an_untouched_long_caption():
    cap = ("A long caption from the file. " * 22)[:639]
    ch = Editor.set_title_caption(_board(cap), "New title", cap)
    assert ch.ok, ch.message
    assert ch.board.title == "New title" and ch.board.extra["caption"] == cap


def test_a_multiline_caption_keeps_its_line_breaks():
    b = _board("one")
    ch = Editor.set_title_caption(b, "Old", "first line\nsecond line")
    assert ch.ok and ch.board.extra["caption"] == "first line\nsecond line"
    # the form's box gives the caption back with its breaks: untouched, it is kept as it was
    b2 = _board("first line\nsecond line")
    ch = Editor.set_title_caption(b2, "Changed", "first line\nsecond line")
    assert ch.ok and ch.board.extra["caption"] == "first line\nsecond line"


def test_limits_are_the_formats():
    b = _board("")
    assert Editor.set_title_caption(b, "x" * MAX_TITLE, "").ok
    assert not Editor.set_title_caption(b, "x" * (MAX_TITLE + 1), "").ok
    assert Editor.set_title_caption(b, "Old", "y" * MAX_CAPTION).ok
    refused = Editor.set_title_caption(b, "Old", "y" * (MAX_CAPTION + 1))
    assert not refused.ok and "4000" in refused.message.replace(",", "")
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "SCENARIO_FORMAT.md").read_text()
    m = re.search(r"titles ([0-9,]+), captions ([0-9,]+) characters", doc)
    assert m and int(m.group(1).replace(",", "")) == MAX_TITLE and int(m.group(2).replace(",", "")) == MAX_CAPTION


def test_nothing_changed_is_no_edit():
    b = _board("c")
    ch = Editor.set_title_caption(b, "Old", "c")
    assert ch.ok and ch.board is b


def test_a_multiline_caption_edited_in_the_window_keeps_its_breaks_on_save(tmp_path):
    """Ctrl+T shows the caption in a multi-line box; a line typed after Enter is a new line,
    and the save keeps every break (the one-line entry flattened them to spaces)."""
    import os
    import shutil

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from apputil import FakeClock, make_app
    from game.core.scenario import load_scenario

    src = Path(__file__).resolve().parents[1] / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
    p = tmp_path / "cap.yaml"
    shutil.copy(src, p)
    p.write_text(p.read_text() + "caption: |\n  First line & more\n  second line\n")
    app = make_app(p, clock=FakeClock(), out_dir=tmp_path / "rec", recent_file=tmp_path / "r.json")
    app.key(pygame.K_t, pygame.KMOD_CTRL)
    form = app.dialogs.top()
    box = form.els["caption"]
    assert form.multiline("caption") and box.get_text() == "First line & more\nsecond line"
    app.gui.focus(box)
    box.edit_position = len(box.get_text())
    app.key(pygame.K_RETURN)  # Enter in the box: a new line, not OK
    for ch in "third":
        app.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    assert app.dialogs.top() is form and box.get_text() == "First line & more\nsecond line\nthird"
    app.answer("Apply")
    assert app.doc.board.extra["caption"] == "First line & more\nsecond line\nthird"
    app.key(pygame.K_s, pygame.KMOD_CTRL)
    assert load_scenario(p).extra["caption"] == "First line & more\nsecond line\nthird"
    assert "caption: |" in p.read_text()  # still a block


def test_a_line_break_alone_is_a_change():
    b = _board("first line second line")
    ch = Editor.set_title_caption(b, "Old", "first line\nsecond line")
    assert ch.ok and ch.board is not b and ch.board.extra["caption"] == "first line\nsecond line"
