"""Rulesets as data: ``rulesets/<id>.yaml`` holds the parameters an engine reads.

File layout::

    id: whfb8
    name: Warhammer Fantasy Battle, 8th edition
    strategy: rank_and_file          # a registered strategy (game.core.registry)
    inherits: whfb8                  # optional: start from another ruleset's parameters
    sources: [seeds/000, seeds/002]
    params:
      contact_tolerance_mm:
        value: 0.5
        rule: "Who Can Attack?"      # the rule (section name) the value comes from
        why: one line in our own words

Every parameter is checked against the strategy's schema (a frozen dataclass, see
:mod:`game.core.schema`): unknown names, missing values, wrong types and bad enum values
raise :class:`RulesetError` ``rulesets/<id>.yaml:LINE: params.<name>: message``. There are
no defaults in Python: the file (or the ruleset it inherits from) gives every value.

With ``inherits: <id>`` the parent's parameters come first; the child may override a whole
parameter or only its ``value`` (keeping the parent's ``rule`` and ``why``), and may change
``strategy``. Inherited parameters the child's schema does not read are dropped; the child's
own unknown ones are errors. Errors about an inherited value name the parent's file and line.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, NoReturn, Optional

from game.core import schema as sc
from game.core.measure import Measure, parse_measure
from game.core.paths import RULESET_DIR, available, display_path
from game.core.registry import names, strategy
from game.core.ruleset_data import Param, Ruleset, RulesetError
from game.core.yamlfile import parse_yaml, read_text

TOP_KEYS = {"id", "name", "short_name", "strategy", "inherits", "sources", "summary", "params", "palette", "measure",
            "limits"}
#: ``limits:`` keys, each at most the format's own limit (docs/SCENARIO_FORMAT.md, Limits).
LIMIT_KEYS = {"units": 1_000, "models": 20_000, "unit_models": 10_000, "skirmish_unit_models": 10_000}
PARAM_KEYS = {"value", "rule", "why"}
MAX_INHERIT = 8
MAX_FILE_BYTES = 1 << 20


_cache: dict[tuple, Ruleset] = {}
#: files read, by path: (the stamps of the file and of every file it inherits from, the read);
#: a ruleset that others inherit from (whfb8) is parsed once, not once per child
_raw_cache: dict[str, tuple[tuple, "_Raw"]] = {}


def clear_cache() -> None:
    """Forget loaded rulesets (tests that edit ruleset files)."""
    _cache.clear()
    _raw_cache.clear()


def _stamp(path: Path) -> tuple:
    """What tells a file changed: (path, mtime ns, size, inode); raises OSError."""
    st = path.stat()
    return (str(path), st.st_mtime_ns, st.st_size, st.st_ino)


def _still(stamps: tuple) -> bool:
    """True when every file of ``stamps`` (:func:`_stamp`) is as it was."""
    try:
        return all(_stamp(Path(s[0])) == s for s in stamps)
    except OSError:
        return False


@dataclass
class _Raw:
    """One ruleset file read (and its parents merged): top-level data, params with origin."""

    data: dict
    params: dict[str, Param]
    own: set                    # parameter names written in this file itself
    file: str
    lines: Any                  # yamlfile.Locator of this file
    stamps: tuple = ()          # _stamp of this file and of the files it inherits from


def _read(ruleset_id: str, directory: Path, chain: tuple = ()) -> _Raw:
    path = directory / f"{ruleset_id}.yaml"
    shown = display_path(path)
    if not isinstance(ruleset_id, str) or not ruleset_id or "/" in ruleset_id or "\\" in ruleset_id:
        raise RulesetError(shown, None, "", f"not a ruleset id: {sc.shown(ruleset_id)}")
    if not path.is_file():
        raise RulesetError(shown, None, "", f"no ruleset {sc.shown(ruleset_id)}; shipped: "
                                            f"{', '.join(available(directory))}")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise RulesetError(shown, None, "", f"is larger than {MAX_FILE_BYTES} bytes; a ruleset is a short file")
    hit = _raw_cache.get(str(path))
    if hit is not None and _still(hit[0]):
        return hit[1]
    stamp = _stamp(path)
    data, loc = parse_yaml(read_text(path, RulesetError), shown, RulesetError)
    if not isinstance(data, dict):
        raise RulesetError(shown, 1, "", "must be a mapping of id, name, strategy, params")
    for k in data:
        if k not in TOP_KEYS:
            loc.fail((k,) if isinstance(k, str) else (), f"unknown key{sc.suggestion(str(k), sorted(TOP_KEYS))}; "
                                                         f"allowed: {', '.join(sorted(TOP_KEYS))}")
    parent: Optional[_Raw] = None
    if "inherits" in data:
        pid = data["inherits"]
        if not isinstance(pid, str) or not pid:
            loc.fail(("inherits",), f"must be a ruleset id (got {sc.shown(pid)})")
        if pid in chain + (ruleset_id,):
            loc.fail(("inherits",), f"inherits from itself through {' -> '.join(chain + (ruleset_id, pid))}")
        if len(chain) >= MAX_INHERIT:
            loc.fail(("inherits",), f"more than {MAX_INHERIT} levels of inherits")
        if not (directory / f"{pid}.yaml").is_file():
            loc.fail(("inherits",), f"no ruleset {sc.shown(pid)}; shipped: {', '.join(available(directory))}")
        parent = _read(pid, directory, chain + (ruleset_id,))
    required = ("id", "name") if parent else ("id", "name", "strategy")
    for k in required:
        if not isinstance(data.get(k), str) or not data.get(k):
            loc.fail((k,), "is required (text)")
    if "short_name" in data and (not isinstance(data["short_name"], str) or not data["short_name"].strip()
                                 or len(data["short_name"]) > 40):
        loc.fail(("short_name",), f"must be a short text of at most 40 characters (got {sc.shown(data['short_name'])})")
    if "summary" in data and not isinstance(data["summary"], str):
        loc.fail(("summary",), f"must be text (got {sc.shown(data['summary'])})")
    if "sources" in data and (not isinstance(data["sources"], list)
                              or not all(isinstance(x, str) for x in data["sources"])):
        loc.fail(("sources",), f"must be a list of texts (got {sc.shown(data['sources'])})")
    if "strategy" in data and not isinstance(data["strategy"], str):
        loc.fail(("strategy",), "must be the name of a strategy (text)")
    raw_params = data.get("params") or {}
    if not isinstance(raw_params, dict):
        loc.fail(("params",), "must be a mapping of parameter names to {value, rule, why}")
    params = dict(parent.params) if parent else {}
    for pk, pv in raw_params.items():
        path_ = ("params", pk)
        if not isinstance(pk, str):
            loc.fail(("params",), f"parameter names are text (got {sc.shown(pk)})")
        if not isinstance(pv, dict) or "value" not in pv:
            loc.fail(path_, "must be {value: ..., rule: <rule name>, why: <one line>}")
        extra = set(pv) - PARAM_KEYS
        if extra:
            loc.fail(path_, f"unknown keys {sc.shown(sorted(map(str, extra)))}; allowed: value, rule, why")
        base = params.get(pk)
        rule, why = pv.get("rule", base.rule if base else None), pv.get("why", base.why if base else None)
        for name, text in (("rule", rule), ("why", why)):
            if not isinstance(text, str) or not text.strip():
                loc.fail(path_ + ((name,) if name in pv else ()),
                         f"{name} is required (text)" + ("" if base else "; only an inherited parameter may omit it"))
        assert isinstance(rule, str) and isinstance(why, str)  # checked just above
        params[pk] = Param(pv["value"], rule, why, shown, loc.line_of(path_))
    merged = dict(parent.data) if parent else {}
    merged.pop("short_name", None)  # a short name is the file's own: a child is not its parent
    merged.update({k: v for k, v in data.items() if k != "params"})
    raw = _Raw(merged, params, set(raw_params), shown, loc, (stamp,) + (parent.stamps if parent else ()))
    _raw_cache[str(path)] = (raw.stamps, raw)
    return raw


def _typed(rid: str, name: str, sname: str, strat: Any, all_params: dict[str, Param], own: set, file: str,
           params_line: Optional[int], **more: Any) -> Ruleset:
    """Check ``all_params`` against the strategy's schema and build the :class:`Ruleset`.
    ``own``: names set by the file itself (the only ones that may be unknown: inherited
    parameters the schema does not read are dropped)."""
    def fail_at(pname: str, message: str) -> NoReturn:
        prm = all_params.get(pname)
        if prm is not None and prm.file:
            raise RulesetError(prm.file, prm.line, f"params.{pname}", message)
        raise RulesetError(file, params_line, f"params.{pname}", message)

    values = {k: p.value for k, p in all_params.items()}
    schema = strat.params(values)
    fields = sc.fields_of(schema)
    # the policy choices first: they decide which other parameters the schema holds
    for fname, (tp, f) in fields.items():
        if "choices" in f.metadata and fname in values:
            ok, _, msg = sc.convert(tp, values[fname], f.metadata["choices"])
            if not ok:
                fail_at(fname, msg)
    for pname in own:
        if pname not in fields:
            fail_at(pname, f"unknown parameter for strategy {sname}{sc.suggestion(pname, list(fields))}")
    params = {k: p for k, p in all_params.items() if k in fields}
    typed = sc.build(schema, {k: p.value for k, p in params.items()}, fail_at)
    return Ruleset(id=rid, name=name, strategy=sname, params=params, values=typed, file=file, **more)


def load_ruleset(ruleset_id: str, directory: Path | None = None) -> Ruleset:
    """Load and check ``rulesets/<ruleset_id>.yaml`` (or the file in ``directory``).

    Raises :class:`RulesetError` (file, line, field, message) for a missing or invalid file:
    bad YAML, unknown keys, an unknown strategy, a parameter that is unknown, missing, of the
    wrong type or not one of its allowed values. Loaded rulesets are cached by id and folder.
    """
    directory = Path(directory) if directory is not None else RULESET_DIR
    key = (str(directory), ruleset_id)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    raw = _read(ruleset_id, directory)
    sname = raw.data["strategy"]
    try:
        strat = strategy(sname)
    except KeyError:
        raw.lines.fail(("strategy",), f"unknown strategy {sc.shown(sname)}{sc.suggestion(sname, names())}; "
                                      f"known: {', '.join(names())}")

    rs = _typed(raw.data["id"], raw.data["name"], sname, strat, raw.params, raw.own, raw.file,
                raw.lines.line_of(("params",)), sources=list(raw.data.get("sources") or []),
                summary=str(raw.data.get("summary", "")), inherits=raw.data.get("inherits"),
                short_name=str(raw.data.get("short_name") or ""))
    if raw.data.get("measure") is not None:  # checked after the parameters, as it reads them
        rs = replace(rs, measure=parse_measure(raw.data["measure"], raw.lines.fail, raw.params))
    if raw.data.get("limits") is not None:
        rs = replace(rs, limits=parse_limits(raw.data["limits"], raw.lines.fail))
    _cache[key] = rs
    return rs


def ruleset_name(ruleset_id: Any) -> str:
    """The display name of a ruleset id (``name:`` of ``rulesets/<id>.yaml``); the id itself
    when the file has no name or does not load (never raises): the title bar of a figure."""
    try:
        return str(load_ruleset(str(ruleset_id)).name or ruleset_id)
    except Exception:
        return str(ruleset_id)


def short_ruleset_name(ruleset_id: Any) -> str:
    """The ruleset's ``short_name`` (else its name, else its id: :func:`ruleset_name`), the
    name figures use in sentences; never raises."""
    try:
        return load_ruleset(str(ruleset_id)).short
    except Exception:
        return ruleset_name(ruleset_id)


def parse_limits(data: Any, fail: Callable[[tuple, str], Any]) -> dict[str, int]:
    """A ruleset's ``limits:`` section: ``{units, models, unit_models, skirmish_unit_models}``
    (models in one unit placed model by model) whole numbers from 1 to
    the format's own limits (:data:`LIMIT_KEYS`); ``fail(path, message)`` reports a bad one."""
    if not isinstance(data, dict):
        fail(("limits",), f"must be a mapping of {', '.join(sorted(LIMIT_KEYS))} to whole numbers")
    out: dict[str, int] = {}
    for k, v in data.items():
        if k not in LIMIT_KEYS:
            fail(("limits",), f"unknown key {sc.shown(k)}; allowed: {', '.join(sorted(LIMIT_KEYS))}")
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= LIMIT_KEYS[k]:
            fail(("limits", k), f"must be a whole number from 1 to {LIMIT_KEYS[k]:,} (got {sc.shown(v)})")
        out[k] = v
    return out


def with_values(rs: Ruleset, **values: Any) -> Ruleset:
    """A copy of ``rs`` with some parameter values replaced (rule and why kept), checked against the
    strategy's schema like a file; raises :class:`RulesetError` naming the parameter."""
    params = dict(rs.params)
    for k, v in values.items():
        old = params.get(k)
        params[k] = Param(v, old.rule if old else k, old.why if old else k, "", None)
    return _typed(rs.id, rs.name, rs.strategy, strategy(rs.strategy), params, set(values),
                  rs.file, None, sources=rs.sources, summary=rs.summary, inherits=rs.inherits,
                  short_name=rs.short_name, measure=rs.measure, limits=rs.limits)
