"""Click-through demos: a YAML list of captioned steps, each a list of actions on a board.

Pure (stdlib + PyYAML; no pygame, no pymunk). :func:`load_demo` parses and validates a demo
file (``yaml.safe_load`` semantics; every error is a :class:`DemoError` naming the file, line
and field, like :class:`game.core.scenario.ScenarioError`); :func:`build_steps` applies the
actions in order and returns one :class:`DemoStep` per shown step: ``(caption, board,
ruleset, analysis, marks)``. The format is documented in ``docs/DEMOS.md``. The shape checks of
the actions are :mod:`game.core.demo_check`; the board edits, :mod:`game.core.demo_actions`.

Actions (lengths mm, angles degrees clockwise):

* ``load: PATH`` (relative to the demo file) - a new board from a scenario file; or
  ``load: {ruleset, units: [...], ...}`` - a new board from a scenario written inline (what a
  demo recorded in the window writes, so the demo is one file);
* ``ruleset: ID`` - analyse under another ruleset from now on;
* ``move: {unit, forward_mm | by: [dx, dy] | to: [x, y]}``;
* ``wheel: {unit, deg, pivot: left|right}`` - turn about a front corner (a wheel);
* ``turn: {unit, deg}`` - turn about the unit's centre;
* ``remove: {unit, slots: [r1f3, ...] | count: N}`` - casualties (ranked: slots or the last
  ``N`` models; skirmish: ``m3`` names or the last ``N``);
* ``context: {key: value}`` - set phase context keys (``step: pile_in``, ``round_winner``...);
* ``apply_moves: true`` - make the rule-mandated moves of the current analysis real
  (pile-in, consolidation, the incomplete-rank shuffle);
* ``fight_phase: true`` - expands this step into the phase steps of the ruleset's strategy
  (``Strategy.phase_steps``: the Warhammer 40,000 "Fight phase"); an error for a strategy
  without steps;
* ``strike: N | LABEL`` - show only the models striking at the N-th step of the strike order
  (1-based) or the step whose label is ``LABEL`` ("Initiative 5", "Agility 3"); the rest are
  dimmed (WHFB 8th "Strike Order"; T9A "Agility Steps");
* ``casualties: {unit: [slots] | N, ...}`` - models that fall at this step (a combat round,
  :mod:`game.core.combat_round`): drawn crossed out on this step's board, then removed by the
  ruleset's rule (whfb8, t9a, tow: from the back rank; ``slots``: as marked) after the step, so
  every model of the step still strikes (equal Initiative strikes at the same time). Units
  still locked in combat that no longer touch close up (``close_up``), and under tow the
  models that stepped forward cannot attack for the rest of the scene. The next step shows
  the board after that, with the closing-up moves drawn. ``N`` marks the first N models the
  step's strikers can reach. With ``strike`` in the same step, that step's strikers are the
  ones shown striking;
* ``end_round: true`` - end the scene's combat round by the ruleset's rule: under ``slots``
  the unit that removed the most enemy models wins the round and counts as the attacker
  (``context.round_winner``), and the allocation is recalculated;
* ``phase_step: N`` - this step shows step N (1-based) of the phase steps the ruleset's
  strategy works out from the board as it stands (``Strategy.phase_steps``: what the window's
  N / P show, e.g. a combat round's strike step with its dimmed and fallen models, or a step
  of the 40k Fight phase); the caption, when empty, is the phase step's own; the board is not
  changed (the next step starts from the board the phase was worked out from). Not with
  ``fight_phase``, ``strike`` or ``casualties``;
* ``highlight: [model or unit ids]``; ``annotate: {model, text}`` or a list of them;
* ``view: {centre: [x, y], size: [w, h]}`` - the part of the table this step shows (mm: the
  camera's centre and, by the size, its zoom), as recorded in the window; without it the view
  fits the scene's units.

Steps mark the board they end with; ``strike``, ``casualties``, ``highlight``, ``annotate``
and ``view`` belong to that step only.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Optional

from game.core.analysis import Analysis
from game.core.analyse import analyse
from game.core.board import Board
from game.core.combat_round import Round, RoundError, RoundStep, at_step
from game.core.registry import strategy_of
from game.core import closing
from game.core.ruleset import Ruleset, RulesetError, load_ruleset
from game.core.scenario import (dump_scenario, load_scenario,
                                 ScenarioError)
from game.core.validate import (MAX_CAPTION, MAX_COORD_MM, MAX_TITLE, Checker)
from game.core.yamlfile import FileError, parse_yaml, read_text
from game.core import demo_actions as actions
from game.core.demo_check import MAX_STEPS, check_action, inline_board

ACTIONS = ("load", "ruleset", "move", "wheel", "turn", "remove", "context", "apply_moves", "fight_phase",
           "phase_step", "strike", "casualties", "end_round", "highlight", "annotate", "view")
STEP_KEYS = {"caption", "actions"}
TOP_KEYS = {"title", "steps", "about"}


class DemoError(FileError):
    """A demo file that cannot be used: ``file``, ``line`` (1-based or None), ``field``
    (``steps[2].actions[0].move.unit``) and what is wrong."""


@dataclass
class Action:
    """One parsed action: ``kind`` (one of :data:`ACTIONS`), its ``value``, and where it came
    from (``path`` in the YAML tree, for error messages)."""

    kind: str
    value: Any
    path: tuple


@dataclass
class StepSpec:
    """A step as written: ``caption`` and ``actions``; ``path`` locates it in the file."""

    caption: str
    actions: list[Action]
    path: tuple


@dataclass
class Demo:
    """A parsed demo: ``title``, ``steps`` and the file it came from (``source``)."""

    title: str
    steps: list[StepSpec]
    source: str
    lines: dict = field(default_factory=dict, repr=False)


@dataclass
class StepMarks:
    """Teaching marks of one step: ``dim`` / ``highlight`` model ids, ``notes`` (model id,
    text), ``strike`` the label of the strike step shown (or ""), ``fallen`` model ids marked
    as casualties at this step (drawn crossed out)."""

    dim: list[str] = field(default_factory=list)
    highlight: list[str] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    strike: str = ""
    fallen: list[str] = field(default_factory=list)


@dataclass
class DemoStep:
    """What one step shows: ``caption``, the ``board`` after its actions, the ``ruleset``,
    the board's ``analysis`` and the step's ``marks``; ``scene`` counts ``load`` actions (steps
    of one scene share a view, so the table does not jump while stepping through it);
    ``spec`` the index of the step as written. ``view_mm``: the table box ``(x0, y0, x1, y1)``
    mm the step's ``view`` action asks for (None: fit the scene). ``phase``: for a
    ``phase_step: N`` step, N, and ``start`` the board the phase was worked out from."""

    caption: str
    board: Board
    ruleset: Ruleset
    analysis: Analysis
    marks: StepMarks
    scene: int = 0
    spec: int = -1
    view_mm: Optional[tuple] = None
    phase: int = 0
    start: Optional[Board] = None


#: Most actions in one step.
MAX_ACTIONS = 200


class _Ctx(Checker):
    def __init__(self, file: str, lines: dict):
        super().__init__(file, lines, DemoError)


def load_demo(path: str | Path) -> Demo:
    """Read and validate a demo file. Raises :class:`DemoError`."""
    return parse_demo(read_text(path, DemoError), str(Path(path)))


def parse_demo(text: str, filename: str = "<demo>") -> Demo:
    """Validate demo YAML ``text`` (``filename`` for messages and relative paths)."""
    data, loc = parse_yaml(text, filename, DemoError)
    ctx = _Ctx(filename, loc.lines)
    if not isinstance(data, dict):
        ctx.fail((), "a demo must be a mapping with 'title' and 'steps'")
    if "units" in data and "steps" not in data:
        ctx.fail(("units",), "this looks like a scenario file, not a demo (it has 'units' and no 'steps'); "
                             f"open it with `python main.py {filename}` or draw it with "
                             f"`python main.py render {filename} -o out/figure.png`")
    for k in data:
        if k not in TOP_KEYS:
            ctx.fail((k,), f"unknown key (allowed: {', '.join(sorted(TOP_KEYS))})")
    title = ctx.text(data.get("title", "") or "", ("title",), max_len=MAX_TITLE)
    if "about" in data and data["about"] is not None:
        ctx.text(data["about"], ("about",), max_len=MAX_CAPTION, multiline=True)
    steps = data.get("steps")
    if not isinstance(steps, list) or not steps:
        ctx.fail(("steps",), "must be a non-empty list of steps")
    ctx.seq(steps, ("steps",), "steps", max_len=MAX_STEPS)
    out = [_parse_step(ctx, s, i) for i, s in enumerate(steps)]
    return Demo(title, out, filename, ctx.lines)


def parse_step(data: Any, i: int, filename: str = "<demo>") -> StepSpec:
    """Validate one step written as data (``{caption, actions}``), as step ``i`` of a demo
    ``filename`` (no line numbers): what :func:`parse_demo` does for each step."""
    return _parse_step(_Ctx(filename, {}), data, i)


def _parse_step(ctx: _Ctx, s: Any, i: int) -> StepSpec:
    sp = ("steps", i)
    if not isinstance(s, dict):
        ctx.fail(sp, "each step must be a mapping with 'caption' and 'actions'")
    for k in s:
        if k not in STEP_KEYS:
            ctx.fail(sp + (k,), f"unknown key (allowed: caption, actions)")
    cap = s.get("caption", "")
    cap = "" if cap is None else ctx.text(cap, sp + ("caption",), max_len=MAX_CAPTION, multiline=True)
    acts = s.get("actions", []) or []
    ctx.seq(acts, sp + ("actions",), "actions", max_len=MAX_ACTIONS)
    parsed = []
    for j, a in enumerate(acts):
        ap = sp + ("actions", j)
        if not isinstance(a, dict) or len(a) != 1:
            ctx.fail(ap, f"an action is a mapping with one key, one of: {', '.join(ACTIONS)}")
        (kind, value), = a.items()
        if not isinstance(kind, str) or kind not in ACTIONS:
            ctx.fail(ap + (kind,), f"unknown action (allowed: {', '.join(ACTIONS)})")
        check_action(ctx, kind, value, ap + (kind,))
        parsed.append(Action(kind, value, ap + (kind,)))
    if i == 0 and not any(a.kind == "load" for a in parsed):
        ctx.fail(sp + ("actions",), "the first step must load a scenario (- load: path/to/scenario.yaml)")
    kinds = {a.kind for a in parsed}
    if "phase_step" in kinds and kinds & {"fight_phase", "strike", "casualties"}:
        ctx.fail(sp + ("actions",), "phase_step shows the phase's own step: not with fight_phase, strike "
                                    "or casualties (mark casualties on the board's context.casualties)")
    return StepSpec(cap, parsed, sp)


# -- building the steps ----------------------------------------------------------------------------
@dataclass
class _Plan:
    """A step's actions applied: the ``board`` and ruleset ``rs`` after them (None before a
    ``load``), the phase steps a ``fight_phase`` expanded into, and what the step shows:
    ``phase_at`` (N, path) of a ``phase_step``, ``strike`` and ``fall`` (value, path) of
    ``strike`` / ``casualties``, the ``view`` box (x0, y0, x1, y1) mm, and the ``highlight``
    / ``annotate`` actions still to resolve against the step's analysis (``pending``)."""

    board: Optional[Board]
    rs: Optional[Ruleset]
    expanded: list = field(default_factory=list)
    phase_at: Optional[tuple] = None
    strike: Optional[tuple] = None
    fall: Optional[tuple] = None
    view: Optional[tuple] = None
    pending: list[Action] = field(default_factory=list)

    def note(self, a: Action) -> None:
        """Note an action that marks the step rather than editing the board."""
        v, path = a.value, a.path
        if a.kind == "phase_step":
            self.phase_at = (v, path)
        elif a.kind == "view":
            (cx, cy), (w, h) = v["centre"], v["size"]
            self.view = (float(cx) - float(w) / 2, float(cy) - float(h) / 2, float(cx) + float(w) / 2,
                         float(cy) + float(h) / 2)
        elif a.kind == "strike":
            self.strike = (v, path)
        elif a.kind == "casualties":
            self.fall = (v, path)
        elif a.kind in ("highlight", "annotate"):
            self.pending.append(a)  # resolved against the step's analysis (moved models keep their ids there)


