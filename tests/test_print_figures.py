"""Figures for illustrators: the print style, the vector PDF back end and the layered SVG.

Each test breaks when its behaviour does: the PDF page size and text (read back with
pypdf), the embedded fonts, the Inkscape layers and groups of the SVG, the print palette
(white paper, no grid, hatched supports and empty places, legend rows for what is drawn).
"""
from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from game.core.scenario import load_scenario
from game.render.figure import FigureOptions
from game.figures.figure_file import build_figure

ROOT = Path(__file__).resolve().parents[1]
GAP = ROOT / "tests" / "golden" / "t9a_gap_in_front_rank.yaml"
HORDE = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
SVG = "{http://www.w3.org/2000/svg}"
INK = "{http://www.inkscape.org/namespaces/inkscape}"


def _fig(path: Path, **opts) -> bytes:
    return build_figure(load_scenario(path), None, FigureOptions(**opts)).data


def test_pdf_page_is_the_size_asked_for_and_its_text_extracts():
    from pypdf import PdfReader

    data = _fig(HORDE, size="180x120mm", format="pdf")
    assert data.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert float(box.width) == pytest.approx(180 / 25.4 * 72, abs=0.01)
    assert float(box.height) == pytest.approx(120 / 25.4 * 72, abs=0.01)
    text = reader.pages[0].extract_text()
    board = load_scenario(HORDE)
    for u in board.units:
        assert (u.name or u.id) in text  # unit names are text, not paths
    assert "Supporting attack" in text  # the caption key's words are text too


def test_pdf_fonts_are_embedded_and_output_is_deterministic():
    from pypdf import PdfReader

    data = _fig(GAP, size="120x80mm", format="pdf", crop=True)
    assert data == _fig(GAP, size="120x80mm", format="pdf", crop=True)
    page = PdfReader(io.BytesIO(data)).pages[0]
    fonts = page["/Resources"]["/Font"]
    names = []
    for ref in fonts.values():
        f = ref.get_object()
        names.append(str(f["/BaseFont"]))
        desc = f["/FontDescriptor"].get_object() if "/FontDescriptor" in f else None
        assert desc is not None and "/FontFile2" in desc, f"{f['/BaseFont']} is not embedded"
    assert any("DejaVuSans" in n for n in names)


def test_pdf_of_a_px_size_is_its_px_at_the_dpi():
    from pypdf import PdfReader

    data = _fig(GAP, size="600x400", dpi=100, format="pdf")
    box = PdfReader(io.BytesIO(data)).pages[0].mediabox
    assert float(box.width) == pytest.approx(600 / 100 * 72, abs=0.01)


def test_svg_has_named_inkscape_layers_and_groups_per_unit_and_model():
    root = ET.fromstring(_fig(HORDE, size="180x120mm", format="svg", crop=True))
    layers = [g for g in root.iter(f"{SVG}g") if g.get(f"{INK}groupmode") == "layer"]
    labels = [g.get(f"{INK}label") for g in layers]
    assert len(labels) >= 5 and len(set(labels)) == len(labels)
    for want in ("Table", "Units", "Roles", "Labels", "Legend", "Captions"):
        assert want in labels
    by = {g.get(f"{INK}label"): g for g in layers}
    board = load_scenario(HORDE)
    units = {g.get("id") for g in by["Units"].iter(f"{SVG}g") if g.get("class") == "unit"}
    assert units == {f"unit-{u.id}" for u in board.units}
    dwarfs = next(g for g in by["Units"] if g.get("id") == "unit-dwarfs")
    models = [g.get("id") for g in dwarfs.iter(f"{SVG}g") if (g.get("class") or "").startswith("model")]
    assert len(models) == len(board.unit("dwarfs").models())
    # labels are text in the Labels layer, the legend's rows in the Legend layer
    assert any("Dwarf" in (t.text or "") for t in by["Labels"].iter(f"{SVG}text"))
    assert any("Supporting attack" == (t.text or "") for t in by["Legend"].iter(f"{SVG}text"))  # the caption key


def test_print_style_is_white_paper_without_grid_and_window_style_keeps_the_table():
    from game.render.canvas import Canvas
    from game.render.figure import draw_figure
    from game.render.palette import PALETTE

    board = load_scenario(GAP)
    c = Canvas(900, 600)
    draw_figure(c, board, None if False else _analysis(board), FigureOptions(size="900x600"))
    table = c.find("polygon", "table")
    assert table and table[0].get("fill") == (255, 255, 255)
    assert not c.find("line", "table"), "no grid lines on a print figure"
    c2 = Canvas(900, 600)
    draw_figure(c2, board, _analysis(board), FigureOptions(size="900x600", style="screen"))
    assert c2.find("polygon", "table")[0].get("fill") == PALETTE["table"]
    assert c2.find("line", "table"), "the window's look keeps its grid"
    c3 = Canvas(900, 600)
    draw_figure(c3, board, _analysis(board), FigureOptions(size="900x600", table=True))
    assert c3.find("polygon", "table")[0].get("fill") == PALETTE["table"] and c3.find("line", "table")


