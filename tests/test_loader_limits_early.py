"""The loader answers the documented limits early, in one line naming file, line and field:
a 5,000-digit number (never a Python setting to change), a list of 999,000 keywords (refused
while the file is scanned, before a tree of a million nodes is built: bounded memory), a
10,000-character scenario caption (the 4,000-character limit)."""
from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

import main
from game.core.scenario import ScenarioError, load_scenario

ROOT = Path(__file__).resolve().parents[1]
HORDE = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
DEMO = ROOT / "assets" / "demos" / "t9a_melee.yaml"


def one_line(capsys, code: int) -> str:
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("old,new,field", [
    ("models: 40", "models: " + "9" * 5000, "units[0].models"),
    ("facing: 0", "facing: 1." + "9" * 5000, "units[0].facing"),
    ("facing: 0", "facing: !!int '" + "9" * 5000 + "'", "units[0].facing"),
    ("ruleset: whfb8", "ruleset: whfb8\nseed: -" + "9" * 5000, "seed"),
])
def test_a_huge_number_names_file_line_field(tmp_path, capsys, old, new, field):
    p = tmp_path / "s.yaml"
    p.write_text(HORDE.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    err = one_line(capsys, main.main(["analyse", str(p)]))
    assert f"{p}:" in err and f" {field}: " in err and "5,00" in err, err
    assert "sys." not in err and "set_int_max_str_digits" not in err and "4300" not in err
    line = int(err.split(f"{p}:")[1].split(":")[0])
    assert new.splitlines()[-1][:20] in p.read_text(encoding="utf-8").splitlines()[line - 1]


def test_a_huge_number_in_a_demo_too(tmp_path, capsys):
    d = tmp_path / "d.yaml"
    text = DEMO.read_text(encoding="utf-8")
    d.write_text("seconds: " + "7" * 5000 + "\n" + text, encoding="utf-8")
    err = one_line(capsys, main.main(["demo", str(d), "--html", str(tmp_path / "d.html")]))
    assert f"{d}:1: seconds:" in err and "sys." not in err


def test_999000_keywords_are_refused_while_scanning(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(HORDE.read_text(encoding="utf-8").replace(
        "keywords: [horde]", "keywords: [" + ", ".join(["horde"] * 999_000) + "]"), encoding="utf-8")
    tracemalloc.start()
    try:
        with pytest.raises(ScenarioError) as e:
            load_scenario(p)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert e.value.line == 9 and e.value.field == "units[0].keywords" and "10,000" in str(e.value)
    assert peak < 120 * 2 ** 20, f"{peak / 2 ** 20:.0f} MB"  # the file's text, not a million-node tree


def test_a_10000_character_caption_is_refused(tmp_path, capsys):
    p = tmp_path / "s.yaml"
    p.write_text("caption: " + "w" * 10_000 + "\n" + HORDE.read_text(encoding="utf-8"), encoding="utf-8")
    err = one_line(capsys, main.main(["analyse", str(p)]))
    assert f"{p}:1: caption:" in err and "4000" in err.replace(",", ""), err
    ok = tmp_path / "ok.yaml"
    ok.write_text("caption: " + "w" * 4_000 + "\n" + HORDE.read_text(encoding="utf-8"), encoding="utf-8")
    assert load_scenario(ok).extra["caption"] == "w" * 4_000


def test_a_file_of_a_million_bare_values_is_refused_before_its_tree_is_built(tmp_path):
    """An 8 MB scenario of bare numbers under an unknown key (under the size limit) took 22 s
    and 2.4 GB composing its YAML tree; it is refused after counting, in well under a second
    and without building the tree."""
    from game.core.scenario import ScenarioError, load_scenario
    from game.core.yamlfile import MAX_YAML_EVENTS

    f = tmp_path / "many.yaml"
    row = "[" + ",".join(["1"] * 10_000) + "]"  # lists within the entry limit: only the count refuses
    f.write_text("junk: [" + ",".join([row] * (MAX_YAML_EVENTS // 10_000 + 1)) + "]\nruleset: whfb8\nunits: []\n")
    with pytest.raises(ScenarioError, match="more than 1,000,000 YAML values"):
        load_scenario(f)
