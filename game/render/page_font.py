"""The page's font, carried inside it: DejaVu Sans subset to the characters a page uses.

:func:`font_face_css` gives the ``@font-face`` rules of the HTML export
(:mod:`game.render.html_page`): the regular and the bold DejaVu Sans shipped in
``assets/fonts/`` (the same font the SVG names, ``font-family="DejaVu Sans, sans-serif"``,
and the PNG / PDF back ends draw with), each cut down with fontTools' subsetter to the
characters of ``text`` and written as a ``data:font/ttf;base64,...`` URL, so a browser on any
machine draws the page in the same letters and fetches nothing. The DejaVu licence
(``assets/fonts/DejaVu-LICENSE.txt``) allows a modified copy under a name without "Bitstream"
or "Vera"; its notice is quoted in the CSS comment.

Deterministic: the same text gives the same bytes (no time stamps are recalculated). A font
file that is missing gives no rule for it (the page falls back to ``sans-serif``).
"""
from __future__ import annotations

import base64
import io
from functools import lru_cache
from pathlib import Path

from game.core.paths import FONT_DIR

#: ``(CSS font-weight, file in FONT_DIR)`` of the faces embedded.
FACES = (("normal", "DejaVuSans.ttf"), ("bold", "DejaVuSans-Bold.ttf"))
FAMILY = "DejaVu Sans"
#: Always kept, whatever the page says (digits and signs a script may write: "3 / 7").
ALWAYS = "".join(chr(c) for c in range(32, 127))


def subset_ttf(path: Path, chars: str) -> bytes:
    """The TrueType font ``path`` cut down to the glyphs of ``chars`` (kerning and ligatures
    kept, hinting dropped). Raises OSError when the file cannot be read."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    opts = subset.Options()
    opts.layout_features = ["kern", "liga"]
    opts.name_IDs = ["*"]          # keep the names (family, licence notice)
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.hinting = False
    opts.drop_tables += ["FFTM"]
    font = TTFont(str(path), recalcTimestamp=False)
    sub = subset.Subsetter(opts)
    sub.populate(text=chars)
    sub.subset(font)
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()


@lru_cache(maxsize=16)
def _faces(chars: str) -> str:
    rules = ["/* DejaVu Sans, subset for this page. Fonts are (c) Bitstream (see below). DejaVu changes are "
             "in public domain. Bitstream Vera Fonts Copyright (c) 2003 by Bitstream, Inc. All Rights Reserved. */"]
    for weight, name in FACES:
        path = FONT_DIR / name
        if not path.is_file():
            continue
        data = base64.b64encode(subset_ttf(path, chars)).decode("ascii")
        rules.append(f'@font-face{{font-family:"{FAMILY}";font-style:normal;font-weight:{weight};'
                     f'src:url(data:font/ttf;base64,{data}) format("truetype")}}')
    return "\n".join(rules) if len(rules) > 1 else ""


def font_face_css(text: str) -> str:
    """``@font-face`` rules embedding DejaVu Sans (regular, bold) subset to the characters of
    ``text`` plus printable ASCII; "" when no font file is there."""
    chars = "".join(sorted(set(ALWAYS) | {c for c in text if c.isprintable()}))
    return _faces(chars)
