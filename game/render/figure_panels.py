"""Multi-panel figures: several boards in one figure, lettered a), b), c), at one scale.

A :class:`PanelFigure` holds :class:`Panel` s (each a board with its analysis: a scenario, a
demo step, or the same board under another ruleset), laid out in a row or a grid of
``columns``. :func:`draw_panels` draws it on any canvas of the drawing protocol (pygame, SVG,
PDF, recording) through :class:`game.render.canvas.SubCanvas`, so each panel is the one scene
drawer (:func:`game.render.figure.draw_figure`) clipped to its box:

* a title block on top (the figure's title in bold, then its sentences, e.g. a compare
  figure's differences), black on white in the print style;
* each panel headed ``a) caption``, wrapped to the panel's width, with an optional verdict on
  the right (``legal``: a tick and the word, in green; ``illegal``: a cross, in red); the
  headers of one row share a height, so the pictures align;
* **one scale**: every panel's view has the same px per mm (the largest at which every
  panel's box fits its cell), centred on its box, so the scale bars read the same;
* **one legend** for the figure (:func:`merge_legends`: rows of all panels without their
  per-panel counts, sections whose text differs lettered by panel), below the panels in
  columns (``legend_at`` ``below``, the default) or on the right, or none.

Lengths are design units times ``fo.scale()`` (px per unit), like every figure.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Optional, Sequence

from game.core.analysis import Analysis
from game.core.board import Board
from game.render.canvas import Canvas, SubCanvas, wrap
from game.render.caption_key import KEY_SHARE, key_fits, key_of
from game.render.drawn import font_px
from game.render.figure import (DEFAULT_PX_PER_MM, Figure, FigureOptions, draw_figure, figure_box, scene_options, target_for,
                                visible_ids)
from game.render.gap_marks import arrows
from game.render.legend import LegendItem, layout_legend, legend_items, swatch
from game.render.marks import Marks, point_marks_of
from game.render.options import LEGEND_MAX_SHARE, LEGEND_SHARE
from game.render.palette import LINE_UNITS, PALETTE, style_palette
from game.render.drawn import drawn_models
from game.render.scene import legend_painter
from game.render.transform import View

VERDICTS = ("legal", "illegal")
_COUNT = re.compile(r" \(\d+(?: models?)?\)$")


@dataclass
class Panel:
    """One panel: ``board`` and its ``analysis``; ``caption`` (short: what differs here);
    ``verdict`` ``legal``/``illegal``/None; teaching ``marks``; compare ``differ`` marks."""

    board: Board
    analysis: Optional[Analysis]
    caption: str = ""
    verdict: Optional[str] = None
    marks: Marks = field(default_factory=Marks)
    differ: dict = field(default_factory=dict)
    differ_label: str = ""
    box_mm: Optional[tuple] = None   # the table box (x0, y0, x1, y1 mm) to show; None: figure_box


@dataclass
class PanelFigure:
    """Panels in a row (``columns`` None) or a grid; ``title`` and ``sentences`` above them;
    ``letters``: head the panels a), b), c) (a single panel is not lettered);
    ``continue_letters``: gap arrows lettered on from panel to panel (compare figures: off,
    both panels show the same board); ``key_panel``: the legend or key is this panel's alone
    (insets of one board: :mod:`game.render.insets`), not merged from the panels'."""

    panels: list
    title: str = ""
    sentences: Sequence[str] = ()
    columns: Optional[int] = None
    letters: bool = True
    continue_letters: bool = True
    key_panel: Optional[Panel] = None  # the legend / key made of this one panel instead (insets: the whole board)


def gap_count(p: Panel) -> int:
    """How many gap arrows panel ``p`` draws (the letters the next panel starts after)."""
    return len(arrows(p.board, p.analysis, {dm.id: dm.shape for dm in drawn_models(p.board, p.analysis)}))


