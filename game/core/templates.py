"""Unit templates per ruleset: troop types with their usual base sizes and a starting profile.

Pure. ``rulesets/templates/<ruleset id>.yaml`` (a ruleset without a file uses the one of the
ruleset it inherits from, and so on up) lists the New unit palette's entries::

    templates:
      - label: Infantry (20 mm)        # the palette button
        name: Infantry                 # the new unit's name stem (default: the label)
        base: [20, 20]                 # [width, depth] mm: rank-and-file; a number: round, skirmish
        models: 20
        files: 5                       # rank-and-file only
        profile: {attacks: 1, initiative: 3, movement: 4}
        keywords: [Horde]              # optional
        unit: {troop_type: regular_infantry}   # optional unit keys beyond the contract

The values are our own typical picks for a quick start (editable in the unit panel), never
rulebook text. :func:`load_templates` checks the file (:class:`TemplateError` names the file,
line and field) and returns :class:`Template`\\ s; :func:`template_unit` makes the unit.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

from game.core import geometry as g
from game.core.board import Board, Unit
from game.core.edits import BaseChoice, MAX_BASE_MM, MAX_MODELS, new_unit, unique_id
from game.core.validate import Checker
from game.core.yamlfile import FileError, load_file
from game.core.ruleset import load_ruleset, RulesetError

TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "rulesets" / "templates"
KEYS = {"label", "name", "base", "models", "files", "profile", "keywords", "unit"}
MAX_TEMPLATES = 40


class TemplateError(FileError):
    """A template file that cannot be used: ``file``, ``line``, ``field`` and what is wrong."""


@dataclass(frozen=True)
class Template:
    """One palette entry: ``choice`` (base, models, files, label), the unit's ``name`` stem,
    ``profile``, ``keywords`` and ``unit`` keys (``troop_type``...)."""

    choice: BaseChoice
    name: str
    profile: dict = field(default_factory=dict)
    keywords: tuple = ()
    unit: dict = field(default_factory=dict)


def template_file(ruleset_id: str, directory: Optional[Path] = None) -> Optional[Path]:
    """The template file of ``ruleset_id`` or of the nearest ruleset it inherits from (None: none)."""
    d = directory or TEMPLATE_DIR
    rid: Optional[str] = ruleset_id
    seen = set()
    while rid and rid not in seen:
        seen.add(rid)
        p = d / f"{rid}.yaml"
        if p.is_file():
            return p
        try:
            rid = load_ruleset(rid).inherits
        except RulesetError:
            return None
    return None


def load_templates(ruleset_id: str, directory: Optional[Path] = None) -> list[Template]:
    """The templates for ``ruleset_id`` ([] without a file). Raises :class:`TemplateError`."""
    p = template_file(ruleset_id, directory)
    return [] if p is None else parse_templates(p)


def parse_templates(path: Path) -> list[Template]:
    data, loc = load_file(path, TemplateError)
    ctx = Checker(str(path), loc.lines, TemplateError)
    if not isinstance(data, dict) or set(data) != {"templates"}:
        ctx.fail((), "must be a mapping with one key, templates: [...]")
    items = ctx.seq(data["templates"], ("templates",), "templates", max_len=MAX_TEMPLATES)
    out = []
    for i, t in enumerate(items):
        p = ("templates", i)
        if not isinstance(t, dict):
            ctx.fail(p, "must be {label, base, models, files, profile}")
        for k in t:
            if k not in KEYS:
                ctx.fail(p + (k,), f"unknown key (allowed: {', '.join(sorted(KEYS))})")
        for k in ("label", "base", "models"):
            if k not in t:
                ctx.fail(p, f"missing '{k}'")
        label = ctx.text(t["label"], p + ("label",), max_len=40)
        name = ctx.text(t.get("name", label), p + ("name",), max_len=40)
        b = t["base"]
        if isinstance(b, list) and len(b) == 2:
            base: Any = (ctx.num(b[0], p + ("base", 0), lo=1, hi=MAX_BASE_MM), ctx.num(b[1], p + ("base", 1), lo=1, hi=MAX_BASE_MM))
        else:
            base = ctx.num(b, p + ("base",), lo=1, hi=MAX_BASE_MM, what="a diameter in mm or [width, depth]")
        models = ctx.int_(t["models"], p + ("models",), 1, MAX_MODELS)
        files = ctx.int_(t.get("files", 1), p + ("files",), 1, MAX_MODELS)
        prof = t.get("profile") or {}
        ctx.mapping(prof, p + ("profile",), "profile values, e.g. {attacks: 1, initiative: 3}")
        for k, v in prof.items():
            if k == "parts" and isinstance(v, list) and all(isinstance(x, dict) for x in v):
                continue  # model parts: checked like a scenario's when the unit is made
            if not isinstance(k, str) or (not isinstance(v, (int, float, str)) or isinstance(v, bool)):
                ctx.fail(p + ("profile", str(k)), "must be a name and a number or a word")
        kws = t.get("keywords") or []
        ctx.seq(kws, p + ("keywords",), "keywords")
        for j, k in enumerate(kws):
            ctx.text(k, p + ("keywords", j), max_len=40)
        extra = t.get("unit") or {}
        ctx.mapping(extra, p + ("unit",), "unit keys, e.g. {troop_type: regular_infantry}")
        for k, v in extra.items():
            ctx.text(v, p + ("unit", str(k)), max_len=40, numbers=True)
        out.append(Template(BaseChoice(label, base, models, files), name, dict(prof), tuple(kws),
                            {str(k): str(v) for k, v in extra.items()}))
    return out


def template_unit(board: Board, t: Template, center: g.Point, player: int = 1,
                  facing_deg: Optional[float] = None) -> Unit:
    """A new unit of template ``t`` centred on ``center`` (mm), for ``player``; named after
    the template, numbered across both players ("Spearmen 2", id ``p1_spearmen_2``)."""
    u = new_unit(board, t.choice, center, player, facing_deg, profile=copy.deepcopy(t.profile) or None)
    slug = unique_id(Board(units=(), ruleset=board.ruleset), t.name)
    used = {x.id for x in board.units}
    names = {x.name for x in board.units}
    n = 1
    while f"p{player}_{slug}_{n}" in used or f"{t.name} {n}" in names:
        n += 1
    # numbered across the board: the name alone tells the units apart
    return replace(u, id=f"p{player}_{slug}_{n}", name=f"{t.name} {n}", keywords=list(t.keywords),
                   extra={**u.extra, **t.unit})
