"""Defects found by QA trying the program as a user (each test failed before its fix)."""
import pytest


def test_render_book_error_gets_its_own_line(tmp_path, capsys):
    """A failing figure closes the progress bar first, so the one error line the command
    prints next is not glued onto the bar's line (it was: 'render-book: 0%|...error: ...')."""
    from game.view.book import BookError, render_book

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
