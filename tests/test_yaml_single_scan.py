"""Without libyaml (the live page's Python) a YAML file is scanned once: the size check keeps the
events it walked and the tree is composed from them, giving the same data, lines and errors
as two scans (and libyaml); a text past ``REPLAY_MAX_CHARS`` is scanned again (memory bound)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from game.core import yamlfile
from game.core.yamlfile import FileError, parse_yaml

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted(ROOT.glob("rulesets/*.yaml")) + sorted(ROOT.glob("assets/scenarios/*.yaml")) + sorted(ROOT.glob("assets/demos/*.yaml"))
BROKEN = ["a: [1, 2\nb: 3\n", "a: 1\na: 2\n", "x:\n  - 1\n - 2\n", "a: \x07\n", "--- 1\n--- 2\n", "a: *nope\n"]


def _scans(monkeypatch) -> list:
    """Counts the pure-Python parsers that start scanning a stream."""
    seen: list = []
    real = yaml.parser.Parser.parse_stream_start

    def counted(self):
        seen.append(1)
        return real(self)
    monkeypatch.setattr(yaml.parser.Parser, "parse_stream_start", counted)
    monkeypatch.setattr(yamlfile, "_LOADER", yaml.SafeLoader)
    return seen


def _parse(text: str, name: str):
    try:
        data, loc = parse_yaml(text, name, FileError)
        return data, loc.lines
    except FileError as exc:
        return "error", str(exc)


def test_pure_python_yaml_is_scanned_once(monkeypatch):
    seen = _scans(monkeypatch)
    data, _ = parse_yaml((ROOT / "rulesets" / "tow.yaml").read_text(encoding="utf-8"), "tow.yaml", FileError)
    assert data["id"] == "tow"
    assert len(seen) == 1


def test_a_long_text_is_scanned_again(monkeypatch):
    seen = _scans(monkeypatch)
    monkeypatch.setattr(yamlfile, "REPLAY_MAX_CHARS", 10)
    assert parse_yaml("a: 1\nb: [2, 3]\n", "x.yaml", FileError)[0] == {"a": 1, "b": [2, 3]}
    assert len(seen) == 2


def test_one_scan_gives_what_two_scans_give(monkeypatch):
    texts = [(p.name, p.read_text(encoding="utf-8")) for p in FILES] + [(f"broken{i}.yaml", t) for i, t in enumerate(BROKEN)]
    _scans(monkeypatch)
    monkeypatch.setattr(yamlfile, "REPLAY_MAX_CHARS", 0)
    twice = [_parse(t, n) for n, t in texts]
    monkeypatch.setattr(yamlfile, "REPLAY_MAX_CHARS", 1 << 20)
    assert [_parse(t, n) for n, t in texts] == twice
    assert sum(r[0] == "error" for r in twice) == len(BROKEN)


@pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="needs PyYAML built with libyaml")
def test_one_scan_gives_what_libyaml_gives(monkeypatch):
    texts = [(p.name, p.read_text(encoding="utf-8")) for p in FILES]
    with_libyaml = [_parse(t, n) for n, t in texts]
    _scans(monkeypatch)
    assert [_parse(t, n) for n, t in texts] == with_libyaml
