"""Text is measured once per string, size and weight (the font layer's bounded cache), in
every back end that measures with the shipped font (PNG through pygame, SVG)."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from game.render import text_metrics as cv  # noqa: E402
from game.render.pygame_canvas import PygameCanvas  # noqa: E402
from game.render.svg_canvas import SvgCanvas  # noqa: E402


class CountingFont:
    def __init__(self, real):
        self.real, self.calls = real, 0

    def getlength(self, s):
        self.calls += 1
        return self.real.getlength(s)

    def getmetrics(self):
        return self.real.getmetrics()


def counting(monkeypatch):
    fonts = {}
    real = cv.pil_font

    def fake(size, bold):
        key = (size, bold)
        if key not in fonts:
            fonts[key] = CountingFont(real(size, bold))
        return fonts[key]
    monkeypatch.setattr(cv, "pil_font", fake)
    cv._MEASURED.clear()
    return fonts


def test_the_same_string_is_measured_once_at_each_size(monkeypatch):
    fonts = counting(monkeypatch)
    pygame.init()
    png = PygameCanvas(pygame.Surface((50, 50)))
    svg = SvgCanvas(50, 50)
    first = png.text_size("Supports from the 2nd rank", 14)
    for _ in range(5):
        assert png.text_size("Supports from the 2nd rank", 14) == first
        assert svg.text_size("Supports from the 2nd rank", 14) == first  # the same measure in SVG
    assert sum(f.calls for f in fonts.values()) == 1
    png.text_size("Supports from the 2nd rank", 15)
    png.text_size("Supports from the 2nd rank", 14, bold=True)
    assert sum(f.calls for f in fonts.values()) == 3  # another size or weight is another measure


def test_the_cache_is_bounded(monkeypatch):
    counting(monkeypatch)
    monkeypatch.setattr(cv._MEASURED, "size", 10)
    for i in range(50):
        cv.font_metrics(f"label {i}", 12)
    assert len(cv._MEASURED) == 10
