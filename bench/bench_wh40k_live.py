#!/usr/bin/env python3
"""wh40k live: how soon, and how often, a drag shows the exact analysis of the pose in hand.

    python bench/bench_wh40k_live.py [--cycles 3] [--boards worked,20v10,100v50] [--before DIR]
                                     [--worker frames|process] [--runs N]

The real window (headless, ``SDL_VIDEODRIVER=dummy``, ``XDG_DATA_HOME`` a folder of its own) is
driven by synthetic mouse events on an injected clock (1/60 s a frame): the button is pressed on
a model, the hand moves for 30 frames and rests for 60, ``--cycles`` times pressing the model
into base contact with its nearest enemy model (the hand past that model's edge) and back to a
free spot. Per board (the seed-003 worked example with its Monster dragged, a 20 v 10 pile-in
board and a 100 v 50 one, each with one charging model dragged) it prints:

* **per-pose analysis CPU** (ms, median / p95): the worker's CPU per analysis of a dragged pose;
* **exact at rest**: the share of the frames while the hand rests (button held) that show the
  analysis of the board as it is then (the status line not saying "solving"); the analyses
  shown as exact at the end of each rest are compared with a fresh analysis of that board
  ("mismatches", must be 0);
* **pose-to-screen latency** (frames, median / p95): from the frame a pose first stood on the
  board to the frame the answer for it was taken to the screen;
* the window's CPU per frame (median).

``--worker frames`` (default): the worker is :class:`FrameWorker`, an
:class:`~game.window.background.InlineBackground` that analyses a board when it is handed over
and gives the answer back ``ceil(CPU ms / 16.7)`` frames later (a worker on a core of its own,
at the speed measured): the figures do not depend on the machine's load. ``--worker process``:
the real worker process, frames paced 1/60 s apart on the wall clock (load-dependent).

``--before DIR`` runs the same measurements on another checkout (``git worktree add /tmp/before
main``), each board both trees in turn. Goals (issue 36): at least 80% of resting frames exact
on the worked example and on 20 v 10. ``--runs N``: also whole-process ``analyse --json`` wall
ms of the worked example and of the horde board under whfb8 and wh40k (issue 24).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKED = "assets/scenarios/wh40k_fight_phase.yaml"
HORDE = "assets/scenarios/dwarf_horde_vs_goblins.yaml"
FRAME_MS = 1000 / 60
MOVE_FRAMES, REST_FRAMES = 30, 60


def boards_here(names: list[str]) -> dict:
    """``{name: (board, dragged unit id)}`` of the tree this process runs in (cwd)."""
    import bench_pile_in as B  # the tree's own boards
    from game.core.scenario import load_scenario

    out = {}
    for name in names:
        if name == "worked":
            out[name] = (load_scenario(Path.cwd() / WORKED), "monster")
        elif name == "20v10":
            out[name] = (B.make_board(11, 20, 10), "mob")
        elif name == "100v50":
            out[name] = (B.make_board(11, 100, 50), "mob")
    return out


def frame_worker(frame_of):
    """A :class:`FrameWorker` class on the tree imported (see the module doc); ``frame_of()``
    is the number of the frame running."""
    from game.window.background import Finished, InlineBackground, _analyse

    class FrameWorker(InlineBackground):
        """Analyses a board as it is handed over; its answer is ready ``ceil(cpu / 16.7 ms)``
        frames later (at least one), as from a worker process on a free core."""

        def __init__(self) -> None:
            super().__init__()
            self.job = None  # (frame ready, Finished)
            self.cpu: list[float] = []

        def _send(self) -> None:
            if self.job is not None or self.pending is None:
                return
            seq, key, board, rs = self.pending
            self.pending = None
            t0 = time.process_time()
            res, err, _ = _analyse(board, rs)
            ms = (time.process_time() - t0) * 1000
            self.cpu.append(ms)
            self.busy = True
            self.job = (frame_of() + max(1, math.ceil(ms / FRAME_MS)), Finished(seq, key, res, err, ms, board))

        def submit(self, board, rs) -> bool:
            done = super().submit(board, rs)
            self._send()
            return done

        def poll(self, timeout_s: float = 0.0):
            out = None
            if self.job is not None and (frame_of() >= self.job[0] or timeout_s > 0):
                out, self.job, self.busy = self.job[1], None, False
            self._send()
            if out is not None and out.seq <= self.floor:
                return None
            return out

    return FrameWorker()


def drag(board, uid: str, cycles: int, worker: str) -> dict:
    """Drag a model of unit ``uid`` of ``board`` in the real window (see the module doc).
    Returns ``{"cpu": [ms per analysed pose], "rest": resting frames, "exact": of them exact,
    "lat": [frames from a pose to its answer on screen], "frame_ms": [window CPU ms per frame],
    "mismatch": exact-looking rests that differ from a fresh analysis, "checked": rests compared}``."""
    import pygame

    from game.core.analyse import analyse
    from game.window.app import App
    from game.window.background import board_key

    class Clock:
        t = 1000.0

        def __call__(self) -> float:
            return self.t

    frame = [0]
    clock = Clock()
    bg = frame_worker(lambda: frame[0]) if worker == "frames" else None
    app = App(board, size=(1400, 880), clock=clock, gui=False, **({"background": bg} if bg is not None else {}))
    live = app.doc.live
    live.clock = time.process_time
    app.window.frame()
    rbg = live.background
    if worker == "process" and rbg is not None and rbg.usable(app.doc.rs):  # the worker started with the board
        rbg.submit(app.doc.board, app.doc.rs)
        rbg.poll(timeout_s=120.0)
        rbg.forget()
    u = app.doc.board.unit(uid)
    m = u.models()[0]
    foes = [x for v in app.doc.board.units if v.player != u.player for x in v.models()]
    foe = min(foes, key=lambda f: math.dist(f.center, m.center))
    cam = app.table.camera
    # pressed into the nearest enemy model: the hand 8 mm past its far edge along the line of centres
    d = math.dist(foe.center, m.center)
    push = tuple(m.center[i] + (foe.center[i] - m.center[i]) * (d + 8.0) / d for i in range(2))
    back = (m.center[0] - 20.0, m.center[1] + 25.0)
    drawn = next((dm.shape.center for dm in live.models if dm.id == m.id), m.center)
    for grab in (cam.to_px(drawn), cam.to_px(m.center)):  # where it is drawn (its piled-in place), else where it stands
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=grab, rel=(0, 0), buttons=(0, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=grab, button=1))
        app.window.frame()
        if app.table.move_tool.drag is not None:
            if app.table.move_tool.key[0] != uid:
                raise AssertionError(f"grabbed {app.table.move_tool.key}, not {uid}")
            break
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=grab, button=1))
        app.window.frame()
    else:
        raise AssertionError(f"could not grab {m.id}")
    a = grab
    shift = (a[0] - cam.to_px(m.center)[0], a[1] - cam.to_px(m.center)[1])  # the hand's offset from the body
    targets = [tuple(cam.to_px(x)[i] + shift[i] for i in range(2)) for x in (push, back)]
    before = live.analysis  # the answer before the drag (not the worker's)
    out: dict = {"cpu": [], "rest": 0, "exact": 0, "lat": [], "frame_ms": [], "mismatch": 0, "checked": 0}
    first_seen: dict = {}
    last_solved = None
    last_key = None
    here = a
    paced_at = time.perf_counter()
    for c in range(2 * cycles):
        goal = targets[c % 2]
        start = here
        for k in range(MOVE_FRAMES + REST_FRAMES):
            if k < MOVE_FRAMES:
                f = (k + 1) / MOVE_FRAMES
                here = (start[0] + (goal[0] - start[0]) * f, start[1] + (goal[1] - start[1]) * f)
                pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=here, rel=(1, 0), buttons=(1, 0, 0)))
            if worker == "process":
                wait = paced_at - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                paced_at = max(paced_at, time.perf_counter()) + 1 / 60
            t0 = time.process_time()
            app.window.frame()
            out["frame_ms"].append((time.process_time() - t0) * 1000)
            key = board_key(app.doc.board, app.doc.rs)
            if key != last_key:  # a pose arrives (again: a later visit counts from then)
                first_seen[key], last_key = frame[0], key
            solved = getattr(live, "_solved", None)
            if solved is not None and solved is not last_solved and solved[1] is not before:
                last_solved = solved
                if bg is None:
                    out["cpu"].append(live.analyse_ms)  # the worker process's CPU for that answer
                if solved[0] in first_seen:
                    out["lat"].append(frame[0] - first_seen[solved[0]])
            if k >= MOVE_FRAMES:
                out["rest"] += 1
                exact = not live.solving and not live.paused
                out["exact"] += exact
                if k == MOVE_FRAMES + REST_FRAMES - 1 and exact:
                    out["checked"] += 1
                    fresh = analyse(app.doc.board.copy(), app.doc.rs).to_json()
                    out["mismatch"] += live.analysis.to_json() != fresh
            clock.t += 1 / 60
            frame[0] += 1
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=here, button=1))
    app.window.frame()
    if bg is not None:
        out["cpu"] = list(bg.cpu)
    live.close()
    pygame.display.quit()
    return out


def measure_here(names: list[str], cycles: int, worker: str) -> dict:
    sys.path.insert(0, str(Path.cwd()))
    sys.path.insert(0, str(Path.cwd() / "bench"))  # the tree measured: its boards and its game
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import game

    assert Path(game.__file__).resolve().parents[1] == Path.cwd().resolve(), game.__file__
    return {name: drag(b, uid, cycles, worker) for name, (b, uid) in boards_here(names).items()}


def analyse_ms(root: Path, path: str, ruleset: str = "") -> float:
    cmd = [sys.executable, "main.py", "analyse", path, "--json"] + (["--ruleset", ruleset] if ruleset else [])
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - t0) * 1000


def q(ts: list[float]) -> tuple[float, float]:
    if not ts:
        return math.nan, math.nan
    s = sorted(ts)
    return statistics.median(s), s[min(len(s) - 1, int(0.95 * len(s)))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cycles", type=int, default=3, help="press-and-back cycles per board (two rests each)")
    ap.add_argument("--boards", default="worked,20v10,100v50")
    ap.add_argument("--worker", choices=("frames", "process"), default="frames")
    ap.add_argument("--before", default="")
    ap.add_argument("--runs", type=int, default=0, help="whole-process analyse runs (0: none)")
    ap.add_argument("--here", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.here:
        print(json.dumps(measure_here(args.here.split(","), args.cycles, args.worker)))
        return 0
    trees = ({"before": Path(args.before).resolve()} if args.before else {}) | {"after": ROOT}
    env = dict(os.environ)
    env.setdefault("XDG_DATA_HOME", tempfile.mkdtemp(prefix="bench-wh40k-live-"))
    print(f"wh40k live drags ({args.worker} worker; {args.cycles} x 2 rests of {REST_FRAMES} frames, "
          f"moves of {MOVE_FRAMES}):")
    for name in args.boards.split(","):
        for tree, root in trees.items():
            r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_wh40k_live.py"), "--here", name,
                                "--cycles", str(args.cycles), "--worker", args.worker],
                               cwd=root, capture_output=True, text=True, env=env)
            if r.returncode:
                print(f"  {tree:6} {name:7} failed: {r.stderr.strip().splitlines()[-1:]}")
                continue
            d = json.loads(r.stdout.strip().splitlines()[-1])[name]
            cm, cp = q(d["cpu"])
            lm, lp = q([float(x) for x in d["lat"]])
            share = d["exact"] / max(1, d["rest"])
            print(f"  {tree:6} {name:7} analysis CPU/pose {cm:6.1f} ms (p95 {cp:6.1f}, {len(d['cpu'])} poses); "
                  f"exact at rest {100 * share:5.1f}% ({d['exact']}/{d['rest']}); latency {lm:4.1f} frames "
                  f"(p95 {lp:4.1f}); frame CPU {statistics.median(d['frame_ms']):5.1f} ms; "
                  f"mismatches {d['mismatch']}/{d['checked']}")
    if args.runs:
        print("whole-process analyse, wall ms (median of %d):" % args.runs)
        for tree, root in trees.items():
            wall = {k: [] for k in ("worked", "whfb8 horde", "wh40k horde")}
            for _ in range(args.runs):
                wall["worked"].append(analyse_ms(root, WORKED))
                wall["whfb8 horde"].append(analyse_ms(root, HORDE))
                wall["wh40k horde"].append(analyse_ms(root, HORDE, "wh40k"))
            base = statistics.median(wall["whfb8 horde"])
            for k, ts in wall.items():
                m = statistics.median(ts)
                print(f"  {tree:6} {k:12} median {m:7.0f}  ({m / base:4.2f}x whfb8 on the horde board)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
