"""The caption key of a print figure: one or two lines under the picture, as rulebooks print them.

A rulebook figure is a large picture with a short key under it ("Red = Attacks normally. Blue =
Can make a supporting attack."), not a screen legend panel. :func:`key_of` turns the figure's
legend items (:func:`game.render.legend.legend_items`, or a multi-panel figure's merged items)
into the key's parts:

* ``rows``: the marks actually drawn, each a swatch and its words, without counts; the words are
  the legend's own (the analysing strategy's and the parts' data), the generic role words
  shortened (:data:`KEY_ROLE`); the front marker and the players' rows are left out (the labels
  name the units);
* ``blocks``: the optional paragraphs, each a :class:`KeyBlock` named by its heading: numbered
  callouts ("Notes", drawn by default) and, only when the figure asks for them
  (``FigureOptions.sections``), the strike order, fight sequence, rank bonus, allocation and the
  analysis's notes.

:func:`layout_key` flows the rows across the width (swatch, words; wrapped at whole entries),
then each block as a paragraph behind its bold name, and returns the legend's drawing ops
(``("text", (x, y), s, size, bold, dim)`` and ``("swatch", kind, x, y, w, h)``) and the height.
The figure (:mod:`game.render.figure_panels`) gives the key at most :data:`KEY_SHARE` of the page
height and drops a block that does not fit, saying so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from game.render.canvas import Canvas, wrap
from game.render.drawers import LegendItem
from game.render.drawn import font_px

KEY_SHARE = 0.15     # the most of the page height the key may take
KEY_TEXT_SCALES = (1.0, 0.9)   # 13 units at 0.9 is 6.7 pt: never under 6 pt
KEY_ROLE = {"attack": "Fights", "support": "Supporting attack", "none": "Does not fight"}
GENERIC_ROLE = {"attack": "Fights: in base contact or across a gap", "support": "Supporting attack",
                "none": "Does not fight"}
DEFAULT_BLOCKS = ("Notes",)   # drawn unless they do not fit; every other block only when asked
#: a legend row's count: ``(3)``, ``(1 model)``, ``(3 pairs of models)``, ``(2 units)`` (a number and its words)
#: or after a colon where the row's words end in brackets (``... (Engagement Range): 6 models``)
_COUNT = re.compile(r" \(\d+(?: [a-z]+)?(?: of [a-z]+)?\)|(?<=\)): \d+(?: [a-z]+)?$")


@dataclass
class KeyBlock:
    """An optional paragraph of the key: its ``name`` (the legend heading) and its ``lines``."""

    name: str
    lines: list = field(default_factory=list)


def key_words(it: LegendItem) -> str:
    """The key's words for a legend row: its text without counts; a generic role row shortened."""
    text = _COUNT.sub("", it.text).strip()
    if it.swatch.startswith("role:"):
        role = it.swatch.split(":", 1)[1]
        if text == GENERIC_ROLE.get(role):
            return KEY_ROLE[role]
    return text


def key_of(items: Sequence[LegendItem], sections: bool = False) -> tuple[list[LegendItem], list[KeyBlock]]:
    """``(rows, blocks)`` of the key of a figure whose legend is ``items`` (see the module doc);
    ``sections``: keep the strike order, fight sequence and other sections and the notes."""
    rows: list[LegendItem] = []
    blocks: list[KeyBlock] = []
    notes = KeyBlock("Notes on the rules")
    head = ""
    cur = None
    for it in items:
        if it.kind == "heading":
            head = it.text
            cur = None if head == "Legend" else KeyBlock(head)
            if cur is not None:
                blocks.append(cur)
            continue
        if it.kind == "space":
            continue
        if cur is None:
            if it.kind == "row":
                if it.swatch == "front" or it.swatch.startswith("player:"):
                    continue
                words = key_words(it)
                if words and all(r.text != words or r.swatch != it.swatch for r in rows):
                    rows.append(LegendItem("row", words, swatch=it.swatch))
            elif it.text:
                notes.lines.append(it.text)
        elif it.text:
            cur.lines.append(it.text if it.kind == "para" else key_words(it))
    if notes.lines:
        blocks.append(notes)
    kept = [b for b in blocks if b.lines and (sections or b.name in DEFAULT_BLOCKS)]
    return rows, kept


def layout_key(canvas: Canvas, rows: Sequence[LegendItem], blocks: Sequence[KeyBlock], width: float, fs: float,
               ts: float = 1.0, ss: int = 1) -> tuple[list[tuple], float]:
    """Lay the key out from (0, 0) in ``width`` px at ``fs`` px per unit, text ``ts`` times 13
    units (whole px at the final size; ``ss`` the supersampling). Returns ``(ops, height)``."""
    body = font_px(13 * fs * ts, ss)
    th = canvas.text_size("Ag", body)[1]
    line_h = th + 4 * fs * ts
    sw, sh = 20 * fs, 12 * fs
    gap_sw, gap_entry = 5 * fs, 14 * fs
    ops: list[tuple] = []
    x, y = 0.0, 0.0
    for it in rows:
        tw = canvas.text_size(it.text, body)[0]
        need = sw + gap_sw + tw
        if x > 0 and x + need > width:
            x, y = 0.0, y + line_h
        ops.append(("swatch", it.swatch, x, y + (th - sh) / 2, sw, sh))
        tx = x + sw + gap_sw
        lines = [it.text] if tx + tw <= width else wrap(canvas, it.text, body, max(1.0, width - tx))
        for j, ln in enumerate(lines):
            ops.append(("text", (tx, y), ln, body, False, False))
            if j < len(lines) - 1:
                y += line_h
        x = tx + canvas.text_size(lines[-1], body)[0] + gap_entry
    height = (y + line_h) if rows else 0.0
    for b in blocks:
        y = height + (2 * fs if height else 0.0)
        head = f"{b.name}:"
        hw = canvas.text_size(head + " ", body, True)[0]
        ops.append(("text", (0.0, y), head, body, True, False))
        text = "  ".join(b.lines)
        lines = wrap(canvas, text, body, max(1.0, width - hw))
        for ln in lines:
            ops.append(("text", (hw, y), ln, body, False, False))
            y += line_h
        height = y
    return ops, height


def key_fits(canvas: Canvas, rows: Sequence[LegendItem], blocks: Sequence[KeyBlock], width: float, room: float,
             fs: float, ss: int = 1) -> tuple[list[tuple], float, float, list[KeyBlock]]:
    """The key laid out to fit ``room`` px of height: the largest text scale of
    :data:`KEY_TEXT_SCALES` with every block, else blocks dropped from the last, else the rows
    alone overflowing. Returns ``(ops, height, text scale, blocks kept)``."""
    best = None
    for keep in range(len(blocks), -1, -1):
        for ts in KEY_TEXT_SCALES:
            ops, h = layout_key(canvas, rows, blocks[:keep], width, fs, ts, ss)
            if h <= room + 0.5:
                return ops, h, ts, list(blocks[:keep])
            if best is None or h < best[1]:
                best = (ops, h, ts, list(blocks[:keep]))
    assert best is not None
    return best
