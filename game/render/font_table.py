"""Text measured without Pillow: a table of the shipped font's metrics, for the browser page.

The figures measure text with Pillow on the shipped DejaVu Sans (:func:`game.render.text_metrics.pil_font`).
A browser page (``python main.py live``) has no Pillow, so the build measures with Pillow once,
here, and the page measures from the table, giving the same widths to the 1/64 px and so the
same SVG: with Pillow's layout a string's length is the sum of its characters' (hinted) advances
plus a kerning adjustment for each neighbouring pair (checked for every pair the font kerns).

:func:`build_table` ``(chars, sizes) -> dict`` (needs Pillow): per ``"<size>b"`` / ``"<size>r"``
(bold / regular, size in px), ``asc`` / ``desc`` (px, Pillow's ``getmetrics``), ``adv``
``{char: advance in 1/64 px}`` and ``kern`` ``{pair: adjustment in 1/64 px}`` (only pairs
that differ from 0); ``covered``: the code points both faces have (the glyph check,
:func:`game.render.glyphs.covered`). :func:`install` puts a table in use; :func:`table_font` gives the
Pillow-like font of one size and weight (None: no table or that size not in it).
A character not in the table measures as ``?`` does.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Optional

#: Font sizes (px) a table built for a page holds: every size a screen figure's text uses.
SIZES = tuple(range(6, 41))

_TABLE: dict = {}


def _key(size: int, bold: bool) -> str:
    return f"{int(size)}{'b' if bold else 'r'}"


def build_table(chars: Iterable[str], font: Callable[[int, bool], Any], covered: Iterable[int],
                sizes: Iterable[int] = SIZES) -> dict:
    """Measure ``chars`` (one-character strings; ``?`` always added) at each size, regular and
    bold, with ``font(size, bold)`` (:func:`game.render.text_metrics.pil_font`: Pillow on the shipped
    fonts); ``covered`` the code points the fonts have (see the module doc for the shape)."""
    cs = sorted(set(chars) | {"?"})
    out: dict = {"covered": sorted(covered)}
    for bold in (False, True):
        big = font(64, bold)
        if big is None:
            raise OSError("the shipped font cannot be loaded with Pillow")
        # the pairs this font kerns at all (measured large, where every adjustment shows)
        wide = {c: round(big.getlength(c) * 64) for c in cs}
        pairs = [a + b for a in cs for b in cs if round(big.getlength(a + b) * 64) != wide[a] + wide[b]]
        for size in sizes:
            f = font(size, bold)
            adv = {c: round(f.getlength(c) * 64) for c in cs}
            kern = {}
            for p in pairs:
                d = round(f.getlength(p) * 64) - adv[p[0]] - adv[p[1]]
                if d:
                    kern[p] = d
            asc, desc = f.getmetrics()
            out[_key(size, bold)] = {"asc": asc, "desc": desc, "adv": adv, "kern": kern}
    return out


def install(table: dict) -> None:
    """Use ``table`` (from :func:`build_table`, e.g. read back from JSON) for fonts Pillow cannot give."""
    _TABLE.clear()
    _TABLE.update(table)


class TableFont:
    """The part of a Pillow font the drawing code asks: ``getmetrics()`` and ``getlength(text)``."""

    def __init__(self, entry: dict):
        self.asc, self.desc = int(entry["asc"]), int(entry["desc"])
        self.adv: dict = entry["adv"]
        self.kern: dict = entry["kern"]
        self.unknown = int(self.adv.get("?", 0))

    def getmetrics(self) -> tuple[int, int]:
        return self.asc, self.desc

    def getlength(self, text: str) -> float:
        """Width (px) of ``text``: advances plus pair kerning, in 1/64 px as Pillow adds them."""
        adv, kern, unknown = self.adv, self.kern, self.unknown
        total = sum(adv.get(c, unknown) for c in text)
        if kern:
            total += sum(kern.get(text[i:i + 2], 0) for i in range(len(text) - 1))
        return total / 64


def covered() -> frozenset[int]:
    """The code points the installed table says every shipped face has (empty: none installed)."""
    return frozenset(_TABLE.get("covered", ()))


def table_font(size: int, bold: bool) -> Optional[TableFont]:
    """The installed table's font of ``size`` px (None when none is installed or lacks it)."""
    entry = _TABLE.get(_key(size, bold))
    return TableFont(entry) if entry is not None else None
