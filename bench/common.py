"""Shared helpers for the benchmarks: synthetic big tables and a median timer."""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.core.board import Board, Unit  # noqa: E402


def big_table(models: int, per_unit: int = 100, files: int = 10, ruleset: str = "whfb8") -> Board:
    """A table of ``models`` models in units of ``per_unit`` (20 mm bases, ``files`` wide),
    paired front to front in separate combats laid out on a grid (table mm)."""
    n_units = max(2, models // per_unit)
    units = []
    cols = 6
    for i in range(n_units // 2):
        x = 150 + (i % cols) * (files * 20 + 60)
        y = 300 + (i // cols) * (2 * (per_unit // files + 1) * 20 + 80)
        for side, facing in ((0, 0.0), (1, 180.0)):
            units.append(Unit(id=f"u{i}_{side}", player=side + 1, kind="ranked", base=(20, 20), files=files,
                              count=per_unit, front=(float(x), float(y)), facing_deg=facing,
                              name=f"Unit {i}.{side}", profile={"attacks": 1, "initiative": 3 - side}))
    w = 150 + cols * (files * 20 + 60)
    h = 300 + (n_units // 2 // cols + 1) * (2 * (per_unit // files + 1) * 20 + 80)
    return Board(units=units, ruleset=ruleset, table=(float(w), float(h)), title=f"{len(units) * per_unit} models")


def median_ms(fn, repeat: int = 9, warmup: int = 1) -> float:
    """Median wall time of ``fn()`` in milliseconds."""
    for _ in range(warmup):
        fn()
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts) * 1000
