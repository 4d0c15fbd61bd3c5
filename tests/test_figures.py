"""Print figures: sizes in px and mm, pixels of known models, determinism, the book."""
from __future__ import annotations
import dataclasses

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"

import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from game.core.analyse import analyse  # noqa: E402
from game.core.ruleset import load_ruleset  # noqa: E402
from game.core.scenario import load_scenario  # noqa: E402
from game.render.figure import FigureError, FigureOptions, draw_figure, parse_size  # noqa: E402
from game.figures.figure_file import write_figure

ROOT = Path(__file__).resolve().parents[1]
HORDE = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def _render(tmp_path, name="f.png", scenario=HORDE, **opts):
    b = load_scenario(scenario)
    out = tmp_path / name
    assert write_figure(b, analyse(b, load_ruleset(b.ruleset)), out, FigureOptions(**opts)) == []
    return b, out


def _pixel_of(board, model_id, fo, size):
    """Pixel (x, y) of a model's centre in a figure of ``size`` px."""
    from game.render.canvas import Canvas

    c = Canvas(*size)
    a = analyse(board, load_ruleset(board.ruleset))
    from game.render.svg_canvas import SvgCanvas

    c = SvgCanvas(*size)  # same font metrics as the figures
    view, _ = draw_figure(c, board, a, fo)
    m = next(m for m in board.models() if m.id == model_id)
    x, y = view.to_px(m.center)
    return int(x), int(y)


def test_parse_size():
    assert parse_size("180x120mm") == (180.0, 120.0, "mm")
    assert parse_size("1200x800") == (1200.0, 800.0, "px")
    with pytest.raises(FigureError):
        parse_size("big")


def test_mm_size_and_dpi(tmp_path):
    _, out = _render(tmp_path, size="100x50mm", dpi=254)
    with Image.open(out) as im:
        assert im.size == (1000, 500)
        assert round(im.info["dpi"][0]) == 254


@pytest.mark.parametrize("palette, red", [("default", True), ("colourblind", False)])
def test_attack_model_pixel_is_red_or_vermillion(tmp_path, palette, red):
    fo = dict(size="900x600", palette=palette, legend_at="right")  # the scene's own layout: _pixel_of finds the model
    b, out = _render(tmp_path, **fo)
    x, y = _pixel_of(b, "dwarfs.r1f3", FigureOptions(**fo), (900, 600))
    with Image.open(out) as im:
        r, g, bl = im.convert("RGB").getpixel((x + 3, y + 3))
    assert r > 180 and g < 120 and bl < 80
    sx, sy = _pixel_of(b, "dwarfs.r2f3", FigureOptions(**fo), (900, 600))
    with Image.open(out) as im:
        r, g, bl = im.convert("RGB").getpixel((sx + 3, sy + 3))
    assert bl >= r  # support: blue-ish (or its white hatch)


def test_png_is_deterministic(tmp_path):
    _, a = _render(tmp_path, "a.png", crop=True, size="120x80mm", dpi=150)
    _, b = _render(tmp_path, "b.png", crop=True, size="120x80mm", dpi=150)
    assert a.read_bytes() == b.read_bytes()


def test_crop_zooms_on_the_engaged_units():
    b = load_scenario(HORDE)
    a = analyse(b, load_ruleset(b.ruleset))
    from game.render.canvas import Canvas

    v_all, _ = draw_figure(Canvas(900, 600), b, a, FigureOptions())
    v_crop, _ = draw_figure(Canvas(900, 600), b, a, FigureOptions(crop=True))
    assert v_crop.scale > v_all.scale  # the unengaged Night Goblins are left out


def test_legend_caption_labels_off():
    from game.render.canvas import Canvas

    b = load_scenario(HORDE)
    a = analyse(b, load_ruleset(b.ruleset))
    c = Canvas(900, 600)
    draw_figure(c, b, a, FigureOptions(legend=False, caption=False, labels=False))
    assert not c.find(tag_prefix="legend") and not c.find(tag_prefix="title") and not c.find(tag_prefix="label:")


