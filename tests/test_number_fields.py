"""Number fields of the unit panel (F2) refuse what the field cannot hold -- Models = -5,
Files = 0, a profile value of 200 -- with the reason in the panel, the unit unchanged; they never
drop a character silently (Models -5 used to become 5)."""
from __future__ import annotations

import pygame
import pytest

from tests.apputil import SCENARIOS, make_app


@pytest.fixture()
def panel(tmp_path):
    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", copy_to=tmp_path)
    d.select("dwarfs")
    d.key(pygame.K_F2)
    assert d.panels.unit is not None
    return d


def type_into(d, name: str, keys: str) -> None:
    """Click into entry ``name`` of the unit panel, clear it and type ``keys`` key by key, then Enter."""
    e = d.panels.unit.entry(name)
    d.gui.focus(e)
    e.set_text("")
    for ch in keys:
        d.post(pygame.event.Event(pygame.TEXTINPUT, text=ch))
    d.key(pygame.K_RETURN)
    d.frame(2)


def refusal(d) -> str:
    return d.panels.unit.els["refused"].html_text


def test_models_minus_five_is_refused_in_the_panel(panel):
    d = panel
    before = len(d.doc.board.unit("dwarfs").occupied_slots())
    type_into(d, "models", "-5")
    assert len(d.doc.board.unit("dwarfs").occupied_slots()) == before  # never 5 models
    assert "Not changed: models must be from 1 to" in refusal(d)
    assert d.panels.unit.entry("models").get_text() == str(before)   # the field shows the unit again
    lab = d.panels.unit.els["refused"]
    assert d.panels.unit.window.get_container().get_rect().contains(lab.rect)  # inside the panel, seen


def test_files_zero_and_letters_are_refused_then_a_good_value_clears_it(panel):
    d = panel
    files = d.doc.board.unit("dwarfs").files
    type_into(d, "files", "x2")
    assert d.doc.board.unit("dwarfs").files == files
    assert "files must be a whole number" in refusal(d)
    type_into(d, "files", str(files - 1))
    assert d.doc.board.unit("dwarfs").files == files - 1 and refusal(d) == ""
