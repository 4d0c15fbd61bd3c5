"""Combats far apart drawn as insets: a cropped figure whose combats stand far apart on the table
shows each combat in its own panel, cropped to it, every panel at one scale, so the models print
at a usable size instead of a few millimetres across a mostly empty table.

A *combat* is a group of units joined by engagements (:attr:`Analysis.engagements`); a unit that
fights, moves by a rule or is named by the title without an engagement stands alone; combats whose
crop boxes (each unit's trays and bases, as drawn, its models' move paths, ``crop_margin_mm`` round
them) overlap are one combat. When there are two or more, the combats are laid out in the grid
(columns 1..n) that prints them largest (measured by the panel layout itself, title and key
included), and drawn as insets when that scale is at least :data:`INSET_GAIN` times the one
picture's (``figure_box``, same layout): the same figure pipeline
(:func:`game.render.figure_fit.build_fitted`: PNG, SVG, PDF, the caption key, the fit check), one
:class:`~game.render.figure_panels.Panel` a combat, its ``box_mm`` the combat's box, its board only
the units it shows; the key is the one picture's (the whole board: unit names, strike order). Lengths in mm.
"""
from __future__ import annotations

import math
from typing import Any, Optional

from game.core.analysis import Analysis
from game.core.board import Board, unit_of
from game.core.parts import FightSequence

from game.render.drawn import drawn_models
from game.render.figure import FigureOptions, titled_units, visible_ids, with_objectives
from game.render.figure_panels import Panel, PanelFigure, figure_layout
from game.render.scene import units_bbox
from game.render.svg_canvas import SvgCanvas

INSET_GAIN = 1.4      # insets only when they print the models at least this much larger
MAX_INSETS = 6        # more combats than this: one picture (a page of tiny insets reads worse)

Box = tuple[float, float, float, float]


def combat_groups(board: Board, analysis: Optional[Analysis], margin_mm: float, title: str = "") -> list[list[str]]:
    """The combats of ``board``: lists of unit ids (in board order, the groups in the order of
    their first unit), see the module doc. Units in no engagement that neither fight, move nor
    are named by ``title`` are in no group."""
    a = analysis
    ids: list[str] = []
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def add(x: str) -> None:
        if x not in parent:
            parent[x] = x
            ids.append(x)

    known = {u.id for u in board.units}
    for e in (a.engagements if a is not None else []):
        if e.unit in known and e.enemy in known:
            add(e.unit)
            add(e.enemy)
            parent[find(e.unit)] = find(e.enemy)
    seq = a.part(FightSequence) if a is not None else None
    extra = [e.unit for e in (seq.entries if seq is not None else ())]
    extra += [unit_of(m) for m in (a.moves if a is not None else {})]
    extra += [u.id for u in titled_units(title, board)]
    for x in extra:
        if x in known:
            add(x)
    boxes = {x: _units_box(board, analysis, [x], margin_mm) for x in ids}
    merged = True
    while merged:  # combats whose crop boxes overlap are one (each pass joins every overlapping pair)
        merged = False
        members: dict[str, list[Box]] = {}
        for x in ids:
            members.setdefault(find(x), []).append(boxes[x])
        roots = list(members)
        grown = {r: _union(members[r]) for r in roots}
        for i, r in enumerate(roots):
            for s in roots[i + 1:]:
                if find(r) != find(s) and _overlap(grown[r], grown[s]):
                    parent[find(s)] = find(r)
                    merged = True
    order = [u.id for u in board.units]
    groups: dict[str, list[str]] = {}
    for x in sorted(ids, key=order.index):
        groups.setdefault(find(x), []).append(x)
    return list(groups.values())


def combat_box(board: Board, analysis: Optional[Analysis], unit_ids: list[str], margin_mm: float) -> Box:
    """The table box (mm) of one combat: its units as drawn and their models' move paths,
    ``margin_mm`` round them, grown to hold whole any objective it would cut."""
    return with_objectives(board, _units_box(board, analysis, unit_ids, margin_mm))


def inset_figure(board: Board, analysis: Optional[Analysis], fo: FigureOptions, size: tuple[int, int]) -> Optional[PanelFigure]:
    """The figure of ``board`` as insets (see the module doc) for a cropped figure (``fo.crop``,
    ``fo.insets``, not a compare figure, no unit tags ``fo.letters``: those follow the whole
    board's order) of ``size`` px, or None when it is drawn as one picture.
    ``fo.legend_at`` as the figure is drawn (``key``, ``below``...)."""
    if not fo.crop or not fo.insets or fo.compare:
        return None
    if fo.letters:  # unit tags A, B... follow the whole board's order: one picture
        return None
    title = fo.title if fo.title is not None else (board.title or "")
    groups = combat_groups(board, analysis, fo.crop_margin_mm, title)
    if not 2 <= len(groups) <= MAX_INSETS:
        return None
    boxes = [combat_box(board, analysis, g, fo.crop_margin_mm) for g in groups]
    rs = (analysis.ruleset if analysis is not None else None) or board.ruleset
    said = [f"Rules: {fo.ruleset_name or rs}"]
    canvas = SvgCanvas(*size)
    whole = Panel(board, analysis, marks=fo.marks)  # the one picture; the insets' key is its key
    one = figure_layout(canvas, PanelFigure([whole], title, said), fo)["scale"]
    panels = [Panel(_seen(board, analysis, b), analysis, marks=fo.marks, box_mm=b) for b in boxes]
    best, scale = None, 0.0
    for cols in range(1, len(panels) + 1):  # the grid that prints the models largest
        pf = PanelFigure(panels, title, said, columns=cols, letters=False, key_panel=whole)
        s = figure_layout(canvas, pf, fo)["scale"]
        if s > scale + 1e-9:
            best, scale = pf, s
    return best if scale >= INSET_GAIN * one else None


def _seen(board: Board, analysis: Optional[Analysis], box: Box) -> Board:
    """``board`` with only the units of which a model, as drawn, lies (partly) in ``box`` (mm):
    a panel draws nothing of a combat it does not show (no mark of it hidden by the clip)."""
    keep = {dm.unit.id for dm in drawn_models(board, analysis) if dm.id in visible_ids([dm], box)}
    return board.with_units(u for u in board.units if u.id in keep)


def _units_box(board: Board, analysis: Optional[Analysis], unit_ids: list[str], margin_mm: float) -> Box:
    want = set(unit_ids)
    sub = Board(units=tuple(u for u in board.units if u.id in want), ruleset=board.ruleset, table=board.table)
    x0, y0, x1, y1 = units_bbox(sub)
    for dm in drawn_models(sub, analysis):
        b = dm.shape.bbox()
        x0, y0, x1, y1 = min(x0, b[0]), min(y0, b[1]), max(x1, b[2]), max(y1, b[3])
    for mid, path in (analysis.moves if analysis is not None else {}).items():
        if unit_of(mid) in want:
            for p in path:
                x0, y0, x1, y1 = min(x0, p[0]), min(y0, p[1]), max(x1, p[0]), max(y1, p[1])
    return (x0 - margin_mm, y0 - margin_mm, x1 + margin_mm, y1 + margin_mm)


def _union(boxes: list[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
