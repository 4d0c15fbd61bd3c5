"""Every figure of the bundled book, rendered as SVG at its print size (the book's defaults:
180x120 mm, cropped), passes the checks a printer would make (tests/print_ready.py, a copy of
the shared tool): text at least 6 pt, nothing off the page, a key of at most 15 % of the page,
no ×1 badge, no gap letter used twice, every unit label nearest its own unit."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from print_ready import check

from game.figures.book import render_book

ROOT = Path(__file__).resolve().parents[1]


def _svg_book(tmp_path: Path) -> Path:
    """assets/book.yaml with every output an SVG and every input an absolute path (as the
    before-stop hook renders it)."""
    text = (ROOT / "assets" / "book.yaml").read_text()
    text = re.sub(r"\.png\b", ".svg", text)  # every figure (the hook's pattern misses the panel figures' last keys)
    text = re.sub(r"(scenario|demo): *([^,}]+)", lambda m: f"{m.group(1)}: {ROOT / 'assets' / m.group(2).strip()}", text)
    book = tmp_path / "book.yaml"
    book.write_text(text)
    return book


def test_every_book_figure_is_print_ready(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the checker measures text with assets/fonts
    out = tmp_path / "out"
    res = render_book(_svg_book(tmp_path), out, progress=False)
    svgs = sorted(out.rglob("*.svg"))
    assert len(svgs) == len({r[0] for r in res}) > 60
    failing = {str(p.relative_to(out)): r["problems"] for p in svgs for r in [check(str(p))] if r["problems"]}
    assert failing == {}, f"{len(svgs) - len(failing)} of {len(svgs)} figures print-ready: {failing}"


@pytest.mark.parametrize("size", ["90x60mm", "120x80mm"])
def test_every_bundled_scenario_at_a_small_size_prints_or_is_refused(tmp_path, monkeypatch, size):
    from game.core.scenario import load_scenario
    from game.render.figure import FigureError, FigureOptions
    from game.figures.figure_file import write_figure

    monkeypatch.chdir(ROOT)
    refused = printed = 0
    for path in sorted((ROOT / "assets" / "scenarios").glob("*.yaml")):
        out = tmp_path / f"{path.stem}.svg"
        try:
            write_figure(load_scenario(path), None, out, FigureOptions(size=size, dpi=200, crop=True))
        except FigureError as exc:
            assert "\n" not in str(exc) and "does not fit" in str(exc), (path.name, str(exc))
            refused += 1
            continue
        assert check(str(out))["problems"] == [], path.name
        printed += 1
    assert printed and printed + refused == len(list((ROOT / "assets" / "scenarios").glob("*.yaml")))
