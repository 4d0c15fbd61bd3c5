#!/usr/bin/env python3
"""The window on a board at a documented limit: time to the first frame, to the analysis shown,
and to Esc taking effect (the first analysis runs in the worker, game.window.analysing).

    XDG_DATA_HOME=/tmp/x SDL_VIDEODRIVER=dummy python bench/bench_window_cancel.py [--only NAME]

For each board (new offsets each run: nothing replayed from a cache) two windows in this
process, on the dummy video driver: (a) frames until the roles are shown; (b) Esc posted on the
first frame after the first, frames until the analysis is stopped. CPU seconds of this process
(time.process_time) and of the worker (RUSAGE_CHILDREN: counted once the worker is waited for,
so (a)'s worker is closed first), wall seconds beside them.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from bench_limits import skirm_2x10k, units_100, units_500  # noqa: E402
from game.core.scenario import load_scenario  # noqa: E402
from game.window.app import App  # noqa: E402

BOARDS = [("skirm2x10k", "t9a", skirm_2x10k), ("units500", "slots", units_500), ("units100", "wh40k", units_100)]


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def window(path: Path, cancel: bool) -> dict:
    board = load_scenario(path)
    c0, w0, k0 = time.process_time(), time.perf_counter(), children_cpu()
    app = App(board, path=str(path), gui=True)
    app.window.frame()
    out = {"first_cpu": time.process_time() - c0, "first_wall": time.perf_counter() - w0,
           "off_frame": app.doc.analysing}
    frames = 1
    if cancel:
        c1, w1 = time.process_time(), time.perf_counter()
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
        while app.doc.analysing:
            app.window.frame()
            frames += 1
        out.update(cancel_cpu=time.process_time() - c1, cancel_wall=time.perf_counter() - w1,
                   status=app.status.message[:70])
    else:
        while app.doc.analysing:
            app.window.frame()
            frames += 1
            time.sleep(0.005)  # a bench, not a test: the window's loop ticks at its fps too
        out.update(done_wall=time.perf_counter() - w0, roles=len(app.doc.analysis.models),
                   banner=app.status.banner[:80])
    app.doc.live.close()
    out.update(frames=frames, self_cpu=time.process_time() - c0, worker_cpu=children_cpu() - k0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    rng = random.Random()
    with tempfile.TemporaryDirectory() as tmp:
        for name, rs, make in BOARDS:
            if args.only and args.only not in f"{name}/{rs}":
                continue
            f = Path(tmp) / f"{name}_{rs}.yaml"
            f.write_text(make(rs, rng))
            for cancel in (False, True):
                r = window(f, cancel)
                print(f"{name}/{rs} {'cancel' if cancel else 'finish'}: " +
                      ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in r.items()),
                      flush=True)


if __name__ == "__main__":
    main()
