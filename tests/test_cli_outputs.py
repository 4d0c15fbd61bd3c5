"""Command-line outputs say what they hold: ``demo F --gif x.png`` is refused (exit 2, one
line: the suffix must match what is written) and writes nothing; ``render-book --only TEXT``
that matches no figure exits 2 with one line and makes no folder."""
from __future__ import annotations

from pathlib import Path

import main

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "assets" / "demos" / "t9a_melee.yaml"
BOOK = ROOT / "assets" / "book.yaml"


def test_gif_to_a_png_name_is_refused_in_one_line(tmp_path, capsys):
    out = tmp_path / "x.png"
    assert main.main(["demo", str(DEMO), "--gif", str(out)]) == 2
    cap = capsys.readouterr()
    lines = cap.err.strip().splitlines()
    assert len(lines) == 1 and "--gif must end in .gif" in lines[0] and str(out) in lines[0], cap.err
    assert not out.exists() and cap.out == ""


def test_render_book_only_matching_nothing_exits_2_and_makes_no_folder(tmp_path, capsys):
    out = tmp_path / "figs"
    assert main.main(["render-book", str(BOOK), "-o", str(out), "--only", "nomatch"]) == 2
    cap = capsys.readouterr()
    lines = cap.err.strip().splitlines()
    assert len(lines) == 1 and "--only" in lines[0] and "no figure matches" in lines[0], cap.err
    assert not out.exists() and "wrote" not in cap.out
