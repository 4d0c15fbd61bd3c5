"""The code points ``game/render/glyphs.py`` takes as printable without reading a font
(:data:`~game.render.glyphs.SURE`) are in the cmap of every shipped face, and a text outside
them is still checked against the fonts."""
from __future__ import annotations

from pathlib import Path

from fontTools.ttLib import TTFont

from game.core.paths import FONT_DIR
from game.render.glyphs import FACES, SURE, missing


def test_every_sure_code_point_is_in_every_face():
    for face in FACES:
        font = TTFont(str(Path(FONT_DIR) / face), lazy=True)
        cmap = set(font.getBestCmap())
        font.close()
        gaps = [f"U+{cp:04X}" for a, b in SURE for cp in range(a, b) if cp not in cmap]
        assert not gaps, f"{face} lacks {gaps[:10]}"


def test_texts_inside_and_outside_the_sure_ranges():
    assert missing("Dwarf Warriors (Żółć, Œuvre, ǅ) 1-2") == ""
    assert missing("槍兵 Spearmen 槍") == "槍兵"
    assert missing("a\x01b") == ""  # control characters are never drawn, never missing
