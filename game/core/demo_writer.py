"""Recording demos: steps kept as snapshots, written as a demo file that ``demo`` plays.

Pure (stdlib + PyYAML). A :class:`DemoRecorder` holds the demo being made as a list of
:class:`RecordedStep` (the board shown, its ruleset, a caption and the step's marks: ringed
models, callouts, the strike step shown, casualties). Steps are added, edited, moved and
deleted; :meth:`DemoRecorder.to_text` writes the documented demo format (``docs/DEMOS.md``):

* the first step, and any step whose board cannot be reached from the one before by demo
  actions, ``load``\\ s its board as an inline scenario (the demo stays one file; a new
  scene, so the view refits);
* otherwise the step says what changed: ``ruleset``, ``context`` (keys added or changed),
  ``turn`` and ``move: {to}`` per unit that moved, ``remove`` for casualty slots and models;
* a step recorded from the window's phase steps (N / P) says ``phase_step: N`` after the
  actions reaching the board the phase starts from;
* then its marks: ``strike``, ``casualties``, ``highlight``, ``annotate``, and the ``view``
  (the table box shown when it was recorded).

"What the step before leaves" is found by building the steps written so far, one pass for
the whole file (:class:`game.core.demo.StepBuilder`: each step is applied once, however many
steps fall after casualties), so casualties removed after a step and the closing-up moves
they cause are accounted for. The written file loads and builds into the same steps
(captions, boards, rulesets, marks: :func:`step_key`; tests check the round trip).
:func:`recorder_from_demo` opens an existing demo for editing.
"""
from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional, Sequence

import yaml

from game.core.board import Board, Unit
from game.core.scenario import board_to_dict, position_out, unit_to_dict
from game.core.demo import StepBuilder, parse_step

POSE_KEYS = ("front", "facing", "models", "empty")


@dataclass
class RecordedStep:
    """One recorded step: ``caption``, the ``board`` shown (its ``ruleset`` id is the step's
    ruleset) and its marks: ``highlight`` (model or unit ids ringed), ``notes`` ``[(model id,
    text)]`` callouts, ``strike`` (a strike step's label like "Initiative 5", or its number;
    None: all models shown), ``casualties`` ``{unit id: [slots]}`` (models falling at this
    step, removed after it by the ruleset's rule). ``actions``: a step opened from a demo
    file that only its own actions can give (a ``fight_phase`` step, which shows as several):
    written as it was (``load`` paths absolute here, relative to the demo when written) while
    its board is not edited. ``view``: the table box ``(x0, y0, x1, y1)`` mm shown (None: the
    player fits the scene). ``phase``: the step shows step ``phase`` (1-based) of the phase
    worked out from ``board`` (the window's N / P), whose own marks it keeps. ``origin``: the
    index of the written step of an opened demo this step was opened from (None: recorded
    here); :mod:`game.core.demo_keep` writes such a step as the user wrote it while it shows
    what it showed."""

    caption: str
    board: Board
    highlight: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    strike: Any = None
    casualties: dict = field(default_factory=dict)
    actions: Optional[list] = None
    view: Optional[tuple] = None
    phase: Optional[int] = None
    origin: Optional[int] = None

    def copy(self) -> "RecordedStep":
        return RecordedStep(self.caption, self.board, list(self.highlight), [tuple(n) for n in self.notes],
                            self.strike, copy.deepcopy(self.casualties), copy.deepcopy(self.actions), self.view,
                            self.phase, self.origin)


