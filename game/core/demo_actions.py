"""The board edits of a demo's actions (:mod:`game.core.demo`): ``move``, ``wheel``, ``turn``,
``remove``, ``context`` and ``apply_moves``, each given the board and returning the board after
it; unit and model ids are checked here, failing through the checker ``ctx`` (file, line,
field). Lengths mm, angles degrees clockwise."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Optional

from game.core import geometry as g
from game.core.analysis import Analysis
from game.core.board import Board, Unit, parse_slot
from game.core.scenario import check_context
from game.core.validate import Checker


def unit(ctx: Checker, board: Optional[Board], uid: str, path: tuple) -> Unit:
    """The unit ``uid`` of ``board``; fails when there is no board yet or no such unit."""
    if board is None:
        ctx.fail(path, "no scenario loaded yet (add '- load: FILE' first)")
    try:
        return board.unit(uid)
    except KeyError:
        ctx.fail(path + ("unit",), f"no unit {uid!r} on the board (units: {', '.join(u.id for u in board.units)})")


def model_ids(ctx: Checker, board: Board, an: Analysis, ids: list[str], path: tuple) -> list[str]:
    """Expand unit ids to their models; fail on ids neither the board nor the analysis knows."""
    models = [m.id for m in board.models()]
    models += [m for m in an.models if m not in set(models)]
    units = {u.id for u in board.units}
    out = []
    for x in ids:
        if x in units:
            out += [m for m in models if m.startswith(x + ".")]
        elif x in models:
            out.append(x)
        else:
            ctx.fail(path, f"no model or unit {x!r} on the board")
    return out


def remove(ctx: Checker, board: Board, d: dict, path: tuple) -> Board:
    """``remove: {unit, slots | count}``: casualties taken off the unit (ranked: the named slots
    emptied or the rearmost ``count``; skirmish: the named ``m`` models or the last ``count``)."""
    u = unit(ctx, board, d["unit"], path)
    if u.is_ranked:
        if "count" in d:
            n = d["count"]
            if n >= len(u.occupied_slots()):
                ctx.fail(path + ("count",), f"{u.id} has only {len(u.occupied_slots())} models")
            u = replace(u, count=u.count - n)  # the rearmost models go first
        else:
            occupied = {f"r{r}f{f}" for r, f in u.occupied_slots()}
            for i, s in enumerate(d["slots"]):
                try:
                    parse_slot(s)
                except ValueError:
                    ctx.fail(path + ("slots", i), f"not a slot name like r1f3 (got {s!r})")
                if s not in occupied:
                    ctx.fail(path + ("slots", i), f"{u.id} has no model in slot {s}")
            u = replace(u, empty=list(u.empty) + list(d["slots"]))
    else:
        if "count" in d:
            if d["count"] >= len(u.placed):
                ctx.fail(path + ("count",), f"{u.id} has only {len(u.placed)} models")
            u = replace(u, placed=u.placed[: len(u.placed) - d["count"]])
        else:
            drop = set()
            for i, s in enumerate(d["slots"]):
                if not (s.startswith("m") and s[1:].isdigit() and 1 <= int(s[1:]) <= len(u.placed)):
                    ctx.fail(path + ("slots", i), f"{u.id} has no model {s!r} (m1 to m{len(u.placed)})")
                drop.add(int(s[1:]) - 1)
            u = replace(u, placed=[p for i, p in enumerate(u.placed) if i not in drop])
    return board.with_unit(u)


def apply_moves(board: Board, an: Analysis) -> Board:
    """Make rule-mandated moves real: a skirmish model goes to its path's end; a ranked unit's
    shuffled models stay on the board as drawn by the analysis next time (the analysis
    recomputes them), so only skirmish moves change the board."""
    for mid, path in (an.moves or {}).items():
        if not path:
            continue
        uid, slot = mid.split(".", 1)
        try:
            u = board.unit(uid)
        except KeyError:
            continue
        if not u.is_ranked and slot.startswith("m") and slot[1:].isdigit():
            i = int(slot[1:]) - 1
            if 0 <= i < len(u.placed):
                placed = list(u.placed)
                placed[i] = (tuple(path[-1]), placed[i][1])
                board = board.with_unit(replace(u, placed=placed))
    return board


def move(ctx: Checker, board: Board, v: dict, path: tuple) -> Board:
    """``move: {unit, forward_mm | by: [dx, dy] | to: [x, y]}`` (``to``: a ranked unit's front
    centre, a skirmish unit's centre)."""
    u = unit(ctx, board, v["unit"], path)
    if "forward_mm" in v:
        f = g.forward(u.facing_deg)
        dx, dy = f[0] * float(v["forward_mm"]), f[1] * float(v["forward_mm"])
    elif "by" in v:
        dx, dy = float(v["by"][0]), float(v["by"][1])
    else:
        c = u.front if u.is_ranked else u.center()
        dx, dy = float(v["to"][0]) - c[0], float(v["to"][1]) - c[1]
    return board.with_unit(u.translated(dx, dy))


def wheel(ctx: Checker, board: Board, v: dict, path: tuple) -> Board:
    """``wheel: {unit, deg, pivot}``: a ranked unit turned about a front corner."""
    u = unit(ctx, board, v["unit"], path)
    if not u.is_ranked:
        ctx.fail(path + ("unit",), f"{u.id} is a skirmish unit; use turn")
    side = -1 if v.get("pivot", "left") == "left" else 1
    pivot = g.add(u.front, g.scale(g.right(u.facing_deg), side * u.width_mm / 2))
    return board.with_unit(u.rotated(float(v["deg"]), pivot))


def turn(ctx: Checker, board: Board, v: dict, path: tuple) -> Board:
    """``turn: {unit, deg}``: a unit turned about its centre."""
    u = unit(ctx, board, v["unit"], path)
    return board.with_unit(u.rotated(float(v["deg"]), u.center()))


def context(ctx: Checker, board: Board, v: dict, path: tuple) -> Board:
    """``context: {key: value}``: phase context keys merged in, checked against the board."""
    merged = dict(board.context)
    merged.update(v)
    return replace(board, context=check_context(ctx, merged, {u.id for u in board.units}, path))


#: the actions that edit the board by themselves: kind -> edit(ctx, board, value, path) -> board
EDITS: dict[str, Callable[[Checker, Board, Any, tuple], Board]] = {
    "move": move, "wheel": wheel, "turn": turn, "remove": remove, "context": context}
