"""A unit's kind is asked through its typed predicate (:attr:`Unit.is_ranked`), never by
comparing the ``kind`` string (``u.kind == "ranked"`` / ``!= "skirmish"``) anywhere in the
code (``game/``, ``bench/``, ``main.py``); the one place the string is read is the predicate
itself in ``game/core/board.py``. The scan is proved to fire on a planted line.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.core.board import Unit

ROOT = Path(__file__).resolve().parents[1]
#: ``<expr>.kind ==/!= "ranked"|"skirmish"`` (either quote)
KIND_TEST = re.compile(r"""\.kind\s*[=!]=\s*["'](ranked|skirmish)["']|["'](ranked|skirmish)["']\s*[=!]=\s*\S+\.kind\b""")
#: the predicate's own line
ALLOWED = 'return self.kind == "ranked"'


def _offences() -> list[str]:
    files = sorted((ROOT / "game").rglob("*.py")) + sorted((ROOT / "bench").rglob("*.py")) + [ROOT / "main.py"]
    out = []
    for f in files:
        if not f.exists():
            continue
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), start=1):
            if KIND_TEST.search(line) and line.strip() != ALLOWED:
                out.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()}")
    return out


def test_no_kind_string_tests_in_the_code():
    assert _offences() == []


@pytest.mark.parametrize("line", ['if u.kind == "ranked":', "x = units[e].kind != 'skirmish'",
                                  'ok = "ranked" == u.kind'])
def test_the_scan_catches_a_planted_line(line):
    assert KIND_TEST.search(line)


def test_the_predicate_reads_the_kind():
    ranked = Unit(id="a", player=1, kind="ranked", base=(20.0, 20.0), files=2, count=4)
    loose = Unit(id="b", player=2, kind="skirmish", base=25.0, placed=[((0.0, 0.0), None)])
    assert ranked.is_ranked and not loose.is_ranked