class DemoRecorder:
    """The demo being recorded: ``title``, ``about`` and ``steps`` (IndexError for a bad index)."""

    def __init__(self, title: str = "", steps: Optional[Sequence[RecordedStep]] = None, about: str = ""):
        self.title = title
        self.about = about
        self.steps: list[RecordedStep] = [s.copy() for s in steps or []]

    def add(self, step: RecordedStep, at: Optional[int] = None) -> int:
        """Insert a copy of ``step`` after step ``at`` (None: at the end); returns its index."""
        i = len(self.steps) if at is None else max(0, min(len(self.steps), at + 1))
        self.steps.insert(i, step.copy())
        return i

    def edit(self, i: int, **changes: Any) -> None:
        """Change fields of step ``i`` (``caption``, ``board``, ``highlight``, ``notes``,
        ``strike``, ``casualties``)."""
        st = self.steps[i]
        for k, v in changes.items():
            if not hasattr(st, k):
                raise AttributeError(f"a step has no {k!r}")
            setattr(st, k, v)  # (a board is a value: kept, not copied)
            if k == "board":
                st.actions = None  # an edited board is a snapshot now

    def move(self, i: int, j: int) -> None:
        """Move step ``i`` to position ``j``."""
        st = self.steps.pop(i)
        self.steps.insert(max(0, min(len(self.steps), j)), st)

    def delete(self, i: int) -> None:
        del self.steps[i]

    def to_data(self, source: str = "<recorded demo>", keep: Optional[Sequence[Optional[dict]]] = None) -> dict:
        """The demo as YAML data (see the module doc; ``keep``: as :func:`demo_data`). ValueError
        when there is no step."""
        return demo_data(self.title, self.steps, source, self.about, keep)

    def to_text(self, source: str = "<recorded demo>") -> str:
        """The demo file's text."""
        return dump_demo(self.to_data(source))


def dump_demo(data: dict) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)


def view_action(box: tuple) -> dict:
    """The ``view`` action of a table box ``(x0, y0, x1, y1)`` mm (to 0.1 mm)."""
    x0, y0, x1, y1 = (float(v) for v in box)

    def r(v: float) -> float:
        return round(v, 1) + 0.0  # no "-0.0" in the file
    return {"view": {"centre": [r((x0 + x1) / 2), r((y0 + y1) / 2)], "size": [r(abs(x1 - x0)), r(abs(y1 - y0))]}}


def marks_actions(st: RecordedStep) -> list[dict]:
    out: list[dict] = []
    if st.phase:
        out.append({"phase_step": int(st.phase)})
    if st.strike not in (None, "") and not st.phase:
        out.append({"strike": st.strike})
    cas = {u: (list(v) if isinstance(v, (list, tuple)) else int(v)) for u, v in (st.casualties or {}).items() if v}
    if cas and not st.phase:
        out.append({"casualties": cas})
    if st.highlight:
        out.append({"highlight": list(st.highlight)})
    if st.notes:
        out.append({"annotate": [{"model": m, "text": t} for m, t in st.notes]})
    if st.view is not None:
        out.append(view_action(st.view))
    return out


def _without_pose(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in POSE_KEYS}


def _unit_actions(prev: Unit, cur: Unit) -> Optional[list[dict]]:
    """Actions taking ``prev`` to ``cur`` (same id), or None when no action can."""
    if prev.kind != cur.kind:
        return None
    dp, dc = unit_to_dict(prev), unit_to_dict(cur)
    out: list[dict] = []
    if prev.is_ranked:
        a = {k: v for k, v in dp.items() if k not in ("front", "facing", "empty", "models")}
        b = {k: v for k, v in dc.items() if k not in ("front", "facing", "empty", "models")}
        if a != b or cur.count > prev.count or not set(prev.empty) <= set(cur.empty):
            return None
        if cur.count < prev.count:
            if set(cur.empty) != set(prev.empty):
                return None  # slots named after a count change would shift: reload
            n = prev.count - cur.count
            trial = replace(prev, count=prev.count - n)
            if trial.occupied_slots() != cur.occupied_slots():
                return None
            out.append({"remove": {"unit": cur.id, "count": n}})
        added = [s for s in cur.empty if s not in set(prev.empty)]
        if added:
            out.append({"remove": {"unit": cur.id, "slots": added}})
        if cur.facing_deg != prev.facing_deg:
            out.append({"turn": {"unit": cur.id, "deg": (cur.facing_deg - prev.facing_deg)}})
        if tuple(cur.front) != tuple(prev.front) or cur.facing_deg != prev.facing_deg:
            out.append({"move": {"unit": cur.id, "to": [position_out(cur.front[0]), position_out(cur.front[1])]}})
        return out
    # skirmish: the same models moved together (a translation), or models removed from the end
    if _without_pose(dp) != _without_pose(dc) or len(cur.placed) > len(prev.placed) or cur.facing_deg != prev.facing_deg:
        return None
    if len(cur.placed) < len(prev.placed):
        out.append({"remove": {"unit": cur.id, "count": len(prev.placed) - len(cur.placed)}})
    kept = prev.placed[: len(cur.placed)]
    if [b for _, b in kept] != [b for _, b in cur.placed]:
        return None
    if kept:
        dx, dy = cur.placed[0][0][0] - kept[0][0][0], cur.placed[0][0][1] - kept[0][0][1]
        for (p, _), (q, _) in zip(kept, cur.placed):
            if (p[0] + dx, p[1] + dy) != (q[0], q[1]):
                return None
        if dx or dy:
            out.append({"move": {"unit": cur.id, "by": [position_out(dx), position_out(dy)]}})
    return out


