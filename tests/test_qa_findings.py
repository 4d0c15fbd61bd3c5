"""Defects found by QA trying the program as a user (each test failed before its fix)."""
import pytest


def test_render_book_error_gets_its_own_line(tmp_path, capsys):
    """A failing figure closes the progress bar first, so the one error line the command
    prints next is not glued onto the bar's line (it was: 'render-book: 0%|...error: ...')."""
    from game.render.book import BookError, render_book

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


def test_a_file_of_a_million_bare_values_is_refused_before_its_tree_is_built(tmp_path):
    """An 8 MB scenario of bare numbers under an unknown key (under the size limit) took 22 s
    and 2.4 GB composing its YAML tree; it is refused after counting, in well under a second
    and without building the tree."""
    from game.core.scenario import ScenarioError, load_scenario
    from game.core.yamlfile import MAX_YAML_EVENTS

    f = tmp_path / "many.yaml"
    row = "[" + ",".join(["1"] * 10_000) + "]"  # lists within the entry limit: only the count refuses
    f.write_text("junk: [" + ",".join([row] * (MAX_YAML_EVENTS // 10_000 + 1)) + "]\nruleset: whfb8\nunits: []\n")
    with pytest.raises(ScenarioError, match="more than 1,000,000 YAML values"):
        load_scenario(f)


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
