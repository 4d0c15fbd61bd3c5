"""The documented limits (issue 26, items 1 and 2): where an engine cannot answer the format's
limits within the budgets, its ruleset's ``limits:`` lower them, in docs/SCENARIO_FORMAT.md and
the loader alike (one line naming file, line and field; exit 2; under ``--ruleset`` too); budget
messages name what ran out (the pile-in search, the slot allocation, drawing the figure), a
memory error included (reported after the stack unwound). The measured answers are in
bench/bench_limits.py (too slow for a test)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import main
from game.cli.args import budget_message
from game.core import work
from game.core.ruleset import load_ruleset
from game.core.scenario import ScenarioError, load_scenario

ROOT = Path(__file__).resolve().parents[1]


def _skirm(n_units: int, per_unit: int, ruleset: str) -> str:
    out = [f"ruleset: {ruleset}\ntable: {{width: 10000, height: 10000}}\nunits:\n"]
    for i in range(n_units):
        cols = 5 if per_unit <= 20 else 100
        pts = ", ".join(f"[{100 + (i % 40) * 240 + (j % cols) * 26}, {100 + (i // 40) * 300 + (j // cols) * 26}]"
                        for j in range(per_unit))
        out.append(f"  - {{id: u{i}, player: {1 + i % 2}, base: 25, models: [{pts}]}}\n")
    return "".join(out)


@pytest.mark.parametrize("ruleset,n_units,per_unit,field", [
    ("wh40k", 101, 1, "units[100]"),
    ("wh40k", 2, 501, "units[0].models"),
    ("wh40k", 5, 401, "units[4].models"),
    ("slots", 501, 1, "units[500]"),
    ("slots", 1, 5001, "units[0].models"),
])
def test_a_file_beyond_its_rulesets_limits_is_refused_in_one_line(tmp_path, capsys, ruleset, n_units, per_unit,
                                                                  field):
    p = tmp_path / "big.yaml"
    p.write_text(_skirm(n_units, per_unit, ruleset))
    with pytest.raises(ScenarioError) as exc:
        load_scenario(p)
    assert exc.value.line and exc.value.field == field and f"under {ruleset} at most" in str(exc.value)
    assert main.main(["analyse", str(p), "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{p}:{exc.value.line}: {field}:" in err


def test_at_the_limit_loads_and_other_rulesets_keep_the_formats_limits(tmp_path):
    p = tmp_path / "ok.yaml"
    p.write_text(_skirm(100, 1, "wh40k"))
    assert len(load_scenario(p).units) == 100
    p.write_text(_skirm(101, 1, "whfb8"))
    assert len(load_scenario(p).units) == 101


def test_a_ruleset_override_is_checked_too(tmp_path, capsys):
    p = tmp_path / "many.yaml"
    p.write_text(_skirm(101, 1, "whfb8"))
    assert main.main(["analyse", str(p), "--json", "--ruleset", "wh40k"]) == 2
    err = capsys.readouterr().err
    assert "units[100]" in err and "--ruleset" in err and "under wh40k at most 100 units" in err


def test_the_docs_say_the_limits_the_rulesets_hold():
    doc = (ROOT / "docs" / "SCENARIO_FORMAT.md").read_text()
    row = next(line for line in doc.splitlines() if line.startswith("| Per ruleset"))
    num = lambda s: int(s.replace(",", ""))  # noqa: E731
    w = re.search(r"`wh40k`: at most ([\d,]+) units, ([\d,]+) models per unit, ([\d,]+) models per file", row)
    s = re.search(r"`slots`: at most ([\d,]+) units, ([\d,]+) models per skirmish unit", row)
    assert w and s
    assert load_ruleset("wh40k").limits == {"units": num(w[1]), "unit_models": num(w[2]), "models": num(w[3])}
    assert load_ruleset("slots").limits == {"units": num(s[1]), "skirmish_unit_models": num(s[2])}


def test_budget_messages_name_the_40k_and_slots_searches(monkeypatch):
    from game.core.analyse import analyse

    seen = []

    def spy(*a, **k):
        seen.append(budget_message("f.yaml", "after 1 s", "--time-budget S"))
        return {}

    import game.engines.engagement_range.engine as eng
    monkeypatch.setattr(eng, "pile_in_step", spy)
    b = load_scenario(ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml")
    analyse(b, load_ruleset("wh40k"))
    assert "pile-in search (Pile-in Moves)" in seen[0] and "analysing the table" not in seen[0]

    import game.engines.combat_slots.engine as slots
    monkeypatch.setattr(slots, "fill_nearest_first", lambda *a: spy() or 0)
    b = load_scenario(ROOT / "assets" / "scenarios" / "slots_flank.yaml")
    analyse(b, load_ruleset("slots"))
    assert "slot allocation" in seen[1] and "analysing the table" not in seen[1]


def test_a_memory_error_names_the_innermost_work_after_unwinding():
    work.forget_failure()
    with pytest.raises(MemoryError):
        with work.doing("the outer work", "outer"):
            with work.doing("running the pile-in search", "the units are too large"):
                raise MemoryError
    assert work.current() == work.DEFAULT  # the stack has unwound
    assert work.failed() == ("running the pile-in search", "the units are too large")
    assert work.failed() == work.DEFAULT  # read once


def test_memory_budget_message_names_the_search(tmp_path, capsys, monkeypatch):
    import game.engines.engagement_range.engine as eng

    def hungry(*a, **k):
        raise MemoryError("Unable to allocate 763 MiB")

    monkeypatch.setattr(eng, "pile_in_step", hungry)
    p = ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml"
    assert main.main(["analyse", str(p), "--json", "--memory-budget", "2000"]) == 2
    err = capsys.readouterr().err
    assert "memory budget" in err and "pile-in search" in err and "analysing the table" not in err


def test_the_windows_ruleset_list_says_why_a_ruleset_cannot_take_the_board(tmp_path):
    from game.window.rulesystems import RuleSystems

    p = tmp_path / "many.yaml"
    p.write_text(_skirm(101, 1, "whfb8"))
    why = RuleSystems().unavailable_reason(load_scenario(p), "wh40k", "whfb8")
    assert "at most 100 units" in why
    assert RuleSystems().unavailable_reason(load_scenario(p), "t9a", "whfb8") == ""
