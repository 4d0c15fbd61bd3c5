"""Fuzzing the scenario loader: any text or any mutation of a valid file gives a Board or a
clean ScenarioError (file, line, field) — never another exception — and every Board that
loads can be analysed under every shipped ruleset without raising."""
import dataclasses

import yaml
from fuzzutil import leaf_paths, mutate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.analyse import analyse
from game.core.ruleset import available, load_ruleset
from game.core.scenario import ScenarioError, parse_scenario

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VALID = {
    "title": "fuzz", "ruleset": "whfb8", "seed": 3,
    "context": {"step": "fight", "active_player": 1, "charged": ["a"], "objectives": [[10, 10]]},
    "units": [
        {"id": "a", "player": 1, "profile": {"attacks": 2, "initiative": 3, "height": 1}, "keywords": ["horde"],
         "base": [20, 20], "files": 5, "models": 12, "last_rank": "left", "empty": ["r1f2"], "front": [600, 400], "facing": 0},
        {"id": "b", "player": 2, "profile": {"attacks": 1, "initiative": 2}, "base": [20, 20], "files": 4,
         "models": 8, "front": [600, 400], "facing": 180},
        {"id": "c", "player": 2, "base": 32, "models": [[700, 380], {"at": [700, 420], "base": 40}]},
    ],
}

leaf_values = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8), st.lists(st.integers(-5, 5), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.sampled_from(["horde", "r1f1", "left", "pile_in", "large", "t9a", "wh40k", "slots", "nope", [1, 2], [[0, 0]]]),
)


ALL_PATHS = list(leaf_paths(VALID))


def load_and_analyse(text: str) -> None:
    try:
        board = parse_scenario(text, "fuzz.yaml")
    except ScenarioError as exc:
        assert str(exc).startswith("fuzz.yaml"), str(exc)
        return
    for rid in available():
        board = dataclasses.replace(board, ruleset=rid)
        analyse(board, load_ruleset(rid))


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(ALL_PATHS), leaf_values, st.booleans()), min_size=1, max_size=3))
def test_mutated_valid_files_load_cleanly_or_fail_cleanly(mutations):
    data = VALID
    for path, value, delete in mutations:
        try:
            data = mutate(data, path, value, delete)
        except (KeyError, IndexError, TypeError):
            continue
    try:
        text = yaml.safe_dump(data, allow_unicode=True)
    except yaml.YAMLError:
        return
    load_and_analyse(text)


@FUZZ
@given(st.text(max_size=200))
def test_random_text_fails_cleanly(text):
    load_and_analyse(text)


@FUZZ
@given(st.text(alphabet="{}[]:,- \n'\"&*!|>#abc01", max_size=120))
def test_yaml_punctuation_fails_cleanly(text):
    load_and_analyse(text)
