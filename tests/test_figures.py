"""Print figures: sizes in px and mm, pixels of known models, determinism, the book."""
from __future__ import annotations

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"

import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from game.core.analysis import analyse  # noqa: E402
from game.core.ruleset import load_ruleset  # noqa: E402
from game.core.scenario import load_scenario  # noqa: E402
from game.view.publish import FigureError, FigureOptions, draw_figure, parse_size, render_figure  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HORDE = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def _render(tmp_path, name="f.png", scenario=HORDE, **opts):
    b = load_scenario(scenario)
    out = tmp_path / name
    assert render_figure(b, load_ruleset(b.ruleset), out, FigureOptions(**opts), services={}) == []
    return b, out


def _pixel_of(board, model_id, fo, size):
    """Pixel (x, y) of a model's centre in a figure of ``size`` px."""
    from game.view.canvas import Canvas

    c = Canvas(*size)
    a = analyse(board, load_ruleset(board.ruleset))
    from game.view.svg_canvas import SvgCanvas

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
    fo = dict(size="900x600", palette=palette)
    b, out = _render(tmp_path, **fo)
    x, y = _pixel_of(b, "dwarfs.r1f3", FigureOptions(**fo), (900, 600))
    with Image.open(out) as im:
        r, g, bl = im.convert("RGB").getpixel((x + 3, y + 3))
    assert r > 180 and g < 120 and bl < 80
    sx, sy = _pixel_of(b, "dwarfs.r2f3", FigureOptions(**fo), (900, 600))
    with Image.open(out) as im:
        r, g, bl = im.convert("RGB").getpixel((sx + 3, sy + 3))
    assert bl > r  # support: blue-ish (or its white hatch)


def test_png_is_deterministic(tmp_path):
    _, a = _render(tmp_path, "a.png", crop=True, size="120x80mm", dpi=150)
    _, b = _render(tmp_path, "b.png", crop=True, size="120x80mm", dpi=150)
    assert a.read_bytes() == b.read_bytes()


def test_crop_zooms_on_the_engaged_units():
    b = load_scenario(HORDE)
    a = analyse(b, load_ruleset(b.ruleset))
    from game.view.canvas import Canvas

    v_all, _ = draw_figure(Canvas(900, 600), b, a, FigureOptions())
    v_crop, _ = draw_figure(Canvas(900, 600), b, a, FigureOptions(crop=True))
    assert v_crop.scale > v_all.scale  # the unengaged Night Goblins are left out


def test_legend_caption_labels_off():
    from game.view.canvas import Canvas

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
    from game.view.book import BookError, load_book, render_book

    book = tmp_path / "book.yaml"
    book.write_text(f"""title: t
defaults: {{size: 60x40mm, dpi: 100}}
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
    from game.view.book import load_book

    _, figs = load_book(ROOT / "assets" / "book.yaml")
    listed = {f.scenario.resolve() for f in figs}
    for p in list((ROOT / "tests" / "golden").glob("*.yaml")) + list((ROOT / "assets" / "scenarios").glob("*.yaml")):
        assert p.resolve() in listed, p.name


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
    assert out.returncode == 2 and ".png or .svg" in out.stderr


def test_book_outputs_stay_inside_the_folder(tmp_path):
    import pytest
    from game.view.book import BookError, load_book
    book = tmp_path / "book.yaml"
    (tmp_path / "s.yaml").write_text((__import__("pathlib").Path(__file__).parent / "golden" / "whfb8_apart.yaml").read_text())
    for bad in ("../escape.png", "/tmp/abs.png"):
        book.write_text(f"figures:\n  - {{scenario: s.yaml, output: '{bad}'}}\n")
        with pytest.raises(BookError, match="inside the output folder"):
            load_book(book)