def _analysis(board):
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset

    return analyse(board, load_ruleset(board.ruleset))


def test_print_style_hatches_supports_and_empty_places_and_lists_the_gap():
    from game.render.canvas import Canvas
    from game.render.figure import draw_figure

    board = load_scenario(GAP)
    a = _analysis(board)
    c = Canvas(900, 600)
    draw_figure(c, board, a, FigureOptions(size="900x600"))
    supports = [m for m, r in a.models.items() if r.role == "support"]
    assert supports
    for mid in supports:  # white hatching over the blue fill: supports differ in greyscale too
        assert c.find("line", f"model:{mid}"), mid
    empty = c.find("line", "empty:dwarfs.r1f3")
    assert empty, "the casualty's empty place is drawn hatched"
    legend = [x.args[1] for x in c.find("text", "legend")]
    assert any(t.startswith("Empty place in a unit") for t in legend)
    c2 = Canvas(900, 600)  # the window's look has no such row
    draw_figure(c2, board, a, FigureOptions(size="900x600", style="screen"))
    assert not c2.find("line", "empty:") and not any("Empty place" in x.args[1] for x in c2.find("text", "legend"))


def test_cli_writes_a_pdf(tmp_path):
    import main

    out = tmp_path / "fig.pdf"
    assert main.main(["render", str(HORDE), "-o", str(out), "--size", "180x120mm", "--crop"]) == 0
    assert out.read_bytes().startswith(b"%PDF")


def test_pdf_cmyk_writes_cmyk_colours_only():
    import re

    def ops(data: bytes) -> str:
        from pypdf import PdfReader

        return PdfReader(io.BytesIO(data)).pages[0].get_contents().get_data().decode("latin-1")

    rgb = ops(_fig(GAP, size="120x80mm", format="pdf"))
    cmyk = ops(_fig(GAP, size="120x80mm", format="pdf", cmyk=True))
    assert re.search(r"\brg\b", rgb) and not re.search(r"\b(k|K)\b", rgb)
    assert re.search(r"\bk\b", cmyk) and not re.search(r"\b(rg|RG)\b", cmyk)


def test_cmyk_conversion_puts_black_on_the_k_plate():
    from game.render.pdf_canvas import cmyk_of

    assert cmyk_of((0, 0, 0)) == (0.0, 0.0, 0.0, 1.0)
    assert cmyk_of((255, 255, 255)) == (0.0, 0.0, 0.0, 0.0)
    c, m, y, k = cmyk_of((255, 0, 0))
    assert (c, m, y, k) == (0.0, 1.0, 1.0, 0.0)


def test_move_arrows_of_alike_models_never_cross_where_an_equal_route_exists():
    """Two crossing straight moves of alike models of one unit are drawn swapped (the same
    places, shorter routes) when both swapped moves stay within the reach; otherwise (the
    swap would break the reach, or the models differ) the engine's moves are drawn as they are."""
    from game.core.analysis import Analysis
    from game.core.parts import MoveReach, Moves
    from game.render.move_marks import _crosses, uncrossed

    def crossing(moves, a, b):
        return _crosses(moves[a][0], moves[a][1], moves[b][0], moves[b][1])

    moves = {"u.m1": [(0.0, 0.0), (40.0, 40.0)], "u.m2": [(40.0, 0.0), (0.0, 40.0)], "v.m1": [(100.0, 0.0), (140.0, 40.0)],
             "v.m2": [(140.0, 0.0), (100.0, 40.0)], "w.m1": [(200.0, 0.0), (240.0, 40.0)], "x.m1": [(240.0, 0.0), (200.0, 40.0)]}
    a = Analysis(ruleset="t").put(Moves.of(moves), MoveReach(76.2))
    drawn = uncrossed(a)
    assert crossing(moves, "u.m1", "u.m2") and not crossing(drawn, "u.m1", "u.m2")
    assert {tuple(p[-1]) for k, p in drawn.items() if k.startswith("u.")} == {(40.0, 40.0), (0.0, 40.0)}
    assert crossing(drawn, "w.m1", "x.m1")  # two units: each keeps its own move
    tight = {"u.m1": [(0.0, 0.0), (11.3, -59.0)], "u.m2": [(-30.0, 35.0), (11.6, -16.3)]}
    assert crossing(tight, "u.m1", "u.m2")
    kept = uncrossed(Analysis(ruleset="t").put(Moves.of(tight), MoveReach(76.2)))
    assert kept["u.m1"][-1] == (11.3, -59.0)  # swapped, u.m2 would move 103 mm > 76.2 mm: left as the rules moved it
    # the bundled pile-in's one crossing is of this kind: kept, the swap would exceed 3"
    board = load_scenario(ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml")
    an = _analysis(board)
    assert uncrossed(an)["intercessors.m2"] == list(an.moves["intercessors.m2"])
