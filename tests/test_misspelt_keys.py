"""Keys in a scenario file: a key that is nearly a known one (``fils: 5``, ``attaks: 1``) is one
error line naming file, line, field and the key it probably meant; keys of our own and unrelated
extras still load."""
import pytest

from game.core.scenario import ScenarioError, parse_scenario

GOOD = """title: t
ruleset: t9a
units:
  - id: dwarfs
    player: 1
    profile: {attacks: 1, agility: 3, height: 1}
    base: [20, 20]
    files: 5
    models: 15
    front: [600, 400]
    facing: 0
  - id: ogre
    player: 2
    profile: {height: 2, parts: [{name: rider, attacks: 2}]}
    base: [40, 40]
    files: 1
    models: 1
    front: [600, 400]
    facing: 180
"""


@pytest.mark.parametrize("old,new,line,field,meant", [
    ("    files: 5", "    fils: 5", 8, "units[0].fils", "files"),
    ("    facing: 0", "    Facing: 0", 11, "units[0].Facing", "facing"),
    ("title: t", "titel: t", 1, "titel", "title"),
    ("{attacks: 1, agility", "{attaks: 1, agility", 6, "units[0].profile.attaks", "attacks"),
    ("{name: rider, attacks: 2}", "{name: rider, atacks: 2}", 14, "units[1].profile.parts[0].atacks", "attacks"),
])
def test_a_misspelt_key_is_an_error_not_silently_ignored(old, new, line, field, meant):
    """``fils: 5`` was kept as an unknown extra key and the unit silently got the default
    files; ``attaks: 1`` left the model with no attacks. A key that is nearly a known one is
    now one error line naming file, line and field, and the key it probably meant."""
    text = GOOD.replace(old, new, 1)
    assert text != GOOD
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text, "my.yaml")
    assert (err.value.line, err.value.field) == (line, field), str(err.value)
    assert str(err.value) == f"my.yaml:{line}: {field}: unknown key (did you mean {meant}?)"


def test_keys_of_our_own_and_unrelated_extras_still_load():
    """The contract lets a file add keys: they are kept, not refused, unless they are a
    near-miss of a known one (a caption, The Old World's troop type, a test's expect_t9a)."""
    text = GOOD.replace("title: t", "title: t\ncaption: c\nexpect_t9a: {}\nnotes: mine", 1).replace(
        "    facing: 0", "    facing: 0\n    troop_type: heavy_infantry\n    colour: blue", 1)
    board = parse_scenario(text, "my.yaml")
    assert board.extra["notes"] == "mine" and board.units[0].extra["colour"] == "blue"
