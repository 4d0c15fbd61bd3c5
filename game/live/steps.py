"""The steps a live page carries: a demo's steps (each draggable from where the demo left it), or
the phase steps the engine works out for the opening board (shown, as computed when the page was
built, when the page's engine cannot run in the browser: a 40k Fight phase).

:func:`demo_steps` and :func:`phase_steps` give :class:`LiveStep` lists; :func:`write_steps` draws
each one (the static figure, :func:`game.live.frame.static_svg`, on its own frame) and writes its
board as a scenario file ``steps/NN.yaml`` for the page's Python (:meth:`LiveSession.goto`).
Nothing here names a rule system: the strategy says whether the board has phase steps.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from game.core.board import Board
from game.core.compare import usable
from game.core.registry import strategy_of
from game.core.ruleset import load_ruleset
from game.core.scenario import ScenarioError, dump_scenario, parse_scenario
from game.core import paths
from game.live.frame import first_frame, static_svg
from game.render.html_page import hover_map

#: Most phase steps a page carries (each is an SVG inside the page).
MAX_PHASE_STEPS = 60


@dataclass
class LiveStep:
    """One step: ``caption`` (plain text), the ``board`` it shows, its ``analysis`` and its
    teaching ``marks`` ``{dim, highlight, fallen: [model id], notes: [[model id, text]]}``
    (:func:`game.live.frame.marks_of`)."""

    caption: str
    board: Board
    analysis: Any
    marks: dict = field(default_factory=dict)


def demo_steps(built: Sequence[Any]) -> list[LiveStep]:
    """The steps of a built demo (:func:`game.core.demo.build_steps`: :class:`DemoStep` s)."""
    return [LiveStep(st.caption, st.board, st.analysis,
                     {"dim": list(st.marks.dim), "highlight": list(st.marks.highlight),
                      "notes": [list(n) for n in st.marks.notes], "fallen": list(st.marks.fallen)}) for st in built]


def phase_steps(board: Board, analysis: Any) -> list[LiveStep]:
    """The opening board (first) and the phase steps its ruleset's strategy works out for it
    (``Strategy.phase_steps``), at most :data:`MAX_PHASE_STEPS`; ``[]`` when it has none."""
    rs = load_ruleset(board.ruleset)
    strat = strategy_of(rs)
    if not strat.has_phase_steps:
        return []
    got = list(strat.phase_steps(board, rs) or [])[:MAX_PHASE_STEPS]
    if not got:
        return []
    name = strat.steps_name or "phase"
    return [LiveStep(f"The position as set up (the {name} steps follow).", board, analysis)] + \
        [LiveStep(st.caption, st.board, st.analysis, {"dim": list(st.dim), "fallen": list(st.fallen)}) for st in got]


def write_steps(steps: Sequence[LiveStep], folder: Path, unit_models: Any,
                keep: Optional[str] = None) -> tuple[list[dict], list[dict]]:
    """Write each step's board to ``folder/steps/NN.yaml`` and draw it. Returns ``(config
    entries, drawn)``: a config entry ``{caption, scenario, why, marks, size_px, box_mm, ruleset, rulesets}``
    (what the page's Python reads; ``scenario`` None, and ``why`` one line, for a board the
    scenario format cannot hold), a drawn one ``{caption, svg, hover, units}`` (what the page shows
    before its engine answers, and for good when the engine cannot run). ``unit_models`` is
    :func:`game.live.session.unit_models`. Raises ``OSError``, ``FigureError``."""
    sub = folder / "steps"
    sub.mkdir(exist_ok=True)
    entries, drawn = [], []
    for i, st in enumerate(steps, 1):
        name: Optional[str] = f"steps/{i:02d}.yaml"
        text = dump_scenario(st.board)
        why = ""
        try:
            parse_scenario(text, str(name))
        except ScenarioError as exc:  # a board the scenario format cannot hold: shown, not live
            name, why = None, f"Not live: this step's board cannot be written as a scenario ({exc.field}: {exc.message})."
        if name is not None:
            (folder / name).write_text(text, encoding="utf-8")
        fr = first_frame(st.board, st.analysis, st.marks)
        svg = static_svg(st.board, st.analysis, st.marks)
        entries.append({"caption": st.caption, "scenario": name, "why": why, "marks": st.marks, "size_px": list(fr.size_px),
                        "box_mm": list(fr.box_mm), "ruleset": st.board.ruleset,
                        "rulesets": usable(st.board, paths.available(), keep=st.board.ruleset)})
        drawn.append({"caption": st.caption, "svg": svg[svg.index("<svg"):],
                      "hover": hover_map(st.board, st.analysis), "units": unit_models(st.board, st.analysis)})
    return entries, drawn
