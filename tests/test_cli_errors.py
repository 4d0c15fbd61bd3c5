"""Clear errors and clean ends on the command line: ``-o`` through a dangling link says so (not
"File exists"); an output into a folder that cannot be written names the output and the folder,
never the temporary file; budget messages name what ran out; SIGTERM during the window's first
analysis ends it; an output that cannot be written is an error, a reader gone a quiet end; a
failing book figure's error gets its own line; ``--help`` names every command; an empty
``--size`` is refused; one figure is counted in the singular."""
from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest

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
import pytest
sys.exit(main.main([{str(HORDE)!r}, "--frames", "200"]))
"""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", DISPLAY=os.environ.get("DISPLAY", ":0"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120, env=env,
                         cwd=tmp_path)
    assert out.returncode == 143, (out.returncode, out.stderr[-500:])
    assert "terminated" in out.stderr and "Traceback" not in out.stderr


def test_render_book_error_gets_its_own_line(tmp_path, capsys):
    """A failing figure closes the progress bar first, so the one error line the command
    prints next is not glued onto the bar's line (it was: 'render-book: 0%|...error: ...')."""
    from game.figures.book import BookError, render_book

    book = tmp_path / "b.yaml"
    book.write_text("title: b\nfigures:\n  - {scenario: nope.yaml, output: a.png}\n")
    try:
        render_book(book, tmp_path / "out", progress=True)
    except BookError:
        err = capsys.readouterr().err  # read while the error is raised, as the command prints it
    else:
        pytest.fail("no BookError")
    assert err.endswith("\n"), repr(err[-80:])


def test_demo_gif_refuses_a_scenario_the_demo_loads(tmp_path, capsys):
    """``demo D --gif X`` where X is a scenario file the demo loads replaced that scenario
    with the GIF; it is refused like an output that is the demo file itself."""
    import shutil
    from pathlib import Path

    import main

    src = Path(__file__).parent / "golden" / "whfb8_incomplete_rank_left_flank.yaml"
    scen = tmp_path / "board.gif"  # a scenario under an unlucky name
    shutil.copy(src, scen)
    demo = tmp_path / "d.yaml"
    demo.write_text("title: t\nsteps:\n  - caption: a\n    actions:\n      - load: board.gif\n")
    before = scen.read_bytes()
    assert main.main(["demo", str(demo), "--gif", str(scen)]) == 2
    assert scen.read_bytes() == before
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "would destroy it" in err[0]


class _FullStdout:
    """A stdout whose writes are buffered and whose flush fails like /dev/full (or a pipe
    whose reader went away, ``broken``)."""

    def __init__(self, broken: bool = False):
        import io

        self.broken, self.buf = broken, io.StringIO()

    def write(self, s):
        if self.broken:
            raise BrokenPipeError(32, "Broken pipe")
        return self.buf.write(s)

    def flush(self):
        import errno

        if self.broken:
            raise BrokenPipeError(32, "Broken pipe")
        raise OSError(errno.ENOSPC, "No space left on device")

    def fileno(self):
        import io

        raise io.UnsupportedOperation("fileno")


def test_output_that_cannot_be_written_is_an_error(monkeypatch, capsys):
    """``analyse ... --json > /dev/full`` ended with status 0 and no word: the JSON was lost."""
    import sys

    from game.cli.args import guarded

    monkeypatch.setattr(sys, "stdout", _FullStdout())
    assert guarded(lambda: print("{}") or 0, handle_term=False) == 1
    assert "cannot write the output: No space left on device" in capsys.readouterr().err


def test_demo_export_with_its_reader_gone_ends_quietly(tmp_path, monkeypatch, capsys):
    """``demo D --export DIR | head -0`` said 'cannot write DIR: Broken pipe' (exit 1): it is
    the message line that could not be written, not the frames; a quiet 141 like the others."""
    import shutil
    import sys
    from pathlib import Path

    import main

    shutil.copy(Path(__file__).parent / "golden" / "whfb8_incomplete_rank_left_flank.yaml", tmp_path / "s.yaml")
    demo = tmp_path / "d.yaml"
    demo.write_text("title: t\nsteps:\n  - caption: a\n    actions:\n      - load: s.yaml\n")
    monkeypatch.setattr(sys, "stdout", _FullStdout(broken=True))
    assert main.main(["demo", str(demo), "--export", str(tmp_path / "frames"), "--size", "300x200"]) == 141
    assert capsys.readouterr().err == ""
    assert (tmp_path / "frames" / "step_01.png").exists()


def test_top_level_help_names_every_command(capsys):
    """``main.py --help`` listed analyse and render but not demo or render-book."""
    import main

    with pytest.raises(SystemExit):
        main.main(["--help"])
    out = capsys.readouterr().out
    for cmd in ("analyse", "render FILE", "demo", "render-book"):
        assert f"main.py {cmd}" in out, cmd


def test_render_refuses_an_empty_size(tmp_path, capsys):
    """``render --size ''`` silently drew the default size; an empty value is a usage error."""
    import main

    scen = main.__file__.replace("main.py", "assets/scenarios/whfb8_initiative.yaml")
    out = tmp_path / "f.png"
    assert main.main(["render", scen, "-o", str(out), "--size", ""]) == 2
    assert "--size" in capsys.readouterr().err and not out.exists()


def test_render_book_counts_one_figure_in_the_singular(tmp_path, capsys):
    import main

    scen = main.__file__.replace("main.py", "assets/scenarios/whfb8_initiative.yaml")
    book = tmp_path / "b.yaml"
    book.write_text(f"figures:\n  - {{scenario: {scen}, output: one.png}}\n")
    assert main.main(["render-book", str(book), "-o", str(tmp_path / "out")]) == 0
    assert "wrote 1 figure to" in capsys.readouterr().out
