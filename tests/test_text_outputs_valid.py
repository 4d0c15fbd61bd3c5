"""Every text the loaders accept can be written into a well-formed SVG and a PDF whose text
copies and searches right: U+FFFE / U+FFFF (which XML 1.0 forbids) are refused at load with
one line naming file, line and field; an emoji is mapped in the PDF's ToUnicode map as its
UTF-16 surrogate pair (reportlab 5.1 wrote ``<1F600>``)."""
from __future__ import annotations

import xml.dom.minidom
from pathlib import Path

import pytest

import main
from game.core.editor import Editor
from game.core.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
HORDE = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
DEMO = ROOT / "assets" / "demos" / "t9a_melee.yaml"
GRIN = "\U0001F600"


def q(text: str) -> str:
    """``text`` as a YAML double-quoted scalar, every character beyond ASCII escaped."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        elif ord(ch) > 0xFFFF:
            out.append(f"\\U{ord(ch):08X}")
        else:
            out.append(f"\\u{ord(ch):04X}")
    return '"' + "".join(out) + '"'


def scenario(tmp_path: Path, title: str = "t", name: str = "Night Goblins", caption: str = "") -> Path:
    lines = HORDE.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[0] = f"title: {q(title)}\n" + (f"caption: {q(caption)}\n" if caption else "")
    p = tmp_path / "s.yaml"
    p.write_text("".join(lines).replace("name: Night Goblins", f"name: {q(name)}"), encoding="utf-8")
    return p


@pytest.mark.parametrize("ch", ["\ufffe", "\uffff"])
@pytest.mark.parametrize("field", ["title", "name", "caption"])
def test_a_non_character_is_refused_at_load_naming_file_line_field(tmp_path, capsys, ch, field):
    kw = {"title": "t", "name": "Night Goblins", "caption": ""}
    kw[field] = f"before {ch} after"
    p = scenario(tmp_path, **kw)
    assert main.main(["render", str(p), "-o", str(tmp_path / "o.svg"), "--size", "300x200"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"U+{ord(ch):04X}" in err and str(p) in err, err
    assert {"title": "title:", "name": "units[2].name:", "caption": "caption:"}[field] in err
    assert f"{p}:" in err and err.split(f"{p}:")[1].split(":")[0].isdigit()  # the line
    assert not (tmp_path / "o.svg").exists()


def test_a_demo_caption_and_a_window_edit_refuse_it_too(tmp_path, capsys):
    text = DEMO.read_text(encoding="utf-8")
    d = tmp_path / "d.yaml"
    d.write_text(text.replace('caption: "A unit', 'caption: "\\uFFFF A unit', 1), encoding="utf-8")
    code = main.main(["demo", str(d), "--html", str(tmp_path / "d.html"), "--size", "320x200"])
    err = capsys.readouterr().err
    assert code == 2 and "U+FFFF" in err and "caption" in err
    board = load_scenario(HORDE)
    assert not Editor().set_title(board, "a \uffff b").ok


ACCEPTED = ["\ud7ff", "\ue000", "\ufffd", "\U00010000", "\U0010fffd", GRIN, "e\u0301", "\u05d0\u05d1",
            "<&>\"'", "\u00a0", "\ufdd0"]


def test_every_accepted_character_gives_a_well_formed_svg_or_one_line_naming_it(tmp_path, capsys):
    """A character the loader accepts is written as well-formed XML when a font of the figure has
    it; one no font has is refused (exit 2, one line naming its code point), never drawn as a box."""
    from game.render.glyphs import glyph_problem

    printable = [c for c in ACCEPTED if not glyph_problem([("title", c)])]
    fontless = [c for c in ACCEPTED if c not in printable]
    assert GRIN in printable and "<&>\"'" in printable and fontless  # both kinds are tried
    text = "".join(printable)
    p = scenario(tmp_path, title=text, name=text, caption=text)
    out = tmp_path / "o.svg"
    assert main.main(["render", str(p), "-o", str(out), "--size", "600x400", "--title", text]) == 0
    doc = xml.dom.minidom.parseString(out.read_bytes())  # raises on ill-formed XML
    assert GRIN in doc.toxml()
    capsys.readouterr()
    for c in fontless:
        q = scenario(tmp_path, title="t", name=f"a{c}b", caption="c")
        assert main.main(["render", str(q), "-o", str(tmp_path / "n.svg"), "--size", "600x400"]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and f"U+{ord(c):04X}" in err, err


def test_pdf_to_unicode_writes_an_emoji_as_a_surrogate_pair(tmp_path):
    from pypdf import PdfReader

    out = tmp_path / "o.pdf"
    assert main.main(["render", str(HORDE), "-o", str(out), "--size", "600x400", "--title", f"Grin {GRIN} end"]) == 0
    maps = []
    for f in PdfReader(str(out)).pages[0]["/Resources"]["/Font"].values():
        tu = f.get_object().get("/ToUnicode")
        if tu is not None:
            maps.append(tu.get_object().get_data().decode("latin-1"))
    cmap = "\n".join(maps)
    assert "<D83DDE00>" in cmap and "<1F600>" not in cmap
    assert GRIN in PdfReader(str(out)).pages[0].extract_text()


from hypothesis import given, settings, strategies as st  # noqa: E402

from game.core.validate import text_problem  # noqa: E402


@settings(max_examples=150, deadline=None)
@given(st.text(min_size=1, max_size=40))
def test_any_text_the_loader_accepts_makes_a_well_formed_svg(text):
    """Property: whatever text passes the loaders' check, an SVG holding it (as a label and as
    the title) parses as XML."""
    from game.render.svg_canvas import SvgCanvas

    if text_problem(text) is not None:  # one line: names, titles (captions are laid out line by line)
        return
    c = SvgCanvas(200, 100)
    c.text((10, 10), text, size=12)
    xml.dom.minidom.parseString(c.to_svg(title=text).encode("utf-8"))
