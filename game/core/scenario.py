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
import re
import tempfile
from pathlib import Path
from typing import Any, Optional

import yaml

from .board import Board, Unit, parse_slot
from .ruleset import available as available_rulesets
from .yamlfile import FileError, Locator, parse_yaml, read_text

ID_RE = re.compile(r"^[a-z0-9_]+$")
SCI_RE = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+$")
WHOLE_CHARACTERISTICS = ("attacks", "initiative", "agility", "height")
TOP_KEYS = {"title", "ruleset", "seed", "table", "units", "context", "terrain", "expect"}
RANKED_KEYS = {"id", "player", "name", "profile", "keywords", "base", "files", "models", "last_rank",
               "empty", "front", "facing"}
CONTEXT_STEPS = ("pile_in", "fight", "consolidate")


class ScenarioError(FileError):
    """A scenario that breaks the contract: ``file``, ``line`` (1-based or None), ``field``."""


class _Ctx(Locator):
    def __init__(self, file: str, lines: dict):
        super().__init__(file, lines, ScenarioError)

    def num(self, v: Any, path: tuple, *, positive: bool = False) -> float:
        if isinstance(v, str) and SCI_RE.match(v.strip()):
            v = float(v)  # YAML 1.1 reads 1e3 as text; take it as the number it spells
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            self.fail(path, f"must be a number (got {v!r})")
        if positive and v <= 0:
            self.fail(path, f"must be greater than 0 (got {v!r})")
        return float(v)

    def int_(self, v: Any, path: tuple, lo: int = 1, hi: Optional[int] = None) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            rng = f"from {lo} to {hi}" if hi is not None else f"{lo} or more"
            self.fail(path, f"must be a whole number {rng} (got {v!r})")
        return v

    def point(self, v: Any, path: tuple) -> tuple[float, float]:
        if not isinstance(v, (list, tuple)) or len(v) != 2:
            self.fail(path, f"must be a point [x, y] in mm (got {v!r})")
        return (self.num(v[0], path + (0,)), self.num(v[1], path + (1,)))

    def base(self, v: Any, path: tuple, *, ranked: bool) -> Any:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            if ranked:
                self.fail(path, f"a ranked unit needs a rectangular base [width, depth] in mm (got {v!r})")
            return self.num(v, path, positive=True)
        if isinstance(v, dict) and set(v) == {"oval"} and ranked:
            self.fail(path, "oval bases are for skirmish units (models placed one by one); a ranked unit "
                            "needs a rectangular base [width, depth] in mm")
        if isinstance(v, dict) and set(v) == {"oval"} and not ranked:
            w, d = self.point(v["oval"], path + ("oval",))
            if w <= 0 or d <= 0:
                self.fail(path, "oval sizes must be greater than 0")
            return {"oval": [w, d]}
        if isinstance(v, (list, tuple)) and len(v) == 2:
            w = self.num(v[0], path + (0,), positive=True)
            d = self.num(v[1], path + (1,), positive=True)
            return (w, d)
        self.fail(path, "must be [width, depth] in mm" + ("" if ranked else ", a round base's diameter, or {oval: [w, d]}")
                  + f" (got {v!r})")


def load_scenario(path: str | os.PathLike) -> Board:
    """Read and validate a scenario file. Raises :class:`ScenarioError` (file, line, field)."""
    return parse_scenario(read_text(path, ScenarioError), str(Path(path)))


def parse_scenario(text: str, filename: str = "<scenario>") -> Board:
    """Validate scenario YAML ``text``; ``filename`` is used in error messages."""
    data, loc = parse_yaml(text, filename, ScenarioError)
    return board_from_dict(data, _Ctx(filename, loc.lines))


