"""Reading rulesets: a file others inherit from is parsed once however many of its children
load (the window's ruleset menus load them all), and read again once it changes."""
from __future__ import annotations

import shutil
from pathlib import Path

from game.core import ruleset as R

ROOT = Path(__file__).resolve().parents[1]


def rulesets_in(tmp_path: Path) -> Path:
    d = tmp_path / "rulesets"
    shutil.copytree(ROOT / "rulesets", d)
    return d


def test_a_parent_ruleset_is_parsed_once(tmp_path, monkeypatch):
    d = rulesets_in(tmp_path)
    parsed: list[str] = []
    real = R.parse_yaml

    def counting(text, filename, error):
        parsed.append(Path(filename).name)
        return real(text, filename, error)

    monkeypatch.setattr(R, "parse_yaml", counting)
    R.clear_cache()
    for rid in ("whfb8", "t9a", "tow", "tow_2024"):
        assert R.load_ruleset(rid, d).id == rid
    assert sorted(parsed) == ["t9a.yaml", "tow.yaml", "tow_2024.yaml", "whfb8.yaml"], parsed
    R.clear_cache()


def test_a_parent_edited_since_is_read_again(tmp_path):
    d = rulesets_in(tmp_path)
    R.clear_cache()
    assert R.load_ruleset("tow", d).id == "tow"  # whfb8.yaml read (as tow's parent)
    parent = d / "whfb8.yaml"
    text = parent.read_text()
    old = "    rule: Supporting Attacks\n"
    assert old in text
    parent.write_text(text.replace(old, "    rule: Supporting Attacks (edited)\n"))
    # t9a inherits the parameter from whfb8: the edited file, not the one read for tow
    assert R.load_ruleset("t9a", d).rule("supports") == "Supporting Attacks (edited)"
    R.clear_cache()
