"""``render`` and ``render-book``: figures drawn headless (no window).

Exit status: 0 on success, 2 for a bad scenario, ruleset, book or option (one message naming
the file, line and field on stderr), 1 for anything else.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

from game.cli.args import (UsageError, add_budget_option, budgets, check_budget, check_int, check_number, check_output,
                           check_pair, check_ruleset, check_text)
from game.cli.common import err, headless_env, load, write_figure
from game.core.analyse import analyse
from game.core.atomic import write_atomic
from game.core.ruleset import RulesetError
from game.core.scenario import ScenarioError
from game.core.validate import short
from game.render.figure import FigureError, FigureOptions
from game.figures.figure_file import write_figure as write_fig


def run(cmd: str, argv: list[str], ap: argparse.ArgumentParser) -> int:
    """Entry point for ``render`` and ``render-book``."""
    return _cmd_render_book(argv, ap) if cmd == "render-book" else _cmd_render(argv, ap)


def _on_off(v: str) -> bool:
    v = str(v).lower()
    if v in ("on", "yes", "true", "1"):
        return True
    if v in ("off", "no", "false", "0"):
        return False
    raise argparse.ArgumentTypeError(f"must be on or off (got {v!r})")


def _legend_place(v: str):
    """``on``/``off`` (bool) or ``right``/``below`` (where the legend sits)."""
    if str(v).lower() in ("right", "below", "key"):
        return str(v).lower()
    return _on_off(v)


def _counts(v: str):
    """``all`` or ``on``/``off`` (bool)."""
    return "all" if str(v).lower() == "all" else _on_off(v)


def _wrote(output: str, errors: list, seconds: float) -> int:
    """Report a written figure: drawing warnings on stderr, one line on stdout; exit 0."""
    for e in errors:
        print(f"warning: {e}", file=sys.stderr)
    print(f"wrote {output} in {seconds * 1000:.0f} ms")
    return 0


def _cmd_render(argv: list[str], ap: argparse.ArgumentParser) -> int:
    """``render FILE -o OUT.png|OUT.svg`` with print options (see ``docs/DEMOS.md``)."""
    ap.add_argument("file", help="scenario YAML")
    ap.add_argument("-o", "--output", required=True, help="PNG, SVG, PDF or HTML (by suffix) to write; HTML: a one-step page with hover texts")
    ap.add_argument("--size", help="figure size: WxH px (1200x800) or WxHmm (180x120mm, with --dpi)")
    ap.add_argument("--dpi", type=int, default=150, help="pixels per inch for mm sizes; stored in the PNG (default 150)")
    ap.add_argument("--width", type=int, help="figure width in px (with --height; same as --size WxH)")
    ap.add_argument("--height", type=int, help="figure height in px (with --width)")
    ap.add_argument("--scale", type=float, help="px per table mm (PNG only, instead of a size)")
    ap.add_argument("--ruleset", help="draw under this ruleset id instead of the file's")
    ap.add_argument("--legend", type=_legend_place, default=True, metavar="on|off|key|right|below",
                    help="the key: in the print style a caption key under the picture (on, the default: key), "
                         "in the screen style a panel on the right; right or below: a legend panel; off: none")
    ap.add_argument("--sections", action="store_true",
                    help="the key adds the strike order, fight sequence, rank bonus and the rules' notes")
    ap.add_argument("--style", default="print", choices=["print", "screen"],
                    help="print: white paper, no grid (the default); screen: the window's look")
    ap.add_argument("--table", action="store_true", help="print style: keep the table tint and the 6-inch grid")
    ap.add_argument("--reach", action="store_true", help="print style: draw the move reach rings (off by default)")
    ap.add_argument("--cmyk", action="store_true", help="PDF: write colours as CMYK (for a print shop)")
    ap.add_argument("--no-legend", action="store_true", help="same as --legend off")
    ap.add_argument("--caption", type=_on_off, default=True, metavar="on|off", help="the title bar (default on)")
    ap.add_argument("--labels", type=_on_off, default=True, metavar="on|off", help="unit labels (default on)")
    ap.add_argument("--title", help="caption text (default: the scenario's title)")
    ap.add_argument("--crop", action="store_true", help="fit the view to the engaged units")
    ap.add_argument("--insets", choices=("on", "off"), default="on",
                    help="with --crop: combats far apart each in its own panel at one scale (on, the default) or one picture (off)")
    ap.add_argument("--crop-margin", type=float, default=40.0, metavar="MM", help="margin around the crop (mm, default 40)")
    ap.add_argument("--palette", default="default", choices=["default", "colourblind", "colorblind", "greyscale", "grayscale"],
                    help="colourblind: Okabe-Ito colours plus role patterns; greyscale: roles by shade and outline")
    ap.add_argument("--ids", action="store_true", help="unit labels add the unit id after the name")
    ap.add_argument("--letters", action="store_true", help="name units A: name, B: name... in labels and legend")
    ap.add_argument("--counts", type=_counts, default=True, metavar="on|off|all",
                    help="xN attack badges: on (the default: only a model whose attacks differ from its unit's "
                         "usual; never x1), all (every model making other than 1 attack), off")
    ap.add_argument("--compare", metavar="A,B", help="two rulesets: panels side by side, differing models ringed")
    ap.add_argument("--compare-mode", default="side", choices=["side", "overlay"],
                    help="side: two panels; overlay: one panel under A with the differences ringed")
    ap.add_argument("--font-scale", type=float, help="text scale (default: from --dpi for mm sizes, else 1)")

    add_budget_option(ap)
    args = ap.parse_args(argv)
    with budgets(args, args.file):
        return _render(args)


def _render(args) -> int:
    if (args.width is None) != (args.height is None):
        return err("give both --width and --height, or --size", 2)
    if Path(args.output).suffix.lower() not in (".png", ".svg", ".pdf", ".html", ".htm"):
        return err(f"-o must end in .png, .svg, .pdf or .html (got {short(args.output)})", 2)
    if args.scale is not None and not (math.isfinite(args.scale) and 0 < args.scale <= 20):
        return err(f"--scale must be a number of px per mm above 0 and at most 20 (got {args.scale})", 2)
    compare = None
    try:
        check_ruleset(args.ruleset)
        if args.compare:
            compare = check_pair(args.compare)
        check_int(args.width, "--width", 1, 8000)
        check_int(args.height, "--height", 1, 8000)
        check_int(args.dpi, "--dpi", 30, 2400)
        check_number(args.font_scale, "--font-scale", 0.05, 10)
        check_number(args.crop_margin, "--crop-margin", 0, 10_000)
        check_number(args.time_budget, "--time-budget", 0, 86_400)
        check_number(args.memory_budget, "--memory-budget", 0, 10 ** 7)
        check_text(args.title, "--title")
        check_output(args.output, [args.file])
        board, rs = load(args.file, args.ruleset)
    except (ScenarioError, RulesetError, UsageError) as exc:
        return err(str(exc), 2)
    headless_env()
    out = Path(args.output)
    if args.scale and not (args.size or args.width) and out.suffix.lower() == ".png":
        try:  # the original --scale path
            dt, errors = write_figure(board, rs, out, scale=args.scale, legend=args.legend and not args.no_legend,
                                      title=args.title)
        except OSError as exc:
            return err(f"cannot write {args.output}: {exc.strerror or exc}", 1)
        return _wrote(args.output, errors, dt)

    if args.size is not None and not args.size.strip():
        return err("--size must look like 1200x800 (px) or 180x120mm (got an empty value)", 2)
    size = args.size or (f"{args.width}x{args.height}" if args.width else None)
    legend_at = args.legend if isinstance(args.legend, str) else None
    fo = FigureOptions(size=size, dpi=args.dpi, legend=bool(args.legend) and not args.no_legend, caption=args.caption,
                       style=args.style, table=args.table, legend_at=legend_at, cmyk=args.cmyk,
                       labels=args.labels, title=args.title, crop=args.crop, crop_margin_mm=args.crop_margin,
                       palette={"colorblind": "colourblind", "grayscale": "greyscale"}.get(args.palette, args.palette),
                       compare=compare, compare_mode=args.compare_mode, font_scale=args.font_scale, ids=args.ids,
                       letters=args.letters, counts=bool(args.counts), sections=args.sections,
                       count_all=args.counts == "all", reach=args.reach,
                       insets=args.insets == "on")
    t0 = time.perf_counter()
    if out.suffix.lower() in (".html", ".htm"):
        return _render_html(board, rs, fo, out, args.output, t0)
    try:
        fo.pixel_size()
        errors = write_fig(board, None, out, fo)
    except FigureError as exc:  # a bad option value: a usage error, like argparse's (exit 2)
        return err(str(exc), 2)
    except RulesetError as exc:
        return err(str(exc), 2)
    except OSError as exc:
        return err(f"cannot write {args.output}: {exc.strerror or exc}", 1)
    return _wrote(args.output, errors, time.perf_counter() - t0)


def _render_html(board, rs, fo, out: Path, name: str, t0: float) -> int:
    """``render FILE -o OUT.html``: the scenario as a one-step page (hover texts, no network)."""
    from game.render.html_page import PAGE_SIZE, scenario_page  # the page writer: for .html only

    try:
        size = fo.pixel_size() or PAGE_SIZE
        fo.size = f"{size[0]}x{size[1]}"
        an = analyse(board, rs)
        write_atomic(out, scenario_page(board, an, size=size, options=fo).encode("utf-8"))
    except (FigureError, RulesetError) as exc:
        return err(str(exc), 2)
    except OSError as exc:
        return err(f"cannot write {name}: {exc.strerror or exc}", 1)
    return _wrote(name, [], time.perf_counter() - t0)


def _cmd_render_book(argv: list[str], ap: argparse.ArgumentParser) -> int:
    """``render-book BOOK.yaml -o DIR``: every figure of a book, with a progress bar."""
    from game.figures.book import BookError, render_book  # the book (demos, tqdm): not for one figure

    ap.add_argument("book", help="book YAML (docs/DEMOS.md)")
    ap.add_argument("-o", "--output", required=True, metavar="DIR", help="directory for the figures")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument("--only", metavar="TEXT", help="only the figures whose output path contains TEXT")

    add_budget_option(ap)
    args = ap.parse_args(argv)
    try:
        check_budget(args.time_budget, args.memory_budget)
    except UsageError as exc:
        return err(str(exc), 2)
    headless_env()

    t0 = time.perf_counter()
    try:
        with budgets(args, args.book):
            only = (lambda f: args.only in f.output) if args.only else None
            results = render_book(args.book, args.output, progress=not args.quiet, only=only)
    except BookError as exc:
        return err(str(exc), 2)
    except OSError as exc:
        return err(f"cannot write into {args.output}: {exc.strerror or exc}", 1)
    for name, _, errors in results:
        for e in errors:
            print(f"warning: {name}: {e}", file=sys.stderr)
    print(f"wrote {len(results)} figure{'' if len(results) == 1 else 's'} to {args.output} in {time.perf_counter() - t0:.1f} s")
    return 0
