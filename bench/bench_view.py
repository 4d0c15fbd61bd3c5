#!/usr/bin/env python3
"""Drawing speed: frame time of a 2000-model table in the window's drawing code, the time to
render one figure, and cold start to the first frame of the window.

    python bench/bench_view.py            # prints medians in ms (SDL_VIDEODRIVER=dummy)

Targets (issue "Big tables stay fluid"): >= 60 frames a second (<= 16.7 ms a frame).
"""
from __future__ import annotations

import os
import subprocess
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from common import ROOT, big_table, median_ms, with_unit  # noqa: E402

import pygame  # noqa: E402

from game.core.analyse import analyse  # noqa: E402
from game.core.ruleset import load_ruleset  # noqa: E402
from game.render.pygame_canvas import PygameCanvas  # noqa: E402
from game.figures.figure_file import save_png  # noqa: E402
from game.render.options import SceneOptions
from game.render.scene import draw_scene, fit_view  # noqa: E402


def main() -> None:
    pygame.display.init()
    pygame.font.init()
    rs = load_ruleset("whfb8")
    w, h = 1400, 880
    screen = pygame.display.set_mode((w, h))
    for n in (500, 2000):
        board = big_table(n)
        result = analyse(board, rs)
        opts = SceneOptions()
        view = fit_view(w, h, board, opts)
        canvas = PygameCanvas(screen)

        def frame():
            draw_scene(canvas, board, result, view, options=opts)
            pygame.display.flip()

        def frame_and_analysis():
            nonlocal board
            board = with_unit(board, board.units[0].translated(0.0, -0.01))
            draw_scene(canvas, board, analyse(board, rs), view, options=opts)
            pygame.display.flip()

        f = median_ms(frame, repeat=15)
        fa = median_ms(frame_and_analysis, repeat=15)
        print(f"{n} models: draw a frame {f:.1f} ms ({1000 / f:.0f} fps); "
              f"re-analyse + draw while dragging {fa:.1f} ms ({1000 / fa:.0f} fps)")

    out = ROOT / "out"
    out.mkdir(exist_ok=True)
    from game.core.scenario import load_scenario
    b = load_scenario(ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml")
    res = analyse(b, load_ruleset(b.ruleset))
    t = median_ms(lambda: save_png(b, res, out / "bench_figure.png"), repeat=7)
    print(f"render one figure (built-in scenario, in-process PNG): {t:.1f} ms")

    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, str(ROOT / "main.py"), "--frames", "1"], cwd=ROOT, check=True,
                       env=dict(os.environ, SDL_VIDEODRIVER="dummy"), capture_output=True)
        times.append(time.perf_counter() - t0)
    times.sort()
    print(f"cold start to first frame (python main.py --frames 1, whole process): {times[2] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
