"""Driving the window headless in tests: synthetic pygame events posted before ``App.frame()``.

Set ``SDL_VIDEODRIVER=dummy`` before importing (tests/conftest.py does).
"""
from __future__ import annotations

import pygame

from game.core.scenario import load_scenario


def make_app(path, size=(1400, 880)):
    """An App on the scenario at ``path`` (saving goes next to it), one frame drawn."""
    from game.view.app import App

    a = App(load_scenario(path), path=str(path), size=size)
    a.frame()
    return a


def key(app, k, mod=0, text=""):
    """One key press (KEYDOWN with ``unicode`` ``text``), then a frame."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=text))
    app.frame()


def move_mouse(app, px, buttons=(0, 0, 0)):
    """Move the mouse to window pixel ``px``, then a frame."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=px, rel=(0, 0), buttons=buttons))
    app.frame()


def drag(app, a_mm, b_mm, frames=60):
    """Press at table point ``a_mm``, move to ``b_mm`` in five steps, let the physics follow
    for ``frames`` frames, release."""
    a, b = app.view.to_px(a_mm), app.view.to_px(b_mm)
    move_mouse(app, a)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
    app.frame()
    for i in range(1, 6):
        p = (a[0] + (b[0] - a[0]) * i / 5, a[1] + (b[1] - a[1]) * i / 5)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(0, 0), buttons=(1, 0, 0)))
        app.frame()
    for _ in range(frames):
        app.frame()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))
    app.frame()
