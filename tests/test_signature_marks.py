"""The unit signatures of the retained scene (game.window.retained.unit_signatures) hold the
marks a unit's results draw on its bases besides the roles: the attack count and the dividing
mark. A change of those alone must make the unit change (else the base keeps stale marks),
on both paths: the per-unit lists of DrawnModels and the per-model path taken with compare
marks, overlap marks or rule moves."""
import dataclasses
from pathlib import Path

import pytest

from game.core.analyse import analyse
from game.core.board import unit_of
from game.core.scenario import load_scenario
from game.render.drawn import drawn_models
from game.render.options import SceneOptions
from game.window.retained import DrawnModels, unit_signatures

SCENARIO = Path(__file__).resolve().parents[1] / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def _board_and_analysis():
    board = load_scenario(SCENARIO)
    return board, analyse(board)


def _with_model(analysis, mid: str, **changes):
    """``analysis`` with model ``mid``'s result changed (the rest shared)."""
    models = dict(analysis.models)
    models[mid] = dataclasses.replace(models[mid], **changes)
    return analysis.replaced(models=models)


def _fighter(analysis) -> str:
    return next(mid for mid, r in analysis.models.items() if r.role == "attack" and r.targets)


def _changed(board, a1, a2, options, models_of) -> set:
    s1 = unit_signatures(board, a1, models_of(board, a1), options)
    s2 = unit_signatures(board, a2, models_of(board, a2), options)
    return {uid for uid in s1 if s1[uid] != s2[uid]}


def _per_unit():
    dm = DrawnModels()  # one memo across both calls, as the window keeps it
    return lambda board, analysis: dm(board, analysis)


PATHS = {
    "per-unit lists": (SceneOptions(), _per_unit),
    "per model (compare marks)": (SceneOptions(differ={"nobody.1": "none"}), lambda: drawn_models),
    "per model (overlap marks)": (SceneOptions(overlaps=("nobody.1",)), lambda: drawn_models),
}


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_changed_attack_count_alone_changes_the_unit(path):
    board, a1 = _board_and_analysis()
    mid = _fighter(a1)
    a2 = _with_model(a1, mid, attacks=a1.models[mid].attacks + 3)  # same role, another ×N
    options, models_of = PATHS[path]
    assert _changed(board, a1, a2, options, models_of()) == {unit_of(mid)}


@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_dividing_mark_alone_changes_the_unit(path):
    board, a1 = _board_and_analysis()
    mid = _fighter(a1)
    r = a1.models[mid]
    other = next(m for m in a1.models if unit_of(m) not in (unit_of(mid), unit_of(r.targets[0])))
    a2 = _with_model(a1, mid, targets=tuple(r.targets[:1]) + (other,))  # now fights two units
    options, models_of = PATHS[path]
    assert _changed(board, a1, a2, options, models_of()) == {unit_of(mid)}


@pytest.mark.parametrize("path", sorted(PATHS))
def test_unchanged_results_change_no_unit(path):
    board, a1 = _board_and_analysis()
    a2 = a1.replaced(models=dict(a1.models))  # equal results in a new analysis object
    options, models_of = PATHS[path]
    assert _changed(board, a1, a2, options, models_of()) == set()
