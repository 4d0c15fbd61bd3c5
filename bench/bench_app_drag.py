#!/usr/bin/env python3
"""Frame time of the real window loop while a unit is dragged, on tables of 500 and 2000
models (headless, SDL_VIDEODRIVER=dummy): events, pymunk step, write-back, re-analysis and
drawing, exactly as App.frame() does them.

    python bench/bench_app_drag.py         # prints the median and 95th percentile frame time
"""
from __future__ import annotations

import os
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from common import big_table  # noqa: E402

import pygame  # noqa: E402

from game.view.app import App  # noqa: E402


def drag_frames(n_models: int, frames: int = 120) -> list[float]:
    board = big_table(n_models)
    app = App(board, size=(1400, 880))
    u = board.units[0]
    start = u.center()
    a = app.view.to_px(start)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
    app.frame()
    times = []
    for i in range(frames):
        # sweep sideways and back so the unit keeps moving (and meets its neighbour)
        dx = 80 * ((i % 60) / 60 if (i // 60) % 2 == 0 else 1 - (i % 60) / 60)
        p = (a[0] + dx, a[1])
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(1, 0), buttons=(1, 0, 0)))
        t = time.perf_counter()
        app.frame()
        times.append((time.perf_counter() - t) * 1000)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=p, button=1))
    app.frame()
    return times


def main() -> None:
    for n in (500, 2000):
        ts = sorted(drag_frames(n))
        print(f"{n} models, dragging one unit: median {statistics.median(ts):.1f} ms, "
              f"95th percentile {ts[int(len(ts) * 0.95)]:.1f} ms, max {ts[-1]:.1f} ms "
              f"({1000 / statistics.median(ts):.0f} fps at the median)")


if __name__ == "__main__":
    main()
