"""Shared helpers for the benchmarks: synthetic big tables, fresh inputs and CPU timers.

Every timing here is CPU time (``time.process_time``): the machine is shared, so wall time
says more about the neighbours than about us. Inputs are new on every run (a table shifted by
a fresh random offset, a drag to a position never seen before), so no timing is a cache replay.
"""
from __future__ import annotations

import dataclasses
import random
import statistics
import sys
import time
from pathlib import Path

import os  # noqa: E402

# BENCH_ROOT: measure another tree (a "before" worktree) with these benchmarks (bench/compare.py)
ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parents[1]).resolve()
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


def big_combat(models: int, per_unit: int = 100, files: int = 10, ruleset: str = "whfb8") -> Board:
    """One single combat of ``models`` models: two battle lines front to front, the second
    shifted half a unit sideways so every unit touches two enemies (a chain through all)."""
    n_units = max(2, models // per_unit)
    w = files * 20
    units = []
    for i in range(n_units // 2):
        units.append(Unit(id=f"a{i}", player=1, kind="ranked", base=(20, 20), files=files, count=per_unit,
                          front=(100.0 + i * w + w / 2, 600.0), facing_deg=0.0, name=f"A{i}",
                          profile={"attacks": 1, "initiative": 3}))
        units.append(Unit(id=f"b{i}", player=2, kind="ranked", base=(20, 20), files=files, count=per_unit,
                          front=(100.0 + i * w + w, 600.0), facing_deg=180.0, name=f"B{i}",
                          profile={"attacks": 1, "initiative": 2}))
    table_w = 200.0 + (n_units // 2 + 1) * w
    return Board(units=units, ruleset=ruleset, table=(table_w, 1200.0), title=f"one combat of {models} models")


def shifted(board: Board, dx: float, dy: float) -> Board:
    """A copy of ``board`` with every unit moved by (dx, dy) mm (analysis must not change)."""
    return dataclasses.replace(board, units=[u.translated(dx, dy) for u in board.units])


def with_unit(board: Board, unit: Unit) -> Board:
    """``board`` with ``unit`` in place of the unit of its id (a new board; the other units shared).
    Written with :func:`dataclasses.replace` so a bench measures trees before and after frozen boards."""
    return dataclasses.replace(board, units=[unit if u.id == unit.id else u for u in board.units])


def n_models(board: Board) -> int:
    return sum(u.count if u.is_ranked else len(u.placed) for u in board.units)


def stats(ts_ms: list[float]) -> tuple[float, float, float]:
    """(median, 95th percentile, max) of a list of milliseconds."""
    s = sorted(ts_ms)
    return statistics.median(s), s[min(len(s) - 1, int(len(s) * 0.95))], s[-1]


def cpu_ms(fn) -> float:
    """CPU milliseconds of one call of ``fn()``."""
    t = time.process_time()
    fn()
    return (time.process_time() - t) * 1000


def median_ms(fn, repeat: int = 9, warmup: int = 1) -> float:
    """Median CPU time of ``fn()`` in milliseconds (process_time)."""
    for _ in range(warmup):
        fn()
    return statistics.median(cpu_ms(fn) for _ in range(repeat))


def rng(seed: int = 14) -> random.Random:
    return random.Random(seed)
