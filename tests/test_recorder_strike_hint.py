"""The recorder's Strike field hints at what to type without naming one rule system's step:
on a t9a board (Agility Steps) it read "strike step: 1 or Initiative 5" (trial 38b). It now
points at the strike order the legend shows, which names the steps of the board's ruleset."""
from __future__ import annotations

import pygame

from tests.apputil import SCENARIOS, make_app


def test_the_strike_hint_names_no_ruleset_s_step_on_a_t9a_board(tmp_path):
    d = make_app(SCENARIOS / "t9a_misaligned_no_cap.yaml", copy_to=tmp_path)
    assert d.doc.board.ruleset == "t9a"
    d.key(pygame.K_F6)
    d.frame()
    hint = d.recorder.els["strike"].placeholder_text
    assert "Initiative" not in hint and "Agility" not in hint
    assert "1" in hint and "strike order" in hint