def test_compare_png_is_two_panels_wide(tmp_path):
    _, out = _render(tmp_path, "c.png", scenario=ROOT / "tests/golden/rear_gap_both_rulesets.yaml",
                     compare=("whfb8", "t9a"), size="1200x400")
    with Image.open(out) as im:
        assert im.size == (1200, 400)


def test_render_cli_svg_and_options(tmp_path, capsys):
    import main

    out = tmp_path / "x.svg"
    assert main.main(["render", str(HORDE), "-o", str(out), "--size", "180x120mm", "--dpi", "300", "--crop",
                      "--legend", "off", "--palette", "colourblind", "--labels", "off"]) == 0
    assert out.read_text().startswith("<?xml")
    assert main.main(["render", str(HORDE), "-o", str(tmp_path / "y.png"), "--size", "nope"]) == 2
    assert "size must look like" in capsys.readouterr().err


def test_render_book(tmp_path):
    from game.figures.book import BookError, load_book, render_book

    book = tmp_path / "book.yaml"
    book.write_text(f"""title: t
defaults: {{size: 120x80mm, dpi: 100}}
figures:
  - {{scenario: {ROOT}/tests/golden/whfb8_rear_gap.yaml, output: a/rear.png}}
  - {{scenario: {ROOT}/tests/golden/t9a_gap_in_front_rank.yaml, output: gap.svg, options: {{crop: true}}}}
""")
    res = render_book(book, tmp_path / "out", progress=False)
    assert [r[0] for r in res] == ["a/rear.png", "gap.svg"]
    assert (tmp_path / "out" / "a" / "rear.png").exists() and (tmp_path / "out" / "gap.svg").exists()
    book.write_text("figures:\n  - {scenario: x.yaml, output: a.png, options: {crop: maybe}}\n")
    with pytest.raises(BookError) as ei:
        load_book(book)
    assert ei.value.line == 2 and ei.value.field == "figures[0].options.crop"


def test_bundled_book_lists_every_golden_and_bundled_scenario():
    from game.figures.book import load_book

    _, figs = load_book(ROOT / "assets" / "book.yaml")
    listed = {f.scenario.resolve() for f in figs}
    for p in (ROOT / "assets" / "scenarios").glob("*.yaml"):
        assert p.resolve() in listed, p.name
    for p in (ROOT / "tests" / "golden").glob("*.yaml"):  # through its copy in assets (the book is self-contained)
        assert (ROOT / "assets" / "scenarios" / "golden" / p.name).resolve() in listed, p.name


