"""Text measured as every figure measures it: the shipped DejaVu Sans through Pillow
(:func:`pil_font`; a browser page: the metrics table of :mod:`game.render.font_table`), each
string, size and weight once (:func:`font_metrics`, a bounded cache), so the pygame and SVG back
ends wrap and place text alike."""
from __future__ import annotations

import math
from typing import Any, Optional

from game.core.lru import LRU
from game.core.paths import FONT_DIR  # the shipped fonts, in a checkout or installed

_PIL_FONTS: dict = {}


def pil_font(size: int, bold: bool) -> Any:
    """The shipped DejaVu Sans at ``size`` px as a Pillow font (None when it cannot load)."""
    key = (max(6, int(size)), bool(bold))
    if key not in _PIL_FONTS:
        try:
            from PIL import ImageFont

            _PIL_FONTS[key] = ImageFont.truetype(str(FONT_DIR / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")),
                                                 key[0])
        except ImportError:  # a browser page: the table its build measured (game/render/font_table.py)
            from game.render.font_table import table_font

            _PIL_FONTS[key] = table_font(*key)
        except OSError:
            _PIL_FONTS[key] = None
    return _PIL_FONTS[key]


_MEASURED = LRU(16384)  # (string, size px, bold) -> (width, height) px: text measured once


def font_metrics(string: str, size: int, bold: bool = False) -> Optional[tuple[int, int]]:
    """(width, height) px of ``string`` in the shipped font at ``size`` px, or None.

    Measured once per string, size and weight (a bounded cache of the newest 16384: the
    legend, labels and figures measure the same strings frame after frame and figure after
    figure; FreeType's ``getlength`` is the cost)."""
    key = (string, int(size), bool(bold))
    hit = _MEASURED.get(key)
    if hit is not None:
        return hit
    f = pil_font(size, bold)
    if f is None:
        return None
    asc, desc = f.getmetrics()
    return _MEASURED.put(key, ((int(math.ceil(f.getlength(string))) if string else 0), asc + desc))
