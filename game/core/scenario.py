"""Scenario files: load and validate YAML into a :class:`Board`, and save one back atomically.

The format is the public contract in ``shared/spec/scenario-format.md``. YAML is read with
``safe_load`` semantics only. Every validation failure raises :class:`ScenarioError`, which
names the file, the line, the field (``units[1].files``) and what is allowed.
Optional keys this project adds: ``terrain`` (a list of ``{name, kind: impassable, points}``)
and a unit's ``base: {oval: [w, d]}``.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace
import re
from pathlib import Path
from typing import Any, Callable, NoReturn, Optional, Sequence

import yaml

from game.core.bases import Base, OvalBase, RectBase, RoundBase, base_of
from game.core.board import Board, Unit, parse_slot
from game.core.paths import available as available_rulesets
from game.core.point_marks import model_units, parse_point_marks
from game.core.schema import suggestion
from game.core.validate import (MAX_ANGLE_DEG, MAX_CAPTION, MAX_COORD_MM, MAX_FILES, MAX_LIST, MAX_MODELS, MAX_TABLE_MM, MAX_TITLE,
                       MAX_UNIT_MODELS, MAX_UNITS, MAX_CHARACTERISTIC, Checker, is_number, short)
from game.core.yamlfile import FileError, field_name, parse_yaml, read_bytes, read_text

SLOT_RE = re.compile(r"^r[1-9][0-9]{0,5}f[1-9][0-9]{0,5}$")
TOP_KEYS = {"title", "ruleset", "seed", "table", "units", "context", "terrain", "expect"}
RANKED_KEYS = {"id", "player", "name", "profile", "keywords", "base", "files", "models", "last_rank",
               "empty", "front", "facing"}
SKIRMISH_KEYS = {"id", "player", "name", "profile", "keywords", "base", "models", "facing"}
WHOLE_CHARACTERISTICS = ("attacks", "initiative", "agility", "height")
#: Profile names the shipped engines read, for catching a misspelt one (``attaks``).
KNOWN_CHARACTERISTICS = WHOLE_CHARACTERISTICS + ("movement", "wounds", "size", "parts", "name")
#: Keys this project adds (kept as ``extra``), never taken for misspellings.
PROJECT_KEYS = {"caption", "troop_type", "weapon", "embarked_in", "marks"}
CONTEXT_STEPS = ("pile_in", "fight", "consolidate")
#: The Old World keys (``shared/spec/scenario-format.md``, "Keys for The Old World").
TROOP_TYPES = ("regular_infantry", "heavy_infantry", "monstrous_infantry", "swarm", "light_cavalry",
               "heavy_cavalry", "monstrous_cavalry", "war_beasts", "light_chariot", "heavy_chariot",
               "monstrous_creature", "behemoth", "war_machine")
WEAPONS = ("hand_weapon", "thrusting_spear", "cavalry_spear", "polearm", "throwing_spear", "great_weapon",
           "halberd", "additional_hand_weapon", "lance")
#: Context keys holding lists of unit ids of the file.
CONTEXT_ID_LISTS = ("charged", "fights_first", "destroyed", "fought", "disordered", "fight_order")
#: Longest charge distance a context may give (inches).
MAX_CHARGE_IN = 100.0


class ScenarioError(FileError):
    """A scenario that breaks the contract: ``file``, ``line`` (1-based or None), ``field``."""


class _Ctx(Checker):
    def __init__(self, file: str, lines: dict):
        super().__init__(file, lines, ScenarioError)

    def base(self, v: Any, path: tuple, *, ranked: bool) -> Base:
        if is_number(v):
            if ranked:
                self.fail(path, f"a ranked unit needs a rectangular base [width, depth] in mm (got {short(v)})")
            return RoundBase(self.size(v, path))
        if isinstance(v, dict) and set(v) == {"oval"} and ranked:
            self.fail(path, "oval bases are for skirmish units (models placed one by one); a ranked unit "
                            "needs a rectangular base [width, depth] in mm")
        if isinstance(v, dict) and set(v) == {"oval"} and not ranked:
            o = v["oval"]
            if not isinstance(o, (list, tuple)) or len(o) != 2:
                self.fail(path + ("oval",), f"must be [width, depth] in mm (got {short(o)})")
            return OvalBase(self.size(o[0], path + ("oval", 0)), self.size(o[1], path + ("oval", 1)))
        if isinstance(v, (list, tuple)) and len(v) == 2:
            return RectBase(self.size(v[0], path + (0,)), self.size(v[1], path + (1,)))
        self.fail(path, "must be [width, depth] in mm" + ("" if ranked else ", a round base's diameter, or {oval: [w, d]}")
                  + f" (got {short(v)})")


def load_scenario(path: str | os.PathLike) -> Board:
    """Read and validate a scenario file. Raises :class:`ScenarioError` (file, line, field)."""
    return parse_scenario(read_text(path, ScenarioError), str(Path(path)))


def parse_scenario(text: str, filename: str = "<scenario>") -> Board:
    """Validate scenario YAML ``text``; ``filename`` is used in error messages."""
    data, loc = parse_yaml(text, filename, ScenarioError)
    return board_from_dict(data, _Ctx(filename, loc.lines))


def input_error(file: str, path: tuple, message: str) -> ScenarioError:
    """The :class:`ScenarioError` for field ``path`` of the scenario ``file`` (its line read
    again from the file; none when the file cannot be read): for what an engine finds the rules
    forbid (``Analysis.input_errors``), reported like any other bad field."""
    lines: dict = {}
    try:
        _data, loc = parse_yaml(read_text(file, ScenarioError), file, ScenarioError)
        lines = loc.lines
    except (ScenarioError, OSError):
        pass
    return ScenarioError(file, _Ctx(file, lines).line_of(path), field_name(path), message)


def _refuse_misspelt(d: dict, known: set | tuple, path: tuple, ctx: _Ctx) -> None:
    """Fail on a key of ``d`` that is not ``known`` but nearly is (``fils`` for ``files``, ``Facing``).

    The contract lets a file carry keys of its own, which are kept; but a misspelt key would
    silently leave the value it meant to set at its default, so a key within a close spelling
    (:func:`game.core.schema.suggestion`, cutoff 0.8) of a known one is an error naming it.
    Keys in :data:`PROJECT_KEYS` and ``expect_<ruleset>`` test keys are never refused."""
    for k in d:
        if not isinstance(k, str) or k in known or k in PROJECT_KEYS or k.startswith("expect_"):
            continue
        hint = suggestion(k.lower(), sorted(known), cutoff=0.8)
        if hint:
            ctx.fail(path + (k,), "unknown key" + hint)


def board_from_dict(data: Any, ctx: Optional[_Ctx] = None) -> Board:
    """Build a :class:`Board` from already-parsed data (errors carry no line without ``ctx``).

    Every key the project reads is typed and bounded (limits in :mod:`game.core.validate`);
    unknown keys are kept (``extra``) so a save loses nothing."""
    ctx = ctx or _Ctx("<scenario>", {})
    if not isinstance(data, dict):
        ctx.fail((), "must be a mapping with at least 'ruleset' and 'units'")
    _refuse_misspelt(data, TOP_KEYS, (), ctx)
    extra = {k: v for k, v in data.items() if k not in TOP_KEYS}
    if "ruleset" not in data:
        ctx.fail(("ruleset",), f"is missing: name the rules to apply, one of {', '.join(available_rulesets())}")
    rs = ctx.ruleset(data.get("ruleset"), ("ruleset",))
    title = data.get("title", "")
    title = "" if title is None else ctx.text(title, ("title",), max_len=MAX_TITLE, numbers=True)
    if data.get("caption") is not None:  # the figure caption: text of at most MAX_CAPTION characters
        ctx.text(data["caption"], ("caption",), max_len=MAX_CAPTION, multiline=True, numbers=True)
    seed = data.get("seed")
    if seed is not None:
        seed = ctx.int_(seed, ("seed",), 0, 2 ** 63 - 1)
    table = (1200.0, 800.0)
    if "table" in data:
        t = data["table"]
        if not isinstance(t, dict) or set(t) - {"width", "height"}:
            ctx.fail(("table",), "must be {width: mm, height: mm}")
        table = (ctx.size(t.get("width", 1200), ("table", "width"), MAX_TABLE_MM),
                 ctx.size(t.get("height", 800), ("table", "height"), MAX_TABLE_MM))
    units_raw = data.get("units")
    if not isinstance(units_raw, list):
        ctx.fail(("units",), "must be a list of units (it may be empty: an empty table)")
    ctx.seq(units_raw, ("units",), "units", max_len=MAX_UNITS)
    units: list[Unit] = []
    seen: set[str] = set()
    total = 0
    for i, u in enumerate(units_raw):
        unit = _unit(u, ("units", i), ctx)
        if unit.id in seen:
            ctx.fail(("units", i, "id"), f"unit id {unit.id!r} is used twice; ids must be unique")
        seen.add(unit.id)
        units.append(unit)
        total += unit.count if unit.is_ranked else len(unit.placed)
        if total > MAX_MODELS:
            ctx.fail(("units", i, "models"), f"the file holds more than {MAX_MODELS} models")
    check_limits(units, rs, ctx.fail)
    for i, u in enumerate(units):
        if "embarked_in" in u.extra:
            t = ctx.unit_id(u.extra["embarked_in"], ("units", i, "embarked_in"), seen - {u.id})
            units[i] = replace(u, extra={**u.extra, "embarked_in": t})
    raw_ctx = data.get("context")
    context = {} if raw_ctx is None else dict(ctx.mapping(raw_ctx, ("context",),
                                                          "step, active_player, charged, fights_first, objectives, ..."))
    context = check_context(ctx, context, seen, ("context",))
    terrain = []
    raw_terrain = data.get("terrain")
    for j, t in enumerate(ctx.seq(raw_terrain, ("terrain",), "terrain pieces") if raw_terrain is not None else []):
        path = ("terrain", j)
        if not isinstance(t, dict) or not isinstance(t.get("points"), list) or len(t["points"]) < 3:
            ctx.fail(path, "must be {name, kind: impassable, points: [[x, y], ...]} with 3 or more points")
        kind = ctx.enum(t.get("kind", "impassable"), path + ("kind",), ("impassable",))
        name = ctx.text(t.get("name", f"terrain {j + 1}"), path + ("name",), numbers=True)
        pts = ctx.seq(t["points"], path + ("points",), "points")
        piece = {k: v for k, v in t.items() if k not in ("name", "kind", "points")}
        piece.update({"name": name, "kind": kind, "points": [ctx.point(p, path + ("points", k)) for k, p in enumerate(pts)]})
        terrain.append(piece)
    board = Board(units=tuple(units), ruleset=rs, title=str(title), seed=seed, table=table, context=context,
                  terrain=terrain, extra=extra, source=ctx.file)
    if data.get("marks") is not None:  # the figure's pointing marks (game/core/point_marks.py), kept as written
        parse_point_marks(data["marks"], ("marks",), ctx.fail, model_units(board))
    return board


def ruleset_limits(ruleset_id: str) -> dict:
    """The ``limits`` of ruleset ``ruleset_id`` (what its engine answers within the budgets;
    ``{}`` when it has none, or when the ruleset cannot be loaded: that is reported when it is)."""
    from game.core.ruleset import RulesetError, load_ruleset

    try:
        return dict(load_ruleset(ruleset_id).limits)
    except RulesetError:
        return {}


def check_limits(units: Sequence[Unit], ruleset_id: str, fail: Callable[[tuple, str], Any]) -> None:
    """Refuse a board beyond its ruleset's ``limits`` (docs/SCENARIO_FORMAT.md, "Limits"):
    ``fail(path, message)`` (raises) names the first unit past ``units``, the first unit over
    ``unit_models`` (or, placed model by model, ``skirmish_unit_models``) or the unit at which
    the file passes ``models``."""
    lim = ruleset_limits(ruleset_id)
    if not lim:
        return
    why = (f"under {ruleset_id} at most {{n:,}} {{what}} can be analysed within the time and memory budgets "
           f"(docs/SCENARIO_FORMAT.md, Limits)")
    if "units" in lim and len(units) > lim["units"]:
        fail(("units", lim["units"]), why.format(n=lim["units"], what="units") + f"; this file has {len(units):,}")
    total = 0
    for i, u in enumerate(units):
        n = u.count if u.is_ranked else len(u.placed)
        if "unit_models" in lim and n > lim["unit_models"]:
            fail(("units", i, "models"), why.format(n=lim["unit_models"], what="models in one unit") +
                 f"; {u.id} has {n:,}")
        if "skirmish_unit_models" in lim and not u.is_ranked and n > lim["skirmish_unit_models"]:
            fail(("units", i, "models"), why.format(n=lim["skirmish_unit_models"], what="models placed one by one in "
                                                    "one unit") + f"; {u.id} has {n:,}")
        total += n
        if "models" in lim and total > lim["models"]:
            fail(("units", i, "models"), why.format(n=lim["models"], what="models in a file") +
                 f"; the file passes it at {u.id}")


def check_override(board: Board, ruleset_id: str, path: str | os.PathLike) -> None:
    """:func:`check_limits` for a board read from ``path`` and analysed under another ruleset
    (``--ruleset``): raises :class:`ScenarioError` (no line: the ruleset is not the file's)."""
    def fail(where: tuple, message: str) -> NoReturn:
        raise ScenarioError(str(path), None, field_name(where), message + " (--ruleset)")

    check_limits(board.units, ruleset_id, fail)


def check_context(ctx: Checker, context: dict, units: set, path: tuple) -> dict:
    """Type and bound the phase context keys the engines read (``step``, ``active_player``,
    ``charged``, ``fights_first``, ``objectives``, ``combats``, ``destroyed``, ``destroys``,
    ``fought``, ``round_winner``, ``charge_moved``, ``disordered``); ``units`` are the unit ids
    of the board. Returns the context with ``objectives`` as tuples; other keys are kept."""
    context = dict(context)
    if "step" in context:
        ctx.enum(context["step"], path + ("step",), CONTEXT_STEPS)
    if "active_player" in context:
        ctx.int_(context["active_player"], path + ("active_player",), 1, 2)
    for key in CONTEXT_ID_LISTS:
        if key in context:
            if context[key] is None:
                context[key] = []
            context[key] = ctx.unit_ids(context[key], path + (key,), units)
    if "objectives" in context:
        obj = ctx.seq(context["objectives"], path + ("objectives",), "points [x, y] in mm")
        context["objectives"] = [ctx.point(o, path + ("objectives", j)) for j, o in enumerate(obj)]
    if "objective_names" in context:  # the figures' names of the objectives, in the order of objectives ("C")
        names = ctx.seq(context["objective_names"], path + ("objective_names",), "names, one per objective")
        if len(names) > len(context.get("objectives") or []):
            ctx.fail(path + ("objective_names",), f"names {len(names)} objectives; the context has "
                     f"{len(context.get('objectives') or [])}")
        context["objective_names"] = [ctx.text(n, path + ("objective_names", j), max_len=40, numbers=True)
                                      for j, n in enumerate(names)]
    if "combats" in context:
        pairs = ctx.seq(context["combats"], path + ("combats",), "pairs [unit id, enemy unit id]")
        for j, pair in enumerate(pairs):
            if not isinstance(pair, list) or len(pair) != 2:
                ctx.fail(path + ("combats", j), f"must be a pair [unit id, enemy unit id] (got {short(pair)})")
            ctx.unit_ids(pair, path + ("combats", j), units)
            if pair[0] == pair[1]:
                ctx.fail(path + ("combats", j), f"a unit cannot be in combat with itself ({pair[0]!r})")
    if "destroys" in context:
        d = ctx.mapping(context["destroys"], path + ("destroys",),
                        "{unit id: [unit ids it destroys, or {unit: id, models: N} for N of its models]}")
        if len(d) > MAX_LIST:
            ctx.fail(path + ("destroys",), f"has more than {MAX_LIST} entries")
        for k, v in d.items():
            ctx.unit_id(k, path + ("destroys", k), units)
            items = ctx.seq(v, path + ("destroys", k), "a list of unit ids or {unit: id, models: N}")
            for j, item in enumerate(items):
                ip = path + ("destroys", k, j)
                if isinstance(item, dict):
                    extra_keys = set(item) - {"unit", "models"}
                    if extra_keys or "unit" not in item:
                        ctx.fail(ip, f"must be a unit id or {{unit: id, models: N}} (got {short(item)})")
                    ctx.unit_id(item["unit"], ip + ("unit",), units)
                    if "models" in item:
                        ctx.int_(item["models"], ip + ("models",), 1, 10000)
                else:
                    ctx.unit_id(item, ip, units)
    if "round_winner" in context and context["round_winner"] is not None:
        ctx.ident(context["round_winner"], path + ("round_winner",))  # an unknown id is noted by the engine
    if "casualties" in context:  # a combat round step by step: {step label or number: {unit: [slots] | N}}
        steps = ctx.mapping(context["casualties"], path + ("casualties",), "{strike step label: {unit id: [slots] or N}}")
        for label, per in steps.items():
            p = path + ("casualties", label)
            if isinstance(label, bool) or not isinstance(label, (str, int)):
                ctx.fail(p, f"must be a strike step label like 'Initiative 5' or its number (got {short(label)})")
            per = ctx.mapping(per, p, "{unit id: [slots like r1f3] or a number of models}")
            for uid, v in per.items():
                ctx.unit_id(uid, p + (uid,), units)
                if isinstance(v, list):
                    ctx.seq(v, p + (uid,), "slot names like r1f3 or m2")
                    for i, x in enumerate(v):
                        if not isinstance(x, str) or len(x) > 20:
                            ctx.fail(p + (uid, i), f"must be a slot name like r1f3 or m2 (got {short(x)})")
                else:
                    ctx.int_(v, p + (uid,), 1, 100000)
    if "charge_moved" in context:
        d = ctx.mapping(context["charge_moved"], path + ("charge_moved",), "{unit id: inches moved}")
        for k, v in d.items():
            ctx.unit_id(k, path + ("charge_moved", k), units)
            ctx.num(v, path + ("charge_moved", k), lo=0.0, hi=MAX_CHARGE_IN, what="a distance in inches")
    return context


def _profile(profile: Any, path: tuple, ctx: _Ctx) -> dict:
    if not isinstance(profile, dict):
        ctx.fail(path, "must map characteristic names to values, e.g. {attacks: 1, initiative: 3}")
    _refuse_misspelt(profile, KNOWN_CHARACTERISTICS, path, ctx)
    for k, v in profile.items():
        kp = path + (k,)
        if not isinstance(k, str):
            ctx.fail(path, f"characteristic names must be text (got {short(k)})")
        if k == "parts":
            parts = ctx.seq(v, kp, "parts, e.g. [{name: rider, attacks: 2}]", max_len=20)
            for j, part in enumerate(parts):
                if not isinstance(part, dict):
                    ctx.fail(kp + (j,), "must be a part, e.g. {name: rider, attacks: 2}")
                _refuse_misspelt(part, KNOWN_CHARACTERISTICS, kp + (j,), ctx)
                for pk, pv in part.items():
                    if pk == "name":
                        ctx.text(pv, kp + (j, pk), numbers=True)
                    elif not isinstance(pk, str):
                        ctx.fail(kp + (j,), f"characteristic names must be text (got {short(pk)})")
                    elif pk in WHOLE_CHARACTERISTICS:
                        ctx.int_(pv, kp + (j, pk), 0, 100)
                    else:
                        ctx.num(pv, kp + (j, pk), lo=-MAX_CHARACTERISTIC, hi=MAX_CHARACTERISTIC)
        elif k == "size":
            ctx.enum(v, kp, ("regular", "large"))
        elif k in WHOLE_CHARACTERISTICS:
            ctx.int_(v, kp, 0, 100)
        else:
            ctx.num(v, kp, lo=-MAX_CHARACTERISTIC, hi=MAX_CHARACTERISTIC)
    return dict(profile)


def _unit(u: Any, path: tuple, ctx: _Ctx) -> Unit:
    if not isinstance(u, dict):
        ctx.fail(path, "must be a mapping describing one unit")
    _refuse_misspelt(u, RANKED_KEYS if not isinstance(u.get("models"), list) else SKIRMISH_KEYS, path, ctx)
    uid = ctx.ident(u.get("id"), path + ("id",))
    player = ctx.int_(u.get("player"), path + ("player",), 1, 2)
    profile = _profile(u.get("profile") or {}, path + ("profile",), ctx)
    keywords = u.get("keywords") or []
    if not isinstance(keywords, list):
        ctx.fail(path + ("keywords",), "must be a list of words, e.g. [horde]")
    ctx.seq(keywords, path + ("keywords",), "keywords", max_len=100)
    for j, k in enumerate(keywords):
        ctx.text(k, path + ("keywords", j), what="a word, e.g. horde")
    facing = ctx.num(u.get("facing", 0), path + ("facing",), lo=-MAX_ANGLE_DEG, hi=MAX_ANGLE_DEG,
                     what="an angle in degrees") % 360
    name = u.get("name")
    name = uid if name is None or name == "" else ctx.text(name, path + ("name",), numbers=True)
    if "troop_type" in u:
        ctx.enum(u["troop_type"], path + ("troop_type",), TROOP_TYPES)
    if "weapon" in u:
        ctx.enum(u["weapon"], path + ("weapon",), WEAPONS)
    models = u.get("models")
    if "base" not in u:
        ctx.fail(path + ("base",), "is missing: give [width, depth] in mm, or a round base's diameter")
    if isinstance(models, list):
        base = ctx.base(u["base"], path + ("base",), ranked=False)
        if not models:
            ctx.fail(path + ("models",), "must list at least one model")
        ctx.seq(models, path + ("models",), "models", max_len=MAX_UNIT_MODELS)
        placed = []
        for j, m in enumerate(models):
            mp = path + ("models", j)
            if isinstance(m, dict):
                if "at" not in m:
                    ctx.fail(mp, "must be [x, y] or {at: [x, y], base: ...}")
                at = ctx.point(m["at"], mp + ("at",))
                mb = ctx.base(m["base"], mp + ("base",), ranked=False) if "base" in m else None
                placed.append((at, mb))
            else:
                placed.append((ctx.point(m, mp), None))
        extra = {k: v for k, v in u.items() if k not in SKIRMISH_KEYS}
        return Unit(id=uid, player=player, kind="skirmish", base=base, facing_deg=facing, name=str(name),
                    profile=profile, keywords=list(keywords), placed=placed, extra=extra)
    base = ctx.base(u["base"], path + ("base",), ranked=True)
    if models is None:
        ctx.fail(path + ("models",), "is missing: a ranked unit gives a model count, a skirmish unit a list of positions")
    count = ctx.int_(models, path + ("models",), 1, MAX_UNIT_MODELS)
    files = ctx.int_(u.get("files", min(count, 5)), path + ("files",), 1, MAX_FILES)
    last = ctx.enum(u.get("last_rank", "center"), path + ("last_rank",), ("left", "center", "right"))
    empty = u.get("empty") or []
    if not isinstance(empty, list):
        ctx.fail(path + ("empty",), "must be a list of slot names such as [r1f3]")
    ctx.seq(empty, path + ("empty",), "slot names", max_len=MAX_UNIT_MODELS)
    ranks = math.ceil(count / files)
    if files * base.width_mm > MAX_COORD_MM or ranks * base.depth_mm > MAX_COORD_MM:
        ctx.fail(path + ("files",), f"makes a unit {files * base.width_mm:g} mm wide and {ranks * base.depth_mm:g} mm deep; "
                                    f"at most {MAX_COORD_MM:g} mm each way")
    for j, s in enumerate(empty):
        if not isinstance(s, str) or not SLOT_RE.match(s):
            ctx.fail(path + ("empty", j), f"must be a slot name r<rank>f<file> (got {short(s)})")
        r, f = parse_slot(s)
        if not (1 <= r <= ranks and 1 <= f <= files):
            ctx.fail(path + ("empty", j), f"slot {s} is outside the unit ({ranks} ranks of {files} files)")
    if "front" not in u:
        ctx.fail(path + ("front",), "is missing: the midpoint of the front edge of rank 1, [x, y] in mm")
    front = ctx.point(u["front"], path + ("front",))
    extra = {k: v for k, v in u.items() if k not in RANKED_KEYS}
    return Unit(id=uid, player=player, kind="ranked", base=base, facing_deg=facing, name=str(name),
                profile=profile, keywords=list(keywords), files=files, count=count, last_rank=last,
                empty=[str(s) for s in empty], front=front, extra=extra)


# ----- saving ----------------------------------------------------------------------------
def _num_out(v: float) -> Any:
    """A number as written: whole numbers without ``.0``, others at full precision."""
    v = float(v)
    return int(v) if v.is_integer() and abs(v) < 2 ** 53 else v


def _base_out(b: Any) -> Any:
    """A base as the file writes it: a diameter, ``[w, d]`` or ``{oval: [w, d]}``."""
    raw = base_of(b).raw()
    if isinstance(raw, dict):
        return {"oval": [_num_out(x) for x in raw["oval"]]}
    if isinstance(raw, (list, tuple)):
        return [_num_out(x) for x in raw]
    return _num_out(raw)


POSITION_MM_PLACES = 2  # a position a move computed is written to 0.01 mm


def position_out(v: float) -> Any:
    """A position coordinate (mm) as written: one a move computed (more than 6 decimals:
    ``655.5365909959892``) to 0.01 mm (``655.54``), far inside every contact tolerance
    (0.5 mm); one a person typed (``100.125``) exactly as it is."""
    v = float(v)
    if math.isfinite(v) and round(v, 6) != v:
        v = round(v, POSITION_MM_PLACES) + 0.0  # (no "-0.0")
    return _num_out(v)


def _point_out(p: Any) -> list:
    return [position_out(p[0]), position_out(p[1])]


def unit_to_dict(u: Unit) -> dict:
    """The unit as scenario-file data (contract keys first, then keys kept from the file)."""
    d: dict = {"id": u.id, "player": u.player}
    if u.name and u.name != u.id:
        d["name"] = u.name
    if u.profile:
        d["profile"] = u.profile
    if u.keywords:
        d["keywords"] = list(u.keywords)
    d["base"] = _base_out(u.base)
    if u.is_ranked:
        d.update({"files": u.files, "models": u.count, "last_rank": u.last_rank})
        if u.empty:
            d["empty"] = list(u.empty)
        d["front"] = _point_out(u.front)
        d["facing"] = _num_out(u.facing_deg)
    else:
        d["models"] = [_point_out(p) if b is None else {"at": _point_out(p), "base": _base_out(b)} for p, b in u.placed]
        d["facing"] = _num_out(u.facing_deg)
    d.update(u.extra)
    return d


def board_to_dict(b: Board) -> dict:
    """The board as scenario-file data; ``board_from_dict(board_to_dict(b))`` equals ``b``
    but for positions a move computed, written to 0.01 mm (:func:`position_out`)."""
    d: dict = {}
    if b.title:
        d["title"] = b.title
    d["ruleset"] = b.ruleset
    if b.seed is not None:
        d["seed"] = b.seed
    d["table"] = {"width": _num_out(b.table[0]), "height": _num_out(b.table[1])}
    if b.context:
        ctx = dict(b.context)
        if "objectives" in ctx:
            ctx["objectives"] = [_point_out(p) for p in ctx["objectives"]]
        d["context"] = ctx
    if b.terrain:
        d["terrain"] = [{"name": t["name"], "kind": t["kind"], "points": [_point_out(p) for p in t["points"]],
                         **{k: v for k, v in t.items() if k not in ("name", "kind", "points")}} for t in b.terrain]
    d["units"] = [unit_to_dict(u) for u in b.units]
    d.update(b.extra)
    return d


def dump_scenario(b: Board) -> str:
    """Scenario YAML text for ``b`` (a fresh file: no comments to keep)."""
    return yaml.safe_dump(board_to_dict(b), sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def read_raw(path: str | Path) -> str:
    """The text of a scenario file exactly as it is (a UTF-8 BOM and CRLF line ends kept);
    raises :class:`ScenarioError`."""
    data = read_bytes(path, ScenarioError)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(str(path), data[: exc.start].count(b"\n") + 1, "", "is not UTF-8 text") from None


def meaning(text: str, filename: str = "<scenario>") -> dict:
    """What a scenario text means as file data (``board_to_dict`` of its board); raises
    :class:`ScenarioError` (a ``ValueError``)."""
    return board_to_dict(parse_scenario(text[1:] if text.startswith("\ufeff") else text, filename))


@dataclass
class SavePlan:
    """What a save would write: ``text``, and ``notes`` on what of the old file's layout cannot be
    kept (empty: every byte the user did not change is kept); ``template`` names the text kept."""
    text: str
    notes: list = field(default_factory=list)
    template: str = ""


def plan_save(b: Board, path: str | os.PathLike | None = None, template: Optional[str] = None) -> SavePlan:
    """The text :func:`save_scenario` writes to ``path`` for ``b``: the file being replaced with
    only the changed values rewritten in place (:func:`game.core.savefile.plan_text`), else
    ``template`` (the text the board was loaded from, kept by the window: a file made invalid
    outside still keeps its comments), else the file the board was loaded from, else a fresh file."""
    cands: list[tuple[str, str]] = []
    target = Path(os.path.realpath(path)) if path is not None else None
    if target is not None:
        cands.append(("file", str(target)))
    if template is not None:
        cands.append(("text", template))
    if b.source and not b.source.startswith("<"):
        cands.append(("file", b.source))
    new = board_to_dict(b)
    notes: list[str] = []
    for kind, what in cands:
        try:
            text = read_raw(what) if kind == "file" else str(what)
            base = meaning(text, what if kind == "file" else "<template>")
        except (ScenarioError, OSError):
            continue
        from game.core.savefile import plan_text  # saving only: loading a file never imports it
        out, notes = plan_text(text, base, new, meaning)
        if out is not None:
            return SavePlan(out, notes, what if kind == "file" else "the text last opened or saved")
    return SavePlan(dump_scenario(b), notes)


def scenario_text(b: Board, path: str | os.PathLike | None = None) -> str:
    """The text :func:`save_scenario` would write to ``path`` for ``b`` (:func:`plan_save`)."""
    return plan_save(b, path).text


def save_scenario(b: Board, path: str | os.PathLike, template: Optional[str] = None) -> Path:
    """Write ``b`` to ``path`` losslessly (:func:`plan_save`) and atomically: a temporary
    file in the target's folder, flushed and fsynced, then renamed over the target, so an
    interrupted save leaves the old file whole. A symlink is followed (its target is written);
    a read-only file, a folder or a device raise :class:`SaveError` (an ``OSError``).
    Returns the path written."""
    from game.core.savefile import target_of, write_atomic  # saving only: loading a file never imports it
    target_of(path)  # refuse before doing any work
    return write_atomic(path, plan_save(b, path, template).text)
