"""The title and caption form checks only what the user changed (issue 26, item 4): editing
the title never refuses because of an untouched long caption (the format allows 4,000
characters); captions keep their line breaks; the limits are the format's
(docs/SCENARIO_FORMAT.md: titles 500, captions 4,000)."""
from __future__ import annotations

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
    # shown in a one-line entry (line breaks gone) and not edited: kept as it was
    b2 = _board("first line\nsecond line")
    ch = Editor.set_title_caption(b2, "Changed", "first line second line")
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