def board_actions(prev: Board, cur: Board) -> Optional[list[dict]]:
    """Demo actions that turn ``prev`` (the board a step starts from) into ``cur``, or None
    when actions cannot (units added or re-shaped, context keys dropped, other table or
    terrain): the step then loads ``cur`` inline."""
    dp, dc = board_to_dict(prev), board_to_dict(cur)
    for k in set(dp) | set(dc):
        if k not in ("ruleset", "units", "context") and dp.get(k) != dc.get(k):
            return None
    if [u.id for u in prev.units] != [u.id for u in cur.units]:
        return None
    out: list[dict] = []
    if prev.ruleset != cur.ruleset:
        out.append({"ruleset": cur.ruleset})
    cp, cc = dp.get("context", {}), dc.get("context", {})
    if set(cp) - set(cc):
        return None
    changed = {k: v for k, v in cc.items() if cp.get(k) != v}
    if changed:
        out.append({"context": changed})
    for up, uc in zip(prev.units, cur.units):
        acts = _unit_actions(up, uc)
        if acts is None:
            return None
        out += acts
    return out


def _inline(board: Board) -> dict:
    return {"load": board_to_dict(board)}


def demo_data(title: str, steps: Sequence[RecordedStep], source: str = "<recorded demo>", about: str = "",
              keep: Optional[Sequence[Optional[dict]]] = None) -> dict:
    """The demo file's data for ``steps`` (see the module doc). ``keep[i]``, when given and not
    None, is written for step ``i`` as it is (a step as the user wrote it, ``{caption, actions}``
    with its paths relative to ``source``); the steps after it start from what it leaves.
    ValueError without steps."""
    if not steps:
        raise ValueError("a demo needs at least one step")
    written: list[dict] = []
    here = Path(source).resolve().parent
    builder = StepBuilder(source)  # fed each written step once, only as far as a start is asked for
    fed = 0
    for i, st in enumerate(steps):
        acts: Optional[list[dict]] = None
        form = keep[i] if keep is not None and i < len(keep) else None
        if form is not None:
            written.append(copy.deepcopy(form))
            continue
        if st.actions is not None:
            written.append({"caption": st.caption, "actions": [_relative(a, here) for a in st.actions]})
            continue
        if i > 0:
            prev = steps[i - 1]
            kept = keep is not None and i - 1 < len(keep) and keep[i - 1] is not None
            if prev.actions is None and not kept and (prev.phase or not prev.casualties):
                start = prev.board  # a snapshot step ends on its own board (a phase step on its phase's start)
            else:  # casualties are removed (and units close up) after the step; actions do what they do
                for k in range(fed, len(written)):
                    builder.feed(k, parse_step(written[k], k, source))
                fed = len(written)
                assert builder.board is not None  # the first step loads a board
                start = builder.board
            acts = board_actions(start, st.board)
        if acts is None:
            acts = [_inline(st.board)]
        written.append({"caption": st.caption, "actions": acts + marks_actions(st)})
    out: dict = {"title": title}
    if about:
        out["about"] = about
    out["steps"] = written
    return out


