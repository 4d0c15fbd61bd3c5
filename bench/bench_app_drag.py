#!/usr/bin/env python3
"""The real window loop (headless, SDL_VIDEODRIVER=dummy), CPU time per frame
(time.process_time): events, pymunk step, write-back, re-analysis, drawing and the flip,
exactly as App.run() does them.

    python bench/bench_app_drag.py [--quick] [--long-frames 5000]

* drag: the mouse walks randomly (a new position every frame) with a unit held, on tables of
  2000 and 8000 models: median, 95th percentile and max;
* long drag: 5000 frames at 2000 models, the number of frames over 16.7 and 50 ms;
* idle: frames with no event at all on the 2000-model table;
* group drag: the same drag at 2000 models with a second unit of the same side selected, so
  it follows and is checked against the rest every frame (both press against their enemies).

Targets (issue 14): drag 2000 models p95 <= 12 ms; drag 8000 models median <= 16.7 ms;
no frame over 50 ms in a 5000-frame drag; idle <= 1 ms a frame.
"""
from __future__ import annotations

import argparse
import gc
import inspect
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from common import big_table, rng, stats  # noqa: E402

import pygame  # noqa: E402

from game.window.app import App  # noqa: E402

try:
    from game.window.loop import IDLE_WAIT_MS  # noqa: E402
except ImportError:  # before the window split: the loop never waited
    IDLE_WAIT_MS = 1000 / 60


class FrameClock:
    """The window's clock in the benchmark: 1/60 s per frame, as the real loop runs at 60 fps."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def _win(app):
    """The part that runs frames: the Window (views and sections), or the App itself before."""
    return getattr(app, "window", app)


def _frame(app) -> float:
    t = time.process_time()
    drew = _win(app).frame()
    if drew is not False and pygame.display.get_surface() is not None:
        pygame.display.flip()  # as run_loop does: only a frame that drew is flipped
    clock = getattr(app, "bench_clock", None)
    if clock is not None:
        clock.t += 1 / 60
    return (time.process_time() - t) * 1000


def make(n_models: int) -> tuple[App, tuple[int, int]]:
    board = big_table(n_models)
    clock = FrameClock()
    # every window its own empty data folder: an autosave of an earlier window in this run would
    # otherwise be offered for recovery, and that modal dialog would take the drag's events
    kw = {}
    if "out_dir" in inspect.signature(App).parameters:
        folder = Path(tempfile.mkdtemp(prefix="bench_drag_"))
        kw = {"out_dir": folder / "recovery", "recent_file": folder / "recent.json"}
    try:
        app = App(board, size=(1400, 880), clock=clock, **kw)
        app.bench_clock = clock
        live = app.doc.live if hasattr(app, "doc") else app.live  # (before the views and sections)
        live.clock = time.process_time  # analyses timed in CPU time, as the window does
    except TypeError:  # a window without an injectable clock (before the window split)
        app = App(board, size=(1400, 880))
    _win(app).frame()
    u = board.units[len(board.units) // 2]
    app.bench_unit = (u.id, u.center())  # (checked after the drag: it must have moved)
    camera = app.table.camera if hasattr(app, "table") else app.view
    return app, tuple(int(v) for v in camera.to_px(u.center()))


def moved_mm(app) -> float:
    """How far the unit under the first mouse press moved (0: the drag never took hold, e.g. a
    dialog took the events, and the figure would time an idle window)."""
    uid, c0 = app.bench_unit
    c1 = app.doc.board.unit(uid).center() if hasattr(app, "doc") else app.board.unit(uid).center()
    return ((c1[0] - c0[0]) ** 2 + (c1[1] - c0[1]) ** 2) ** 0.5


def drag_frames(app, a, frames: int, r) -> list[float]:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
    _frame(app)
    times = []
    x, y = float(a[0]), float(a[1])
    for _ in range(frames):
        # a random walk sideways: the unit slides along its enemy's front, a new position each frame
        x = min(a[0] + 40, max(a[0] - 40, x + r.uniform(-3, 3)))
        y = a[1] - 12 + r.uniform(-3, 3)  # pressed against the enemy in front (pymunk stops it)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(1, 0), buttons=(1, 0, 0)))
        times.append(_frame(app))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1))
    _frame(app)
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--long-frames", type=int, default=5000)
    args = ap.parse_args()
    r = rng()
    frames = 120 if args.quick else 300
    for n, target in ((2000, "p95 <= 12"), (8000, "median <= 16.7")):
        app, a = make(n)
        med, p95, mx = stats(drag_frames(app, a, frames, r))
        print(f"FIGURE drag frame {n} models: median {med:.1f} ms, p95 {p95:.1f}, max {mx:.1f} "
              f"({frames} frames; the unit moved {moved_mm(app):.1f} mm; target {target})")
        if n == 2000:
            for _ in range(5):
                _frame(app)
            # ten seconds without input, run as the window loop runs them: a frame every 1/60 s,
            # or, once the window says it is idle, one wait of IDLE_WAIT_MS for the next event
            t, cpu, n = 0.0, 0.0, 0
            while t < 10.0:
                cpu += _frame(app)
                n += 1
                if _win(app).idle():
                    t += IDLE_WAIT_MS / 1000
                    if getattr(app, "bench_clock", None) is not None:
                        app.bench_clock.t += IDLE_WAIT_MS / 1000
                else:
                    t += 1 / 60
            print(f"FIGURE idle window 2000 models: {cpu / 600:.2f} ms CPU per 1/60 s ({cpu / 100:.1f}% of a core; "
                  f"{n} frames run in 10 s without input; target <= 1)")
        pygame.display.quit()
    app, a = make(2000)
    t = app.table
    lead = t.body_at(t.camera.to_mm(a))
    if lead is not None:
        u = t.board.unit(lead[0])
        mate = next(x for x in t.board.units if x.player == u.player and x.id != u.id)
        t.select(u.id)
        t.toggle_in_selection(mate.id)
        t.select(u.id, keep_group=True)
        t.group = [mate.id]
        c0 = mate.center()
        med, p95, mx = stats(drag_frames(app, a, frames, r))
        c1 = t.board.unit(mate.id).center()
        print(f"FIGURE group drag frame 2000 models (2 units): median {med:.1f} ms, p95 {p95:.1f}, max {mx:.1f} "
              f"({frames} frames; the second unit followed {((c1[0] - c0[0]) ** 2 + (c1[1] - c0[1]) ** 2) ** 0.5:.1f} mm)")
    pygame.display.quit()
    if args.long_frames:
        app, a = make(2000)
        gc.collect()
        ts = drag_frames(app, a, args.long_frames, r)
        med, p95, mx = stats(ts)
        print(f"FIGURE long drag {args.long_frames} frames 2000 models: max {mx:.1f} ms, "
              f"{sum(t > 50 for t in ts)} frames over 50 ms, {sum(t > 16.7 for t in ts)} over 16.7 ms, "
              f"median {med:.1f}, p95 {p95:.1f} (the unit moved {moved_mm(app):.1f} mm; target: none over 50)")


if __name__ == "__main__":
    main()
