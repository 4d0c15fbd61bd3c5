"""``render-book``: every figure of a rules chapter from one YAML file.

Book format (paths relative to the book file; see ``docs/DEMOS.md``)::

    title: "The whole bundled book"
    defaults: {size: 180x120mm, dpi: 200, crop: true}     # FigureOptions for every figure
    figures:
      - {scenario: scenarios/whfb8_rear_gap.yaml, output: whfb8/rear_gap.png}
      - {scenario: ..., output: ....svg, options: {palette: colourblind, compare: whfb8,t9a}}

Option keys (as on the ``render`` command line): ``size``, ``dpi``, ``legend``, ``caption``,
``labels``, ``ids``, ``letters``, ``counts``, ``title``, ``crop``, ``crop_margin_mm``, ``palette`` (``default``, ``colourblind``, ``greyscale``), ``compare`` (``a,b``),
``compare_mode`` (``side``/``overlay``), ``font_scale``, ``ruleset``. Errors raise
:class:`BookError` naming the file, line and field.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Optional


from game.core.yamlfile import FileError, field_name, parse_yaml, read_text

from .figure import FigureError, FigureOptions, parse_size

OPTION_KEYS = {"size", "dpi", "legend", "caption", "labels", "ids", "letters", "counts", "title", "crop", "crop_margin_mm",
               "palette", "compare", "compare_mode", "font_scale", "ruleset"}


class BookError(FileError):
    """A bad book file: ``file``, ``line``, ``field`` and what is wrong."""


@dataclass
class BookFigure:
    """One figure: ``scenario`` path, ``output`` path (relative to the output dir), its
    :class:`FigureOptions`, an optional ``ruleset`` override and its YAML ``path``/``line``."""

    scenario: Path
    output: str
    options: FigureOptions
    ruleset: Optional[str]
    field: str
    line: Optional[int]


def options_from(d: dict, base: FigureOptions, fail: Callable[[str, str], None]) -> tuple[FigureOptions, Optional[str]]:
    """Merge option mapping ``d`` over ``base``; ``fail(key, message)`` reports a bad key."""
    kw: dict[str, Any] = {}
    ruleset = None
    for k, v in d.items():
        if k not in OPTION_KEYS:
            fail(k, f"unknown option (allowed: {', '.join(sorted(OPTION_KEYS))})")
        if k in ("legend", "caption", "labels", "crop", "ids", "letters", "counts"):
            if not isinstance(v, bool):
                fail(k, f"must be true or false (got {v!r})")
            kw[k] = v
        elif k == "size":
            try:
                parse_size(str(v))
            except FigureError as exc:
                fail(k, str(exc))
            kw[k] = str(v)
        elif k in ("dpi",):
            if isinstance(v, bool) or not isinstance(v, int) or not 30 <= v <= 2400:
                fail(k, f"must be a whole number from 30 to 2400 (got {v!r})")
            kw[k] = v
        elif k in ("crop_margin_mm", "font_scale"):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                fail(k, f"must be a number 0 or more (got {v!r})")
            kw[k] = float(v)
        elif k == "compare":
            ids = [x.strip() for x in str(v).split(",") if x.strip()]
            if len(ids) != 2:
                fail(k, f"must name two rulesets like whfb8,t9a (got {v!r})")
            kw[k] = (ids[0], ids[1])
        elif k == "compare_mode":
            if v not in ("side", "overlay"):
                fail(k, f"must be side or overlay (got {v!r})")
            kw[k] = v
        elif k == "palette":
            if v not in ("default", "colourblind", "colorblind", "greyscale", "grayscale"):
                fail(k, f"must be default, colourblind or greyscale (got {v!r})")
            kw[k] = {"colorblind": "colourblind", "grayscale": "greyscale"}.get(v, v)
        elif k == "title":
            kw[k] = str(v)
        elif k == "ruleset":
            ruleset = str(v)
    return replace(base, **kw), ruleset


def load_book(path: str | Path) -> tuple[str, list[BookFigure]]:
    """Read a book file: ``(title, figures)``. Raises :class:`BookError`."""
    p = Path(path)
    data, loc = parse_yaml(read_text(p, BookError), str(p), BookError)
    lines = loc.lines
    fail = loc.fail

    if not isinstance(data, dict):
        fail((), "a book is a mapping with 'figures'")
    for k in data:
        if k not in ("title", "defaults", "figures"):
            fail((k,), "unknown key (allowed: title, defaults, figures)")
    base, _ = options_from(data.get("defaults") or {}, FigureOptions(), lambda k, m: fail(("defaults", k), m))
    figs = data.get("figures")
    if not isinstance(figs, list) or not figs:
        fail(("figures",), "must be a non-empty list")
    out = []
    seen: dict[str, int] = {}
    for i, f in enumerate(figs):
        fp = ("figures", i)
        if not isinstance(f, dict):
            fail(fp, "each figure is a mapping with scenario and output")
        for k in f:
            if k not in ("scenario", "output", "options"):
                fail(fp + (k,), "unknown key (allowed: scenario, output, options)")
        for k in ("scenario", "output"):
            if not isinstance(f.get(k), str) or not f.get(k):
                fail(fp + (k,), "missing, or not a path")
        if not f["output"].lower().endswith((".png", ".svg")):
            fail(fp + ("output",), f"must end in .png or .svg (got {f['output']!r})")
        out_path = Path(f["output"])
        if out_path.is_absolute() or ".." in out_path.parts:
            fail(fp + ("output",), f"must be a path inside the output folder, without '..' (got {f['output']!r})")
        if f["output"] in seen:
            fail(fp + ("output",), f"also written by figures[{seen[f['output']]}]")
        seen[f["output"]] = i
        opts, rs = options_from(f.get("options") or {}, base, lambda k, m, fp=fp: fail(fp + ("options", k), m))
        out.append(BookFigure(p.parent / f["scenario"], f["output"], opts, rs, field_name(fp), lines.get(fp)))
    return str(data.get("title") or ""), out


def render_book(path: str | Path, out_dir: str | Path, *, progress: bool = True,
                only: Optional[Callable[[BookFigure], bool]] = None) -> list[tuple[str, float, list[str]]]:
    """Render every figure of the book into ``out_dir``; returns ``[(output, seconds,
    errors)]``. Raises :class:`BookError` (the book, or a figure's scenario/ruleset, with the
    figure's line)."""
    from game.core.ruleset import RulesetError, load_ruleset
    from game.core.scenario import ScenarioError, load_scenario
    from game.services import default_services

    from .figure import write_figure

    _, figures = load_book(path)
    if only:
        figures = [f for f in figures if only(f)]
    services = default_services()
    bar = None
    if progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=len(figures), unit="fig", desc="render-book", leave=True)
        except ImportError:  # progress is a nicety
            bar = None
    results = []
    for f in figures:
        t0 = time.perf_counter()
        try:
            board = load_scenario(f.scenario)
            if f.ruleset:
                board.ruleset = f.ruleset
            load_ruleset(board.ruleset)  # an unknown ruleset: the figure's line
            errors = write_figure(board, None, Path(out_dir) / f.output, f.options, services=services)
        except (ScenarioError, RulesetError, FigureError) as exc:
            raise BookError(str(path), f.line, f.field, str(exc)) from None
        results.append((f.output, time.perf_counter() - t0, errors))
        if bar is not None:
            bar.set_postfix_str(f.output, refresh=False)
            bar.update(1)
    if bar is not None:
        bar.close()
    return results
