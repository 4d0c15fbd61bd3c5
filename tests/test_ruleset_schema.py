"""Rulesets load through their strategy's schema; every bad parameter is one clear line.

For every shipped ruleset a misspelt, a missing, a wrongly typed and a bad-enum parameter
is written into a copy of the file: loading it raises ``<file>:<line>: params.<name>: ...``
and ``main.py analyse`` exits 2 with that line.
"""
from __future__ import annotations

import dataclasses
import re
import shutil
import typing
from pathlib import Path

import pytest
import yaml

from game.core import ruleset as R
from game.core import schema as sc
from game.core.registry import names, strategy_of

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = R.available()


def own_params(rid: str) -> list[str]:
    data = yaml.safe_load((R.RULESET_DIR / f"{rid}.yaml").read_text(encoding="utf-8"))
    return list(data.get("params") or {})


def key_line(text: str, name: str) -> int:
    """1-based line of the parameter key ``name`` (indented under params)."""
    for i, ln in enumerate(text.splitlines(), 1):
        if re.match(rf"^\s*{re.escape(name)}:\s*$", ln):
            return i
    raise AssertionError(name)


def block(text: str, name: str) -> tuple[int, int]:
    """(first, last) 0-based line indexes of a parameter's block."""
    lines = text.splitlines()
    i = key_line(text, name) - 1
    indent = len(lines[i]) - len(lines[i].lstrip())
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
        j += 1
    return i, j - 1


def set_value(text: str, name: str, value: str) -> str:
    lines = text.splitlines()
    i, j = block(text, name)
    for k in range(i + 1, j + 1):
        if lines[k].strip().startswith("value:"):
            lines[k] = re.sub(r"value:.*", f"value: {value}", lines[k])
            return "\n".join(lines) + "\n"
    raise AssertionError(name)


def is_enum(tp, f) -> bool:
    if "choices" in f.metadata:
        return True
    origin = typing.get_origin(tp)
    if origin is typing.Union:
        return any(is_enum(a, f) for a in typing.get_args(tp) if a is not type(None))
    if origin is tuple:
        return is_enum(typing.get_args(tp)[0], f)
    return origin is typing.Literal


def cases(rid: str) -> dict[str, tuple[str, str]]:
    """{kind: (parameter, new file text)} for the four kinds of mistake."""
    rs = R.load_ruleset(rid)
    text = (R.RULESET_DIR / f"{rid}.yaml").read_text(encoding="utf-8")
    fields = sc.fields_of(type(rs.values))
    own = [p for p in own_params(rid) if p in fields]
    parent = R.load_ruleset(rs.inherits) if rs.inherits else None
    out = {}
    first = own[0]
    i = key_line(text, first) - 1
    lines = text.splitlines()
    lines[i] = lines[i].replace(first + ":", first[:-1] + ":")
    out["misspelt"] = (first[:-1], "\n".join(lines) + "\n")
    missing = next((p for p in own if parent is None or p not in parent.params), None)
    if missing is not None:  # a ruleset that only overrides inherited values cannot miss one
        a, b = block(text, missing)
        lines = text.splitlines()
        out["missing"] = (missing, "\n".join(lines[:a] + lines[b + 1:]) + "\n")
    numeric = next(p for p in own if type(getattr(rs.values, p)) in (int, float))
    out["wrong_type"] = (numeric, set_value(text, numeric, "many"))
    enum = next(p for p in own if is_enum(*fields[p]))
    out["bad_enum"] = (enum, set_value(text, enum, "[not_a_choice]" if isinstance(getattr(rs.values, enum), tuple)
                                       else "not_a_choice"))
    return out


@pytest.fixture
def shadow(tmp_path, monkeypatch):
    """A copy of rulesets/ used as the shipped folder."""
    d = tmp_path / "rulesets"
    shutil.copytree(R.RULESET_DIR, d)
    monkeypatch.setattr(R, "RULESET_DIR", d)
    R.clear_cache()
    yield d
    R.clear_cache()


def test_every_ruleset_loads_through_its_schema():
    for rid in SHIPPED:
        rs = R.load_ruleset(rid)
        assert dataclasses.is_dataclass(rs.values) and rs.strategy in names()
        assert isinstance(rs.values, strategy_of(rs).params({k: p.value for k, p in rs.params.items()}))
        for name in rs.params:  # every parameter is read through the schema, with its rule
            assert hasattr(rs.values, name) and rs.rule(name)


def _only_overrides(rid: str) -> bool:
    """True for a ruleset whose parameters all override inherited ones (it cannot miss one)."""
    parent = R.load_ruleset(rid).inherits
    return bool(parent) and set(own_params(rid)) <= set(R.load_ruleset(parent).params)


MISTAKES = [(rid, kind) for rid in SHIPPED for kind in ("misspelt", "missing", "wrong_type", "bad_enum")
            if not (kind == "missing" and _only_overrides(rid))]


