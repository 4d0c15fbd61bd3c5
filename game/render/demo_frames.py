"""What a demo step looks like, for every back end (window, PNG, GIF, HTML).

:func:`step_marks` turns a built demo step (a :class:`ShownStep`: what
:class:`game.core.demo.DemoStep` holds, named here so the renderer imports no demo builder)
into the teaching :class:`Marks` (caption band, dimming, rings, callouts, casualties crossed
out); :func:`scene_boxes` gives each step the table box (mm) its view fits, shared by every
step of one scene; :func:`step_title` is the title text with the step counter;
:func:`step_options` the figure options of a step (its ruleset's name in the title bar).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional, Protocol, Sequence

from game.core.analysis import Analysis
from game.core.board import Board
from game.core.ruleset_data import Ruleset

from game.render.marks import Marks
from game.render.figure import FigureOptions, engaged_bbox
from game.render.scene import units_bbox


class ShownMarks(Protocol):
    """A step's teaching marks (:class:`game.core.demo.StepMarks`): model ids ``dim``,
    ``highlight``, ``fallen``; ``notes`` (model id, text)."""

    @property
    def dim(self) -> Sequence[str]: ...

    @property
    def highlight(self) -> Sequence[str]: ...

    @property
    def notes(self) -> Sequence[tuple[str, str]]: ...

    @property
    def fallen(self) -> Sequence[str]: ...


class ShownStep(Protocol):
    """What a demo step shows (:class:`game.core.demo.DemoStep`): ``caption``, ``board``, its
    ``ruleset`` and ``analysis``, ``marks``, ``scene`` (steps of one scene share a view) and
    ``view_mm`` (a recorded table box, mm; None: fit the scene)."""

    @property
    def caption(self) -> str: ...

    @property
    def board(self) -> Board: ...

    @property
    def ruleset(self) -> Ruleset: ...

    @property
    def analysis(self) -> Analysis: ...

    @property
    def marks(self) -> ShownMarks: ...

    @property
    def scene(self) -> int: ...

    @property
    def view_mm(self) -> Optional[tuple]: ...


def step_marks(step: ShownStep) -> Marks:
    """The view's :class:`Marks` for a demo step (caption band, dimming, rings, callouts)."""
    # the caption is the author's words alone: the strike step is named by the legend's strike
    # order and shown by the dimming (no "[Initiative 4]" label in front of the sentence)
    return Marks(dim=list(step.marks.dim), highlight=list(step.marks.highlight), notes=list(step.marks.notes),
                 caption=step.caption, fallen=list(step.marks.fallen))


def scene_boxes(steps: Sequence[ShownStep], margin_mm: float = 50.0) -> list[tuple]:
    """Per step, the table box (mm) ``(x0, y0, x1, y1)`` its view fits: the union over every
    step of the same scene (units, analysed positions and move paths), so the picture holds
    still while a scene is stepped through; a step with a recorded view (``view_mm``, the
    demo's ``view`` action) shows that box instead."""
    by_scene: dict[int, list[float]] = {}
    for st in steps:
        b1 = units_bbox(st.board, margin_mm=margin_mm)
        b2 = engaged_bbox(st.board, st.analysis, margin_mm)
        q = by_scene.setdefault(st.scene, list(b1))
        for b in (b1, b2):
            q[0], q[1], q[2], q[3] = min(q[0], b[0]), min(q[1], b[1]), max(q[2], b[2]), max(q[3], b[3])
    return [tuple(st.view_mm) if st.view_mm is not None else tuple(by_scene[st.scene]) for st in steps]


def step_title(demo_title: str, i: int, n: int) -> str:
    """Title-bar text of step ``i`` (0-based) of ``n``: ``"3 / 7  ·  title"``."""
    return f"{i + 1} / {n}  ·  {demo_title}" if demo_title else f"{i + 1} / {n}"


def step_options(fo: FigureOptions, step: ShownStep) -> FigureOptions:
    """``fo`` with the display name of the step's ruleset for the title bar."""
    return replace(fo, ruleset_name=str(step.ruleset.name or step.ruleset.id))