def build_steps(demo: Demo, load: Callable[[Path], Board] = load_scenario) -> list[DemoStep]:
    """Apply every step's actions in order and return the steps to show (a ``fight_phase``
    action expands into several). Raises :class:`DemoError` naming the file, line and field of a bad action
    (unknown unit or model, a scenario or ruleset that fails to load, ...)."""
    b = StepBuilder(demo.source, demo.lines, load)
    out: list[DemoStep] = []
    for si, spec in enumerate(demo.steps):
        out += b.feed(si, spec)
    return out


class StepBuilder:
    """:func:`build_steps` one written step at a time: :meth:`feed` applies step ``si`` and
    returns the steps it shows; ``board`` is then the board the next step starts from (None
    before a ``load``). Feeding a whole demo costs one pass (a recorder writing a demo asks
    where each step starts without building the steps before it again). ``source`` names the
    demo file (errors, relative paths), ``lines`` its YAML line map."""

    def __init__(self, source: str, lines: Optional[dict] = None,
                 load: Callable[[Path], Board] = load_scenario) -> None:
        self.ctx = _Ctx(source, lines or {})
        self.base_dir = Path(source).resolve().parent
        self.load = load
        self.board: Optional[Board] = None
        self.rs: Optional[Ruleset] = None
        self.scene = 0
        self.rnd: Optional[Round] = None        # the combat round under way in this scene (casualties)
        self.carry: Optional[RoundStep] = None  # the last removal, drawn on the next step
        self._phases: dict[tuple, list] = {}    # phase steps by (board, ruleset): phase_step steps share them

    def feed(self, si: int, spec: StepSpec) -> list[DemoStep]:
        """Apply step ``si`` (its :class:`StepSpec`); the steps it shows: the phase steps of a
        ``fight_phase``, the one ``phase_step``, or the board analysed (with its marks)."""
        plan = self._apply(spec)
        board, rs = plan.board, plan.rs
        if board is None or rs is None:
            self.ctx.fail(spec.path, "no scenario loaded yet")
        self.board, self.rs = board, rs
        _check_limits(self.ctx, board, spec.path + ("actions",))
        if plan.expanded:
            return [DemoStep(f"{spec.caption} {cap}".strip() if spec.caption else cap, b, rs, an, StepMarks(),
                             self.scene, si, plan.view) for cap, b, an in plan.expanded]
        if plan.phase_at is not None:
            return [self._phase_step(si, spec, board, rs, plan.phase_at, plan.pending, plan.view)]
        return [self._analysed(si, spec, board, rs, plan)]

    def _apply(self, spec: StepSpec) -> "_Plan":
        """Apply the step's actions in order: edits change the board (a ``load`` starts a new
        scene); the step's marks and view are noted in the plan returned."""
        ctx = self.ctx
        plan = _Plan(self.board, self.rs)
        for a in spec.actions:
            v, path = a.value, a.path
            if a.kind == "load":
                plan.board, plan.rs = self._load(v, path)
                continue
            board, rs = plan.board, plan.rs
            if board is None or rs is None:
                ctx.fail(path, "no scenario loaded yet (add '- load: FILE' first)")
            if a.kind in actions.EDITS:
                plan.board = actions.EDITS[a.kind](ctx, board, v, path)
            elif a.kind == "ruleset":
                try:
                    plan.rs = load_ruleset(v)
                except RulesetError as exc:
                    ctx.fail(path, str(exc))
                plan.board = board = replace(board, ruleset=v)
            elif a.kind == "apply_moves":
                plan.board = actions.apply_moves(board, analyse(board, rs))
            elif a.kind == "fight_phase":
                self._fight_phase(plan, board, rs, path)
            elif a.kind == "end_round":
                if self.rnd is None or self.rnd.rs is not rs:
                    ctx.fail(path, "no combat round under way in this scene (mark casualties first)")
                self.rnd.board = board
                plan.board = self.rnd.finish().board
            else:
                plan.note(a)
        return plan

    def _load(self, v: Any, path: tuple) -> tuple[Board, Ruleset]:
        """``load``: a new scene from a scenario file or an inline scenario, with its ruleset."""
        self.scene += 1
        self.rnd = self.carry = None
        try:
            board = inline_board(self.ctx, v, path) if isinstance(v, dict) else self.load(self.base_dir / v)
            return board, load_ruleset(board.ruleset)
        except (ScenarioError, RulesetError) as exc:
            self.ctx.fail(path, f"cannot load {v if isinstance(v, str) else 'the inline scenario'}: {exc}")

    def _fight_phase(self, plan: "_Plan", board: Board, rs: Ruleset, path: tuple) -> None:
        """``fight_phase``: the step expands into the phase steps; the board is the last one's."""
        phase = strategy_of(rs).phase_steps(board, rs)
        if phase is None:
            self.ctx.fail(path, f"fight_phase needs a ruleset whose engine steps through a phase "
                                f"(ruleset {rs.id} uses {rs.strategy}, which has no steps)")
        plan.expanded = phase
        if plan.expanded:
            plan.board = plan.expanded[-1][1]

    def _analysed(self, si: int, spec: StepSpec, board: Board, rs: Ruleset, plan: "_Plan") -> DemoStep:
        """The step showing ``board`` analysed: within the scene's combat round when one is under
        way (or the step marks casualties), the last removal's moves drawn, only a strike
        step's strikers when asked, the casualties marked (removed after the step)."""
        ctx, marks = self.ctx, StepMarks()
        rnd = self.rnd
        if plan.fall is not None and (rnd is None or rnd.rs is not rs):
            rnd = self.rnd = Round(board, rs)
        an = rnd.analyse(board) if rnd is not None and rnd.rs is rs else analyse(board, rs)
        if self.carry is not None:
            an.moves = closing.merge_moves(self.carry.moves, an.moves)
            an.notes += self.carry.notes
            self.carry = None
        striking = None
        if plan.strike is not None:
            striking, step = _strike(ctx, board, an, marks, *plan.strike)
            an = at_step(an, step)  # what strikes at this step (per model part), not totals
        if plan.fall is not None:
            assert rnd is not None  # a round was started above for these casualties
            self.carry = _casualties(ctx, rnd, board, an, striking, marks, *plan.fall)
        _pending_marks(ctx, board, an, marks, plan.pending)
        out = DemoStep(spec.caption, board, rs, an, marks, self.scene, si, plan.view)
        if self.carry is not None:
            self.board = self.carry.board
        return out

    def _phase_step(self, si: int, spec: StepSpec, board: Board, rs: Ruleset, at: tuple, pending: list[Action],
                    view: Optional[tuple]) -> DemoStep:
        """The ``phase_step: N`` step: step N of the phase worked out from ``board``."""
        n, path = at
        key = (dump_scenario(board), rs.id)
        if key not in self._phases:
            phase = strategy_of(rs).phase_steps(board, rs)
            if phase is None:
                self.ctx.fail(path, f"phase_step needs a ruleset whose engine steps through a phase "
                                    f"(ruleset {rs.id} uses {rs.strategy}, which has no steps)")
            self._phases[key] = list(phase)
        phase = self._phases[key]
        if n > len(phase):
            self.ctx.fail(path, f"the phase has {len(phase)} steps on this board (asked for step {n})")
        ps = phase[n - 1]
        cap, b, an = ps[0], ps[1], ps[2]
        marks = StepMarks(dim=list(getattr(ps, "dim", ())), fallen=list(getattr(ps, "fallen", ())),
                          strike=str(getattr(ps, "label", "") or "") if getattr(ps, "kind", "") == "strike" else "")
        _pending_marks(self.ctx, b, an, marks, pending)
        self.carry = None
        return DemoStep(spec.caption or cap, b, rs, an, marks, self.scene, si, view, phase=n, start=board)