@pytest.mark.parametrize("rid,kind", MISTAKES, ids=[f"{k}-{r}" for r, k in MISTAKES])
def test_bad_parameter_is_one_line_with_file_line_and_field(rid, kind, shadow, capsys):
    name, text = cases(rid)[kind]
    path = shadow / f"{rid}.yaml"
    path.write_text(text, encoding="utf-8")
    R.clear_cache()
    with pytest.raises(R.RulesetError) as err:
        R.load_ruleset(rid)
    msg = str(err.value)
    line = (key_line(text, "params") if kind == "missing" else key_line(text, name))
    assert msg.startswith(f"{path}:{line}: params.{name}: "), msg
    assert "\n" not in msg and len(msg) < 400
    # the command line: exit 2, that one line
    scen = shadow.parent / "s.yaml"
    scen.write_text(f"ruleset: {rid}\nunits:\n  - id: a\n    player: 1\n    base: [20, 20]\n    models: 1\n"
                    "    files: 1\n    front: [100, 100]\n", encoding="utf-8")
    import main
    R.clear_cache()
    assert main.main(["analyse", str(scen), "--json"]) == 2
    err_out = capsys.readouterr().err
    assert f"{path}:{line}: params.{name}:" in err_out and len(err_out.strip().splitlines()) == 1


def test_messages_are_specific(shadow):
    text = (shadow / "whfb8.yaml").read_text(encoding="utf-8")
    (shadow / "whfb8.yaml").write_text(text.replace("  horde_min_files:", "  horde_min_file:"), encoding="utf-8")
    with pytest.raises(R.RulesetError, match=r"unknown parameter .*did you mean horde_min_files\?"):
        R.load_ruleset("whfb8")
    (shadow / "whfb8.yaml").write_text(set_value(text, "gaps", "incomplete_ranks"), encoding="utf-8")
    R.clear_cache()
    with pytest.raises(R.RulesetError, match=r"params.gaps: must be one of .*extend_bases.*incomplete_rank"):
        R.load_ruleset("whfb8")
    (shadow / "whfb8.yaml").write_text(set_value(text, "horde_min_files", "true"), encoding="utf-8")
    R.clear_cache()
    with pytest.raises(R.RulesetError, match=r"params.horde_min_files: must be a whole number \(got True\)"):
        R.load_ruleset("whfb8")
    huge = "x" * 100_000
    (shadow / "whfb8.yaml").write_text(set_value(text, "gaps", huge), encoding="utf-8")
    R.clear_cache()
    with pytest.raises(R.RulesetError) as err:
        R.load_ruleset("whfb8")
    assert len(str(err.value)) < 400  # never an unbounded value in a message


def test_unknown_strategy_names_file_and_line(shadow):
    text = (shadow / "slots.yaml").read_text(encoding="utf-8")
    (shadow / "slots.yaml").write_text(text.replace("strategy: combat_slots", "strategy: combat_slot"), encoding="utf-8")
    with pytest.raises(R.RulesetError) as err:
        R.load_ruleset("slots")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("strategy:"))
    assert str(err.value).startswith(f"{shadow / 'slots.yaml'}:{line}: strategy: ")
    assert "did you mean combat_slots" in str(err.value)


def test_inherits_overrides_and_reports_parent_lines(shadow):
    (shadow / "mine.yaml").write_text(
        "id: mine\nname: Mine\ninherits: whfb8\nparams:\n  horde_min_files:\n    value: 6\n", encoding="utf-8")
    rs = R.load_ruleset("mine")
    base = R.load_ruleset("whfb8")
    assert rs.p("horde_min_files") == 6 and rs.rule("horde_min_files") == base.rule("horde_min_files")
    assert rs.strategy == base.strategy and rs.p("support_ranks") == base.p("support_ranks")
    # a bad value in the parent is reported at the parent's line
    text = (shadow / "whfb8.yaml").read_text(encoding="utf-8")
    (shadow / "whfb8.yaml").write_text(set_value(text, "support_ranks", "two"), encoding="utf-8")
    R.clear_cache()
    with pytest.raises(R.RulesetError) as err:
        R.load_ruleset("mine")
    assert str(err.value).startswith(f"{shadow / 'whfb8.yaml'}:{key_line(text, 'support_ranks')}: params.support_ranks:")
    # cycles are refused
    (shadow / "whfb8.yaml").write_text(text.replace("strategy: rank_and_file", "strategy: rank_and_file\ninherits: mine"),
                                       encoding="utf-8")
    R.clear_cache()
    with pytest.raises(R.RulesetError, match="inherits from itself"):
        R.load_ruleset("mine")


def test_with_values_is_checked():
    rs = R.load_ruleset("whfb8")
    assert R.with_values(rs, horde_min_files=6).p("horde_min_files") == 6
    with pytest.raises(R.RulesetError, match="params.horde_min_files"):
        R.with_values(rs, horde_min_files="six")
