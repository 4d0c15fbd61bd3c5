"""Every script prints, or the figure is refused: never boxes, never silent loss.

Figures draw their text in the shipped DejaVu Sans (``assets/fonts``), the same font file in the
PNG, the SVG's metrics and the PDF's embedded subset. A character DejaVu Sans has no glyph for
(a unit named in Japanese or Chinese) would print as a box in the PNG and vanish from the PDF, so
:func:`check_glyphs` refuses such a figure before drawing: :class:`~game.render.figure.FigureError`
(exit 2 from ``render``) naming the characters and where they are, e.g. ``no font of the figure has
the characters 槍兵 (U+69CD U+5175) of the unit name '槍兵'``. The set of characters a font
covers is read from its cmap with fontTools, once per font file, and only for a text with a
character outside :data:`SURE` (a board named in English, French or Polish reads no font file:
fontTools is not even imported).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Iterable

from game.core.paths import FONT_DIR

FACES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
#: code-point ranges ``[start, end)`` every face of :data:`FACES` has a glyph for throughout
#: (printable ASCII; Latin-1 Supplement, Latin Extended-A and -B), checked against the fonts'
#: cmaps by ``tests/test_glyph_ranges.py``
SURE = ((0x20, 0x7F), (0xA0, 0x250))


@lru_cache(maxsize=8)
def font_chars(path: str) -> frozenset[int]:
    """The code points font file ``path`` has a glyph for (its best cmap)."""
    from fontTools.ttLib import TTFont

    font = TTFont(path, lazy=True)
    try:
        return frozenset(font.getBestCmap() or {})
    finally:
        font.close()


def covered() -> frozenset[int]:
    """The code points every shipped face has (a label may be drawn bold or not); in a browser
    page (no fontTools) those its build recorded (:func:`game.render.font_table.covered`)."""
    try:
        sets = [font_chars(str(Path(FONT_DIR) / f)) for f in FACES]
    except ImportError:
        from game.render.font_table import covered as recorded

        return recorded()
    out = sets[0]
    for s in sets[1:]:
        out &= s
    return out


def missing(text: str) -> str:
    """The characters of ``text`` (each once, in order) no shipped face has; white space and
    control characters are never drawn as glyphs and never missing."""
    if all(ch.isspace() or any(a <= ord(ch) < b for a, b in SURE) for ch in text):
        return ""  # only characters every face has (anything else, a control character too, goes below)
    have = covered()
    out: list[str] = []
    for ch in text:
        if ch.isspace() or ord(ch) < 32 or ch in out:
            continue
        if ord(ch) not in have:
            out.append(ch)
    return "".join(out)


def glyph_problem(texts: Iterable[tuple[str, str]]) -> str:
    """One line naming the first text (``(what, text)`` pairs) with characters no font of the
    figure has, or ``""`` when every character prints."""
    for what, text in texts:
        gone = missing(str(text or ""))
        if gone:
            codes = " ".join(f"U+{ord(c):04X}" for c in gone)
            return (f"no font of the figure has the characters {gone} ({codes}) of the {what} {str(text)[:40]!r}; "
                    "rename it in a script the figure's font (DejaVu Sans) has")
    return ""


def board_texts(board: object) -> list[tuple[str, str]]:
    """The texts of a board a figure prints: its title, caption, the units' names, the words of its
    pointing marks (``marks[].says``) and the objectives' names."""
    out: list[tuple[str, str]] = [("title", str(getattr(board, "title", "") or ""))]
    extra = getattr(board, "extra", None) or {}
    if extra.get("caption"):
        out.append(("caption", str(extra["caption"])))
    for u in getattr(board, "units", []) or []:
        out.append(("unit name", str(u.name or u.id)))
    for m in extra.get("marks") or []:
        if isinstance(m, dict) and isinstance(m.get("says"), str):
            out.append(("mark's words", m["says"]))
    for n in (getattr(board, "context", None) or {}).get("objective_names") or []:
        out.append(("objective name", str(n)))
    return out