def board_from_dict(data: Any, ctx: Optional[_Ctx] = None) -> Board:
    """Build a :class:`Board` from already-parsed data (errors carry no line without ``ctx``)."""
    ctx = ctx or _Ctx("<scenario>", {})
    if not isinstance(data, dict):
        ctx.fail((), "must be a mapping with at least 'ruleset' and 'units'")
    extra = {k: v for k, v in data.items() if k not in TOP_KEYS}
    rs = data.get("ruleset")
    shipped = available_rulesets()
    if "ruleset" not in data:
        ctx.fail(("ruleset",), f"is missing: name the rules to apply, one of {', '.join(shipped)}")
    if not isinstance(rs, str) or not ID_RE.match(rs) or (shipped and rs not in shipped):
        ctx.fail(("ruleset",), f"must be one of the shipped rulesets: {', '.join(shipped)} (got {rs!r})")
    title = data.get("title", "")
    if title is None:
        title = ""
    if not isinstance(title, (str, int, float)):
        ctx.fail(("title",), "must be text")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        ctx.fail(("seed",), f"must be a whole number (got {seed!r})")
    table = (1200.0, 800.0)
    if "table" in data:
        t = data["table"]
        if not isinstance(t, dict) or set(t) - {"width", "height"}:
            ctx.fail(("table",), "must be {width: mm, height: mm}")
        table = (ctx.num(t.get("width", 1200), ("table", "width"), positive=True),
                 ctx.num(t.get("height", 800), ("table", "height"), positive=True))
    units_raw = data.get("units")
    if not isinstance(units_raw, list):
        ctx.fail(("units",), "must be a list of units (it may be empty: an empty table)")
    units: list[Unit] = []
    seen: set[str] = set()
    for i, u in enumerate(units_raw):
        unit = _unit(u, ("units", i), ctx)
        if unit.id in seen:
            ctx.fail(("units", i, "id"), f"unit id {unit.id!r} is used twice; ids must be unique")
        seen.add(unit.id)
        units.append(unit)
    context = data.get("context") or {}
    if not isinstance(context, dict):
        ctx.fail(("context",), "must be a mapping (step, active_player, charged, fights_first, objectives)")
    context = dict(context)
    if "step" in context and context["step"] not in CONTEXT_STEPS:
        ctx.fail(("context", "step"), f"must be one of {', '.join(CONTEXT_STEPS)} (got {context['step']!r})")
    if "active_player" in context:
        ctx.int_(context["active_player"], ("context", "active_player"), 1, 2)
    for key in ("charged", "fights_first"):
        v = context.get(key, [])
        if not isinstance(v, list) or any(not isinstance(x, str) or x not in seen for x in v):
            bad = [x for x in (v if isinstance(v, list) else [v]) if not isinstance(x, str) or x not in seen]
            ctx.fail(("context", key), f"must list unit ids of this file (unknown: {bad!r})")
    if "combats" in context:
        _check_combats(context["combats"], seen, ctx)
    if "objectives" in context:
        obj = context["objectives"]
        if not isinstance(obj, list):
            ctx.fail(("context", "objectives"), "must be a list of points [x, y] in mm")
        context["objectives"] = [ctx.point(o, ("context", "objectives", j)) for j, o in enumerate(obj)]
    terrain = []
    for j, t in enumerate(data.get("terrain") or []):
        path = ("terrain", j)
        if not isinstance(t, dict) or not isinstance(t.get("points"), list) or len(t["points"]) < 3:
            ctx.fail(path, "must be {name, kind: impassable, points: [[x, y], ...]} with 3 or more points")
        kind = t.get("kind", "impassable")
        if kind != "impassable":
            ctx.fail(path + ("kind",), f"must be 'impassable' (got {kind!r})")
        terrain.append({"name": str(t.get("name", f"terrain {j + 1}")), "kind": kind,
                        "points": [ctx.point(p, path + ("points", k)) for k, p in enumerate(t["points"])]})
    return Board(units=units, ruleset=rs, title=str(title), seed=seed, table=table, context=context,
                 terrain=terrain, extra=extra, source=ctx.file)


