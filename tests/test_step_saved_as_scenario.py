"""Any step a user can see can be saved as a scenario that loads and analyses the same: the
window's Save As on a demo step, the live page's ``steps/NN.yaml`` (game/live/steps.py) and the
recorder all write the step's board with :func:`dump_scenario`. A board an engine worked out (the
table after a step of a phase) names in its context only the units on it
(game/core/context_units.py; docs/SCENARIO_FORMAT.md: context keys hold unit ids of the file),
so the loader accepts it: the 40k Fight phase's steps once wrote ``destroyed: [transport]`` and
``destroys: {assault_squad: [{unit: passengers, ...}]}`` with neither unit on the board.

"Analyses the same": the ``analyse --json`` of the file equals that of the step's board, every
key, role, target, attack count and reason; numbers within 0.01 mm (the format writes a computed
position to 0.01 mm, :data:`game.core.scenario.POSITION_MM_PLACES`)."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core.analyse import analyse
from game.core.context_units import context_of_units
from game.core.demo import build_steps, load_demo
from game.core.scenario import dump_scenario, load_scenario, parse_scenario
from game.live.steps import phase_steps

ROOT = Path(__file__).resolve().parents[1]
DEMOS = sorted((ROOT / "assets" / "demos").glob("*.yaml"))
POSITION_MM = 0.011  # written to 0.01 mm: a coordinate moves at most 0.005 mm


def differences(a, b, where: str = "") -> list[str]:
    """Where JSON values ``a`` and ``b`` differ: anything but a number, exactly; numbers
    within :data:`POSITION_MM`."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return [f"{where}: keys {sorted(set(a) ^ set(b))}"]
        return [d for k in a for d in differences(a[k], b[k], f"{where}.{k}")]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} items against {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{where}[{i}]")]
    numbers = (int, float)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
        return [] if abs(a - b) <= POSITION_MM else [f"{where}: {a} against {b}"]
    return [] if a == b else [f"{where}: {a!r} against {b!r}"]


def saved_and_loaded(board, name: str):
    return parse_scenario(dump_scenario(board), name)


@pytest.mark.parametrize("demo", DEMOS, ids=[p.stem for p in DEMOS])
def test_every_demo_step_saved_as_a_scenario_loads_and_analyses_the_same(demo):
    for i, st in enumerate(build_steps(load_demo(demo))):
        name = f"{demo.stem} step {i + 1}.yaml"
        back = saved_and_loaded(st.board, name)  # raises ScenarioError when the loader refuses it
        want = analyse(st.board.copy(), st.ruleset).to_json()
        got = analyse(back, st.ruleset).to_json()
        assert not differences(want, got), (name, differences(want, got)[:5])


def test_the_live_pages_phase_steps_are_all_live():
    """The live page's steps of every bundled scenario with phase steps (the opening board, then
    the engine's phase steps; the 40k worked example's destroyed Transport among them): every
    one written as a scenario file the page's Python can load."""
    from game.core.ruleset import load_ruleset

    seen = 0
    for path in sorted((ROOT / "assets" / "scenarios").glob("*.yaml")):
        board = load_scenario(path)
        steps = phase_steps(board, analyse(board.copy(), load_ruleset(board.ruleset)))
        for i, st in enumerate(steps):
            saved_and_loaded(st.board, f"{path.stem}/steps/{i + 1:02d}.yaml")
        seen += len(steps)
    assert seen > 40


def test_a_context_keeps_only_the_units_on_its_board():
    ctx = {"step": "fight", "charged": ["a", "gone"], "destroyed": ["gone"], "fought": ["a"],
           "combats": [["a", "b"], ["a", "gone"]], "charge_moved": {"a": 3.0, "gone": 2.0},
           "destroys": {"a": ["gone", {"unit": "b", "models": 2}, {"unit": "gone", "models": 1}], "gone": ["b"],
                        "b": ["gone"]},
           "casualties": {"Initiative 3": {"gone": 2}, "Initiative 2": {"b": 1, "gone": [
               "r1f1"]}}, "objectives": [(1.0, 2.0)]}
    out = context_of_units(ctx, ["a", "b"])
    assert out == {"step": "fight", "charged": ["a"], "destroyed": [], "fought": ["a"], "combats": [["a", "b"]],
                   "charge_moved": {"a": 3.0}, "destroys": {"a": [{"unit": "b", "models": 2}]},
                   "casualties": {"Initiative 2": {"b": 1}}, "objectives": [(1.0, 2.0)]}
    assert ctx["destroyed"] == ["gone"]  # the context handed in is not changed


def test_the_recorder_keeps_every_40k_step_as_a_demo_that_loads():
    """The recorder holding the 40k demo's steps as snapshots (each step's board written inline
    as a ``load:`` scenario) writes a demo that loads and shows the same boards."""
    from game.core.demo import parse_demo
    from game.core.demo_writer import recorder_from_steps

    built = build_steps(load_demo(ROOT / "assets" / "demos" / "wh40k_fight_phase.yaml"))
    text = recorder_from_steps("40k steps", built).to_text(str(ROOT / "assets" / "demos" / "recorded.yaml"))
    again = build_steps(parse_demo(text, str(ROOT / "assets" / "demos" / "recorded.yaml")))
    assert len(again) == len(built)
    for st, back in zip(built, again):
        want = analyse(st.board.copy(), st.ruleset).to_json()
        assert not differences(want, analyse(back.board.copy(), back.ruleset).to_json()), st.caption