def test_render_rejects_bad_sizes_and_suffixes(tmp_path):
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    src = root / "tests" / "golden" / "whfb8_apart.yaml"
    for extra, words in ((["--size", "100000x100000"], "each side must be"), (["--dpi", "-5", "--size", "10x10mm"], "--dpi"),
                         (["--font-scale", "nan"], "--font-scale"), (["--crop-margin", "-1"], "--crop-margin")):
        out = subprocess.run([sys.executable, "main.py", "render", str(src), "-o", str(tmp_path / "x.png"), *extra],
                             cwd=root, capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr, out.stderr
    out = subprocess.run([sys.executable, "main.py", "render", str(src), "-o", str(tmp_path / "x.jpg")],
                         cwd=root, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and ".png, .svg, .pdf or .html" in out.stderr


def test_book_outputs_stay_inside_the_folder(tmp_path):
    import pytest
    from game.figures.book import BookError, load_book
    book = tmp_path / "book.yaml"
    (tmp_path / "s.yaml").write_text((__import__("pathlib").Path(__file__).parent / "golden" / "whfb8_apart.yaml").read_text())
    for bad in ("../escape.png", "/tmp/abs.png"):
        book.write_text(f"figures:\n  - {{scenario: s.yaml, output: '{bad}'}}\n")
        with pytest.raises(BookError, match="inside the output folder"):
            load_book(book)


# -- issue 16: one pipeline, print weights, honest legends, comparisons -----------------------
def _board(name):
    return load_scenario(ROOT / name)


def test_render_figure_returns_png_or_svg_bytes_and_write_figure_picks_by_suffix(tmp_path):
    from game.render.figure import FigureSpec
    from game.figures.figure_file import render_figure, write_figure

    b = _board("tests/golden/whfb8_rear_gap.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    png = render_figure(b, a, FigureSpec(size="120x80mm", dpi=100))
    svg = render_figure(b, a, FigureSpec(size="120x80mm", dpi=100, format="svg"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and svg.startswith(b"<?xml")
    assert write_figure(b, a, tmp_path / "f.svg", FigureSpec()) == []
    assert (tmp_path / "f.svg").read_bytes().startswith(b"<?xml")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_stroke_widths_and_fonts_are_lengths_that_scale_with_dpi():
    """Every width and font size is proportional to the dpi: same mm at 100 and 300 dpi."""
    from game.render.canvas import Canvas

    b = _board("tests/golden/whfb8_rear_gap.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    seen = {}
    for dpi in (100, 300):
        c = Canvas(*FigureOptions(size="120x80mm", dpi=dpi).pixel_size())
        draw_figure(c, b, a, FigureOptions(size="120x80mm", dpi=dpi))
        widths = [x.get("width") for x in c.calls
                  if x.name == "line" or (x.name in ("polygon", "circle") and x.get("outline") is not None)]
        fonts = [x.get("size") for x in c.calls if x.name == "text"]
        seen[dpi] = (sorted(widths), sorted(fonts))
    for w100, w300 in zip(seen[100][0], seen[300][0]):
        assert w300 == pytest.approx(3 * w100, rel=0.02, abs=0.05)
    assert max(seen[300][1]) >= 2.6 * max(seen[100][1])


def test_figure_pixel_size_is_capped():
    from game.render.figure import MAX_PIXELS, MAX_SIDE_PX
    from game.figures.figure_file import build_figure

    b = _board("tests/golden/whfb8_apart.yaml")
    far = b.units[1]
    b = b.with_unit(dataclasses.replace(far, front=(far.front[0] + 9000, far.front[1])))  # 9 m apart: a scaled figure, not a huge one
    f = build_figure(b, None, FigureOptions())
    assert max(f.size) <= MAX_SIDE_PX and f.size[0] * f.size[1] <= MAX_PIXELS
    b = b.with_unit(dataclasses.replace(far, front=(2.0 ** 63, far.front[1])))
    with pytest.raises(FigureError, match="span"):
        build_figure(b, None, FigureOptions())
    with pytest.raises(FigureError, match="million pixels"):
        FigureOptions(size="7000x7000").pixel_size()


def test_labels_show_names_and_counts_not_ids():
    from game.render.svg_canvas import SvgCanvas

    b = _board("tests/golden/whfb8_dividing_attacks.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    c = SvgCanvas(1200, 800, record=True)
    draw_figure(c, b, a, FigureOptions(count_all=True))  # a figure about attacks: every ×N drawn
    texts = [x.args[1] for x in c.find("text")]
    assert not any("." in t and t.split(".")[0] in {"dwarfs", "orcs", "goblins"} for t in texts)
    texts = [" ".join(x.args[1] for x in c.find("text", "legend"))]
    assert len(c.find("text", "count:")) == sum(1 for r in a.models.values() if r.role != "none" and r.attacks != 1)
    # the dividing-attacks figure marks the two Dwarfs touching both enemy units
    assert {x.get("tag") for x in c.find(tag_prefix="divide:")} == {"divide:dwarfs.r1f3", "divide:dwarfs.r1f4"}
    assert any("may divide its attacks (2 models)" in t for t in texts)


def test_cropped_legend_counts_only_what_is_in_the_picture():
    from game.render.svg_canvas import SvgCanvas

    b = _board("assets/scenarios/dwarf_horde_vs_goblins.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    c = SvgCanvas(1200, 800, record=True)
    draw_figure(c, b, a, FigureOptions(crop=True, crop_margin_mm=5, title="A Dwarf horde fights Goblin Spearmen"))
    legend = " ".join(x.args[1] for x in c.find("text", "legend"))
    assert "Night Goblins" not in legend  # cropped out
    n_none = sum(1 for m, r in a.models.items() if r.role == "none" and not m.startswith("night_goblins"))
    assert f"Does not fight ({n_none} models)" in legend


def test_compare_caption_says_the_difference_in_plain_words(tmp_path):
    from game.figures.figure_file import write_figure

    b = _board("tests/golden/rear_gap_both_rulesets.yaml")
    out = tmp_path / "c.svg"
    write_figure(b, None, out, FigureOptions(compare=("whfb8", "t9a")))
    import xml.etree.ElementTree as ET

    texts = [t.text or "" for t in ET.fromstring(out.read_bytes()).iter("{http://www.w3.org/2000/svg}text")]
    joined = " ".join(texts)
    # the rulesets' short names (rulesets/*.yaml short_name), not the long ones, in the sentences
    assert "make 2 attacks each under 8th edition but 1 under The Ninth Age" in joined
    assert not any("dwarfs.r" in t for t in texts)


def test_greyscale_palette_tells_roles_apart_by_outline_style():
    from game.render.canvas import Canvas

    b = _board("tests/golden/whfb8_rear_gap.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    c = Canvas(1000, 700)
    draw_figure(c, b, a, FigureOptions(palette="greyscale"))
    att = next(m for m, r in a.models.items() if r.role == "attack")
    sup = next(m for m, r in a.models.items() if r.role == "support")
    thin = min(x.get("width") for x in c.find("polygon", f"model:{sup}"))  # the base outline
    assert any(x.name == "polygon" and x.get("outline") == (0, 0, 0) and x.get("width") >= 2 * thin
               for x in c.find(tag_prefix=f"model:{att}"))  # twice as heavy: medium against thin
    assert any(x.name == "line" and x.get("dashed") for x in c.find(tag_prefix=f"model:{sup}"))


def test_slots_figure_stands_allocated_models_in_their_slots():
    from game.render.canvas import Canvas

    b = _board("assets/scenarios/slots_large_model.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    c = Canvas(1200, 1200)
    draw_figure(c, b, a, FigureOptions())
    moved = {x.get("tag") for x in c.find("arrow", "slotmove:")}
    assert moved and all(t.startswith("slotmove:goblins.") for t in moved)  # the spider stays in contact
    from game.render.unit_marks import SLOT_MARK_UNITS

    fs = FigureOptions().scale()
    for x in c.find("line", "slot:"):  # no web of lines: only short marks from a filled slot to its filler
        (x0, y0), (x1, y1) = x.args[0][0], x.args[0][-1]
        assert not x.get("dashed") and ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 <= (SLOT_MARK_UNITS + 4.5) * fs + 0.5


def _book_cases():
    from game.figures.book import load_book

    _, figs = load_book(ROOT / "assets" / "book.yaml")
    return [pytest.param(f, id=f.output) for f in figs]


@pytest.mark.parametrize("fig", _book_cases())
def test_book_figure_layout_has_no_collisions_and_no_text_off_the_canvas(fig):
    """Every figure of the bundled book (each panel of a compare figure), at its print size."""
    from dataclasses import replace

    from figcheck import letter_problems, model_problems, problems
    from game.render.figure import default_size, scene_options
    from game.render.scene import scene_layout
    from game.render.svg_canvas import SvgCanvas

    from game.figures.figure_compare import compare_panels
    from game.figures.figure_file import legend_below
    from game.render.figure_panels import draw_panels, panel_size

    def check_panels(pf, fo):  # a figure drawn as panels (the print style's caption key): each panel as drawn in it
        size = fo.pixel_size() or panel_size(pf, fo)
        c = SvgCanvas(*size, record=True)
        subs: list = []
        draw_panels(c, pf, fo, record=subs)
        inner = replace(fo, legend=False, caption=False, title="")
        for p, sub in zip(pf.panels, subs):
            lay = scene_layout(sub, p.board, scene_options(p.board, inner, ""), p.board.ruleset)
            assert problems(sub, lay) == [], (fig.output, p.caption)
            assert model_problems(sub) == [], (fig.output, p.caption)
            assert letter_problems(sub) == [], (fig.output, p.caption)

    if fig.panels:  # a multi-panel figure
        from game.figures.book import panel_figure_of

        check_panels(panel_figure_of(fig), fig.options)
        return
    b = load_scenario(fig.scenario)
    if fig.ruleset:
        b = dataclasses.replace(b, ruleset=fig.ruleset)
    fo = fig.options
    if fo.compare and fo.compare_mode == "side":
        check_panels(compare_panels(b, fo), replace(fo, compare=None))
        return
    if not fo.compare:
        pf = legend_below(b, analyse(b, load_ruleset(b.ruleset)), fo, fo.pixel_size() or default_size(b, fo))
        if pf is not None:
            check_panels(pf, fo)
            return
    runs = [(b.ruleset, fo)]
    if fo.compare:
        runs = [(rid, replace(fo, compare=None)) for rid in fo.compare]
    for rid, o in runs:
        b = dataclasses.replace(b, ruleset=rid)
        a = analyse(b, load_ruleset(rid))
        size = o.pixel_size() or default_size(b, o, a)
        if fo.compare and fo.compare_mode == "side":
            size = (size[0] // 2, size[1])
        c = SvgCanvas(*size, record=True)
        draw_figure(c, b, a, o)
        so = scene_options(b, o)
        lay = scene_layout(c, b, so, rid)
        # the legend panel may have widened: take it from the drawn panel background
        panel = next((x for x in c.calls if x.get("tag") == "legend" and x.name == "polygon"), None)
        if panel is not None:
            xs = [p[0] for p in panel.args[0]]
            lay.panel = (min(xs), lay.panel[1], max(xs) - min(xs), lay.panel[3])
        assert problems(c, lay) == [], (fig.output, rid)
        assert model_problems(c) == [], (fig.output, rid)
        assert letter_problems(c) == [], (fig.output, rid)


def test_a_cropped_out_unit_gets_no_label():
    from game.render.canvas import Canvas

    b = _board("assets/scenarios/dwarf_horde_vs_goblins.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    c = Canvas(1200, 800)
    draw_figure(c, b, a, FigureOptions(crop=True, crop_margin_mm=5, title="A Dwarf horde fights Goblin Spearmen"))
    assert {x.get("tag") for x in c.find("text", "label:")} == {"label:dwarfs", "label:goblins"}


def test_numbered_callouts_badge_the_models_and_list_the_notes_in_the_legend():
    from game.render.canvas import Canvas
    from game.render.marks import Marks

    b = _board("tests/golden/whfb8_dividing_attacks.yaml")
    a = analyse(b, load_ruleset(b.ruleset))
    c = Canvas(1200, 800)
    mk = Marks(notes=[("dwarfs.r1f3", "touches an Orc and a Goblin"), ("dwarfs.r1f4", "so does this one")], numbered=True)
    draw_figure(c, b, a, FigureOptions(marks=mk, letters=True))
    assert [x.args[1] for x in c.find("text", "callout:")] == ["1", "2"]
    legend = [x.args[1] for x in c.find("text", "legend")]
    assert "Notes" in legend and any(t.startswith("1. touches an Orc") for t in legend)
    assert any(t.startswith("Player 1: A: ") for t in legend)


def _demo_cases():
    return [pytest.param(p, id=p.name) for p in sorted((ROOT / "assets" / "demos").glob("*.yaml"))]


@pytest.mark.parametrize("path", _demo_cases())
def test_demo_steps_place_callouts_notes_and_labels_clear_of_other_models(path):
    """Every step of every bundled demo with teaching marks, drawn as a print figure: no
    callout, note, label, badge or letter covers a model it does not describe, none overlaps
    another (tests/figcheck.py)."""
    from figcheck import model_problems
    from game.core.demo import build_steps, load_demo
    from game.render.figure import figure_box
    from game.render.svg_canvas import SvgCanvas
    from game.render.demo_frames import step_marks

    for i, st in enumerate(build_steps(load_demo(path))):
        mk = step_marks(st)
        if not (mk.notes or mk.highlight or i % 3 == 0):
            continue  # marked steps, and every third step for labels and badges
        c = SvgCanvas(1200, 800, record=True)
        fo = FigureOptions(size="180x120mm", dpi=170, crop=True)
        draw_figure(c, st.board, st.analysis, fo, marks=mk, box_mm=figure_box(st.board, st.analysis, fo))
        assert model_problems(c) == [], (path.name, i + 1, st.caption)
