"""Defects found in a new user's trial of the program (each test failed before its fix)."""
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


def test_a_demo_opened_and_saved_again_keeps_a_ringed_unit_as_one_id(tmp_path):
    """A step ringing ``[dwarfs]``, opened in the recorder and saved again, was written back
    as every model id of the unit (15 ids here), and showed them all in the Ring field."""
    import shutil
    from pathlib import Path

    from game.core.demo import build_steps, load_demo
    from game.core.demo_writer import recorder_from_demo

    src = Path(__file__).parent / "golden" / "whfb8_incomplete_rank_left_flank.yaml"
    shutil.copy(src, tmp_path / "board.yaml")
    demo = tmp_path / "d.yaml"
    demo.write_text("title: t\nsteps:\n  - caption: a\n    actions:\n      - load: board.yaml\n"
                    "      - highlight: [dwarfs]\n")
    d = load_demo(demo)
    rec = recorder_from_demo(d, build_steps(d))
    assert rec.steps[0].highlight == ["dwarfs"]
    assert "highlight: [dwarfs]" in rec.to_text(str(demo))


def _strike_lines(board, analysis, visible):
    from game.render.drawn import drawn_models
    from game.render.legend import legend_items
    from game.render.options import SceneOptions

    items = legend_items(board, analysis, drawn_models(board, analysis), SceneOptions(visible=visible))
    start = [it.text for it in items].index("Strike order")
    out = []
    for it in items[start + 1:]:
        if it.kind == "heading":
            break
        if it.kind == "para":
            out.append(it.text)
    return out


def test_a_figure_lists_the_embarked_unit_in_its_strike_order_as_the_window_does():
    """40k worked example: the window's strike order has 3 entries, the figure's (which
    passes the ids inside the picture) had 2: the embarked passengers, never drawn, were
    taken for models cropped out. A model really cropped out still leaves the list."""
    from pathlib import Path

    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.core.scenario import load_scenario
    from game.render.drawn import drawn_models

    board = load_scenario(Path(__file__).parent / "fixtures" / "wh40k_fight_phase.yaml")
    a = analyse(board, load_ruleset(board.ruleset))
    drawn = {dm.id for dm in drawn_models(board, a)}
    window = _strike_lines(board, a, None)
    assert len(window) == 3 and "Blue passengers" in window[2]
    assert _strike_lines(board, a, drawn) == window
    no_monster = {m for m in drawn if not m.startswith("monster.")}
    assert not any("Red Monster (A) (1)" in t for t in _strike_lines(board, a, no_monster))


def test_the_readme_names_every_pinned_dependency():
    """The quick start listed 12 of the 17 packages the first command installs (reportlab,
    charset-normalizer, fonttools, platformdirs and pypdf were missing)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    readme = root / "README.md"
    quick = readme.read_text(encoding="utf-8").split("## Commands")[0]
    pins = [re.split(r"[=<>]", ln)[0].strip() for ln in (root / "requirements.txt").read_text().splitlines()
            if ln.strip() and not ln.startswith("#")]
    assert len(pins) > 10
    assert [p for p in pins if p not in quick] == []


def test_analyse_compare_names_units_not_ids(capsys):
    """``analyse FILE --compare whfb8,tow`` printed 'ogres.r2f1' and 'across a gap with
    giant' where the file names the units 'Ogre Bulls (7)' and 'Giant'; the JSON keeps ids."""
    import json
    from pathlib import Path

    import main

    f = Path(__file__).resolve().parents[1] / "assets" / "scenarios" / "tow_vs_whfb8_rear_charge.yaml"
    assert main.main(["analyse", str(f), "--compare", "whfb8,tow"]) == 0
    out = capsys.readouterr().out
    assert "Ogre Bulls (7) (rank 2, file 1): whfb8 attack x3" in out and "across a gap with Giant (rear" in out, out
    assert "ogres." not in out and " giant " not in out
    assert main.main(["analyse", str(f), "--compare", "whfb8,tow", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["differences"][0]["model"] == "ogres.r2f1"