def _pending_marks(ctx: _Ctx, board: Board, an: Analysis, marks: StepMarks, pending: list[Action]) -> None:
    """The step's ``highlight`` and ``annotate`` marks, checked against its board and analysis."""
    for a in pending:
        v, path = a.value, a.path
        if a.kind == "highlight":
            marks.highlight += actions.model_ids(ctx, board, an, v if isinstance(v, list) else [v], path)
        else:
            for i, x in enumerate(v if isinstance(v, list) else [v]):
                p = path + (i,) if isinstance(v, list) else path
                actions.model_ids(ctx, board, an, [x["model"]], p + ("model",))
                marks.notes.append((x["model"], x["text"]))


def _casualties(ctx: _Ctx, rnd: Round, board: Board, an: Analysis, striking: Optional[list[str]],
                marks: StepMarks, v: dict, path: tuple) -> Optional[RoundStep]:
    """Mark the step's casualties (``marks.fallen``) and remove them after it: returns the
    round's removal step (the board after removal and closing up)."""
    if striking is None:
        striking = [m for m, r in an.models.items() if r.attacks > 0]
    rnd.board = board
    rnd.current = RoundStep("strike", marks.strike or "Casualties", "", board, an, striking=list(striking))
    rnd.struck |= set(striking)
    try:
        marks.fallen = rnd.mark(v)
    except RoundError as exc:
        parts = exc.field.replace("]", "").split("[") if exc.field else []
        sub = tuple(int(x) if x.isdigit() else x for x in parts)
        ctx.fail(path + sub, exc.message)
    removal = rnd.resolve()
    if removal is not None:  # an empty list: nobody falls
        rnd.board = removal.board
    return removal


