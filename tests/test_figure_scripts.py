"""Every script prints (issue 40): a name with characters the figure's font has no glyph for
(Japanese, Chinese) is refused with exit 2 naming the characters, never drawn as boxes in the PNG
nor dropped from the PDF in silence; accented Latin, Greek and Cyrillic names (DejaVu Sans has
them) print in the PNG, the SVG and the PDF's text. CMYK text is 100 % K."""
from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from game.core.scenario import load_scenario
from game.render.figure import FigureError, FigureOptions
from game.figures.figure_file import build_figure
from game.render.glyphs import missing
from game.render.pdf_canvas import text_cmyk

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "golden" / "whfb8_rear_gap.yaml"


def _named(tmp_path, name):
    text = SCENARIO.read_text()
    out = tmp_path / "s.yaml"
    text = re.sub(r"(\{id: dwarfs,)", rf"\1 name: '{name}',", text, count=1)
    assert name in text
    out.write_text(text, encoding="utf-8")
    return out


def test_a_japanese_unit_name_is_refused_with_exit_2_naming_the_characters(tmp_path):
    src = _named(tmp_path, "槍兵隊")
    out = tmp_path / "f.pdf"
    r = subprocess.run([sys.executable, str(ROOT / "main.py"), "render", str(src), "-o", str(out), "--size", "180x120mm",
                        "--crop"], capture_output=True, text=True, cwd=ROOT, timeout=120,
                       env={"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin"})
    assert r.returncode == 2 and not out.exists()
    assert "槍兵隊" in r.stderr and "U+69CD" in r.stderr and r.stderr.count("\n") == 1


@pytest.mark.parametrize("fmt", ["png", "svg", "pdf"])
def test_the_refusal_holds_for_every_format_and_the_book(tmp_path, fmt):
    b = load_scenario(_named(tmp_path, "长枪兵"))
    with pytest.raises(FigureError, match="长枪兵"):
        build_figure(b, None, FigureOptions(size="180x120mm", crop=True, format=fmt))


def test_names_in_scripts_the_font_has_print_in_the_pdf_text(tmp_path):
    from pypdf import PdfReader

    name = "Ελληνες Žoldnéři"
    assert missing(name) == ""
    b = load_scenario(_named(tmp_path, name))
    pdf = build_figure(b, None, FigureOptions(size="180x120mm", crop=True, format="pdf")).data
    assert name in PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    svg = build_figure(b, None, FigureOptions(size="180x120mm", crop=True, format="svg")).data.decode()
    assert name in svg


def test_cmyk_text_is_100_percent_k():
    assert text_cmyk((20, 20, 20)) == (0.0, 0.0, 0.0, 1.0)
    assert text_cmyk((25, 25, 25)) == (0.0, 0.0, 0.0, 1.0)
    assert text_cmyk((200, 30, 30))[3] < 1.0  # a coloured text keeps its colour
