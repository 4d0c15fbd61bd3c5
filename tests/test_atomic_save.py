"""Saves are atomic: a writer killed at any moment leaves the old file whole (or the new one)."""
import dataclasses
import os
import signal
import subprocess
import sys
from pathlib import Path

from game.core.scenario import dump_scenario, load_scenario, parse_scenario, save_scenario

ROOT = Path(__file__).resolve().parents[1]

WRITER = r"""
import os, signal, sys
sys.path.insert(0, {root!r})
import dataclasses
from game.core.scenario import parse_scenario, save_scenario
from game.core.board import Unit
board = parse_scenario(open({src!r}).read(), "src.yaml")
board = board.with_units([*board.units, *(Unit(id=f"u{{i}}", player=2, kind="skirmish", base=32,
                                              placed=[((float(j), float(i)), None) for j in range(40)])
                                         for i in range(50))])
board = dataclasses.replace(board, title="new")
stage = {stage!r}

def die(*a, **k):
    os.kill(os.getpid(), signal.SIGKILL)

real_fdopen, real_replace = os.fdopen, os.replace

class HalfWriter:
    def __init__(self, fh):
        self.fh = fh
    def __enter__(self):
        return self
    def __exit__(self, *a):
        return False
    def write(self, data):
        self.fh.write(data[: len(data) // 2])
        self.fh.flush()
        die()
    def __getattr__(self, name):
        return getattr(self.fh, name)

if stage == "write":
    os.fdopen = lambda *a, **k: HalfWriter(real_fdopen(*a, **k))
elif stage == "fsync":
    os.fsync = die
elif stage == "replace":
    os.replace = die
elif stage == "after":
    os.replace = lambda *a, **k: (real_replace(*a, **k), die())
save_scenario(board, {dst!r})
"""


def test_killed_writer_leaves_a_whole_file(tmp_path):
    """The writer is killed at each stage of a save (half the text written, before the fsync,
    before the rename, right after it): no clock, no sleep, every stage hit for sure."""
    src = ROOT / "tests" / "golden" / "whfb8_horde_keyword_needed.yaml"
    dst = tmp_path / "scenario.yaml"
    old = parse_scenario(src.read_text(), "src.yaml")
    save_scenario(old, dst)
    old_text = dst.read_text()
    for stage in ("write", "fsync", "replace", "after"):
        proc = subprocess.run([sys.executable, "-c", WRITER.format(root=str(ROOT), src=str(src), dst=str(dst),
                                                                   stage=stage)], capture_output=True, text=True)
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        text = dst.read_text()
        board = load_scenario(dst)  # parses: never a torn file
        assert (text == old_text) if stage != "after" else board.title == "new"
        save_scenario(old, dst)  # back to the old content for the next round
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "scenario.yaml"]
    # a killed writer may leave its temporary file; it never replaces the target half-written
    assert all(p.startswith(".scenario.yaml.") and p.endswith(".tmp") for p in leftovers)


def test_failed_save_keeps_old_file(tmp_path, monkeypatch):
    src = ROOT / "tests" / "golden" / "whfb8_apart.yaml"
    dst = tmp_path / "s.yaml"
    board = load_scenario(src)
    save_scenario(board, dst)
    before = dst.read_text()

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", boom)
    board = dataclasses.replace(board, title="changed")
    try:
        save_scenario(board, dst)
    except OSError:
        pass
    assert dst.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["s.yaml"]
    assert load_scenario(dst).title != "changed"
