"""Changing a number in a ruleset file changes the result and every sentence a user reads.

``horde_min_files: 6`` (whfb8) lets an eight-wide horde's third rank support, and its hovers
say 6, never 10; ``engagement_range_in: 2`` (wh40k) engages models 1.5" apart, and every
hover, note, legend row and Fight phase caption says 2", never 1".
"""
from __future__ import annotations

import re
import shutil

import pytest

from game.core import ruleset as R
from game.core.analyse import analyse
from game.core.registry import strategy_of
from game.core.scenario import board_from_dict

INCH = 25.4


@pytest.fixture
def rulesets(tmp_path, monkeypatch):
    d = tmp_path / "rulesets"
    shutil.copytree(R.RULESET_DIR, d)
    monkeypatch.setattr(R, "RULESET_DIR", d)
    R.clear_cache()

    def edit(rid: str, name: str, value) -> None:
        p = d / f"{rid}.yaml"
        text = p.read_text(encoding="utf-8")
        new = re.sub(rf"(\n  {name}:\n    value: )[^\n]*", rf"\g<1>{value}", text)
        assert new != text
        p.write_text(new, encoding="utf-8")
        R.clear_cache()
    yield edit
    R.clear_cache()


def horde_board():
    """An eight-wide, three-deep horde fighting an eight-wide unit to its front."""
    return board_from_dict({
        "ruleset": "whfb8",
        "units": [
            {"id": "orcs", "player": 1, "base": [20, 20], "models": 24, "files": 8, "front": [500, 400],
             "facing": 0, "keywords": ["horde"], "profile": {"attacks": 2, "initiative": 2}},
            {"id": "elves", "player": 2, "base": [20, 20], "models": 16, "files": 8, "front": [500, 400],
             "facing": 180, "profile": {"attacks": 1, "initiative": 5}},
        ]})


def texts(a) -> list[str]:
    out = [r.why for r in a.models.values()] + list(a.notes)
    legend = getattr(a, "legend", None)
    return out + list((legend.role_labels if legend else {}).values())


def test_horde_min_files_changes_result_and_hovers(rulesets):
    b = horde_board()
    a10 = analyse(b, R.load_ruleset("whfb8"))
    third = [m for m in a10.models if m.startswith("orcs.r3")]
    assert third and all(a10.models[m].role == "none" for m in third)
    assert any("at least 10 files wide" in a10.models[m].why for m in third)
    rulesets("whfb8", "horde_min_files", 6)
    rs = R.load_ruleset("whfb8")
    assert rs.p("horde_min_files") == 6
    a6 = analyse(b, rs)
    assert all(a6.models[m].role == "support" for m in third)
    assert all("6+ wide" in a6.models[m].why and "The Horde" in a6.models[m].why for m in third)
    for t in texts(a6):
        assert not re.search(r"(?<![\w.])10(?![\w.])", t), t


def test_rule_names_come_from_the_rule_fields(rulesets):
    rulesets("whfb8", "horde_min_files", 6)
    p = R.RULESET_DIR / "whfb8.yaml"
    p.write_text(p.read_text(encoding="utf-8").replace("rule: The Horde", "rule: Greenskin Mobs"), encoding="utf-8")
    R.clear_cache()
    a = analyse(horde_board(), R.load_ruleset("whfb8"))
    whys = " ".join(texts(a))
    assert "Greenskin Mobs: 6+ wide" in whys and "The Horde" not in whys


def wh40k_board(step="fight"):
    """Two squads 1.5 inches apart (edge to edge)."""
    gap = 1.5 * INCH
    return board_from_dict({
        "ruleset": "wh40k", "context": {"step": step, "active_player": 1},
        "units": [
            {"id": "marines", "player": 1, "base": 32, "profile": {"attacks": 3},
             "models": [[500, 400], [540, 400]]},
            {"id": "orks", "player": 2, "base": 32, "profile": {"attacks": 2},
             "models": [[500, 400 - 32 - gap], [540, 400 - 32 - gap]]},
        ]})


def test_engagement_range_changes_result_and_every_text(rulesets):
    b = wh40k_board()
    a1 = analyse(b, R.load_ruleset("wh40k"))
    assert all(r.role == "none" for r in a1.models.values())
    assert all('(1")' in r.why for r in a1.models.values())
    rulesets("wh40k", "engagement_range_in", 2)
    rs = R.load_ruleset("wh40k")
    a2 = analyse(b, rs)
    assert all(r.role == "attack" for r in a2.models.values())
    one_inch = re.compile(r'(?<![\d.])1"')
    for t in texts(a2):
        assert not one_inch.search(t), t
    assert any('2"' in r.why for r in a2.models.values())
    assert '2"' in strategy_of(rs).legend(rs).role_labels["attack"]
    steps = strategy_of(rs).phase_steps(wh40k_board("pile_in"), rs)
    assert steps
    for caption, _board, an in steps:
        for t in [caption] + texts(an):
            assert not one_inch.search(t), t


def test_pile_in_distance_follows_the_data(rulesets):
    rulesets("wh40k", "pile_in_in", 4)
    rulesets("wh40k", "pile_in_target_radius_in", 7)
    rs = R.load_ruleset("wh40k")
    far = board_from_dict({
        "ruleset": "wh40k", "context": {"step": "pile_in", "active_player": 1, "charged": ["marines"]},
        "units": [{"id": "marines", "player": 1, "base": 32, "models": [[500, 400]]},
                  {"id": "orks", "player": 2, "base": 32, "models": [[500, 400 - 32 - 8 * INCH]]}]})
    a = analyse(far, rs)
    assert any('within 7"' in n for n in a.notes), a.notes
    steps = strategy_of(rs).phase_steps(wh40k_board("pile_in"), rs)
    caps = [c for c, _b, _a in steps if c.startswith("Pile")]
    assert caps and not any('3"' in c for c in caps), caps
