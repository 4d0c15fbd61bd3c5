"""Shape checks of a demo's actions that need no board (:mod:`game.core.demo`; unit and model
ids are checked when the actions are applied): one check per action kind, each failing
through the checker ``ctx`` (a :class:`game.core.validate.Checker`: file, line and field).
Lengths mm, angles degrees. Also the board of an inline scenario (``load: {ruleset, units}``)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, NoReturn

from game.core.board import Board
from game.core.scenario import _Ctx as ScenarioCtx, board_from_dict
from game.core.validate import MAX_ANGLE_DEG, MAX_CAPTION, MAX_COORD_MM, MAX_LIST, MAX_NAME, MAX_UNIT_MODELS, Checker, short

#: Most steps one demo may hold (a ``fight_phase`` action may expand a step further).
MAX_STEPS = 500


def _num(ctx: Checker, v: Any, path: tuple, hi: float = MAX_COORD_MM) -> float:
    return ctx.num(v, path, lo=-hi, hi=hi)


def _keys(ctx: Checker, v: Any, path: tuple, required: set, optional: set) -> dict:
    """``v`` as a mapping holding every key of ``required`` and no key outside ``optional``
    (its ``unit``, if any, an identifier)."""
    if not isinstance(v, dict):
        ctx.fail(path, f"must be a mapping with {', '.join(sorted(required | optional))}")
    for k in v:
        if k not in required | optional:
            ctx.fail(path + (k,) if isinstance(k, str) else path,
                     f"unknown key {short(k)} (allowed: {', '.join(sorted(required | optional))})")
    for k in sorted(required):
        if k not in v:
            ctx.fail(path, f"missing '{k}'")
    if "unit" in v:
        ctx.ident(v["unit"], path + ("unit",))
    return v


def check_action(ctx: Checker, kind: str, v: Any, path: tuple) -> None:
    """Shape checks of action ``kind`` with value ``v`` that need no board."""
    _CHECKS[kind](ctx, v, path)


def _load(ctx: Checker, v: Any, path: tuple) -> None:
    if isinstance(v, dict):
        inline_board(ctx, v, path)  # an inline scenario: checked now, so errors come early
        return
    if not isinstance(v, str) or not v:
        ctx.fail(path, f"must be a file path or an inline scenario {{ruleset, units: [...]}} (got {short(v)})")
    ctx.text(v, path, max_len=4096, what="a file path")


def _ruleset(ctx: Checker, v: Any, path: tuple) -> None:
    ctx.ruleset(v, path)


def _move(ctx: Checker, v: Any, path: tuple) -> None:
    d = _keys(ctx, v, path, {"unit"}, {"forward_mm", "by", "to"})
    modes = [k for k in ("forward_mm", "by", "to") if k in d]
    if len(modes) != 1:
        ctx.fail(path, "give exactly one of forward_mm, by: [dx, dy], to: [x, y]")
    if modes[0] == "forward_mm":
        _num(ctx, d["forward_mm"], path + ("forward_mm",))
    else:
        ctx.point(d[modes[0]], path + (modes[0],))


def _wheel(ctx: Checker, v: Any, path: tuple) -> None:
    d = _keys(ctx, v, path, {"unit", "deg"}, {"pivot"})
    _num(ctx, d["deg"], path + ("deg",), MAX_ANGLE_DEG)
    ctx.enum(d.get("pivot", "left"), path + ("pivot",), ("left", "right"))


def _turn(ctx: Checker, v: Any, path: tuple) -> None:
    d = _keys(ctx, v, path, {"unit", "deg"}, set())
    _num(ctx, d["deg"], path + ("deg",), MAX_ANGLE_DEG)


def _slot_names(ctx: Checker, x: Any, path: tuple) -> None:
    """A list of slot names like r1f3 or m2."""
    ctx.seq(x, path, "slot names like r1f3 or m2", max_len=MAX_UNIT_MODELS)
    for i, sl in enumerate(x):
        if not isinstance(sl, str) or len(sl) > 20:
            ctx.fail(path + (i,), f"must be a slot name like r1f3 or m2 (got {short(sl)})")


def _remove(ctx: Checker, v: Any, path: tuple) -> None:
    d = _keys(ctx, v, path, {"unit"}, {"slots", "count"})
    if ("slots" in d) == ("count" in d):
        ctx.fail(path, "give slots: [r1f3, ...] or count: N (one of them)")
    if "count" in d:
        ctx.int_(d["count"], path + ("count",), 1, MAX_UNIT_MODELS)
    if "slots" in d:
        _slot_names(ctx, d["slots"], path + ("slots",))


def _context(ctx: Checker, v: Any, path: tuple) -> None:
    ctx.mapping(v, path, "context keys, e.g. {step: pile_in}")  # the values are checked against the board


def _true(ctx: Checker, v: Any, path: tuple) -> None:
    if v is not True:
        ctx.fail(path, f"must be true (got {short(v)})")


def _phase_step(ctx: Checker, v: Any, path: tuple) -> None:
    ctx.int_(v, path, 1, MAX_STEPS)


def _view(ctx: Checker, v: Any, path: tuple) -> None:
    d = _keys(ctx, v, path, {"centre", "size"}, set())
    ctx.point(d["centre"], path + ("centre",))
    sz = d["size"]
    if not isinstance(sz, (list, tuple)) or len(sz) != 2:
        ctx.fail(path + ("size",), f"must be [width, height] in mm (got {short(sz)})")
    for k in (0, 1):
        ctx.num(sz[k], path + ("size", k), lo=0.0, hi=4 * MAX_COORD_MM, positive=True)


def _strike(ctx: Checker, v: Any, path: tuple) -> None:
    if isinstance(v, str):
        ctx.text(v, path)
    elif isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_LIST:
        ctx.fail(path, f"must be a strike step number (1 = first) or its label like 'Initiative 5' (got {short(v)})")


def _casualties(ctx: Checker, v: Any, path: tuple) -> None:
    d = ctx.mapping(v, path, "{unit id: [slots like r1f3 or m2] or a number of models}")
    if not d:
        ctx.fail(path, "must name at least one unit: {unit id: [slots] or N}")
    for uid, x in d.items():
        ctx.ident(uid, path + (uid,))
        if isinstance(x, list):
            _slot_names(ctx, x, path + (uid,))
        else:
            ctx.int_(x, path + (uid,), 1, MAX_UNIT_MODELS)


def _highlight(ctx: Checker, v: Any, path: tuple) -> None:
    vs = v if isinstance(v, list) else [v]
    ctx.seq(vs, path, "model or unit ids")
    for x in vs:
        if not isinstance(x, str) or len(x) > 2 * MAX_NAME:
            ctx.fail(path, f"must be a model or unit id or a list of them (got {short(v)})")


def _annotate(ctx: Checker, v: Any, path: tuple) -> None:
    vs = v if isinstance(v, list) else [v]
    for i, x in enumerate(vs):
        p = path + (i,) if isinstance(v, list) else path
        d = _keys(ctx, x, p, {"model", "text"}, set())
        ctx.text(d["model"], p + ("model",), max_len=2 * MAX_NAME, what="a model id")
        ctx.text(d["text"], p + ("text",), max_len=MAX_CAPTION, multiline=True)


_CHECKS: dict[str, Callable[[Checker, Any, tuple], None]] = {
    "load": _load, "ruleset": _ruleset, "move": _move, "wheel": _wheel,
    "turn": _turn, "remove": _remove, "context": _context, "apply_moves": _true, "fight_phase": _true,
    "end_round": _true, "phase_step": _phase_step, "view": _view, "strike": _strike, "casualties": _casualties,
    "highlight": _highlight, "annotate": _annotate}


def inline_board(ctx: Checker, v: dict, path: tuple) -> Board:
    """The board of an inline scenario (``load: {ruleset, units: [...]}``), checked like a
    scenario file; errors name the demo file, its line and the field under ``path``."""
    outer = ctx

    class _Inline(ScenarioCtx):
        def fail(self, p: tuple, message: str) -> NoReturn:
            outer.fail(path + tuple(p), message)

    return replace(board_from_dict(v, _Inline(ctx.file, ctx.lines)), source="")
