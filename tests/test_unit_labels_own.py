"""Labels by their own unit (issue 40): a unit's label never sits nearer another unit's models
than its own (the printer's check of tests/print_ready.py), in the key and the legend-panel
layouts alike."""
from __future__ import annotations

from pathlib import Path

import pytest
from print_ready import check

from game.core.scenario import load_scenario
from game.render.figure import FigureOptions
from game.figures.figure_file import write_figure

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("path, opts", [
    ("tests/golden/whfb8_initiative.yaml", dict(size="100x77mm", dpi=120, crop=True, legend_at="below")),
    ("assets/scenarios/whfb8_initiative.yaml", dict(size="90x60mm", dpi=200, crop=True)),
    ("assets/scenarios/whfb8_initiative.yaml", dict(size="180x120mm", dpi=200, crop=True)),
    # crowded: every spot by the Monster touches a soft mark (its reach, its start outline); a free
    # spot past the Transport must not win over them
    ("assets/scenarios/wh40k_fight_phase.yaml", dict(size="90x60mm", dpi=300, legend=False)),
])
def test_every_label_is_nearest_its_own_unit(tmp_path, monkeypatch, path, opts):
    monkeypatch.chdir(ROOT)  # the checker measures text with assets/fonts
    out = tmp_path / "f.svg"
    write_figure(load_scenario(ROOT / path), None, out, FigureOptions(**opts))
    assert [p for p in check(str(out))["problems"] if p.startswith("label of")] == []