def _relative(action: dict, here: Path) -> dict:
    (k, v), = action.items()
    if k == "load" and isinstance(v, str):
        return {k: os.path.relpath(v, here)}
    return {k: copy.deepcopy(v)}


def recorder_from_demo(demo: Any, steps: Sequence[Any]) -> DemoRecorder:
    """A recorder holding an opened demo (``demo`` from :func:`game.core.demo.load_demo`,
    ``steps`` its built steps) for editing: each written step that shows as one step becomes
    a snapshot (:func:`recorder_from_steps`), its ``highlight`` the ids as written (a ringed
    unit stays one unit id, so saving again does not spell out its models); a step that shows
    as several (``fight_phase``) keeps its own actions."""
    here = Path(demo.source).resolve().parent
    by_spec: dict[int, list] = {}
    for st in steps:
        by_spec.setdefault(st.spec, []).append(st)
    out: list[RecordedStep] = []
    for i, spec in enumerate(demo.steps):
        shown = by_spec.get(i, [])
        if len(shown) == 1 and not any(a.kind == "fight_phase" for a in spec.actions):
            out += recorder_from_steps("", shown).steps
            out[-1].origin = i
            rings = [x for a in spec.actions if a.kind == "highlight"
                     for x in (a.value if isinstance(a.value, list) else [a.value])]
            if rings:  # the ids as written (a unit stays a unit, not its models one by one)
                out[-1].highlight = [str(x) for x in rings]
            continue
        acts = [{a.kind: (str(here / a.value) if a.kind == "load" and isinstance(a.value, str) else copy.deepcopy(a.value))}
                for a in spec.actions]
        board = shown[-1].board if shown else out[-1].board
        out.append(RecordedStep(spec.caption, board, actions=acts, origin=i))
    return DemoRecorder(demo.title, out)


def recorder_from_steps(title: str, steps: Sequence[Any], about: str = "") -> DemoRecorder:
    """A recorder holding built demo steps (:class:`game.core.demo.DemoStep`) for editing:
    each becomes a snapshot with its caption, board and marks (casualties as model slots,
    the strike step by its label)."""
    out = []
    for st in steps:
        if st.phase and st.start is not None:  # a phase step: its phase's start board and number
            b = replace(st.start, ruleset=st.ruleset.id)
            out.append(RecordedStep(st.caption, b, list(st.marks.highlight), [tuple(n) for n in st.marks.notes],
                                    view=st.view_mm, phase=st.phase))
            continue
        cas: dict = {}
        for mid in st.marks.fallen:
            uid, slot = mid.split(".", 1)
            cas.setdefault(uid, []).append(slot)
        b = replace(st.board, ruleset=st.ruleset.id)
        out.append(RecordedStep(st.caption, b, list(st.marks.highlight), [tuple(n) for n in st.marks.notes],
                                st.marks.strike or None, cas, view=st.view_mm))
    return DemoRecorder(title, out, about)


def step_key(st: Any, ndigits: int = 6) -> tuple:
    """What a built step shows, comparable across a round trip: caption, ruleset, the board
    as data (numbers rounded to ``ndigits``), marks (dim, highlight, notes, strike, fallen)
    and each model's role and attacks."""
    def rnd(v: Any) -> Any:
        if isinstance(v, float):
            r = round(v, ndigits)
            return 0.0 if r == 0 else r
        if isinstance(v, dict):
            return {k: rnd(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [rnd(x) for x in v]
        return v
    d = board_to_dict(st.board)
    d.pop("ruleset", None)
    for u in d.get("units", []):
        if "facing" in u:
            u["facing"] = round(float(u["facing"]) % 360.0, 4) % 360.0
    m = st.marks
    roles = sorted((k, r.role, r.attacks) for k, r in st.analysis.models.items())
    return (st.caption, st.ruleset.id, rnd(d), sorted(m.dim), list(m.highlight), [tuple(n) for n in m.notes],
            m.strike, sorted(m.fallen), roles)
