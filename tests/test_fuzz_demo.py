"""Fuzzing the demo loader: mutated bundled demos and random text give a demo that builds,
or a clean DemoError naming the file — never another exception."""
import copy
from pathlib import Path

import yaml
from fuzzutil import leaf_paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.demo import DemoError, build_steps, parse_demo

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "assets" / "demos" / "whfb8_close_combat.yaml"
VALID = yaml.safe_load(DEMO.read_text())
FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

leaf = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.floats(allow_nan=True, allow_infinity=True),
                 st.text(max_size=10), st.lists(st.text(max_size=6), max_size=3),
                 st.sampled_from(["dwarfs", "dwarfs.r1f1", "r1f1", "../scenarios/nope.yaml", "t9a", "Initiative 9",
                                  {"unit": "dwarfs", "slots": ["r9f9"]}, {"unit": "ghosts", "count": 2},
                                  {"unit": "dwarfs", "forward_mm": "far"}, {"model": "x.y", "text": 3}]))


ALL = list(leaf_paths(VALID))


def build(text: str) -> None:
    name = str(DEMO.with_name("fuzzed.yaml"))
    try:
        build_steps(parse_demo(text, name))
    except DemoError as exc:
        assert str(exc).startswith(name), str(exc)


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(ALL), leaf), min_size=1, max_size=2))
def test_mutated_demo_builds_or_fails_cleanly(mutations):
    data = copy.deepcopy(VALID)
    for path, value in mutations:
        cur = data
        try:
            for k in path[:-1]:
                cur = cur[k]
            cur[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    build(yaml.safe_dump(data, allow_unicode=True))


@FUZZ
@given(st.text(max_size=160))
def test_random_text_fails_cleanly(text):
    build(text)