def _check_combats(v: Any, ids: set, ctx: _Ctx) -> None:
    """``context.combats``: a list of ``[mover, enemy]`` pairs of two different unit ids of this file."""
    path = ("context", "combats")
    if not isinstance(v, list):
        ctx.fail(path, "must be a list of [mover, enemy] unit id pairs")
    for j, pair in enumerate(v):
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(x, str) for x in pair):
            ctx.fail(path + (j,), f"must be a pair [mover, enemy] of unit ids (got {pair!r})")
        bad = [x for x in pair if x not in ids]
        if bad:
            ctx.fail(path + (j,), f"must name unit ids of this file (unknown: {bad!r})")
        if pair[0] == pair[1]:
            ctx.fail(path + (j,), f"a unit cannot be in combat with itself ({pair[0]!r})")


def _unit(u: Any, path: tuple, ctx: _Ctx) -> Unit:
    if not isinstance(u, dict):
        ctx.fail(path, "must be a mapping describing one unit")
    uid = u.get("id")
    if not isinstance(uid, str) or not ID_RE.match(uid):
        ctx.fail(path + ("id",), f"must be lower-case letters, digits and _ (got {uid!r})")
    player = ctx.int_(u.get("player"), path + ("player",), 1, 2)
    profile = u.get("profile") or {}
    if not isinstance(profile, dict):
        ctx.fail(path + ("profile",), "must map characteristic names to values, e.g. {attacks: 1, initiative: 3}")
    for k, v in profile.items():
        if k == "parts":
            if not isinstance(v, list) or not all(isinstance(p, dict) for p in v):
                ctx.fail(path + ("profile", "parts"), "must be a list of parts, e.g. [{name: rider, attacks: 2}]")
            for j, part in enumerate(v):
                for pk, pv in part.items():
                    if pk == "name":
                        if not isinstance(pv, (str, int)):
                            ctx.fail(path + ("profile", "parts", j, pk), f"must be text (got {pv!r})")
                    elif pk in WHOLE_CHARACTERISTICS:
                        ctx.int_(pv, path + ("profile", "parts", j, pk), 0, 100)
                    elif isinstance(pv, bool) or not isinstance(pv, (int, float)) or not math.isfinite(pv):
                        ctx.fail(path + ("profile", "parts", j, pk), f"must be a number (got {pv!r})")
        elif k == "size":
            if v not in ("regular", "large"):
                ctx.fail(path + ("profile", "size"), f"must be regular or large (got {v!r})")
        elif k in WHOLE_CHARACTERISTICS:
            ctx.int_(v, path + ("profile", k), 0, 100)
        elif isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            ctx.fail(path + ("profile", k), f"must be a number (got {v!r})")
    keywords = u.get("keywords") or []
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        ctx.fail(path + ("keywords",), "must be a list of words, e.g. [horde]")
    facing = ctx.num(u.get("facing", 0), path + ("facing",)) % 360
    name = u.get("name") or uid
    models = u.get("models")
    if "base" not in u:
        ctx.fail(path + ("base",), "is missing: give [width, depth] in mm, or a round base's diameter")
    if isinstance(models, list):
        base = ctx.base(u["base"], path + ("base",), ranked=False)
        if not models:
            ctx.fail(path + ("models",), "must list at least one model")
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
        extra = {k: v for k, v in u.items() if k not in {"id", "player", "name", "profile", "keywords", "base", "models", "facing"}}
        return Unit(id=uid, player=player, kind="skirmish", base=base, facing_deg=facing, name=str(name),
                    profile=dict(profile), keywords=list(keywords), placed=placed, extra=extra)
    base = ctx.base(u["base"], path + ("base",), ranked=True)
    if models is None:
        ctx.fail(path + ("models",), "is missing: a ranked unit gives a model count, a skirmish unit a list of positions")
    count = ctx.int_(models, path + ("models",), 1, 10000)
    files = ctx.int_(u.get("files", min(count, 5)), path + ("files",), 1, 1000)
    last = u.get("last_rank", "center")
    if last not in ("left", "center", "right"):
        ctx.fail(path + ("last_rank",), f"must be left, center or right (got {last!r})")
    empty = u.get("empty") or []
    if not isinstance(empty, list):
        ctx.fail(path + ("empty",), "must be a list of slot names such as [r1f3]")
    ranks = math.ceil(count / files)
    for j, s in enumerate(empty):
        try:
            r, f = parse_slot(str(s))
        except ValueError:
            ctx.fail(path + ("empty", j), f"must be a slot name r<rank>f<file> (got {s!r})")
        if not (1 <= r <= ranks and 1 <= f <= files):
            ctx.fail(path + ("empty", j), f"slot {s} is outside the unit ({ranks} ranks of {files} files)")
    if "front" not in u:
        ctx.fail(path + ("front",), "is missing: the midpoint of the front edge of rank 1, [x, y] in mm")
    front = ctx.point(u["front"], path + ("front",))
    extra = {k: v for k, v in u.items() if k not in RANKED_KEYS}
    return Unit(id=uid, player=player, kind="ranked", base=base, facing_deg=facing, name=str(name),
                profile=dict(profile), keywords=list(keywords), files=files, count=count, last_rank=last,
                empty=[str(s) for s in empty], front=front, extra=extra)


