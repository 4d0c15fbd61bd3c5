"""Saves are atomic: a writer killed at any moment leaves the old file whole (or the new one)."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from game.core.scenario import dump_scenario, load_scenario, parse_scenario, save_scenario

ROOT = Path(__file__).resolve().parents[1]

WRITER = r"""
import sys
sys.path.insert(0, {root!r})
from game.core.scenario import parse_scenario, save_scenario
from game.core.board import Unit
board = parse_scenario(open({src!r}).read(), "src.yaml")
for i in range(600):
    board.units.append(Unit(id=f"u{{i}}", player=2, kind="skirmish", base=32,
                            placed=[((float(j), float(i)), None) for j in range(40)]))
print("ready", flush=True)
while True:
    board.title = "new"
    save_scenario(board, {dst!r})
"""


def test_killed_writer_leaves_a_whole_file(tmp_path):
    src = ROOT / "tests" / "golden" / "whfb8_horde_keyword_needed.yaml"
    dst = tmp_path / "scenario.yaml"
    old = parse_scenario(src.read_text(), "src.yaml")
    save_scenario(old, dst)
    old_text = dst.read_text()
    for delay in (0.05, 0.11, 0.23, 0.37, 0.5):
        proc = subprocess.Popen([sys.executable, "-c", WRITER.format(root=str(ROOT), src=str(src), dst=str(dst))],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        text = dst.read_text()
        board = load_scenario(dst)  # parses: never a torn file
        assert text == old_text or board.title == "new"
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
    board.title = "changed"
    try:
        save_scenario(board, dst)
    except OSError:
        pass
    assert dst.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["s.yaml"]
    assert load_scenario(dst).title != "changed"
