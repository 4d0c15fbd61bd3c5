"""The greyscale palette is grey: every colour a print figure (or the window) draws with it has
equal red, green and blue (the screen style keeps the window's tinted chrome). The print style's purple start outlines and yellow-brown objective rim
stayed in colour in a "greyscale" figure (issue 40: each figure looked at in greyscale)."""
from __future__ import annotations

from game.render.palette import PALETTE, style_palette


def test_every_colour_of_the_greyscale_print_palette_is_grey():
    merged = {**PALETTE, **style_palette("print", "greyscale")}
    coloured = {k: v for k, v in merged.items()
                if isinstance(v, tuple) and len(v) >= 3 and all(isinstance(x, int) for x in v[:3])
                and len(set(v[:3])) > 1}
    assert coloured == {}