# ----- saving ----------------------------------------------------------------------------
def _num_out(v: float) -> Any:
    v = round(float(v), 4)
    return int(v) if v == int(v) else v


def unit_to_dict(u: Unit) -> dict:
    """The unit as scenario-file data (contract keys first, then keys kept from the file)."""
    d: dict = {"id": u.id, "player": u.player}
    if u.name and u.name != u.id:
        d["name"] = u.name
    if u.profile:
        d["profile"] = u.profile
    if u.keywords:
        d["keywords"] = list(u.keywords)

    def base_out(b: Any) -> Any:
        if isinstance(b, dict):
            return {"oval": [_num_out(x) for x in b["oval"]]}
        if isinstance(b, (list, tuple)):
            return [_num_out(x) for x in b]
        return _num_out(b)

    d["base"] = base_out(u.base)
    if u.kind == "ranked":
        d.update({"files": u.files, "models": u.count, "last_rank": u.last_rank})
        if u.empty:
            d["empty"] = list(u.empty)
        d["front"] = [_num_out(u.front[0]), _num_out(u.front[1])]
        d["facing"] = _num_out(u.facing_deg)
    else:
        d["models"] = [[_num_out(p[0]), _num_out(p[1])] if b is None else
                       {"at": [_num_out(p[0]), _num_out(p[1])], "base": base_out(b)} for p, b in u.placed]
        d["facing"] = _num_out(u.facing_deg)
    d.update(u.extra)
    return d


def board_to_dict(b: Board) -> dict:
    """The board as scenario-file data; ``board_from_dict(board_to_dict(b))`` equals ``b``."""
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
            ctx["objectives"] = [[_num_out(p[0]), _num_out(p[1])] for p in ctx["objectives"]]
        d["context"] = ctx
    if b.terrain:
        d["terrain"] = [{"name": t["name"], "kind": t["kind"],
                         "points": [[_num_out(p[0]), _num_out(p[1])] for p in t["points"]]} for t in b.terrain]
    d["units"] = [unit_to_dict(u) for u in b.units]
    d.update(b.extra)
    return d


def dump_scenario(b: Board) -> str:
    """Scenario YAML text for ``b``."""
    return yaml.safe_dump(board_to_dict(b), sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def save_scenario(b: Board, path: str | os.PathLike) -> None:
    """Write ``b`` to ``path`` atomically: a temporary file in the same folder, flushed and
    fsynced, then renamed over the target, so an interrupted save leaves the old file whole."""
    path = Path(path)
    text = dump_scenario(b)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent or "."))
    try:
        # mkstemp makes the file private (0600): give it the old file's mode, or the usual one
        try:
            mode = path.stat().st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
