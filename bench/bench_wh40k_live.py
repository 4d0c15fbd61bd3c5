#!/usr/bin/env python3
"""wh40k live: window drag frames next to whfb8's, and whole-process ``analyse`` ratios.

    python bench/bench_wh40k_live.py [--frames 120] [--runs 5] [--before DIR]

* drag frames (CPU ms of the window's process, ``time.process_time``, the real window headless,
  the mouse on a Lissajous path so the unit moves on about nine frames in ten; :func:`drag`):
  the seed-003 worked example (its assault squad dragged), a 20 v 10 pile-in board (the mob
  dragged) and the whfb8 horde board (a unit dragged), median and 95th percentile, with the
  share of frames the unit moved and, where the window analyses off the frame
  (:mod:`game.window.background`), the share of frames showing an earlier pose ("solving")
  and the worker's CPU ms per analysis;
* whole process (wall ms, ``python main.py analyse FILE --json``, medians of ``--runs``): the
  worked example, the horde board under whfb8 and under wh40k; ratios to whfb8 on the horde board.

``--before DIR`` runs the same measurements on another checkout (e.g. ``git worktree add
/tmp/before main``) interleaved with this one, each round both trees, so both see the same load.
Targets (issue 24): a wh40k drag frame at most 1.5x a whfb8 frame, p95 within 16.7 ms on the
worked example; analyse of the worked example within 1.5x and wh40k on the horde board within
3x of whfb8 on the horde board.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKED = "assets/scenarios/wh40k_fight_phase.yaml"
HORDE = "assets/scenarios/dwarf_horde_vs_goblins.yaml"


def frames_here(frames: int) -> dict:
    """Drag frames in this process on the tree it was started from (see the module doc)."""
    sys.path.insert(0, str(Path.cwd()))
    sys.path.insert(0, str(Path.cwd() / "bench"))
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import bench_pile_in as B  # noqa: E402 - the tree's own 20 v 10 board
    from game.core.scenario import load_scenario  # noqa: E402

    out = {}
    w = load_scenario(B.WORKED)
    paced = bool(os.environ.get("BENCH_PACED"))
    out["worked"] = drag(w, "assault_squad", frames, paced)
    out["20v10"] = drag(B.make_board(11, 20, 10), "mob", frames, paced)
    h = load_scenario(B.RANKED)
    out["whfb8 horde"] = drag(h, h.units[0].id, frames, paced)
    return out


def drag(board, uid: str, frames: int, paced: bool = False) -> dict:
    """Drag unit ``uid`` of ``board`` in the real window (headless) for ``frames`` frames, the
    mouse on a Lissajous path (50 x 30 px) around the grab point. Returns ``{"ms": [CPU ms of
    each frame], "moved": frames the unit moved, "solving": frames showing an earlier pose,
    "worker_ms": [the worker's CPU ms per analysis]}``. ``paced``: each frame starts 1/60 s
    (wall clock) after the last one began, as in the window, so the worker's lag shows as it
    would there (frames otherwise run back to back)."""
    import math

    import pygame

    from game.window.app import App

    class FrameClock:
        t = 1000.0

        def __call__(self):
            return self.t

    clock = FrameClock()
    app = App(board, size=(1400, 880), clock=clock)
    app.doc.live.clock = time.process_time
    app.window.frame()
    bg = getattr(app.doc.live, "background", None)
    if paced and bg is not None and bg.usable(app.doc.rs):
        # as in the window, where the worker starts when the board is loaded: wait until it
        # has analysed this board once (its answer is not shown)
        bg.submit(app.doc.board, app.doc.rs)
        bg.poll(timeout_s=60.0)
        bg.forget()
    u = next(x for x in board.units if x.id == uid)
    c = u.models()[0].center
    a = tuple(int(v) for v in app.table.camera.to_px(c))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
    app.window.frame()
    out: dict = {"ms": [], "moved": 0, "solving": 0, "worker_ms": []}
    last = app.doc.board.unit(uid).pose_key()
    seen = None
    next_at = time.perf_counter()
    for k in range(frames):
        t = k * 0.08
        x, y = a[0] + 50 * math.sin(t), a[1] + 30 * math.sin(1.7 * t)
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y), rel=(1, 0), buttons=(1, 0, 0)))
        if paced:
            wait = next_at - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            next_at = max(next_at, time.perf_counter()) + 1 / 60
        t0 = time.process_time()
        app.window.frame()
        pygame.display.flip()
        out["ms"].append((time.process_time() - t0) * 1000)
        clock.t += 1 / 60
        live = app.doc.live
        now = app.doc.board.unit(uid).pose_key()
        out["moved"] += now != last
        last = now
        out["solving"] += bool(getattr(live, "solving", False))
        solved = getattr(live, "_solved", None)
        if solved is not None and solved[1] is not seen and solved[0] is not None:
            seen = solved[1]
            out["worker_ms"].append(live.analyse_ms)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1))
    app.window.frame()
    if getattr(app.doc.live, "paused", False):
        raise AssertionError("the window paused the analysis during the drag")
    close = getattr(app.doc.live, "close", None)
    if close is not None:
        close()
    pygame.display.quit()
    return out


def analyse_ms(root: Path, path: str, ruleset: str = "") -> float:
    cmd = [sys.executable, "main.py", "analyse", path, "--json"] + (["--ruleset", ruleset] if ruleset else [])
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - t0) * 1000


def q(ts: list[float]) -> tuple[float, float]:
    s = sorted(ts)
    return statistics.median(s), s[min(len(s) - 1, int(0.95 * len(s)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--before", default="")
    ap.add_argument("--paced", action="store_true", help="frames 1/60 s apart on the wall clock (the worker's lag as in the window)")
    ap.add_argument("--frames-here", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.frames_here:
        print(json.dumps(frames_here(args.frames_here)))
        return 0
    trees = {"after": ROOT} | ({"before": Path(args.before).resolve()} if args.before else {})
    frames_of: dict = {t: {} for t in trees}
    wall: dict = {t: {"worked": [], "whfb8 horde": [], "wh40k horde": []} for t in trees}
    rounds = 2
    for _ in range(rounds):
        for name, root in trees.items():
            env = dict(os.environ, **({"BENCH_PACED": "1"} if args.paced else {}))
            r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_wh40k_live.py"), "--frames-here",
                                str(args.frames // rounds)], cwd=root, capture_output=True, text=True, check=True, env=env)
            for k, v in json.loads(r.stdout.strip().splitlines()[-1]).items():
                d = frames_of[name].setdefault(k, {"ms": [], "moved": 0, "solving": 0, "worker_ms": []})
                for f in ("ms", "worker_ms"):
                    d[f].extend(v[f])
                d["moved"] += v["moved"]
                d["solving"] += v["solving"]
    for _ in range(args.runs):
        for name, root in trees.items():
            wall[name]["worked"].append(analyse_ms(root, WORKED))
            wall[name]["whfb8 horde"].append(analyse_ms(root, HORDE))
            wall[name]["wh40k horde"].append(analyse_ms(root, HORDE, "wh40k"))
    print("drag frames, CPU ms per frame of the window's process (median / p95), the real window headless, one run:")
    for name in trees:
        base = q(frames_of[name]["whfb8 horde"]["ms"])[0]
        for k, d in frames_of[name].items():
            ts = d["ms"]
            m, p = q(ts)
            extra = ""
            if d["worker_ms"]:
                extra = (f"; solving shown on {d['solving']} frames; worker {len(d['worker_ms'])} analyses, "
                         f"CPU median {statistics.median(d['worker_ms']):.1f} ms")
            print(f"  {name:6} {k:12} median {m:6.1f}  p95 {p:6.1f}  ({len(ts)} frames, moved on {d['moved']}; "
                  f"{m / base:4.2f}x whfb8{extra})")
    if not args.runs:
        return 0
    print("whole-process analyse, wall ms (median of %d), one run:" % args.runs)
    for name in trees:
        base = statistics.median(wall[name]["whfb8 horde"])
        for k, ts in wall[name].items():
            m = statistics.median(ts)
            print(f"  {name:6} {k:12} median {m:7.0f}  ({m / base:4.2f}x whfb8 on the horde board)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