def arrows_lettered(pf: "PanelFigure") -> bool:
    """Do the gap arrows of ``pf`` carry letters (two or more in the figure, lettered on from panel
    to panel; a compare figure: two or more in a panel, the same contact the same letter in both)?
    Then the panels are titled, not lettered: one meaning per letter."""
    if len(pf.panels) < 2:
        return False
    counts = [gap_count(p) for p in pf.panels]
    return (sum(counts) > 1) if pf.continue_letters else any(c > 1 for c in counts)


def panel_name(i: int, n: int, cols: int) -> str:
    """How the text names panel ``i`` of ``n`` when letters belong to the arrows: ``left``,
    ``middle``, ``right`` in a single row of two or three, else ``panel 1``, ``panel 2``..."""
    if n == cols and n in (2, 3):
        return ("left", "middle", "right")[i] if n == 3 else ("left", "right")[i]
    return f"panel {i + 1}"


def panel_tag(pf: "PanelFigure", i: int, cols: int) -> str:
    """The prefix of panel ``i``'s lines in the figure's one legend or key: ``a)``, or ``left:``
    when the arrows carry the letters (:func:`arrows_lettered`)."""
    n = len(pf.panels)
    return f"{panel_name(i, n, cols)}:" if arrows_lettered(pf) or not pf.letters else f"{panel_letter(i)})"


def panel_letter(i: int) -> str:
    """``a``, ``b``, ... ``z``, ``aa``..."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(97 + r) + s
    return s


def merge_legends(lists: Sequence[Sequence[LegendItem]], letters: Sequence[str]) -> list[LegendItem]:
    """One legend from the panels' legends: swatch rows once each (counts dropped when the
    panels differ; player rows list every unit named), and each section (a heading and its
    paragraphs) once when every panel has the same text, else each paragraph behind its
    panel's letter (``b) 1. Agility 3: ...``)."""
    if len(lists) == 1:
        return list(lists[0])
    rows: dict[str, LegendItem] = {}
    texts: dict[str, set] = {}
    players: dict[str, list[str]] = {}
    sections: dict[str, list[tuple[str, LegendItem]]] = {}
    per_panel: dict[str, dict[str, list[str]]] = {}
    for letter, items in zip(letters, lists):
        head = ""
        for it in items:
            if it.kind == "heading":
                head = it.text
                continue
            if it.kind == "row" and head == "Legend":
                if it.swatch.startswith("player:"):
                    _, _, names = it.text.partition(": ")
                    known = players.setdefault(it.swatch, [])
                    known += [n for n in names.split(", ") if n and n.lower() not in {k.lower() for k in known}]
                    rows.setdefault(it.swatch, it)
                    continue
                rows.setdefault(it.swatch, it)
                texts.setdefault(it.swatch, set()).add(it.text)
            elif it.kind in ("para", "row"):
                sections.setdefault(head, []).append((letter, it))
                per_panel.setdefault(head, {}).setdefault(letter, []).append(it.text)
    out = [LegendItem("heading", "Legend")]
    for sw, it in rows.items():
        if sw.startswith("player:"):
            out.append(LegendItem("row", f"Player {sw.split(':', 1)[1]}: {', '.join(players[sw])}", swatch=sw))
        elif len(texts.get(sw, ())) > 1:
            out.append(LegendItem("row", _COUNT.sub("", it.text), swatch=sw))
        else:
            out.append(LegendItem("row", _COUNT.sub("", it.text) if len(lists) > 1 else it.text, swatch=sw))
    for head, entries in sections.items():
        if head and head != "Legend":
            out += [LegendItem("space", units=6), LegendItem("heading", head)]
        versions = list(per_panel[head].values())
        same = len(versions) == len(lists) and all(v == versions[0] for v in versions)
        seen: set = set()
        for letter, it in entries:
            if same:
                if it.text in seen:
                    continue
                seen.add(it.text)
                out.append(replace(it))
            else:
                tag = letter if letter.endswith((")", ":")) else f"{letter})"
                out.append(replace(it, text=f"{tag} {it.text}"))
    return out


