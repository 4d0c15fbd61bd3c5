"""Clear errors on the command line (issue 26, item 6): ``-o`` through a dangling link says so
(not "File exists"); an output into a folder that cannot be written names the output and the
folder, never the temporary file."""
from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import main

ROOT = Path(__file__).resolve().parents[1]
HORDE = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
DEMO = ROOT / "assets" / "demos" / "t9a_melee.yaml"


def test_output_through_a_dangling_link_says_what_is_wrong(tmp_path, capsys):
    link = tmp_path / "out.png"
    link.symlink_to(tmp_path / "no" / "such" / "x.png")
    assert main.main(["render", str(HORDE), "-o", str(link)]) == 2
    err = capsys.readouterr().err
    assert "is a link to" in err and "folder does not exist" in err and "File exists" not in err
    folder = tmp_path / "gone"
    folder.symlink_to(tmp_path / "nowhere")
    assert main.main(["render", str(HORDE), "-o", str(folder / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "its folder" in err and "which does not exist" in err and "File exists" not in err


def test_a_link_to_a_new_file_is_written_through(tmp_path):
    link = tmp_path / "out.png"
    link.symlink_to("real.png")
    assert main.main(["render", str(HORDE), "-o", str(link), "--size", "200x150"]) == 0
    assert link.is_symlink() and (tmp_path / "real.png").stat().st_size > 0


def test_gif_into_a_folder_that_cannot_be_written_names_the_output(tmp_path, capsys, monkeypatch):
    out = tmp_path / "ro" / "demo.gif"
    out.parent.mkdir()
    real = tempfile.mkstemp

    def refuse(*a, **k):  # as a read-only folder does for a user who is not root
        if k.get("dir") == str(out.parent):
            raise PermissionError(errno.EACCES, "Permission denied", os.path.join(k["dir"], ".demo.gif.k3j4h5g6.tmp"))
        return real(*a, **k)

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    assert main.main(["demo", str(DEMO), "--gif", str(out), "--size", "320x200"]) == 1
    err = capsys.readouterr().err
    assert str(out) in err and f"folder {out.parent}" in err and ".tmp" not in err


def test_a_caption_of_one_long_word_is_laid_out_quickly(tmp_path):
    """A demo caption of one 4,000-letter word: cut by bisection, a few hundred measurements
    (it ran 30 s of CPU and then blamed the table)."""
    import subprocess
    import sys

    demo = tmp_path / "d.yaml"
    demo.write_text(f'title: long word\nsteps:\n  - caption: "{"W" * 4000}"\n    actions:\n'
                    f'      - load: {ROOT / "assets" / "scenarios" / "t9a_knight_height2.yaml"}\n')
    out = subprocess.run([sys.executable, str(ROOT / "main.py"), "demo", str(demo), "--export", str(tmp_path / "o"),
                          "--time-budget", "10"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "o" / "step_01.png").exists()


def test_budget_messages_name_what_ran_out():
    from game.cli.args import budget_message
    from game.core.work import doing

    with doing("laying out a text (a caption or label)", "the text is too long"):
        msg = budget_message("d.yaml", "after 30 s of CPU time", "--time-budget SECONDS")
    assert "caption" in msg and "the text is too long" in msg and "table" not in msg
    from game.engines.rank_and_file import gaps

    seen = []
    real = gaps._gaps_extend
    gaps._gaps_extend = lambda *a: seen.append(budget_message("t.yaml", "after 1 s", "--time-budget S")) or set()
    try:
        gaps.gaps_extend(None, {}, {}, [], 0.1)
    finally:
        gaps._gaps_extend = real
    assert "gap search" in seen[0] and "too entangled for the gap search" in seen[0]
    assert "analysing the table" in budget_message("t.yaml", "after 1 s", "--time-budget S")


def test_sigterm_during_the_windows_first_analysis_ends_it(tmp_path):
    """SIGTERM while the window loads and first analyses a file (a 20,000-model file takes
    seconds there) ends it at once with 143; it was turned into a quit event by SDL that only
    the loop read, after the analysis."""
    import subprocess
    import sys

    child = f"""
import os, signal, sys
sys.path.insert(0, {str(ROOT)!r})
import game.window.live as live
real = live.analyse
def analyse(*a, **k):
    os.kill(os.getpid(), signal.SIGTERM)  # as `kill` would, in the middle of the first analysis
    return real(*a, **k)
live.analyse = analyse
import main
sys.exit(main.main([{str(HORDE)!r}, "--frames", "200"]))
"""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", DISPLAY=os.environ.get("DISPLAY", ":0"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120, env=env,
                         cwd=tmp_path)
    assert out.returncode == 143, (out.returncode, out.stderr[-500:])
    assert "terminated" in out.stderr and "Traceback" not in out.stderr
