"""The F1 help and the toolbar tips name the comma and full-stop keys in words, so
``",: one model fewer"`` does not read as stray punctuation."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from game.window.keymap import KeyMap  # noqa: E402


def test_the_help_names_comma_and_full_stop_in_words():
    rows = dict((k, v) for k, v in KeyMap().help_rows() if k)
    assert rows.get("Comma (,)") == "one model fewer", rows
    assert rows.get("Full stop (.)") == "one model more", rows
    assert not any(k.startswith((",", ".")) for k in rows)


def test_the_tips_name_them_too():
    km = KeyMap()
    assert km.tip("model:-1") == "Comma (,): one model fewer"
    assert km.tip("model:1") == "Full stop (.): one model more"
