"""``analyse FILE [--json | --compare A,B]``: the rules core only (no pygame, no render).

The command most scripts run: it imports the scenario loader, the ruleset loader and the
engine the ruleset names, nothing more (``tests/test_architecture.py`` checks it). Exit
status as :mod:`game.cli.main` says.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace

from game.cli.args import UsageError, add_budget_option, budgets, check_budget, check_pair, check_ruleset
from game.core.analyse import analyse
from game.core.board import unit_of
from game.core.checks import overlapping_bases
from game.core.names import humanize, model_name, plural, unit_names
from game.core.ruleset import RulesetError, load_ruleset
from game.core.scenario import ScenarioError, check_override, input_error, load_scenario


def run(argv: list[str], ap: argparse.ArgumentParser) -> int:
    """Parse ``analyse``'s options from ``argv`` and run it (``--compare`` lists differences)."""
    ap.add_argument("file")
    ap.add_argument("--json", action="store_true", help="print the contract's JSON")
    ap.add_argument("--compact", action="store_true", help="JSON on one line")
    ap.add_argument("--ruleset", help="analyse under this ruleset id instead of the file's")
    ap.add_argument("--compare", metavar="A,B", help="list models whose role or attacks differ between two rulesets")
    add_budget_option(ap)
    args = ap.parse_args(argv)
    if args.compare:
        with budgets(args, args.file):
            return cmd_compare(args)
    return cmd_analyse(args)


def _fail(msg: str, code: int = 2) -> int:
    print(f"error: {msg}", file=sys.stderr)
    return code


def load_board(path: str, ruleset_override: str | None = None):
    """Load a scenario and its ruleset; raises ScenarioError / RulesetError."""
    board = load_scenario(path)
    if ruleset_override:
        board = replace(board, ruleset=ruleset_override)
        check_override(board, ruleset_override, path)
    rs = load_ruleset(board.ruleset)
    return board, rs


def _dump_json(data) -> None:
    """Strict JSON on stdout: a NaN or infinity is a bug, never output (ValueError)."""
    json.dump(data, sys.stdout, indent=1, allow_nan=False)


def cmd_analyse(args) -> int:
    try:
        check_ruleset(args.ruleset)
        check_budget(args.time_budget, args.memory_budget)
        board, rs = load_board(args.file, args.ruleset)
    except (ScenarioError, RulesetError, UsageError) as exc:
        return _fail(str(exc))
    with budgets(args, args.file):
        return _analyse_loaded(args, board, rs)


def _analyse_loaded(args, board, rs) -> int:
    overlaps = overlapping_bases(board, float(rs.p("contact_tolerance_mm")))
    if overlaps:
        a, b, depth = overlaps[0]
        more = f" and {plural(len(overlaps) - 1, 'more pair', 'more pairs')}" if len(overlaps) > 1 else ""
        names = unit_names(board)
        print(f"warning: {args.file}: bases overlap: {model_name(a, names)} and {model_name(b, names)} by {depth} mm"
              f"{more}; analysed as placed",
              file=sys.stderr)
    t0 = time.perf_counter()
    result = analyse(board, rs)
    dt = time.perf_counter() - t0
    if result.input_errors:
        path, msg = result.input_errors[0]
        return _fail(str(input_error(args.file, path, msg)))
    if args.json:
        try:
            text = json.dumps(result.to_json(), indent=None if args.compact else 1, allow_nan=False)
        except ValueError:
            return _fail(f"{args.file}: the analysis produced a number that is not finite; please report this file", 1)
        sys.stdout.write(text + "\n")
    else:
        _print_summary(board, result, dt)
    return 0


def cmd_compare(args) -> int:
    from game.core.compare import compare  # --compare only: a plain analysis never imports it
    try:
        ids = list(check_pair(args.compare))
    except UsageError as exc:
        return _fail(str(exc))
    try:
        board, _ = load_board(args.file)
        rsa, rsb = load_ruleset(ids[0]), load_ruleset(ids[1])
    except (ScenarioError, RulesetError) as exc:
        return _fail(str(exc))
    _, _, diffs = compare(board, rsa, rsb)
    if args.json:
        _dump_json({"rulesets": ids, "differences": [
            {"model": d.model, ids[0]: {"role": d.a[0], "attacks": d.a[1], "why": d.why_a},
             ids[1]: {"role": d.b[0], "attacks": d.b[1], "why": d.why_b}} for d in diffs]})
        sys.stdout.write("\n")
        return 0
    print(f"{board.title or board.source}: {plural(len(diffs), 'model')} {'differs' if len(diffs) == 1 else 'differ'} between {ids[0]} and {ids[1]}")
    names = unit_names(board)  # the text names units, as the summary does; the JSON keeps ids
    for d in diffs:
        print("  " + humanize(d.describe(ids[0], ids[1]), names))
        for rid, why in ((ids[0], d.why_a), (ids[1], d.why_b)):
            if why:
                print(f"      {rid}: {humanize(why, names)}")
    return 0


def _print_summary(board, result, dt: float) -> None:
    print(f"{board.title or board.source} [{result.ruleset}] analysed in {dt * 1000:.1f} ms")
    names = unit_names(board)
    width = max([14] + [len(n) for n in names.values()])
    for u in board.units:
        ms = [(k, v) for k, v in result.models.items() if unit_of(k) == u.id]
        att = [k for k, v in ms if v.role == "attack"]
        sup = [k for k, v in ms if v.role == "support"]
        n = sum(v.attacks for _, v in ms)
        print(f"  {names[u.id]:{width}} attack: {len(att):3}  support: {len(sup):3}  attacks: {n}")
    for e in result.engagements:
        print(f"  {names.get(e.enemy, e.enemy)} is engaged with the {e.facing} of {names.get(e.unit, e.unit)}")
    if result.gap_links:
        print(f"  gap links: {len(result.gap_links)}")
    for s in result.strike_order:
        units = list(dict.fromkeys(names.get(unit_of(m), unit_of(m)) for m in s.models))
        label = humanize(str(s.label or s.step), names)
        if len(units) == 1 and label.startswith(units[0]):  # the label names its unit: once
            n = len(s.models)
            print(f"  strikes {s.step}: {label}: {n} model{'' if n == 1 else 's'}" if isinstance(s.step, int)
                  else f"  strikes at {label}: {n} model{'' if n == 1 else 's'}")
        else:
            print(f"  strikes at {label}: {', '.join(units)}")
