"""Status-line words while building a board: switching the ruleset on a board where nothing
fights says no count of differences ("0 models fight differently" on an empty table) and
says how to choose one (Ctrl+R), not only how to cycle; a placed unit whose default name
says its player ("Infantry 1 (P1)") is not followed by "for player 1"."""
from __future__ import annotations

import pygame

from game.core import edits as ed
from game.core.board import Board
from game.core.editor import Editor, placed_message

from tests.apputil import SCENARIOS, make_app, make_blank


def test_switching_the_ruleset_of_an_empty_board_counts_nothing():
    d = make_blank(ruleset="whfb8")
    d.key(pygame.K_r)
    msg = d.status.message
    assert msg.startswith("Ruleset ") and d.doc.rs.id != "whfb8"
    assert "differently" not in msg and "0 models" not in msg
    assert "Ctrl+R chooses" in msg


def test_switching_where_models_fight_still_counts_the_differences():
    d = make_app(SCENARIOS / "t9a_misaligned_no_cap.yaml")
    while d.doc.rs.id != "whfb8":
        d.key(pygame.K_r)
    assert "fight differently than under" in d.status.message and "Ctrl+R chooses" in d.status.message


def test_the_status_bar_names_the_ruleset_chooser_key():
    d = make_blank()
    assert "rules whfb8 (R, Ctrl+R)" in d.status_line()


def test_a_default_name_that_says_its_player_is_not_followed_by_for_player():
    ch = Editor().place(Board(units=[], ruleset="whfb8"), ed.BASE_PALETTE[0], (300.0, 300.0), 1)
    assert ch.ok
    assert ch.message == "Placed Infantry 1 (P1); F2 edits it."
    assert "for player" not in ch.message


def test_a_name_that_does_not_say_its_player_keeps_for_player():
    u = ed.new_unit(Board(units=[], ruleset="whfb8"), ed.BASE_PALETTE[0], (300.0, 300.0), 2)
    u.name = "Ogres"
    assert placed_message(u) == "Placed Ogres for player 2; F2 edits it."
