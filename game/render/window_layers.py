"""The window's layers of the scene: selection and hover highlights, overlays (tape,
ghost unit, text), the tooltip, the status line and the error / warning bands.

Each layer is a function of the scene's :class:`~game.render.painter.Paint` ``p``. Figures
leave these options empty.
"""
from __future__ import annotations

import re
from typing import Any, Optional, Sequence

from game.core.analysis import Analysis
from game.core.board import Board
from game.render.canvas import ellipsize, wrap
from game.core.names import humanize, model_list, model_name, unit_names
from game.core import geometry as g
from game.render import part_marks  # noqa: F401 - registers the drawers the hover text asks
from game.render.drawers import part_hover_lines
from game.render.painter import Paint

ROLE_WORD = {"attack": "fights (red)", "support": "makes a supporting attack (blue)", "none": "does not fight (grey)"}


_FILED = re.compile(r"\.r\d+f\d+$")
#: said under the targets when a model of a rank-and-file unit targets models of another
FILES_NOTE = "(Files count from each unit's own left, as its models face.)"


def hover_lines(board: Board, analysis: Optional[Analysis], mid: str, differ: Any = None) -> list[tuple[str, bool]]:
    """The hover text of model ``mid`` as ``[(line, bold)]`` (unwrapped): the model by name
    (its unit's name and slot, :func:`game.core.names.model_name`), its role and attacks,
    parts, targets by name, the analysis's explanation (``why``) and, with ``differ``
    (``{model id: text}``), how another ruleset differs; every unit or model id in the
    engine's words is replaced by its name (:func:`game.core.names.humanize`). The window's
    tooltip and the HTML page's hover both show exactly these lines."""
    r = analysis.models.get(mid) if analysis is not None else None
    names = unit_names(board)
    lines = [(model_name(mid, names), True)]
    if r is None:
        lines.append(("No analysis for this model.", False))
    else:
        n = f"{r.attacks} attack{'s' if r.attacks != 1 else ''}"
        lines.append((f"{ROLE_WORD.get(r.role, r.role).capitalize()}: {n}", False))
        if r.parts:
            lines.append(("Parts: " + ", ".join(f"{k} {v}" for k, v in r.parts.items()), False))
        if r.targets:
            lines.append((f"Targets: {model_list(r.targets, names)}", False))
            if any(_FILED.search(str(t)) for t in r.targets) and _FILED.search(mid):
                # two units face each other: their files, each counted from its own left, run opposite ways
                lines.append((FILES_NOTE, False))
        if r.why:
            lines.append((humanize(str(r.why), names), False))
    # what the analysis' parts say of it
    lines += [(humanize(t, names), False) for t in part_hover_lines(analysis, mid)]
    if mid in (differ or {}):
        lines.append((humanize(str(differ[mid]), names), True))
    return lines


def draw_box(p: Paint, a_mm: Any, b_mm: Any) -> None:
    """The selection box being dragged from ``a_mm`` to ``b_mm`` (dashed, selection colour)."""
    (x0, y0), (x1, y1) = p.v.to_px(a_mm), p.v.to_px(b_mm)
    p.c.line([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], p.pal["selection"], 2, dashed=True)


def draw_drag_readout(p: Paint, start: Any, now: Any, r: Any) -> None:
    """While dragging: the ruleset's reach from where the drag began (a bar ahead of a
    rank-and-file unit's front edge, a ring around each skirmish model), a line to the
    nearest enemy with the gap (edge to edge), and the readout (:class:`DragReadout`
    lines: moved, gap, reach) beside the unit. ``p``: the scene's :class:`Paint`."""
    col = tuple(p.pal.get("reach", (0, 120, 90)))[:3]  # its own alphas below (the palette's reach has one)
    for _label, _rule, mm in r.reach[:2]:
        if start.is_ranked:
            fl, fr = start.tray().points[0], start.tray().points[1]
            f = g.forward(start.facing_deg)
            bar = [fl, fr, g.add(fr, g.scale(f, mm)), g.add(fl, g.scale(f, mm))]
            p.c.polygon(p.v.pts(bar), fill=col + (28,), outline=None)
            p.c.line(p.v.pts([fl, bar[3], bar[2], fr]), col, 2, dashed=True)
        else:
            rings = []
            for m in start.models()[:30]:
                rad = (m.shape.radius_mm if isinstance(m.shape, g.Circle) else 0.0) + mm
                rings.append((p.v.to_px(m.shape.center), rad * p.v.scale))

            def draw_rings(c: Any, rings: list = rings) -> None:
                for at, rad in rings:
                    c.circle(at, rad, outline=col, width=1)

            box = () if not rings else (min(a[0] - rd for a, rd in rings), min(a[1] - rd for a, rd in rings),
                   max(a[0] + rd for a, rd in rings), max(a[1] + rd for a, rd in rings))
            if rings:
                p.c.stamp(("reach rings", tuple(rings), col), box, draw_rings)  # the same all drag long
    if r.nearest is not None:
        _, gap, pa, pb = r.nearest
        a, b = p.v.to_px(pa), p.v.to_px(pb)
        p.c.line([a, b], p.pal["tape"], 2, dashed=True)
        for q in (a, b):
            p.c.circle(q, 3, fill=p.pal["tape"])
    c = p.v.to_px(now.center())
    size = p.size(13)
    lines = r.lines()
    lh = p.c.text_size("Ag", size)[1] + 2
    w = max(p.c.text_size(t, size, i == 0)[0] for i, t in enumerate(lines)) + 16
    x, y = c[0] + 24, c[1] - lh * len(lines) - 24
    x, y = max(0, min(x, p.c.width - w)), max(0, y)
    h = lh * len(lines) + 10
    p.c.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill=p.pal["tooltip_bg"],
                outline=p.pal["tooltip_edge"], width=1)
    for i, t in enumerate(lines):
        p.c.text((x + 8, y + 5 + i * lh), t, size, p.pal["tooltip_text"], bold=i == 0)


