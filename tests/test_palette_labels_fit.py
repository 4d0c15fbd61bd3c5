"""Every button of the new-unit palette shows its label whole, under every ruleset's troop
types ("Monstrous inf. 40 mm" was cut under whfb8), measured with the button's own font."""
from __future__ import annotations

import pygame
import pytest

from game.core.ruleset import available
from game.window.panels import LABEL_PAD_PX

from tests.apputil import make_blank


@pytest.mark.parametrize("rid", sorted(available()))
def test_every_palette_label_fits_its_button(rid):
    d = make_blank(ruleset=rid)
    d.key(pygame.K_u)
    p = d.panels.palette
    assert p is not None and p.buttons
    cut = []
    for b, ch in p.buttons.items():
        label = getattr(ch, "choice", ch).label
        if b.font.size(label)[0] + LABEL_PAD_PX > b.rect.w:
            cut.append(label)
    assert not cut
    inside = pygame.Rect(p.window.get_container().get_abs_rect())
    assert all(inside.contains(b.rect) for b in p.buttons)  # the window grew with its buttons
