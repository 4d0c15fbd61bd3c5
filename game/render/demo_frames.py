"""What a demo step looks like, for every back end (window, PNG, GIF, HTML).

:func:`step_marks` turns a :class:`game.core.demo.DemoStep` into the teaching :class:`Marks`
(caption band, dimming, rings, callouts, casualties crossed out); :func:`scene_boxes` gives
each step the table box (mm) its view fits, shared by every step of one scene;
:func:`step_title` is the title text with the step counter.
"""
from __future__ import annotations

from typing import Sequence

from game.core.demo import DemoStep

from game.render.marks import Marks
from game.render.figure import engaged_bbox
from game.render.scene import units_bbox


def step_marks(step: DemoStep) -> Marks:
    """The view's :class:`Marks` for a demo step (caption band, dimming, rings, callouts)."""
    # the caption is the author's words alone: the strike step is named by the legend's strike
    # order and shown by the dimming (no "[Initiative 4]" label in front of the sentence)
    return Marks(dim=list(step.marks.dim), highlight=list(step.marks.highlight), notes=list(step.marks.notes),
                 caption=step.caption, fallen=list(step.marks.fallen))


def scene_boxes(steps: Sequence[DemoStep], margin_mm: float = 50.0) -> list[tuple]:
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