def highlight(p: Paint) -> None:
    sel = set(p.o.selection or ())
    for u in p.b.units:
        if u.id not in sel:
            continue
        p.c.tag = f"selection:{u.id}"
        shapes = [u.tray()] if u.is_ranked else [m.shape for m in u.models()]
        for s in shapes:
            p.draw_shape(s, None, p.pal["selection"], 3)
    if p.o.hover:
        dm = next((d for d in p.models if d.id == p.o.hover), None)
        r = (p.a.models if p.a is not None else {}).get(p.o.hover)
        if dm is not None:
            p.c.tag = f"hover:{dm.id}"
            if r is not None:
                for t in r.targets:
                    td = next((d for d in p.models if d.id == t), None)
                    if td is not None:
                        p.draw_shape(td.shape, None, p.pal["target"], 3)
            p.draw_shape(dm.shape, None, p.pal["hover"], 3)


def overlay(p: Paint, item: Sequence[Any]) -> None:
    kind = item[0]
    p.c.tag = f"overlay:{kind}"
    if kind == "tape":
        _, p0, p1, text = item
        a, b = p.v.to_px(p0), p.v.to_px(p1)
        p.c.line([a, b], p.pal["tape"], 3)
        for q in (a, b):
            p.c.circle(q, 4, fill=p.pal["tape"])
        p.c.text(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - 6), text, p.size(14), p.pal["tape"],
                 anchor="bottom", bold=True, background=p.pal["label_bg"])
    elif kind in ("ghost_unit", "ghost_shapes"):
        u = item[1]
        shapes = item[1] if kind == "ghost_shapes" else [u.tray()] if u.is_ranked else [m.shape for m in u.models()]
        for s in shapes:
            kind2, data = p.shape_px(s)
            if kind2 == "circle":
                p.c.circle(data[0], data[1], outline=p.pal["ghost"], width=1)
            else:
                p.c.line(list(data) + [data[0]], p.pal["ghost"], 2, dashed=True)
    elif kind == "box":
        draw_box(p, item[1], item[2])
    elif kind == "drag_readout":
        draw_drag_readout(p, item[1], item[2], item[3])
    elif kind == "text":
        _, pos, text = item
        p.c.text(pos, text, p.size(14), p.pal["label"], anchor="topleft", background=p.pal["label_bg"])


def tooltip(p: Paint) -> None:
    mid, at = p.o.hover, p.o.hover_px
    if not mid or at is None:
        return
    p.c.tag = "tooltip"
    r = (p.a.models if p.a is not None else {}).get(mid)
    size = p.size(13)
    maxw = int(min(420 * p.fs, p.c.width * 0.6))
    out: list[tuple[str, bool]] = []
    for t, bold in hover_lines(p.b, p.a, mid, p.o.differ):
        out += [(ln, bold) for ln in wrap(p.c, t, size, maxw)]
    lh = p.c.text_size("Ag", size)[1] + 2
    w = max(p.c.text_size(t, size, bold)[0] for t, bold in out) + 16
    h = lh * len(out) + 12
    x, y = at[0] + 16, at[1] + 18
    if x + w > p.c.width:
        x = at[0] - 16 - w
    if y + h > p.c.height:
        y = at[1] - 12 - h
    x, y = max(0, x), max(0, y)
    p.c.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill=p.pal["tooltip_bg"],
                outline=p.pal["tooltip_edge"], width=1)
    if r is not None:
        p.c.polygon([(x, y), (x + 5, y), (x + 5, y + h), (x, y + h)], fill=p.pal.get(r.role, p.pal["none"]))
    for i, (t, bold) in enumerate(out):
        p.c.text((x + 10, y + 6 + i * lh), t, size, p.pal["tooltip_text"], bold=bold)


def status(p: Paint) -> None:
    if not p.lay.status:
        return
    p.c.tag = "status"
    x, y, w, h = p.lay.status
    p.c.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill=p.pal["status_bg"])
    text = ellipsize(p.c, p.o.status, p.size(13), w - 20)  # never past the right edge
    p.c.text((x + 10, y + h / 2), text, p.size(13), p.pal["status_text"], anchor="left")


def banner(p: Paint) -> None:
    """The error banner (red) at the top of the table, then the warning line (amber) under it."""
    tl, tt, tw, _ = p.lay.table
    if p.o.banner:
        p.c.tag = "banner"
        tt += _band(p, tt, p.o.banner, 4, p.pal["banner_bg"], p.pal["banner_text"])
    if p.o.warning:
        p.c.tag = "warning"
        _band(p, tt, p.o.warning, 2, p.pal.get("warning_bg", (255, 204, 51)),
                   p.pal.get("warning_text", (25, 25, 25)))


def _band(p: Paint, top: float, text: str, max_lines: int, bg: Any, fg: Any) -> float:
    """A full-width band of wrapped ``text`` across the table from ``top``; returns its height."""
    tl, _, tw, _ = p.lay.table
    size = p.size(14)
    lines = wrap(p.c, text, size, tw - 24, bold=True)  # the first line is bold
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [ellipsize(p.c, " ".join(lines[max_lines - 1:]), size, tw - 24)]
    lh = p.c.text_size("Ag", size)[1] + 2
    h = lh * len(lines) + 12
    p.c.polygon([(tl, top), (tl + tw, top), (tl + tw, top + h), (tl, top + h)], fill=bg)
    for i, ln in enumerate(lines):
        p.c.text((tl + 12, top + 6 + i * lh), ln, size, fg, bold=i == 0)
    return h
