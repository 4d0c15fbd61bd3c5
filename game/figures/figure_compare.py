"""Compare figures: one board under two rulesets, showing the difference.

``side`` draws two panels (each titled with its ruleset's name) under a full-width caption
strip: the scenario title, then the differences in plain words
("2 Dwarfs fight across a gap only under The Ninth Age"). In both panels the differing models
are hatched and ringed (:class:`game.render.options.SceneOptions` ``differ``) and attack counts
other than 1 are drawn on the models, so the two pictures differ where the rules do.
``overlay`` draws one panel under the first ruleset with the same marks and the sentences in
its caption band.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Optional

from game.core.board import Board, unit_of
from game.core.analysis import Analysis
from game.core.compare import Difference, compare, role_words
from game.core.ruleset import load_ruleset, ruleset_name, short_ruleset_name

from game.render.canvas import Canvas, wrap
from game.render.pygame_canvas import PygameCanvas
from game.render.figure import Figure, FigureOptions, default_size, draw_figure, png_bytes, render_png_surface, svg_canvas, _pygame
from game.render.marks import Marks
from game.render.svg_canvas import SvgCanvas, svg_document
from game.render.figure_fit import build_fitted
from game.render.figure_panels import key_wanted, Panel, PanelFigure


VERB = {"attack": ("fight", "fights"), "support": ("make supporting attacks", "makes a supporting attack"),
        "none": ("do not fight", "does not fight")}


def _unit_phrase(board: Board, uid: str, n: int) -> str:
    u = next((x for x in board.units if x.id == uid), None)
    name = (u.name or u.id) if u else uid
    try:
        total = len(u.models()) if u else 0
    except Exception:
        total = 0
    if n == 1:
        return f"one of the {name}" if total > 1 else name
    return f"all {n} {name}" if total and n == total else f"{n} {name}"


def _verb(role: str, attacks: int, gap: bool, n: int = 2) -> str:
    plural, single = VERB.get(role, (role, role))
    v = plural if n != 1 else single
    if role == "attack" and gap:
        v += " across a gap"
    return v


def difference_sentences(board: Board, diffs: list[Difference], ra: Analysis, rb: Analysis, na: str, nb: str) -> list[str]:
    """The differences between analyses ``ra`` (ruleset named ``na``) and ``rb`` (``nb``) in
    plain words, one sentence per unit and kind of change, models counted."""
    gap_a = {m for link in ra.gap_links for m in link}
    gap_b = {m for link in rb.gap_links for m in link}
    groups: dict[tuple, int] = {}
    for d in diffs:
        uid = unit_of(d.model)
        same_role = d.a[0] == d.b[0]
        key = (uid, d.a[0], d.a[1], d.b[0], d.b[1], d.model in gap_a and not same_role, d.model in gap_b and not same_role)
        groups[key] = groups.get(key, 0) + 1
    out = []
    for (uid, role_a, att_a, role_b, att_b, ga, gb), n in groups.items():
        who = _unit_phrase(board, uid, n)
        make = "make" if n != 1 else "makes"
        if role_a == role_b:
            out.append(f"{who} {make} {att_a} attack{'s' if att_a != 1 else ''}{' each' if n != 1 else ''} under {na} "
                       f"but {att_b} under {nb}")
        elif role_b == "none":
            out.append(f"{who} {_verb(role_a, att_a, ga, n)} only under {na}")
        elif role_a == "none":
            out.append(f"{who} {_verb(role_b, att_b, gb, n)} only under {nb}")
        else:
            out.append(f"{who} {_verb(role_a, att_a, ga, n)} under {na} but {_verb(role_b, att_b, gb, n)} under {nb}")
    return [s[0].upper() + s[1:] + "." for s in out]


def differ_tooltips(diffs: list[Difference], mine: str, other_name: str) -> dict:
    """``{model id: line}`` for the differing models of one panel (``mine``: ``a`` or ``b``)."""
    out = {}
    for d in diffs:
        role, n = d.b if mine == "a" else d.a
        why = d.why_b if mine == "a" else d.why_a
        out[d.model] = f"Under {other_name}: {role_words(role, n)}" + (f". {why}" if why else "")
    return out


def _strip_lines(canvas: Canvas, title: str, sentences: list[str], width: float, fs: float) -> tuple[list, float]:
    """Lines ``(text, size, bold)`` of the caption strip and its height (px)."""
    lines = []
    for ln in wrap(canvas, title, max(6, round(16 * fs)), width - 28 * fs, bold=True) if title else []:
        lines.append((ln, max(6, round(16 * fs)), True))
    body = max(6, round(13 * fs))
    for s in sentences or ["Every model fights the same under both rulesets."]:
        for ln in wrap(canvas, s, body, width - 28 * fs):
            lines.append((ln, body, False))
    h = sum(canvas.text_size("Ag", size, bold)[1] + 3 * fs for _, size, bold in lines) + 20 * fs
    return lines, h


def _draw_strip(canvas: Canvas, lines: list, width: float, height: float, fs: float) -> None:
    canvas.tag = "compare-caption"
    canvas.polygon([(0, 0), (width, 0), (width, height), (0, height)], fill=(34, 38, 42))
    y = 10 * fs
    for text, size, bold in lines:
        canvas.text((14 * fs, y), text, size, (250, 250, 250), bold=bold)
        y += canvas.text_size("Ag", size, bold)[1] + 3 * fs
    canvas.tag = ""


def build_compare(board: Board, fo: FigureOptions, svg: bool) -> Figure:
    """The compare figure of ``board`` under ``fo.compare`` (see the module doc)."""
    assert fo.compare is not None  # the caller draws a compare figure only when asked
    ida, idb = fo.compare
    ra, rb, diffs = compare(board, load_ruleset(ida), load_ruleset(idb))
    na, nb = ruleset_name(ida), ruleset_name(idb)
    sa, sb = short_ruleset_name(ida), short_ruleset_name(idb)
    sentences = difference_sentences(board, diffs, ra, rb, sa, sb)
    title = fo.title if fo.title is not None else (board.title or "")
    base = replace(fo, compare=None, title=None, count_all=True,  # a compare figure is about attacks
                   ruleset_name=na)  # overlay: the one panel is under the first ruleset
    if fo.compare_mode == "overlay":
        b = replace(board, ruleset=ida)
        caption = " ".join(sentences) if sentences else f"Every model fights the same under {sa} and {sb}."
        if key_wanted(base):  # print: the differences under the title, the caption key under the picture
            pf = PanelFigure([Panel(b, ra, differ=differ_tooltips(diffs, "a", sb), differ_label=f"Fights differently under {sb}")],
                             title=title, sentences=[caption])
            return build_fitted(pf, replace(base, format="svg" if svg else (fo.format or "png")))
        mk = replace(fo.marks, caption=caption)
        size = fo.pixel_size() or default_size(b, base, ra)
        kw: dict[str, Any] = dict(marks=mk, title=title, differ=differ_tooltips(diffs, "a", sb), differ_label=f"Fights differently under {sb}")
        if svg:
            c = svg_canvas(b, ra, base, size)
            _, errs = draw_figure(c, b, ra, base, **kw)
            return Figure(c.to_svg(title=board.title or "").encode("utf-8"), errs, size)
        surf, errs = render_png_surface(b, ra, base, size, **kw)
        return Figure(png_bytes(surf, fo.dpi), errs, size)
    pf = compare_panels(board, fo, (ra, rb, diffs))
    return build_fitted(pf, replace(base, format="svg" if svg else (fo.format or "png")))


def compare_panels(board: Board, fo: FigureOptions,
                   compared: Optional[tuple[Analysis, Analysis, list[Difference]]] = None) -> PanelFigure:
    """The two panels (a: ``fo.compare[0]``, b: the other) of a side-by-side compare figure,
    headed with the rulesets' names, the differences as the sentences under the title.
    ``compared``: ``compare()``'s result when the caller has it."""
    assert fo.compare is not None
    ida, idb = fo.compare
    ra, rb, diffs = compared or compare(board, load_ruleset(ida), load_ruleset(idb))
    sa, sb = short_ruleset_name(ida), short_ruleset_name(idb)
    sentences = difference_sentences(board, diffs, ra, rb, sa, sb)
    title = fo.title if fo.title is not None else (board.title or "")
    panels = []
    for rid, a, mine, other_short in ((ida, ra, "a", sb), (idb, rb, "b", sa)):
        b = replace(board, ruleset=rid)
        panels.append(Panel(b, a, caption=ruleset_name(rid), differ=differ_tooltips(diffs, mine, other_short),
                            differ_label="Fights differently under the other ruleset"))
    if not sentences:
        sentences = [f"Every model fights the same under {sa} and {sb}."]
    return PanelFigure(panels, title=title, sentences=sentences, continue_letters=False)


__all__ = ["build_compare", "compare_panels", "difference_sentences", "Marks"]
