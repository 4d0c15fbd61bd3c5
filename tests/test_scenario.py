"""Scenario files: validation errors name file, line and field; saves are atomic and round-trip."""
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.core.scenario import ScenarioError, board_to_dict, dump_scenario, load_scenario, parse_scenario, save_scenario

ROOT = Path(__file__).resolve().parents[1]
GOOD = """title: t
ruleset: whfb8
units:
  - id: dwarfs
    player: 1
    base: [20, 20]
    files: 5
    models: 15
    front: [600, 400]
    facing: 0
  - id: goblins
    player: 2
    base: [20, 20]
    files: 5
    models: 12
    empty: [r2f2]
    front: [600, 400]
    facing: 180
"""


@pytest.mark.parametrize("old,new,line,field", [
    ("    files: 5\n    models: 15", "    files: ten\n    models: 15", 7, "units[0].files"),
    ("    player: 2", "    player: 3", 12, "units[1].player"),
    ("  - id: goblins", "  - id: Goblins!", 11, "units[1].id"),
    ("    empty: [r2f2]", "    empty: [r9f2]", 16, "units[1].empty[0]"),
    ("ruleset: whfb8", "ruleset: 7", 2, "ruleset"),
    ("    front: [600, 400]\n    facing: 180", "    front: [600]\n    facing: 180", 17, "units[1].front"),
    ("    base: [20, 20]\n    files: 5\n    models: 15", "    base: 20\n    files: 5\n    models: 15", 6, "units[0].base"),
])
def test_errors_name_line_and_field(old, new, line, field):
    text = GOOD.replace(old, new, 1)
    assert text != GOOD
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text, "my.yaml")
    assert err.value.line == line and err.value.field == field, str(err.value)
    assert str(err.value).startswith(f"my.yaml:{line}: {field}: ")


def test_duplicate_ids_and_bad_yaml():
    with pytest.raises(ScenarioError, match="used twice"):
        parse_scenario(GOOD.replace("id: goblins", "id: dwarfs"), "x.yaml")
    with pytest.raises(ScenarioError, match=r"x.yaml:[34]: is not valid YAML"):
        parse_scenario("title: a\nunits:\n  - [unclosed\n", "x.yaml")
    with pytest.raises(ScenarioError, match="must be a mapping"):
        parse_scenario("- 1\n- 2\n", "x.yaml")


def test_a_control_character_is_reported_at_its_line():
    """A character YAML refuses (a control character in a title) names its file and line, in
    our words (no parser internals such as "<unicode string>" or a character position)."""
    with pytest.raises(ScenarioError) as err:
        parse_scenario("ruleset: whfb8\nunits: []\ntitle: \"a\x07b\"\n", "x.yaml")
    assert str(err.value) == "x.yaml:3: is not valid YAML (character #x0007 is not allowed: control characters are not allowed)"


def test_yaml_tags_are_refused():
    with pytest.raises(ScenarioError, match="not valid YAML"):
        parse_scenario("ruleset: !!python/object/apply:os.system ['echo hi']\nunits: []\n", "x.yaml")


def test_round_trip(tmp_path):
    board = parse_scenario(GOOD.replace("title: t", "title: t\nseed: 3\ncustom_key: {a: 1}"), "x.yaml")
    path = tmp_path / "s.yaml"
    save_scenario(board, path)
    again = load_scenario(path)
    assert board_to_dict(again) == board_to_dict(board)
    assert dump_scenario(again) == path.read_text()
    assert again.extra == {"custom_key": {"a": 1}}
    assert [p.name for p in tmp_path.iterdir()] == ["s.yaml"], "no temporary file left behind"


def test_round_trip_skirmish_and_terrain(tmp_path):
    text = """ruleset: whfb8
terrain:
  - {name: wood, kind: impassable, points: [[0, 0], [10, 0], [5, 8]]}
context: {step: fight, active_player: 2, charged: [a], objectives: [[1, 2]]}
units:
  - id: a
    player: 1
    base: 32
    models: [[10, 10], {at: [60, 10], base: 40}, {at: [120, 10], base: {oval: [60, 35]}}]
  - {id: b, player: 2, base: [25, 25], files: 2, models: 3, last_rank: right, front: [100, 100], facing: 33.5}
"""
    board = parse_scenario(text, "x.yaml")
    path = tmp_path / "s.yaml"
    save_scenario(board, path)
    assert board_to_dict(load_scenario(path)) == board_to_dict(board)


