"""Every figure of the bundled book, rendered as SVG at its print size (the book's defaults:
180x120 mm, cropped), passes the checks a printer would make (tests/print_ready.py, a copy of
the shared tool): text at least 6 pt, nothing off the page, a key of at most 15 % of the page,
no ×1 badge, no gap letter used twice, every unit label nearest its own unit."""
from __future__ import annotations

import re
from pathlib import Path

from print_ready import check

from game.render.book import render_book

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
