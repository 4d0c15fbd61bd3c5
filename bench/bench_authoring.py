"""CPU medians of the authoring paths: the one-page HTML export, writing a recorded demo,
writing demos of 8 / 16 / 32 steps that each mark casualties (the time should double with the
steps, not quadruple), and the drag readout one frame of a drag computes.

    python bench/bench_authoring.py [--runs 5] [--sizes 8,16,32]

Each run gets new inputs (the demo's boards shifted by a seeded random offset, a fresh drag
position), so no cache answers. Prints numbers only; speed is never asserted in tests.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parents[1]).resolve()
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sizes", default="8,16,32", help="steps of the demos with casualties")
    args = ap.parse_args()
    from game.core import manoeuvre as mv
    from game.core.analyse import analyse
    from game.core.demo import build_steps, load_demo
    from game.core.demo_writer import DemoRecorder, RecordedStep, recorder_from_demo
    from game.core.scenario import load_scenario
    from game.core.measure import drag_readout
    from game.core.ruleset import load_ruleset
    from game.render.html_page import demo_page

    demo = load_demo(ROOT / "assets" / "demos" / "whfb8_close_combat.yaml")
    rng = random.Random(23)
    page, write, readout = [], [], []
    for _ in range(args.runs):
        steps = build_steps(demo)
        dx, dy = rng.uniform(-50, 50), rng.uniform(-50, 50)
        for st in steps:  # new inputs: every board shifted, analysed again
            st.board = dataclasses.replace(st.board, units=[u.translated(dx, dy) for u in st.board.units])
            st.analysis = analyse(st.board, st.ruleset)
        t = time.process_time()
        demo_page(steps, demo.title)
        page.append(time.process_time() - t)
        rec = recorder_from_demo(demo, steps)
        t = time.process_time()
        rec.to_text(str(ROOT / "assets" / "demos" / "x.yaml"))
        write.append(time.process_time() - t)
        b = steps[0].board
        rs = load_ruleset(b.ruleset)
        u0 = b.units[-1]
        t = time.process_time()
        for i in range(100):
            drag_readout(u0, mv.forward(u0, rng.uniform(0, 100)), b, rs.measure, rs.values)
        readout.append((time.process_time() - t) / 100)
    print(f"html page, 17 steps:        median {statistics.median(page) * 1000:.0f} ms CPU ({args.runs} runs)")
    print(f"write recorded demo, 17 st: median {statistics.median(write) * 1000:.0f} ms CPU")
    print(f"drag readout, one frame:    median {statistics.median(readout) * 1e6:.0f} us CPU")
    base = load_scenario(ROOT / "assets" / "scenarios" / "whfb8_initiative.yaml")
    for n in [int(x) for x in args.sizes.split(",") if x]:
        times = []
        for _ in range(args.runs):
            dx = rng.uniform(-50, 50)  # new inputs each run
            rec = DemoRecorder("casualties")
            for i in range(n):
                b = dataclasses.replace(base, units=[u.translated(dx + i, 0.0) for u in base.units])
                rec.add(RecordedStep(f"Step {i + 1}.", b, strike=1, casualties={"orcs": 1}))
            t = time.process_time()
            rec.to_text(str(ROOT / "assets" / "demos" / "x.yaml"))
            times.append(time.process_time() - t)
        print(f"FIGURE write demo, {n:2d} steps with casualties: median {statistics.median(times) * 1000:.0f} ms CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
