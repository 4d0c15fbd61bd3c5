"""In-process checker for scenario files carrying an ``expect:`` block (the conformance format).

Mirrors ``shared/conformance/check.py`` for the keys our golden files use, without a
subprocess per case: attack/support sets, attack counts, targets, gap links, moved models,
strike order (units per step), allocation, rank_bonus, fighting_rank_models.
"""
from __future__ import annotations

import dataclasses

import math
import re
from pathlib import Path

import yaml

from game.core.analyse import analyse
from game.core.scenario import board_from_dict


def expand(unit: str, names) -> set[str]:
    out = set()
    for name in names or []:
        m = re.fullmatch(r"(r\d+f|m)(\d+)-(\d+)", str(name))
        if m:
            out |= {f"{unit}.{m.group(1)}{i}" for i in range(int(m.group(2)), int(m.group(3)) + 1)}
        else:
            out.add(f"{unit}.{name}")
    return out


def placed(board, deg: float, shift=(0.0, 0.0)):
    """``board`` turned ``deg`` clockwise about its middle and moved by ``shift`` (mm) on a table
    grown so it stays on the table; objectives and terrain turn and move with it."""
    import copy

    w, h = board.table
    size = max(w, h) * 1.6
    c = (w / 2, h / 2)
    off = (size / 2 - c[0] + shift[0], size / 2 - c[1] + shift[1])
    a = math.radians(deg)
    ca, sa = math.cos(a), math.sin(a)

    def rot(p):
        x, y = p[0] - c[0], p[1] - c[1]
        return (c[0] + x * ca - y * sa + off[0], c[1] + x * sa + y * ca + off[1])

    context = copy.deepcopy(board.context)
    if context.get("objectives"):
        context["objectives"] = [rot(o) for o in context["objectives"]]
    return dataclasses.replace(board, units=tuple(u.rotated(deg, c).translated(*off) for u in board.units),
                               table=(size, size), context=context,
                               terrain=[{**t, "points": [rot(p) for p in t["points"]]} for t in board.terrain])


def run_case(path: Path, ruleset: str | None = None, placement: tuple | None = None):
    """Analyse the scenario at ``path`` (optionally under another ``ruleset``, checked against
    its ``expect_<ruleset>`` block; ``placement`` ``(degrees, (dx, dy))`` turns and moves the
    board first, see :func:`placed`); return (analysis JSON, list of mismatches)."""
    data = yaml.safe_load(Path(path).read_text())
    expect = data.pop("expect", {}) or {}
    per_ruleset = {k[len("expect_"):]: data.pop(k) for k in list(data) if k.startswith("expect_")}
    if ruleset:
        data["ruleset"] = ruleset
        expect = per_ruleset.get(ruleset, expect) or {}
    board = board_from_dict(data)
    if placement is not None:
        board = placed(board, placement[0], placement[1])
    res = analyse(board).to_json()
    return res, compare(res, expect)


def compare(res: dict, expect: dict) -> list[str]:
    errors = []
    models = res["models"]
    for role in ("attack", "support"):
        for unit, names in (expect.get(role) or {}).items():
            want = expand(unit, names)
            got = {m for m, i in models.items() if m.startswith(unit + ".") and i["role"] == role}
            if want != got:
                errors.append(f"{role} {unit}: missing {sorted(want - got)}, extra {sorted(got - want)}")
    for mid, n in (expect.get("attacks") or {}).items():
        if models.get(mid, {}).get("attacks") != n:
            errors.append(f"attacks {mid}: expected {n}, got {models.get(mid, {}).get('attacks')}")
    for mid, names in (expect.get("targets") or {}).items():
        if set(names) != set(models.get(mid, {}).get("targets", [])):
            errors.append(f"targets {mid}: expected {sorted(names)}, got {models.get(mid, {}).get('targets')}")
    links = {frozenset(p) for p in res.get("gap_links", [])}
    if "gap_links" in expect:
        want = {frozenset(p) for p in expect["gap_links"] or []}
        if want != links:
            errors.append(f"gap_links: expected {sorted(map(sorted, want))}, got {sorted(map(sorted, links))}")
    for pair in expect.get("gap_links_include") or []:
        if frozenset(pair) not in links:
            errors.append(f"gap_links: missing {pair}")
    if "moved" in expect:
        got = {m for m, p in res.get("moves", {}).items()
               if sum(math.dist(a, b) for a, b in zip(p, p[1:])) > 0.5}
        if set(expect["moved"] or []) != got:
            errors.append(f"moved: expected {sorted(expect['moved'] or [])}, got {sorted(got)}")
    if "strike_order" in expect:
        got = [sorted({m.split('.')[0] for m in s["models"]}) for s in res.get("strike_order", [])]
        want = [sorted(s) for s in expect["strike_order"]]
        if got != want:
            errors.append(f"strike_order: expected {want}, got {got}")
    for key in ("rank_bonus", "fighting_rank_models"):
        for unit, n in (expect.get(key) or {}).items():
            got = (res.get(key) or {}).get(unit)
            if got != n:
                errors.append(f"{key} {unit}: expected {n}, got {got}")
    for unit, n in (expect.get("allocation") or {}).items():
        got = res.get("allocation", {}).get(unit, {}).get("actual")
        if got != n:
            errors.append(f"allocation {unit}: expected {n}, got {got}")
    return errors
