"""Status-line words while building a board: switching the ruleset on a board where nothing
fights says no count of differences ("0 models fight differently" on an empty table) and
says how to choose one (Ctrl+R), not only how to cycle; default unit names are numbered
across the board ("Infantry 1", "Infantry 2"), not "Infantry 1 (P1)" ... "for player 1"."""
from __future__ import annotations

from dataclasses import replace

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


def test_default_names_are_numbered_across_the_board_without_the_player():
    """"Infantry 1 (P1)" + "for player 1" + the legend's "Player 1:" said the player three
    times; the default names are numbered across both players instead."""
    e = Editor()
    b = Board(units=[], ruleset="whfb8")
    ch1 = e.place(b, ed.BASE_PALETTE[0], (300.0, 300.0), 1)
    ch2 = e.place(ch1.board, ed.BASE_PALETTE[0], (300.0, 500.0), 2)
    assert [u.name for u in ch2.board.units] == ["Infantry 1", "Infantry 2"]
    assert ch1.message == "Placed Infantry 1 for player 1; F2 edits it."
    assert ch2.message == "Placed Infantry 2 for player 2; F2 edits it."


def test_an_older_name_that_says_its_player_is_not_followed_by_for_player():
    u = ed.new_unit(Board(units=[], ruleset="whfb8"), ed.BASE_PALETTE[0], (300.0, 300.0), 1)
    u = replace(u, name="Infantry 1 (P1)")
    assert placed_message(u) == "Placed Infantry 1 (P1); F2 edits it."
    u = replace(u, name="Ogres")
    assert placed_message(u) == "Placed Ogres for player 1; F2 edits it."
