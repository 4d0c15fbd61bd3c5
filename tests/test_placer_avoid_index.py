"""The label placer indexes each list of boxes to keep off once per drawing, however many
labels ask about it: a move's length label asks about every drawn base, and those plus the
start outlines, so building the index again for each label made a figure of 2,000 models
with 850 move labels spend most of its 30 s budget re-indexing (wh40k at its limit: render
27.6 s -> 15.1 s CPU). Counted, not timed."""
from __future__ import annotations

from pathlib import Path

from game.render import placer as placer_mod
from game.render.placer import Placer

ROOT = Path(__file__).resolve().parents[1]


def counting(monkeypatch) -> list:
    """Patch the placer's grid index to record each index built over an avoid list."""
    built: list = []
    real = placer_mod.GridIndex

    class Counting(real):  # type: ignore[misc, valid-type]
        def __init__(self, boxes=()):
            boxes = list(boxes)
            if boxes:
                built.append(len(boxes))
            super().__init__(boxes)

    monkeypatch.setattr(placer_mod, "GridIndex", Counting)
    return built


def test_two_avoid_lists_used_in_turn_are_each_indexed_once(monkeypatch):
    built = counting(monkeypatch)
    pl = Placer((0.0, 0.0, 1000.0, 1000.0))
    bases = [(x * 10.0, 0.0, x * 10.0 + 8, 8.0) for x in range(50)]
    both = bases + [(0.0, 20.0, 500.0, 30.0)]
    for k in range(40):
        spots = [(k * 12.0, 40.0, k * 12.0 + 10, 50.0), (k * 12.0, 5.0, k * 12.0 + 10, 15.0)]
        b = pl.best(spots, both)
        pl.score(b, both)
        pl.add(pl.best(spots, bases))
    assert built == [len(both), len(bases)]


def test_a_figure_indexes_its_move_labels_avoid_lists_a_few_times(tmp_path, monkeypatch):
    """wh40k pile-in: six move labels, each avoid list indexed once (before: two or three per label)."""
    from game.core.scenario import load_scenario
    from game.figures.figure_file import write_figure
    from game.render import move_marks
    from game.render.figure import FigureOptions

    labels: list = []
    real_label = move_marks._label

    built = counting(monkeypatch)
    during: list = []  # indexes built while a move label is placed

    def label(*a, **k):
        n = len(built)
        try:
            return real_label(*a, **k)
        finally:
            labels.append(a[1])
            during.extend(built[n:])

    monkeypatch.setattr(move_marks, "_label", label)
    write_figure(load_scenario(ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml"), None, tmp_path / "f.svg",
                 FigureOptions(size="180x120mm", dpi=100, crop=True))
    assert len(labels) >= 5
    assert len(during) <= 2, (during, len(labels))
