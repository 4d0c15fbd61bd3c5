"""Saving an opened demo without losing what its author wrote.

:func:`opened` keeps what an opened demo file was (:class:`Opened`: its text, its data, the
steps as opened for the recorder and what each written step showed). :func:`plan` gives the
text a save writes for the recorder's steps now:

* a step that still shows what it showed is written **as its author wrote it** (its actions,
  its ``load: ../scenarios/...`` paths, its ``end_round``...; a new caption replaces only the
  caption);
* any other step as the recorder writes it (:func:`game.core.demo_writer.demo_data`), except
  that a step the recorder would load as an inline board, when its scene began with
  ``load: FILE`` in the file, loads that file and then takes the actions reaching its board
  (:func:`game.core.demo_writer.board_actions`), when actions can.

Every step kept as written is checked by building the demo: one that no longer shows what it
showed (a step before it changed the board it starts from) is written as the recorder writes
it. The file's text is then patched in place (:func:`game.core.savefile.plan_text`: comments,
key order, layout and spellings of everything unchanged kept byte for byte; where that cannot
be done a ruamel.yaml round trip keeps the comments, with a one-line note). A save with no
change gives the file's text back unchanged, byte for byte. Pure (no pygame).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Sequence

import yaml

from game.core.demo import DemoError, StepBuilder, parse_demo
from game.core.demo_writer import DemoRecorder, RecordedStep, board_actions, dump_demo, marks_actions, step_key
from game.core.savefile import plan_text, same
from game.core.scenario import ScenarioError, board_to_dict, load_scenario

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class Opened:
    """An opened demo file: ``path`` (resolved), ``text`` (as read), ``data`` (what the text
    means), ``steps`` (the recorder's steps as opened, one per written step) and ``keys``
    (per written step, :func:`step_key` without the caption of each step it showed)."""
    path: str
    text: str
    data: dict
    steps: list[RecordedStep]
    keys: dict[int, list[tuple]]


def meaning(text: str) -> Any:
    """The data of YAML ``text`` (ValueError when it does not parse)."""
    try:
        return yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise ValueError(str(exc)) from None


def opened(path: str, text: str, built: Sequence[Any], recorder: DemoRecorder) -> Opened:
    """What demo file ``path`` was when opened: its ``text``, its ``built`` steps
    (:func:`game.core.demo.build_steps`) and the ``recorder`` made of them
    (:func:`game.core.demo_writer.recorder_from_demo`)."""
    keys: dict[int, list[tuple]] = {}
    for st in built:
        keys.setdefault(st.spec, []).append(step_key(st)[1:])
    data = meaning(text)
    return Opened(str(Path(path).resolve()), text, data if isinstance(data, dict) else {},
                  [s.copy() for s in recorder.steps], keys)


def shows_same(a: RecordedStep, b: RecordedStep) -> bool:
    """True when steps ``a`` and ``b`` show the same (captions aside): board, marks, view, phase."""
    return (same(board_to_dict(a.board), board_to_dict(b.board)) and list(a.highlight) == list(b.highlight)
            and [tuple(n) for n in a.notes] == [tuple(n) for n in b.notes] and a.strike == b.strike
            and same(a.casualties or {}, b.casualties or {}) and same(a.actions, b.actions)
            and a.view == b.view and a.phase == b.phase)


def _written(op: Opened, j: Optional[int]) -> Optional[dict]:
    steps = op.data.get("steps")
    if j is None or not isinstance(steps, list) or not 0 <= j < min(len(steps), len(op.steps)):
        return None
    w = steps[j]
    return w if isinstance(w, dict) else None


def _scene_loads(op: Opened) -> list[Optional[str]]:
    """Per written step of the opened file, the ``load: FILE`` path its scene began with (None
    after an inline board)."""
    out: list[Optional[str]] = []
    path: Optional[str] = None
    for w in op.data.get("steps") or []:
        for a in (w.get("actions") or []) if isinstance(w, dict) else []:
            if isinstance(a, dict) and "load" in a:
                path = a["load"] if isinstance(a["load"], str) else None
        out.append(path)
    return out


def _by_reference(steps: Sequence[RecordedStep], written: list, forms: list[Optional[dict]], op: Opened) -> None:
    """A step written anew with its board inline that came from a scene of the opened file
    loads that scene's file instead (``load: ../scenarios/...``) and the actions reaching its
    board, when actions can (same board, so the steps after it are unchanged)."""
    here = Path(op.path).parent
    scene = _scene_loads(op)
    cache: dict[str, Any] = {}
    for i, (st, w) in enumerate(zip(steps, written)):
        acts = w.get("actions") if isinstance(w, dict) else None
        j = st.origin
        if forms[i] is not None or j is None or j >= len(scene) or scene[j] is None or not acts \
                or not isinstance(acts[0].get("load"), dict):
            continue
        path = str(scene[j])
        if path not in cache:
            try:
                cache[path] = load_scenario(here / path)
            except (ScenarioError, OSError):
                cache[path] = None
        if cache[path] is None:
            continue
        reach = board_actions(cache[path], st.board)
        if reach is not None:
            w["actions"] = [{"load": path}] + reach + acts[1:]


def _loads_first(written: dict) -> bool:
    acts = written.get("actions")
    return isinstance(acts, list) and bool(acts) and isinstance(acts[0], dict) and "load" in acts[0]


def _forms(steps: Sequence[RecordedStep], op: Opened) -> tuple[list[Optional[dict]], list[Optional[int]]]:
    """Per step: the form to write as is (None: the recorder writes it) and, for a step kept as
    written, its written index (to check it still shows what it showed)."""
    here = Path(op.path).parent
    forms: list[Optional[dict]] = []
    kept: list[Optional[int]] = []
    for i, st in enumerate(steps):
        j = st.origin
        w = _written(op, j)
        if w is None or j is None or (i == 0 and not _loads_first(w)):  # the first step must load a board
            forms.append(None)
            kept.append(None)
        elif shows_same(st, op.steps[j]):
            form = copy.deepcopy(w)
            if st.caption != op.steps[j].caption:
                form["caption"] = st.caption
            forms.append(form)
            kept.append(j)
        else:
            forms.append(None)
            kept.append(None)
    return forms, kept


def _top(op: Opened, title: str, steps_data: list) -> dict:
    """The file's top-level data with the new title and steps (``about`` and the rest as they were)."""
    out: dict = {}
    for k, v in op.data.items():
        out[k] = steps_data if k == "steps" else (title if k == "title" else v)
    if "title" not in out and title:
        out = {"title": title, **out}
    if "steps" not in out:
        out["steps"] = steps_data
    return out


def _stale(data: dict, kept: list[Optional[int]], op: Opened, source: str) -> list[int]:
    """Indices of steps kept as written that no longer show what they showed (or no longer
    build: the first such step; the steps after it are looked at once it is written anew)."""
    if not any(j is not None for j in kept):
        return []
    try:
        demo = parse_demo(dump_demo(data), source)
    except DemoError:  # the steps kept as written do not make a demo here: all written anew
        return [i for i, j in enumerate(kept) if j is not None]
    builder = StepBuilder(source, demo.lines)
    out: list[int] = []
    for i, spec in enumerate(demo.steps):
        j = kept[i] if i < len(kept) else None
        try:
            shown = [step_key(st)[1:] for st in builder.feed(i, spec)]
        except DemoError:
            if j is None:
                raise
            return out + [i]
        if j is not None and shown != op.keys.get(j):
            out.append(i)
    return out


def plan(recorder: DemoRecorder, op: Opened, source: str) -> tuple[str, list[str]]:
    """The text to save ``recorder``'s demo to ``source`` (the opened file ``op``) and notes on
    what of the file's text could not be kept (empty: every untouched byte kept). Raises
    ValueError as :func:`game.core.demo_writer.demo_data`; :class:`game.core.demo.DemoError`
    when a step does not build."""
    forms, kept = _forms(recorder.steps, op)
    data: dict = {}
    for _ in range(len(forms) + 1):
        written = recorder.to_data(source, forms)["steps"]
        _by_reference(recorder.steps, written, forms, op)
        data = _top(op, recorder.title, written)
        if same(data, op.data):
            return op.text, []
        stale = _stale(data, kept, op, source)
        if not stale:
            break
        for i in stale:
            forms[i], kept[i] = None, None
    text, notes = plan_text(op.text, op.data, data, meaning)
    if text is None:
        return dump_demo(data), notes + ["the demo was written afresh (its comments and layout are not kept)"]
    return text, notes
