"""Rulesets as data: ``rulesets/<id>.yaml`` holds the parameters the shared engine reads.

File layout::

    id: whfb8
    name: Warhammer Fantasy Battle, 8th edition
    strategy: ranked                 # which engine in game/core/rules analyses boards
    sources: [seeds/000, seeds/002]
    params:
      contact_tolerance_mm:
        value: 0.5
        rule: "Who Can Attack?"      # the rule (section name) the value comes from
        why: one line in our own words

Unknown top-level keys, parameters without ``value``/``rule``/``why`` and bad YAML raise
:class:`RulesetError` naming the file, line and key.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .yamlfile import FileError

RULESET_DIR = Path(__file__).resolve().parents[2] / "rulesets"
TOP_KEYS = {"id", "name", "strategy", "sources", "summary", "params", "palette"}


class RulesetError(FileError):
    """A ruleset file that cannot be used: ``file``, ``line``, ``field`` (the key)."""

    @property
    def key(self) -> str:
        return self.field


@dataclass(frozen=True)
class Param:
    """One ruleset parameter: its ``value``, the ``rule`` it implements and ``why`` in a line."""

    value: Any
    rule: str
    why: str


@dataclass
class Ruleset:
    """A loaded ruleset: ``id``, display ``name``, engine ``strategy`` and ``params``."""

    id: str
    name: str
    strategy: str
    params: dict[str, Param] = field(default_factory=dict)
    sources: list = field(default_factory=list)
    summary: str = ""

    def p(self, key: str, default: Any = None) -> Any:
        """Value of parameter ``key`` (``default`` when the ruleset does not set it)."""
        prm = self.params.get(key)
        return default if prm is None else prm.value

    def rule(self, key: str) -> str:
        """Name of the rule a parameter implements ('' if unknown)."""
        prm = self.params.get(key)
        return prm.rule if prm else ""


def available() -> list[str]:
    """Ids of the rulesets shipped in ``rulesets/``, sorted."""
    return sorted(p.stem for p in RULESET_DIR.glob("*.yaml"))


_cache: dict[str, Ruleset] = {}


def load_ruleset(ruleset_id: str, directory: Path | None = None) -> Ruleset:
    """Load ``rulesets/<ruleset_id>.yaml``. Raises :class:`RulesetError` if missing or invalid."""
    key = f"{directory}:{ruleset_id}"
    if key in _cache:
        return _cache[key]
    path = (directory or RULESET_DIR) / f"{ruleset_id}.yaml"
    if not path.exists():
        raise RulesetError(str(path), None, "", f"no ruleset {ruleset_id!r}; shipped: {', '.join(available())}")
    text = path.read_text(encoding="utf-8")
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise RulesetError(str(path), mark.line + 1 if mark else None, "", f"not valid YAML: {exc}") from None
    lines = {}
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            lines[k.value] = k.start_mark.line + 1
            if k.value == "params" and isinstance(v, yaml.MappingNode):
                for pk, _ in v.value:
                    lines["params." + pk.value] = pk.start_mark.line + 1
    if not isinstance(data, dict):
        raise RulesetError(str(path), 1, "", "must be a mapping")
    for k in data:
        if k not in TOP_KEYS:
            raise RulesetError(str(path), lines.get(k), k, f"unknown key; allowed: {', '.join(sorted(TOP_KEYS))}")
    for k in ("id", "name", "strategy"):
        if not isinstance(data.get(k), str):
            raise RulesetError(str(path), lines.get(k), k, "is required (text)")
    params = {}
    for pk, pv in (data.get("params") or {}).items():
        if not isinstance(pv, dict) or "value" not in pv or not pv.get("rule") or not pv.get("why"):
            raise RulesetError(str(path), lines.get("params." + pk), f"params.{pk}",
                               "must be {value: ..., rule: <rule name>, why: <one line>}")
        extra = set(pv) - {"value", "rule", "why"}
        if extra:
            raise RulesetError(str(path), lines.get("params." + pk), f"params.{pk}", f"unknown keys {sorted(extra)}")
        params[pk] = Param(pv["value"], str(pv["rule"]), str(pv["why"]))
    rs = Ruleset(id=data["id"], name=data["name"], strategy=data["strategy"], params=params,
                 sources=list(data.get("sources") or []), summary=str(data.get("summary", "")))
    _cache[key] = rs
    return rs
