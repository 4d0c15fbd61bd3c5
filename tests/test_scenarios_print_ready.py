"""Every bundled scenario and every golden case, rendered as SVG at 180x120 mm cropped (the
print figure an illustrator asks for first), passes the printer's checks (tests/print_ready.py):
text at least 6 pt, nothing off the page, a key of at most 15 % of the page, no ×1, no letter
used twice, every unit label nearest its own unit. Combats far apart print as insets."""
from __future__ import annotations

from pathlib import Path

import pytest
from print_ready import check

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "assets" / "scenarios").glob("*.yaml")) + sorted((ROOT / "tests" / "golden").glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.stem}" for p in FILES])
def test_the_cropped_print_figure_is_print_ready(tmp_path, monkeypatch, path):
    from game.core.scenario import load_scenario
    from game.render.figure import FigureOptions
    from game.figures.figure_file import write_figure

    monkeypatch.chdir(ROOT)  # the checker measures text with assets/fonts
    out = tmp_path / f"{path.stem}.svg"
    write_figure(load_scenario(path), None, out, FigureOptions(size="180x120mm", dpi=150, crop=True))
    report = check(str(out))
    assert report["problems"] == [], report
