"""Marks of rule-mandated moves (pile-in, consolidation, closing up): the distance of each
move beside its arrow; a move longer than the analysis' :class:`~game.core.parts.MoveReach` is
drawn as invalid (a red dashed arrow, "too far" beside it). One convention in every view: the
arrow runs from where the model stood (its dashed outline) to where it ends (the model).
The padlock of a model held in place is the :class:`~game.core.parts.Locked` part's drawer
(:mod:`game.render.part_marks`).
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Mapping, Optional, Sequence

from game.core.analysis import Analysis
from game.core import geometry as g
from game.core.board import Unit, unit_of
from game.core.parts import MoveReach
from game.render.drawn import DrawnModel
from game.render.painter import Paint
from game.render.canvas import text_pad
from game.render.palette import lw

Point = tuple[float, float]
INVALID = (200, 0, 0)
NEAR = 24  # the first spots of :func:`_spots` (12 a step): the two steps nearest the arrow


def path_mm(path: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in zip(path, path[1:]))


def _crosses(p1: Any, p2: Any, q1: Any, q2: Any) -> bool:
    """Do segments p1-p2 and q1-q2 cross (properly, not at an end)?"""
    def o(a: Any, b: Any, c: Any) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return o(q1, q2, p1) * o(q1, q2, p2) < -1e-9 and o(p1, p2, q1) * o(p1, p2, q2) < -1e-9


def uncrossed(analysis: Optional[Analysis], models: Sequence[DrawnModel] = ()) -> dict:
    """The moves to draw: the analysis' ``moves``, except that two straight moves of alike
    models of one unit (same base) whose arrows cross are drawn with their ends swapped when
    both swapped moves stay within the :class:`~game.core.parts.MoveReach`: the same places are reached by
    routes no longer in all (two crossing straight moves are always longer than the swapped
    pair), so the arrows never cross where an equal route exists. The board, the analysis
    and where every base is drawn are unchanged."""
    moves = {m: list(pth) for m, pth in (analysis.moves if analysis is not None else {}).items()}
    part = analysis.part(MoveReach) if analysis is not None else None
    reach = part.mm if part is not None else None
    limit = float(reach) + 0.5 if reach is not None else math.inf
    shape = {dm.id: dm.shape for dm in models or ()}

    def alike(a: str, b: str) -> bool:
        if unit_of(a) != unit_of(b):
            return False
        sa, sb = shape.get(a), shape.get(b)
        if sa is None or sb is None:
            return True
        ba, bb = sa.bbox(), sb.bbox()
        return abs((ba[2] - ba[0]) - (bb[2] - bb[0])) < 1e-6 and abs((ba[3] - ba[1]) - (bb[3] - bb[1])) < 1e-6

    ids = [m for m, pth in moves.items() if len(pth) == 2]
    for _ in range(len(ids) * len(ids)):
        changed = False
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                pa, pb = moves[a], moves[b]
                if not (alike(a, b) and _crosses(pa[0], pa[1], pb[0], pb[1])):
                    continue
                na, nb = [pa[0], pb[1]], [pb[0], pa[1]]
                if path_mm(na) <= limit and path_mm(nb) <= limit:
                    moves[a], moves[b] = na, nb
                    changed = True
        if not changed:
            break
    return moves


def moved_alike(u: Unit, analysis: Optional[Analysis]) -> Unit:
    """``u`` where its frame stands after a rule moved every one of its models by one straight
    vector (closing up: within 0.5 mm), so the frame and front marker go with the models (the
    dashed outlines show where they stood); else ``u`` itself. The board is unchanged."""
    moves = analysis.moves if analysis is not None else {}
    if not moves or not u.is_ranked:
        return u
    vs = []
    for m in u.models():
        pth = moves.get(m.id)
        if pth is None or len(pth) != 2:
            return u
        vs.append((pth[1][0] - pth[0][0], pth[1][1] - pth[0][1]))
    if not vs or any(math.dist(v, vs[0]) > 0.5 for v in vs):
        return u
    dx, dy = vs[0]
    return dataclasses.replace(u, front=(u.front[0] + dx, u.front[1] + dy))


def thinned(moves: dict, analysis: Optional[Analysis]) -> dict:
    """The move arrows worth drawing: a unit whose models (three or more) made the same
    straight move (closing up: one vector within 0.5 mm, none too far) keeps one arrow per
    moved file, the file's leading model's (a file: the models in one lane along the move,
    lanes half a base apart), as a rulebook draws a unit's move; every model keeps its dotted
    outline where it started. Other moves are all kept."""
    kept = stands_for(moves, analysis)
    return {m: pth for m, pth in moves.items() if m in kept}


def stands_for(moves: Mapping[str, Sequence[Point]], analysis: Optional[Analysis]) -> dict[str, list[str]]:
    """``{kept model id: the model ids its arrow stands for}`` (itself first) over ``moves``
    (``{model id: path mm}``): the lanes of :func:`thinned`; a move not thinned stands for itself."""
    r = analysis.part(MoveReach) if analysis is not None else None
    limit = float(r.mm) + 0.5 if r is not None and r.mm is not None else math.inf
    groups: dict[tuple, list] = {}
    for mid, pth in moves.items():
        if len(pth) != 2 or path_mm(pth) > limit:
            continue
        v = (pth[1][0] - pth[0][0], pth[1][1] - pth[0][1])
        key = next((k for k in groups if k[0] == unit_of(mid) and math.dist(k[1], v) <= 0.5), (unit_of(mid), v))
        groups.setdefault(key, []).append(mid)
    out: dict[str, list[str]] = {m: [m] for m in moves}
    for (_, v), mids in groups.items():
        n = math.hypot(*v)
        if len(mids) < 3 or n < 1e-6:
            continue
        d, q = (v[0] / n, v[1] / n), (-v[1] / n, v[0] / n)
        along = {m: moves[m][1][0] * d[0] + moves[m][1][1] * d[1] for m in mids}
        lat = {m: moves[m][1][0] * q[0] + moves[m][1][1] * q[1] for m in mids}
        lane = _lane_width(mids, lat)
        files: list[list] = []
        for m in sorted(mids, key=lambda m: lat[m]):
            if files and lat[m] - lat[files[-1][0]] < lane / 2:
                files[-1].append(m)
            else:
                files.append([m])
        for f in files:
            lead = max(f, key=lambda m: along[m])
            for m in f:
                out.pop(m, None)
            out[lead] = [lead] + [m for m in f if m != lead]
    return out


def _lane_width(mids: list, lat: dict) -> float:
    """The spacing of the files across the move (mm): the smallest gap between distinct lateral
    positions (over 1 mm apart), or 1 mm when all stand in one lane."""
    xs = sorted(lat[m] for m in mids)
    gaps = [b - a for a, b in zip(xs, xs[1:]) if b - a > 1.0]
    return min(gaps) if gaps else 1.0


def draw(p: Paint, analysis: Optional[Analysis], moves: Optional[Mapping[str, Sequence[Point]]] = None,
         before: Optional[Mapping[str, Sequence[Point]]] = None) -> None:
    """Distance labels (valid / invalid) for every move (``moves``: as drawn, default the
    analysis'; ``before``: the moves before :func:`thinned`, default ``moves``). An arrow that
    stands for the moves of several files (a rank shuffled sideways drawn as one arrow,
    :func:`stands_for`) says how many models it moves."""
    if analysis is None:
        return
    shown = moves if moves is not None else analysis.moves
    group = stands_for(before if before is not None else shown, analysis)
    r = analysis.part(MoveReach)
    reach = r.mm if r is not None else None
    bases, starts = _model_boxes(p, analysis)
    avoid = (bases, bases + starts)  # the same two lists for every label: the placer indexes each once
    for mid, path in shown.items():
        if len(path) < 2:
            continue
        L = path_mm(path)
        bad = reach is not None and L > float(reach) + 0.5
        if not bad and _said_by_another(mid, path, shown):
            continue  # a unit's models moved alike (closing up): one length says it for all
        n = len(group.get(mid, [mid])) if _across_files(p, group.get(mid, [mid])) else 1
        _label(p, mid, path, L, bad, avoid, n)


def _across_files(p: Any, mids: list) -> bool:
    """True when ``mids`` (one arrow's models) stand in more than one file of their unit (a rank
    moved sideways); a file moved along itself is said by its own arrow."""
    if len(mids) < 2:
        return False
    try:
        u = p.b.unit(unit_of(mids[0]))
    except (KeyError, AttributeError):
        return True
    files = {m.id: m.file for m in u.models() if m.id in set(mids)}
    return len({files.get(m, m) for m in mids}) > 1


def _said_by_another(mid: str, path: Sequence[Point], moves: Mapping[str, Sequence[Point]]) -> bool:
    """True when an earlier model of the same unit made the same straight move (same vector
    within 0.5 mm): its length label stands for this one too."""
    uid = unit_of(mid)
    dv = (path[-1][0] - path[0][0], path[-1][1] - path[0][1])
    for other, op in moves.items():
        if other == mid:
            return False
        if unit_of(other) != uid or len(op) != 2 or len(path) != 2:
            continue
        ov = (op[-1][0] - op[0][0], op[-1][1] - op[0][1])
        if math.dist(dv, ov) <= 0.5:
            return True
    return False


def _model_boxes(p: Any, analysis: Any) -> tuple[list, list]:
    """Px boxes of every drawn base (a move's length keeps off them all, its own model's too)
    and of every moved model's dotted outline where it started (kept off when a spot near the
    arrow is free of them)."""
    bases: list = []
    starts: list = []
    moves = analysis.moves if analysis is not None else {}
    for dm in p.models or []:
        x0, y0, x1, y1 = dm.shape.bbox()
        shifts = [(bases, 0.0, 0.0)]
        pth = moves.get(dm.id)
        if pth is not None and len(pth) >= 2:
            shifts.append((starts, pth[0][0] - pth[-1][0], pth[0][1] - pth[-1][1]))
        for out, dx, dy in shifts:
            a, b = p.v.to_px((x0 + dx, y0 + dy)), p.v.to_px((x1 + dx, y1 + dy))
            out.append((min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])))
    return bases, starts


def _label(p: Any, mid: str, path: Sequence[Point], L: float, bad: bool, avoid: tuple[list, list], count: int = 1) -> None:
    """The length of one move beside its longest leg, off every base and start outline: the
    nearest free spot beside the leg or past its ends; a spot farther than a line from the leg
    is joined to it by a short leader. ``avoid``: (the drawn bases' px boxes, those and the
    start outlines'), the same lists for every label of a drawing."""
    p.c.tag = f"movelen:{mid}"
    pts = p.v.pts(path)
    if bad:  # redraw the arrow dashed in red over the normal one
        p.c.line(pts, INVALID, p.u(lw("medium")), dashed=True)
    k = max(range(len(pts) - 1), key=lambda i: math.dist(pts[i], pts[i + 1]))
    a, b = pts[k], pts[k + 1]
    d = math.dist(a, b)
    if d < p.u(14):
        return
    text = f"{L / g.MM_PER_INCH:.1f}\"" + (" too far" if bad else "") + (f" ({count} models)" if count > 1 else "")
    size = p.size(10)
    tw, th = p.c.text_size(text, size)
    pad = max(p.u(1.5), text_pad(size))  # the drawn background's padding
    spots = _spots(p, a, b, tw, th, pad)
    box = p.placer.best(spots[:NEAR], avoid[1])  # near the arrow, off bases and outlines
    if p.placer.score(box, avoid[1]) > 0:
        box = p.placer.best(spots, avoid[0])  # else the nearest spot off the bases
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    colour = INVALID if bad else p.pal["move"]
    if _gap(box, _nearest_on(a, b, (cx, cy))) > p.u(4) + 2 * (th + pad):  # far from its arrow: a leader
        # from the box's point nearest the leg's middle to the shaft a third along (slanted, so it
        # is not read as a base's edge)
        start = _nearest_in(box, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        p.c.line([start, (a[0] + (b[0] - a[0]) * 0.3, a[1] + (b[1] - a[1]) * 0.3)], colour, p.u(lw("hair")))
    p.c.text((cx, cy), text, size, colour, anchor="center", background=p.pal["label_bg"])
    p.placer.add(box)


def _spots(p: Any, a: Any, b: Any, tw: float, th: float, pad: float) -> list:
    """Candidate px boxes for a ``tw`` x ``th`` label of the leg ``a``-``b``, nearest first:
    beside the leg (left then right, the middle first) at growing distances, then past either end."""
    d = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    nx, ny = -uy, ux
    half_across = abs(nx) * tw / 2 + abs(ny) * th / 2  # the box's half extent across the leg
    half_along = abs(ux) * tw / 2 + abs(uy) * th / 2
    out = []
    for step in range(9):
        off = p.u(4) + half_across + step * (th + pad)
        for t in (0.5, 0.3, 0.7, 0.15, 0.85):
            for sgn in (1.0, -1.0):
                out.append((a[0] + (b[0] - a[0]) * t + nx * off * sgn, a[1] + (b[1] - a[1]) * t + ny * off * sgn))
        end = p.u(4) + half_along + step * (th + pad)
        out.append((a[0] - ux * end, a[1] - uy * end))
        out.append((b[0] + ux * end, b[1] + uy * end))
    return [(cx - tw / 2 - pad, cy - th / 2 - pad, cx + tw / 2 + pad, cy + th / 2 + pad) for cx, cy in out]


def _nearest_on(a: Any, b: Any, q: Any) -> tuple:
    """The point of segment ``a``-``b`` nearest ``q`` (px)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return (a[0] + dx * t, a[1] + dy * t)


def _nearest_in(box: Any, q: Any) -> tuple:
    """The point of px ``box`` nearest ``q``."""
    return (min(max(q[0], box[0]), box[2]), min(max(q[1], box[1]), box[3]))


def _gap(box: Any, q: Any) -> float:
    """Px distance from ``q`` to ``box`` (0 inside)."""
    return math.dist(_nearest_in(box, q), q)
