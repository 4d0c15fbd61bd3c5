"""Image regression: a few book figures compared with checked-in baselines.

SVG snapshots are compared as text (the SVG back end writes deterministic text); PNGs are
compared pixel by pixel within a tolerance (anti-aliasing may move by a level or two between
library builds). Update the baselines after an intended change of the drawing with
``python -m pytest tests/test_image_baselines.py --update-baselines`` (or
``MELEE_UPDATE_BASELINES=1``), then look at the new files before committing them.
Fonts are the shipped DejaVu Sans (assets/fonts), so text lays out the same everywhere.
"""
from __future__ import annotations

import difflib
import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from game.core.scenario import load_scenario
from game.render.figure import FigureOptions
from game.figures.figure_file import build_figure

ROOT = Path(__file__).resolve().parents[1]
BASE = Path(__file__).resolve().parent / "baselines"
MAX_MEAN_DIFF = 1.5        # mean absolute difference per channel (0-255)
MAX_CHANGED_SHARE = 0.004  # share of pixels differing by more than 48 levels in a channel

CASES = [  # (baseline name, scenario, options): small print sizes keep the files and the run small (each the
    # smallest of its shape that holds the figure with text at 6 pt or more: a smaller one is refused)
    ("rear_gap", "tests/golden/whfb8_rear_gap.yaml", dict(size="90x60mm", dpi=120, crop=True)),
    ("dividing_attacks", "tests/golden/whfb8_dividing_attacks.yaml", dict(size="90x60mm", dpi=120, crop=True)),
    ("slots_large_model", "assets/scenarios/slots_large_model.yaml", dict(size="100x100mm", dpi=120, crop=True)),
    ("compare_rear_gap", "tests/golden/rear_gap_both_rulesets.yaml",
     dict(size="150x100mm", dpi=120, crop=True, compare=("whfb8", "t9a"))),
    ("greyscale_gap", "tests/golden/t9a_gap_in_front_rank.yaml", dict(size="120x80mm", dpi=120, crop=True,
                                                                     palette="greyscale")),
    # the print style's variants and the multi-panel layout (issue 22)
    ("print_legend_below", "tests/golden/whfb8_initiative.yaml", dict(size="100x77mm", dpi=120, crop=True,
                                                                      legend_at="below")),
    ("table_grid", "tests/golden/whfb8_rear_gap.yaml", dict(size="90x60mm", dpi=120, crop=True, table=True)),
    ("screen_style", "tests/golden/whfb8_rear_gap.yaml", dict(size="109x73mm", dpi=120, crop=True, style="screen")),
    ("panels_gaps", "book:panels/t9a_fighting_over_gaps.png", dict(size="160x90mm", dpi=120)),
]


def _changed(diff: Image.Image) -> tuple[float, int]:
    """(share of pixels whose largest channel difference is over 48, largest difference)."""
    r, g, b = diff.split()
    hist = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()
    return sum(hist[49:]) / (diff.size[0] * diff.size[1]), max(i for i, c in enumerate(hist) if c)


def _update(request) -> bool:
    return bool(request.config.getoption("--update-baselines") or os.environ.get("MELEE_UPDATE_BASELINES"))


def _render(scenario: str, opts: dict, fmt: str) -> bytes:
    if scenario.startswith("book:"):  # a multi-panel figure of the bundled book
        from dataclasses import replace

        from game.figures.book import load_book, panel_figure_of
        from game.render.figure_panels import build_panel_figure

        fig = next(f for f in load_book(ROOT / "assets" / "book.yaml")[1] if f.output == scenario[5:])
        return build_panel_figure(panel_figure_of(fig), replace(fig.options, format=fmt, **opts)).data
    return build_figure(load_scenario(ROOT / scenario), None, FigureOptions(format=fmt, **opts)).data


@pytest.mark.parametrize("name, scenario, opts", CASES, ids=[c[0] for c in CASES])
def test_svg_snapshot(request, name, scenario, opts):
    got = _render(scenario, opts, "svg").decode("utf-8")
    path = BASE / f"{name}.svg"
    if _update(request):
        path.write_text(got, encoding="utf-8")
        return
    assert path.exists(), f"no baseline {path.name}: run pytest --update-baselines"
    want = path.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "baseline", "now", n=1))[:60])
        pytest.fail(f"{name}.svg differs from its baseline (pytest --update-baselines if intended):\n{diff}")


@pytest.mark.parametrize("name, scenario, opts", CASES, ids=[c[0] for c in CASES])
def test_png_matches_baseline(request, name, scenario, opts):
    got = _render(scenario, opts, "png")
    path = BASE / f"{name}.png"
    if _update(request):
        path.write_bytes(got)
        return
    assert path.exists(), f"no baseline {path.name}: run pytest --update-baselines"
    a = Image.open(io.BytesIO(got)).convert("RGB")
    b = Image.open(path).convert("RGB")
    assert a.size == b.size, f"{name}.png is {a.size}, its baseline {b.size}"
    diff = ImageChops.difference(a, b)
    hist = diff.histogram()
    n = a.size[0] * a.size[1]
    mean = sum(i * c for ch in range(3) for i, c in enumerate(hist[ch * 256:(ch + 1) * 256])) / (3 * n)
    big = _changed(diff)[0]
    if mean > MAX_MEAN_DIFF or big > MAX_CHANGED_SHARE:
        out = Path(request.config.rootpath) / "out" / "baseline-diff"
        out.mkdir(parents=True, exist_ok=True)
        a.save(out / f"{name}.now.png")
        diff.point(lambda v: min(255, v * 4)).save(out / f"{name}.diff.png")
        pytest.fail(f"{name}.png differs from its baseline: mean {mean:.2f}, {big:.2%} of pixels changed "
                    f"(see {out}; pytest --update-baselines if intended)")


def test_the_tolerance_catches_a_real_change():
    """A changed role colour on a few models is caught; a one-level change is not."""
    png = _render(*CASES[0][1:], "png")
    a = Image.open(io.BytesIO(png)).convert("RGB")
    shifted = a.point(lambda v: min(255, v + 1))
    diff = ImageChops.difference(a, shifted)
    assert _changed(diff)[1] <= 1
    broken = a.copy()
    broken.paste((0, 200, 0), (40, 80, 120, 120))
    d2 = ImageChops.difference(a, broken)
    assert _changed(d2)[0] > MAX_CHANGED_SHARE