def _fit_scale(box: Sequence[float], w: float, h: float, margin: float) -> float:
    bw, bh = max(1.0, box[2] - box[0]), max(1.0, box[3] - box[1])
    return min(max(1.0, w - 2 * margin) / bw, max(1.0, h - 2 * margin) / bh)


def _legend_columns(canvas: Canvas, items: list, width: float, fs: float, ss: int,
                    ts: float = 1.0) -> tuple[list, float]:
    """Lay the legend out below the figure in as many columns (each >= 250 units) as fit:
    ``([(ops, x offset)], height)``; columns break only between items (never inside a row),
    never right after a heading or a space, at the breaks that make the tallest column lowest."""
    n = max(1, min(4, int(width // (250 * fs * ts))))
    col_w = width / n
    pad = 24 * fs
    heights = [layout_legend(canvas, [it], (0, 0, col_w, 0), fs, ts, ss)[1] - pad for it in items]
    cols = _partition(items, heights, n)
    out, height = [], 0.0
    for i, col in enumerate(cols):
        ops, h = layout_legend(canvas, col, (i * col_w, 0, col_w, 0), fs, ts, ss)
        out.append(ops)
        height = max(height, h)
    return out, height


def _partition(items: list, heights: list, n: int) -> list[list]:
    """Split ``items`` (in order) into at most ``n`` columns minimising the tallest column
    (sum of ``heights``); a column may not end with a heading or a space, and a space that
    would start a column is dropped."""
    m = len(items)
    pre = [0.0]
    for h in heights:
        pre.append(pre[-1] + h)

    def ok_end(k: int) -> bool:  # a column may end after item k-1
        return k == m or items[k - 1].kind not in ("heading", "space")

    def col_h(a: int, b: int) -> float:
        while a < b and items[a].kind == "space":
            a += 1
        return pre[b] - pre[a]
    INF = float("inf")
    best = [[INF] * (m + 1) for _ in range(n + 1)]
    cut = [[0] * (m + 1) for _ in range(n + 1)]
    best[0][0] = 0.0
    for c in range(1, n + 1):
        for b in range(1, m + 1):
            if not ok_end(b):
                continue
            for a in range(0, b):
                if best[c - 1][a] == INF:
                    continue
                v = max(best[c - 1][a], col_h(a, b))
                if v < best[c][b] - 1e-9:
                    best[c][b], cut[c][b] = v, a
    c = min(range(1, n + 1), key=lambda k: (best[k][m], k))
    bounds = []
    b = m
    while c > 0:
        a = cut[c][b]
        bounds.append((a, b))
        b, c = a, c - 1
    cols = []
    for a, b in reversed(bounds):
        col = items[a:b]
        while col and col[0].kind == "space":
            col = col[1:]
        if col:
            cols.append(col)
    return cols or [list(items)]


def _title_lines(canvas: Canvas, pf: PanelFigure, width: float, fs: float, ss: int) -> list[tuple[str, int, bool]]:
    out = []
    if pf.title:
        size = font_px(16 * fs, ss)
        out += [(ln, size, True) for ln in wrap(canvas, pf.title, size, width, bold=True)]
    body = font_px(13 * fs, ss)
    for s in pf.sentences:
        out += [(ln, body, False) for ln in wrap(canvas, s, body, width)]
    return out


def figure_layout(canvas: Canvas, pf: PanelFigure, fo: FigureOptions, k: float = 1.0) -> dict:
    """Where everything goes (canvas px): ``title`` lines and their block height, the panel
    ``cells`` ``(x, y, w, h)`` with their ``header`` lines and ``scene`` boxes, the shared
    ``scale`` (px per mm) and ``views``, and the ``legend`` ops and box."""
    fs = fo.scale() * k
    ss = max(1, int(round(k)))
    W, H = canvas.width, canvas.height
    m = 10 * fs
    n = len(pf.panels)
    cols = max(1, min(n, pf.columns or n))
    rows = math.ceil(n / cols)
    lines = _title_lines(canvas, pf, W - 2 * m, fs, ss) if fo.caption else []
    title_h = (sum(canvas.text_size("Ag", s, b)[1] + 3 * fs for _, s, b in lines) + 2 * m) if lines else m
    items: list = []
    if fo.legend:
        keyed = [pf.key_panel] if pf.key_panel is not None else pf.panels
        letters = [panel_tag(pf, i, cols) for i in range(len(keyed))]
        lists = []
        for p in keyed:
            so = scene_options(p.board, replace(fo, legend=True), "", k)
            so.differ, so.differ_label = dict(p.differ), p.differ_label
            models = drawn_models(p.board, p.analysis)
            so.visible = visible_ids(models, figure_box(p.board, p.analysis, fo))
            if p.marks.notes and p.marks.numbered:
                so.callouts = [t for _, t in p.marks.notes]
            so.point_marks = point_marks_of(p.board, p.marks)
            lists.append(legend_items(p.board, p.analysis, models, so))
        items = merge_legends(lists, letters)
    if items and key_wanted(fo):
        key = key_of(items, fo.sections)
        arr = _arrange(canvas, pf, fo, items, "key", 1.0, lines, title_h, fs, ss, m, cols, rows, key=key)
        if legend_fits(arr) or fo.svg_size_attrs() is not None or not fo.size:
            return arr  # a print size: the key or a refusal (game.render.figure_fit); a px size: a panel instead
    best = None
    fixed = fo.legend_at if fo.legend_at != "key" else None
    places = [fixed] if fixed else (["below", "right"] if n > 1 else ["right", "below"])
    for share in (LEGEND_SHARE, LEGEND_MAX_SHARE):  # the wider share only when nothing fits
        for place in places if items else ["none"]:
            for ts in ((1.0, 0.9) if fo.svg_size_attrs() else (1.0, 0.9, 0.8, 0.7)):  # print: never under 6 pt
                arr = _arrange(canvas, pf, fo, items, place, ts, lines, title_h, fs, ss, m, cols, rows, share)
                fits = arr["legend_h_needed"] <= arr["legend_room"] + 0.5
                # the arrangement whose legend fits and whose pictures are largest; larger text
                # and the preferred place win near-ties; when none fits, the one that overflows least
                key = (fits, arr["scale"] * (0.8 + 0.2 * ts) * (1.0 if place == places[0] else 0.93) if fits
                       else arr["legend_room"] - arr["legend_h_needed"])
                if best is None or key > best[0]:
                    best = (key, arr)
        assert best is not None
        if best[0][0]:
            break
    assert best is not None
    return best[1]


def key_wanted(fo: FigureOptions) -> bool:
    """Does a figure with options ``fo`` carry the caption key (the print style's default, or
    ``legend_at`` ``key``) rather than a legend panel?"""
    return bool(fo.legend) and (fo.legend_at == "key" or (fo.legend_at is None and fo.style == "print"))


def legend_fits(lay: dict) -> bool:
    """Does the legend of a :func:`figure_layout` fit its room (no line lost)?"""
    return bool(lay["legend_h_needed"] <= lay["legend_room"] + 0.5)


def _arrange(canvas: Canvas, pf: PanelFigure, fo: FigureOptions, items: list, place: str, ts: float, lines: list,
             title_h: float, fs: float, ss: int, m: float, cols: int, rows: int, share: float = LEGEND_SHARE,
             key: Optional[tuple] = None) -> dict:
    """The layout with the legend at ``place`` (below/right/none) in text ``ts`` times the
    usual size, taking at most ``share`` of the height (below) or width (right) (see
    :func:`figure_layout`)."""
    W, H = canvas.width, canvas.height
    n = len(pf.panels)
    legend_cols: list = []
    legend_box = None
    right_w = 0.0
    need, room = 0.0, 0.0
    dropped: list[str] = []
    if key is not None and place == "key":
        key_rows, blocks = key
        room = H * KEY_SHARE
        ops, need, ts, kept = key_fits(canvas, key_rows, blocks, W - 2 * m, room, fs, ss)
        dropped = [b.name for b in blocks if b not in kept]
        if ops:
            lh = min(need, room)
            legend_box = (m, H - lh - m * 0.5, W - 2 * m, lh)
            legend_cols = [ops]
    elif items and place == "below":
        legend_cols, need = _legend_columns(canvas, items, W - 2 * m, fs, ss, ts)
        room = H * share
        lh = min(need, room)
        legend_box = (m, H - lh - m * 0.5, W - 2 * m, lh)
    elif items and place == "right":
        right_w = min(300 * fs, W * share)
        legend_box = (W - right_w, title_h, right_w, H - title_h)
        ops, need = layout_legend(canvas, items, legend_box, fs, ts, ss)
        room = legend_box[3]
        legend_cols = [ops]
    grid_top = title_h
    grid_bottom = (legend_box[1] - m * 0.5) if (legend_box and place in ("below", "key")) else H - m
    gap = 10 * fs
    grid_w = W - 2 * m - right_w
    cell_w = (grid_w - gap * (cols - 1)) / cols
    cell_h = max(1.0, (grid_bottom - grid_top - gap * (rows - 1)) / rows)
    head_size = font_px(13 * fs, ss)
    head_lh = canvas.text_size("Ag", head_size, True)[1] + 2 * fs
    verdict_w = canvas.text_size("✗ illegal", head_size, True)[0] + 24 * fs
    headers = []
    titled = arrows_lettered(pf)
    for i, p in enumerate(pf.panels):
        lettered = pf.letters and n > 1 and not titled  # arrows lettered: panels titled, not lettered
        text = (f"{panel_letter(i)}) " if lettered else "") + (p.caption or "")
        avail = cell_w - (verdict_w if p.verdict else 0) - 4 * fs
        headers.append(wrap(canvas, text, head_size, avail, bold=True) if text.strip() else [])
    head_h = [0.0] * rows
    for i, hl in enumerate(headers):
        r = i // cols
        head_h[r] = max(head_h[r], (len(hl) * head_lh + 6 * fs) if hl or pf.panels[i].verdict else 0.0)
    cells, scenes, boxes = [], [], []
    for i, p in enumerate(pf.panels):
        r, c = divmod(i, cols)
        x = m + c * (cell_w + gap)
        y = grid_top + r * (cell_h + gap)
        cells.append((x, y, cell_w, cell_h))
        scenes.append((x, y + head_h[r], cell_w, max(1.0, cell_h - head_h[r])))
        boxes.append(p.box_mm or figure_box(p.board, p.analysis, fo))
    margin = 12 * fs
    scale = min(_fit_scale(b, s[2], s[3], margin) for b, s in zip(boxes, scenes))
    views = []
    for b, s in zip(boxes, scenes):
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        views.append(View(scale, (s[2] / 2 - cx * scale, s[3] / 2 - cy * scale)))  # in the panel's own px
    return dict(fs=fs, ss=ss, lines=lines, title_h=title_h, cells=cells, scenes=scenes, boxes=boxes, views=views,
                headers=headers, head_size=head_size, head_lh=head_lh, scale=scale, legend_cols=legend_cols,
                legend_box=legend_box, legend_at=place, m=m, items=items, legend_h_needed=need, legend_room=room,
                text_scale=ts, dropped=dropped, grid=(m, grid_top, grid_w, grid_bottom - grid_top))


def draw_panels(canvas: Canvas, pf: PanelFigure, fo: FigureOptions, k: float = 1.0, record: Optional[list] = None,
                layout: Optional[dict] = None) -> list[str]:
    """Draw ``pf`` on ``canvas`` (its size already times the supersampling ``k``). Returns
    the drawing errors, each behind its panel's letter; ``record`` (a list) receives each
    panel's :class:`SubCanvas` (its calls in the panel's own px), for layout checks;
    ``layout`` (a dict) receives :func:`figure_layout`'s answer (the views of the panels)."""
    lay = figure_layout(canvas, pf, fo, k)
    if layout is not None:
        layout.update(lay)
    fs = lay["fs"]
    pal = dict(PALETTE)
    pal.update(style_palette(fo.style, fo.palette, fo.table))
    canvas.tag = "table"
    canvas.fill(pal["background"])
    errors: list[str] = []
    inner = replace(fo, legend=False, caption=False, title="", compare=None)
    # with unit tags (A, B...: --letters) the arrows' letters go on after the last tag: one meaning per letter
    letters = max(len(p.board.units) for p in pf.panels) if fo.letters else 0
    counts = [gap_count(p) for p in pf.panels]
    # the rules text letters the contact arrows of a figure on from panel to panel (a, b, c
    # then d, e): so do we, in every panel that has arrows
    can = [n > 0 for n in counts]
    lettered = sum(n for n, ok in zip(counts, can) if ok) > 1 if pf.continue_letters else None
    for i, p in enumerate(pf.panels):
        letter = panel_letter(i)
        x, y, w, h = lay["scenes"][i]
        sub = SubCanvas(canvas, x, y, w, h, prefix=letter if len(pf.panels) > 1 else "")
        sub.push_clip((0, 0, w, h))
        listed = bool(lay["legend_cols"]) and "Notes" not in lay["dropped"]
        marks = replace(p.marks, listed=True) if listed else p.marks  # notes: in the legend
        _, e = draw_figure(sub, p.board, p.analysis, inner, marks=marks, k=k, view=lay["views"][i],
                           box_mm=lay["boxes"][i], differ=p.differ, differ_label=p.differ_label, title="",
                           gap_letter_start=letters if pf.continue_letters else 0,
                           gap_lettered=(lettered and can[i]) if lettered is not None else None)
        letters += counts[i] if lettered and can[i] else 0
        sub.pop_clip()
        if record is not None:
            record.append(sub)
        errors += [f"{letter}) {x_}" for x_ in e]
        canvas.tag = f"panel-frame:{letter}"
        canvas.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], outline=pal.get("panel_edge", (150, 150, 150)),
                       width=fs * LINE_UNITS["hair"])
        _header(canvas, lay, i, p, pal)
    _title(canvas, lay, pal)
    if lay["legend_cols"]:
        _legend(canvas, lay, pf, fo, k, pal)
    canvas.tag = ""
    return errors


def _header(canvas: Canvas, lay: dict, i: int, p: Panel, pal: dict) -> None:
    x, y, w, _ = lay["cells"][i]
    fs, size, lh = lay["fs"], lay["head_size"], lay["head_lh"]
    canvas.tag = f"panel-caption:{panel_letter(i)}"
    for j, ln in enumerate(lay["headers"][i]):
        canvas.text((x + 2 * fs, y + 2 * fs + j * lh), ln, size, pal.get("title_text", (20, 20, 20)), bold=True)
    if p.verdict in VERDICTS:
        canvas.tag = f"verdict:{panel_letter(i)}"
        ok = p.verdict == "legal"
        col = pal.get("legal" if ok else "illegal", (0, 0, 0))
        word = p.verdict
        tw = canvas.text_size(word, size, True)[0]
        cy = y + 2 * fs + lh / 2
        tx = x + w - 2 * fs - tw
        r = 5 * fs
        mx = tx - 4 * fs - r
        if ok:  # a tick
            canvas.line([(mx - r, cy), (mx - r * 0.3, cy + r * 0.7), (mx + r, cy - r * 0.8)], col, LINE_UNITS["medium"] * fs)
        else:  # a cross
            canvas.line([(mx - r * 0.8, cy - r * 0.8), (mx + r * 0.8, cy + r * 0.8)], col, LINE_UNITS["medium"] * fs)
            canvas.line([(mx - r * 0.8, cy + r * 0.8), (mx + r * 0.8, cy - r * 0.8)], col, LINE_UNITS["medium"] * fs)
        canvas.text((tx, cy), word, size, col, anchor="left", bold=True)


def _title(canvas: Canvas, lay: dict, pal: dict) -> None:
    if not lay["lines"]:
        return
    canvas.tag = "figure-title"
    fs, m = lay["fs"], lay["m"]
    y = m
    for text, size, bold in lay["lines"]:
        canvas.text((m, y), text, size, pal.get("title_text", (20, 20, 20)), bold=bold)
        y += canvas.text_size("Ag", size, bold)[1] + 3 * fs
    canvas.line([(m, lay["title_h"] - m * 0.5), (canvas.width - m, lay["title_h"] - m * 0.5)],
                pal.get("title_rule") or (20, 20, 20), fs * LINE_UNITS["thin"])


def _legend(canvas: Canvas, lay: dict, pf: PanelFigure, fo: FigureOptions, k: float, pal: dict) -> None:
    """The figure's one legend, drawn with a scene :class:`~game.render.painter.Paint` (its swatches are the scene's)."""
    lx, ly, lw, lh = lay["legend_box"]
    p0 = pf.key_panel or pf.panels[0]
    so = scene_options(p0.board, fo, "", k)
    so.supersample = lay["ss"]
    paint = legend_painter(canvas, p0.board, p0.analysis, so)
    canvas.tag = "legend"
    if lay["legend_at"] == "right":
        canvas.polygon([(lx, ly), (lx + lw, ly), (lx + lw, ly + lh), (lx, ly + lh)], fill=pal["panel"],
                       outline=pal["panel_edge"], width=lay["fs"])
    for ops in lay["legend_cols"]:
        for op in ops:
            if lay["legend_at"] in ("below", "key"):
                op = _shift(op, lx, ly)
            if op[0] == "text":
                _, pos, text, size, bold, dim = op
                canvas.text(pos, text, size, pal["panel_dim"] if dim else pal["panel_text"], bold=bold)
            else:
                swatch(paint, *op[1:])


def _shift(op: tuple, dx: float, dy: float) -> tuple:
    if op[0] == "text":
        return (op[0], (op[1][0] + dx, op[1][1] + dy)) + op[2:]
    return (op[0], op[1], op[2] + dx, op[3] + dy) + op[4:]


def panel_size(pf: PanelFigure, fo: FigureOptions) -> tuple[int, int]:
    """Pixel size of a panel figure without ``size``: each cell sized like a one-panel figure
    of the largest box at 1.4 px/mm (at least 420 x 300 px), the legend below."""
    n = len(pf.panels)
    cols = max(1, min(n, pf.columns or n))
    rows = math.ceil(n / cols)
    pxmm = fo.scale_px_per_mm or DEFAULT_PX_PER_MM
    fs = fo.scale()
    bw = max(b[2] - b[0] for b in (figure_box(p.board, p.analysis, fo) for p in pf.panels))
    bh = max(b[3] - b[1] for b in (figure_box(p.board, p.analysis, fo) for p in pf.panels))
    cw, ch = max(420.0, bw * pxmm + 24 * fs), max(300.0, bh * pxmm + 24 * fs + 40 * fs)
    W = int(min(8000, cols * cw + 20 * fs + (cols - 1) * 10 * fs))
    H = int(min(8000, rows * ch + 80 * fs + (240 * fs if fo.legend else 0)))
    return W, H


def build_panel_figure(pf: PanelFigure, fo: FigureOptions, layout: Optional[dict] = None) -> Figure:
    """Render ``pf`` as a :class:`game.render.figure.Figure` in ``fo.format`` (png, svg, pdf);
    ``layout`` (a dict) receives the layout drawn (see :func:`draw_panels`)."""
    fmt = fo.format or "png"
    size = fo.pixel_size() or panel_size(pf, fo)
    multi = len(pf.panels) > 1
    classes = {}
    for i, p in enumerate(pf.panels):
        for dm in drawn_models(p.board, p.analysis):
            classes[f"{panel_letter(i)}/model:{dm.id}" if multi else f"model:{dm.id}"] = dm.role
    t = target_for(fmt, size, fo, classes=classes, title=pf.title)
    errors = draw_panels(t.canvas, pf, fo, t.k, layout=layout)
    return Figure(t.finish(), errors, size)
