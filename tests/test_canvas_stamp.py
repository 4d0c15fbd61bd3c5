"""Canvas.stamp: a picture drawn once and blitted while its key stays (a drag's reach rings)."""
from __future__ import annotations

import pygame

from game.render.canvas import Canvas
from game.render.pygame_canvas import PygameCanvas


def _rings(c):
    for at, r in (((100, 100), 60.3), ((150, 120), 70.2)):
        c.circle(at, r, outline=(0, 120, 90), width=1)


def test_a_stamp_draws_what_direct_drawing_draws_and_only_once():
    a, b = pygame.Surface((300, 250)), pygame.Surface((300, 250))
    a.fill((240, 230, 220))
    b.fill((240, 230, 220))
    _rings(PygameCanvas(a))
    calls = []
    cb = PygameCanvas(b)
    for _ in range(3):
        b.fill((240, 230, 220))
        cb.stamp("rings", (39, 39, 221, 191), lambda c: (calls.append(1), _rings(c)))
    assert len(calls) == 1  # kept: blitted on the later frames
    pa, pb = pygame.PixelArray(a), pygame.PixelArray(b)
    ink_a = {(x, y) for x in range(300) for y in range(250) if a.unmap_rgb(pa[x, y])[1] < 200}
    ink_b = {(x, y) for x in range(300) for y in range(250) if b.unmap_rgb(pb[x, y])[1] < 200}
    def near(p, ink):
        return any((p[0] + dx, p[1] + dy) in ink for dx in (-1, 0, 1) for dy in (-1, 0, 1))

    # the same rings (antialiased edges blend a little differently on a transparent picture)
    assert ink_a and ink_b and all(near(p, ink_a) for p in ink_b) and all(near(p, ink_b) for p in ink_a)
    del pa, pb  # unlock the surfaces
    cb.stamp("other", (39, 39, 221, 191), lambda c: calls.append(2))
    assert calls[-1] == 2  # a new key: drawn again


def test_the_recording_canvas_draws_a_stamp_directly():
    c = Canvas(300, 250)
    c.stamp("rings", (0, 0, 300, 250), _rings)
    assert len(c.find("circle")) == 2