def test_analyse_cli_exit_2_on_bad_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.replace("models: 15", "models: -4"))
    out = subprocess.run([sys.executable, "main.py", "analyse", str(bad), "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert f"{bad}:8: units[0].models:" in out.stderr
    assert "Traceback" not in out.stderr


def test_analyse_cli_json_contract(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(GOOD)
    out = subprocess.run([sys.executable, "main.py", "analyse", str(good), "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["ruleset"] == "whfb8"
    assert set(data) >= {"models", "gap_links", "moves", "strike_order"}
    m = data["models"]["dwarfs.r1f1"]
    assert m["role"] == "attack" and m["attacks"] == 1 and m["at"] == [560.0, 410.0]
    assert "goblins.r2f2" not in data["models"], "an empty slot holds no model"
    assert data["models"]["dwarfs.r2f2"]["role"] == "support"


def test_analyse_ruleset_override(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(GOOD)
    out = subprocess.run([sys.executable, "main.py", "analyse", str(good), "--json", "--ruleset", "t9a"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["ruleset"] == "t9a"
    out = subprocess.run([sys.executable, "main.py", "analyse", str(good), "--ruleset", "nope"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "must be one of the shipped rulesets" in out.stderr and "'nope'" in out.stderr


def test_recursive_and_exponential_aliases_fail_fast():
    with pytest.raises(ScenarioError):
        parse_scenario("a: &a [*a]\n", "x.yaml")
    lines = ['a0: &a0 ["lol"]'] + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 30)]
    with pytest.raises(ScenarioError, match="units"):
        parse_scenario("\n".join(lines) + "\nruleset: whfb8\nunits: *a29\n", "x.yaml")


def test_aliases_for_shared_profiles_work():
    text = GOOD.replace("  - id: dwarfs\n    player: 1\n", "  - id: dwarfs\n    player: 1\n    profile: &p {attacks: 2}\n")
    text = text.replace("  - id: goblins\n    player: 2\n", "  - id: goblins\n    player: 2\n    profile: *p\n")
    board = parse_scenario(text, "x.yaml")
    assert board.unit("goblins").profile == {"attacks": 2}


def test_scientific_notation_is_a_number():
    board = parse_scenario(GOOD.replace("front: [600, 400]\n    facing: 0", "front: [6e2, 4.0e+2]\n    facing: 0"), "x.yaml")
    assert board.unit("dwarfs").front == (600.0, 400.0)


@pytest.mark.parametrize("old,new,field,words", [
    ("base: [20, 20]\n    files: 5\n    models: 15", "base: {oval: [40, 20]}\n    files: 5\n    models: 15",
     "units[0].base", "oval bases are for skirmish units"),
    ("ruleset: whfb8", "ruleset: nope", "ruleset", "shipped rulesets"),
    ("    files: 5\n    models: 15", "    profile: {attacks: 1.5}\n    files: 5\n    models: 15",
     "units[0].profile.attacks", "whole number"),
])
def test_clear_messages(old, new, field, words):
    with pytest.raises(ScenarioError) as err:
        parse_scenario(GOOD.replace(old, new, 1), "my.yaml")
    assert err.value.field == field and words in str(err.value) and err.value.line


def test_saved_file_is_not_private(tmp_path):
    board = parse_scenario(GOOD, "x.yaml")
    path = tmp_path / "s.yaml"
    save_scenario(board, path)
    assert path.stat().st_mode & 0o044, "readable by group/others like any other file"
    os.chmod(path, 0o640)
    save_scenario(board, path)
    assert path.stat().st_mode & 0o777 == 0o640, "a save keeps the file's mode"


def test_an_empty_table_saves_and_loads(tmp_path):
    """Deleting every unit in the window must still give a file that loads (no lost work)."""
    board = parse_scenario(GOOD, "x.yaml")
    board = dataclasses.replace(board, units=[])
    path = tmp_path / "empty.yaml"
    save_scenario(board, path)
    assert load_scenario(path).units == ()