def _check_limits(ctx: _Ctx, board: Board, path: tuple) -> None:
    """Fail when the step's moves took a model beyond the table limits (±MAX_COORD_MM)."""
    for u in board.units:
        pts = [u.front] if u.is_ranked else [p for p, _ in u.placed]
        for p in pts:
            if not all(math.isfinite(c) and abs(c) <= MAX_COORD_MM for c in p):
                ctx.fail(path, f"moves {u.id} to ({p[0]:.6g}, {p[1]:.6g}) mm, beyond the table limits "
                               f"(±{MAX_COORD_MM:g} mm)")


def _strike(ctx: _Ctx, board: Board, an: Analysis, marks: StepMarks, v: Any, path: tuple) -> tuple[list[str], Any]:
    so = list(an.strike_order)
    if not so:
        ctx.fail(path, "nobody strikes on this board (the strike order is empty)")
    if isinstance(v, int):
        if v > len(so):
            ctx.fail(path, f"there are only {len(so)} strike steps")
        step = so[v - 1]
    else:
        labels = [str(s.label or s.step) for s in so]
        if v not in labels:
            ctx.fail(path, f"no strike step {v!r} (steps: {', '.join(labels)})")
        step = so[labels.index(v)]
    striking = list(step.models)
    marks.strike = str(step.label or step.step)
    marks.dim = [m.id for m in board.models() if m.id not in set(striking)]
    return striking, step
