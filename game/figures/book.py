"""``render-book``: every figure of a rules chapter from one YAML file.

Book format (paths relative to the book file; see ``docs/DEMOS.md``)::

    title: "The whole bundled book"
    defaults: {size: 180x120mm, dpi: 200, crop: true}     # FigureOptions for every figure
    figures:
      - {scenario: scenarios/whfb8_rear_gap.yaml, output: whfb8/rear_gap.png}
      - {scenario: ..., output: ....svg, options: {palette: colourblind, compare: whfb8,t9a}}

Option keys (as on the ``render`` command line): ``size``, ``dpi``, ``legend``, ``caption``,
``labels``, ``ids``, ``letters``, ``counts`` (true, false or all), ``sections``, ``title``, ``crop``, ``crop_margin_mm``, ``palette`` (``default``, ``colourblind``, ``greyscale``), ``compare`` (``a,b``),
``compare_mode`` (``side``/``overlay``), ``font_scale``, ``ruleset``. Errors raise
:class:`BookError` naming the file, line and field.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Optional

from tqdm import tqdm

from game.core.analyse import analyse
from game.core.atomic import refuse_link, write_atomic
from game.core.demo import DemoError, build_steps, load_demo
from game.core.point_marks import model_units, parse_point_marks
from game.core.ruleset import RulesetError, load_ruleset, ruleset_name
from game.core.scenario import ScenarioError, load_scenario
from game.core.validate import MAX_TITLE, ruleset_id_problem, short, text_problem
from game.core.yamlfile import FileError, field_name, parse_yaml, read_text

from game.render.figure import FigureError, FigureOptions, parse_size
from game.render.figure_fit import build_fitted
from game.render.figure_panels import Panel, PanelFigure
from game.render.marks import Marks

from game.figures.figure_file import format_for, write_figure

#: a unit's letter in its name, as the rules' diagrams letter units: "Monster (A)"
LETTER_TAG = re.compile(r"\([A-Z]\)")
#: Most figures one book may list.
MAX_FIGURES = 2_000
OPTION_KEYS = {"size", "dpi", "legend", "caption", "labels", "ids", "letters", "counts", "sections", "title", "crop", "crop_margin_mm",
               "palette", "compare", "compare_mode", "font_scale", "ruleset", "style", "table", "columns", "cmyk", "reach"}


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
    panels: Optional[list] = None
    marks: Optional[Callable[[Any], tuple]] = None


@dataclass
class BookPanel:
    """One panel of a multi-panel figure: a ``scenario`` (or a ``demo`` file's ``step``,
    1-based), an optional ``ruleset`` override, a short ``caption``, a ``verdict``
    (``legal``/``illegal``/None), and where it is in the book (``field``, ``line``)."""

    scenario: Optional[Path]
    demo: Optional[Path]
    step: Optional[int]
    ruleset: Optional[str]
    caption: str
    verdict: Optional[str]
    field: str
    line: Optional[int]
    marks: Optional[Callable[[Any], tuple]] = None


PANEL_KEYS = ("scenario", "demo", "step", "ruleset", "caption", "verdict", "marks")


def marks_checker(v: Any, path: tuple, fail: Callable) -> Callable[[Any], tuple]:
    """The ``marks`` of a figure or panel (:mod:`game.core.point_marks`), checked against the
    board it is drawn on: ``check(board) -> (PointMark, ...)``; a bad mark is a :class:`BookError`
    naming the book's line and field (``figures[3].marks[0].models[1]: no model ...``)."""
    if not isinstance(v, list):
        fail(path, "must be a list of marks, e.g. [{mark: cross, models: [dwarfs.r2f1]}]")

    def check(board: Any) -> tuple:
        return parse_point_marks(v, path, fail, model_units(board))
    return check
MAX_PANELS = 12


def panels_from(v: Any, fp: tuple, base: Path, lines: dict, fail: Callable) -> list[BookPanel]:
    """The ``panels`` list of a figure (see the module doc); ``fail(path, message)`` reports."""
    if not isinstance(v, list) or not v:
        fail(fp, "must be a non-empty list of panels, each {scenario: PATH} or {demo: PATH, step: N}")
    if len(v) > MAX_PANELS:
        fail(fp, f"lists {len(v)} panels; at most {MAX_PANELS}")
    out = []
    for j, pv in enumerate(v):
        pp = fp + (j,)
        if not isinstance(pv, dict):
            fail(pp, "each panel is a mapping: {scenario: PATH} or {demo: PATH, step: N}, with caption, verdict")
        for k in pv:
            if k not in PANEL_KEYS:
                fail(pp + (k,) if isinstance(k, str) else pp, f"unknown key {short(k)} (allowed: {', '.join(PANEL_KEYS)})")
        if ("scenario" in pv) == ("demo" in pv):
            fail(pp, "give either scenario or demo (with step)")
        for k in ("scenario", "demo"):
            if k in pv and (not isinstance(pv[k], str) or not pv[k] or text_problem(pv[k], max_len=4096)):
                fail(pp + (k,), "must be a path")
        step = pv.get("step")
        if "demo" in pv and (isinstance(step, bool) or not isinstance(step, int) or step < 1):
            fail(pp + ("step",), f"must be the step's number, from 1 (got {short(step)})")
        if "scenario" in pv and "step" in pv:
            fail(pp + ("step",), "only a demo panel has a step")
        cap = pv.get("caption", "")
        if not isinstance(cap, str) or text_problem(cap, max_len=MAX_TITLE):
            fail(pp + ("caption",), text_problem(cap, max_len=MAX_TITLE) if isinstance(cap, str) else "must be text")
        verdict = pv.get("verdict")
        if verdict not in (None, "legal", "illegal"):
            fail(pp + ("verdict",), f"must be legal or illegal (got {short(verdict)})")
        rs = pv.get("ruleset")
        if rs is not None and ruleset_id_problem(rs):
            fail(pp + ("ruleset",), ruleset_id_problem(rs))
        marks = marks_checker(pv["marks"], pp + ("marks",), fail) if "marks" in pv else None
        out.append(BookPanel(base / pv["scenario"] if "scenario" in pv else None,
                             base / pv["demo"] if "demo" in pv else None, step, rs, cap, verdict,
                             field_name(pp), lines.get(pp), marks))
    return out


def options_from(d: dict, base: FigureOptions, fail: Callable[[str, str], None]) -> tuple[FigureOptions, Optional[str]]:
    """Merge option mapping ``d`` over ``base``; ``fail(key, message)`` reports a bad key."""
    kw: dict[str, Any] = {}
    ruleset = None
    for k, v in d.items():
        if not isinstance(k, str) or k not in OPTION_KEYS:
            fail(k if isinstance(k, str) else short(k), f"unknown option (allowed: {', '.join(sorted(OPTION_KEYS))})")
        if k == "legend" and v in ("right", "below", "key"):
            kw["legend"], kw["legend_at"] = True, v
        elif k == "counts" and v == "all":
            kw["counts"], kw["count_all"] = True, True
        elif k == "style":
            if v not in ("print", "screen"):
                fail(k, f"must be print or screen (got {short(v)})")
            kw[k] = v
        elif k == "columns":
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 12:
                fail(k, f"must be a whole number from 1 to 12 (got {short(v)})")
            kw[k] = v
        elif k in ("legend", "caption", "labels", "crop", "ids", "letters", "counts", "table", "cmyk", "sections", "reach"):
            if not isinstance(v, bool):
                fail(k, f"must be true or false (got {short(v)})")
            kw[k] = v
        elif k == "size":
            if not isinstance(v, str) or len(v) > 40:
                fail(k, f"must be a size like 1200x800 or 180x120mm (got {short(v)})")
            try:
                parse_size(v)
            except FigureError as exc:
                fail(k, str(exc))
            kw[k] = v
        elif k in ("dpi",):
            if isinstance(v, bool) or not isinstance(v, int) or not 30 <= v <= 2400:
                fail(k, f"must be a whole number from 30 to 2400 (got {short(v)})")
            kw[k] = v
        elif k in ("crop_margin_mm", "font_scale"):
            hi = 10_000.0 if k == "crop_margin_mm" else 10.0
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= hi:
                fail(k, f"must be a number from 0 to {hi:g} (got {short(v)})")
            kw[k] = float(v)
        elif k == "compare":
            ids = [x.strip() for x in v.split(",") if x.strip()] if isinstance(v, str) else []
            if len(ids) != 2:
                fail(k, f"must name two rulesets like whfb8,t9a (got {short(v)})")
            for rid in ids:
                why = ruleset_id_problem(rid)
                if why:
                    fail(k, why)
            kw[k] = (ids[0], ids[1])
        elif k == "compare_mode":
            if v not in ("side", "overlay"):
                fail(k, f"must be side or overlay (got {short(v)})")
            kw[k] = v
        elif k == "palette":
            if v not in ("default", "colourblind", "colorblind", "greyscale", "grayscale"):
                fail(k, f"must be default, colourblind or greyscale (got {short(v)})")
            kw[k] = {"colorblind": "colourblind", "grayscale": "greyscale"}.get(v, v)
        elif k == "title":
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                v = str(v)
            why = text_problem(v, max_len=MAX_TITLE) if isinstance(v, str) else f"must be text (got {short(v)})"
            if why:
                fail(k, why)
            kw[k] = v
        elif k == "ruleset":
            why = ruleset_id_problem(v)
            if why:
                fail(k, why)
            ruleset = v
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
            fail((k,) if isinstance(k, str) else (), f"unknown key {short(k)} (allowed: title, defaults, figures)")
    title = data.get("title") or ""
    if isinstance(title, (int, float)) and not isinstance(title, bool):
        title = str(title)
    why = text_problem(title, max_len=MAX_TITLE) if isinstance(title, str) else f"must be text (got {short(title)})"
    if why:
        fail(("title",), why)
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        fail(("defaults",), f"must be a mapping of figure options, e.g. {{size: 180x120mm}} (got {short(defaults)})")
    base, _ = options_from(defaults, FigureOptions(), lambda k, m: fail(("defaults", k), m))
    figs = data.get("figures")
    if not isinstance(figs, list) or not figs:
        fail(("figures",), "must be a non-empty list")
    if len(figs) > MAX_FIGURES:
        fail(("figures",), f"lists {len(figs)} figures; at most {MAX_FIGURES}")
    out = []
    seen: dict[str, int] = {}
    for i, f in enumerate(figs):
        fp = ("figures", i)
        if not isinstance(f, dict):
            fail(fp, "each figure is a mapping with scenario and output")
        for k in f:
            if k not in ("scenario", "output", "options", "panels", "marks"):
                fail(fp + (k,) if isinstance(k, str) else fp,
                     f"unknown key {short(k)} (allowed: scenario or panels, output, options, marks)")
        if "panels" in f and "marks" in f:
            fail(fp + ("marks",), "a figure with panels gives its marks per panel")
        if "panels" in f and "scenario" in f:
            fail(fp + ("panels",), "give either scenario or panels")
        panels = panels_from(f["panels"], fp + ("panels",), p.parent, lines, fail) if "panels" in f else None
        for k in (("output",) if panels else ("scenario", "output")):
            if not isinstance(f.get(k), str) or not f.get(k):
                fail(fp + (k,), "missing, or not a path")
            why = text_problem(f[k], max_len=4096)
            if why:
                fail(fp + (k,), why)
        if not f["output"].lower().endswith((".png", ".svg", ".pdf")):
            fail(fp + ("output",), f"must end in .png, .svg or .pdf (got {f['output']!r})")
        out_path = Path(f["output"])
        if out_path.is_absolute() or ".." in out_path.parts:
            fail(fp + ("output",), f"must be a path inside the output folder, without '..' (got {f['output']!r})")
        if f["output"] in seen:
            fail(fp + ("output",), f"also written by figures[{seen[f['output']]}]")
        seen[f["output"]] = i
        fo = f.get("options") or {}
        if not isinstance(fo, dict):
            fail(fp + ("options",), f"must be a mapping of figure options, e.g. {{palette: colourblind}} (got {short(fo)})")
        def fail_option(k: str, m: str, fp: tuple = fp) -> None:
            fail(fp + ("options", k), m)

        opts, rs = options_from(fo, base, fail_option)
        scen = p.parent / f["scenario"] if not panels else p.parent
        marks = marks_checker(f["marks"], fp + ("marks",), fail) if "marks" in f else None
        out.append(BookFigure(scen, f["output"], opts, rs, field_name(fp), lines.get(fp), panels, marks))
    assert isinstance(title, str)  # checked above
    return title, out


def output_path(out_dir: str | Path, output: str) -> Path:
    """Where a figure's ``output`` is written under ``out_dir``; raises ``ValueError`` when the
    path, with every symlink in it followed, would land outside ``out_dir``, or when it is a
    link onto an existing file (:func:`game.core.atomic.refuse_link`)."""
    root = Path(out_dir).resolve()
    target = (root / output).resolve()
    if target != root and root not in target.parents:
        raise ValueError(f"{output} leads outside the output folder {out_dir} (through a link?)")
    refuse_link(root / output, f"{output} in {out_dir}")
    if target.exists() and not target.is_file():
        raise ValueError(f"{output} in {out_dir} is not a regular file")
    return target


def render_book(path: str | Path, out_dir: str | Path, *, progress: bool = True,
                only: Optional[Callable[[BookFigure], bool]] = None) -> list[tuple[str, float, list[str]]]:
    """Render every figure of the book into ``out_dir``; returns ``[(output, seconds,
    errors)]``. Raises :class:`BookError` (the book, or a figure's scenario/ruleset, with the
    figure's line; field ``--only`` when ``only`` keeps no figure, before anything is written)."""
    _, figures = load_book(path)
    if only:
        kept = [f for f in figures if only(f)]
        if not kept:  # a filter matching nothing is a mistake: nothing is written, no folder made
            raise BookError(str(path), None, "--only", f"no figure matches ({len(figures)} figures, e.g. "
                            + ", ".join(f.output for f in figures[:3]) + ")")
        figures = kept
    bar = None
    if progress:
        try:
            bar = tqdm(total=len(figures), unit="fig", desc="render-book", leave=True)
        except ImportError:  # progress is a nicety
            bar = None
    results: list[tuple[str, float, list[str]]] = []
    try:
        _render_figures(path, out_dir, figures, bar, results)
    finally:
        if bar is not None:
            bar.close()  # before any error is printed: the error gets a line of its own
    return results


def _render_figures(path, out_dir, figures, bar, results) -> None:
    """The loop of :func:`render_book` (appends to ``results``; raises :class:`BookError`)."""

    for f in figures:
        t0 = time.perf_counter()
        if f.panels:
            try:
                target = output_path(out_dir, f.output)
                errors = write_panel_figure(f, target, str(path))
            except BookError:
                raise
            except (ScenarioError, RulesetError, FigureError, ValueError) as exc:
                raise BookError(str(path), f.line, f.field, str(exc)) from None
            results.append((f.output, time.perf_counter() - t0, errors))
            if bar is not None:
                bar.update(1)
            continue
        try:
            board = load_scenario(f.scenario)
            if f.ruleset:
                board = replace(board, ruleset=f.ruleset)
            load_ruleset(board.ruleset)  # an unknown ruleset: the figure's line
            target = output_path(out_dir, f.output)
            errors = write_figure(board, None, target, figure_options_of(f, board))
        except BookError:
            raise  # a bad mark: its own line and field
        except (ScenarioError, RulesetError, FigureError, ValueError) as exc:
            raise BookError(str(path), f.line, f.field, str(exc)) from None
        results.append((f.output, time.perf_counter() - t0, errors))
        if bar is not None:
            bar.set_postfix_str(f.output, refresh=False)
            bar.update(1)


def figure_options_of(f: BookFigure, board: Any) -> FigureOptions:
    """The options a one-scenario book figure is drawn with: its own, its ``marks`` added
    (checked against ``board``: a bad one raises :class:`BookError`)."""
    if f.marks is None:
        return f.options
    return replace(f.options, marks=replace(f.options.marks, points=f.marks(board)))


def panel_figure_of(f: BookFigure, book: str = "") -> Any:
    """The :class:`game.render.figure_panels.PanelFigure` of a book figure with ``panels``.
    Raises :class:`BookError` naming the panel (a scenario, demo or ruleset that does not load)."""

    panels = []
    title = f.options.title or ""
    for bp in f.panels or []:
        try:
            if bp.demo is not None:
                steps = build_steps(load_demo(bp.demo))
                if bp.step > len(steps):
                    raise ValueError(f"the demo has {len(steps)} steps (asked for step {bp.step})")
                st = steps[bp.step - 1]
                board, analysis = st.board, st.analysis
                if bp.ruleset:
                    board = replace(board, ruleset=bp.ruleset)
                    analysis = analyse(board, load_ruleset(bp.ruleset))
                marks = Marks(dim=list(st.marks.dim), highlight=list(st.marks.highlight), notes=list(st.marks.notes),
                              fallen=list(st.marks.fallen), numbered=True)
                caption = bp.caption or st.caption
            else:
                board = load_scenario(bp.scenario)
                if bp.ruleset:
                    board = replace(board, ruleset=bp.ruleset)
                analysis = analyse(board, load_ruleset(board.ruleset))
                marks = Marks()
                caption = bp.caption or board.title
        except (ScenarioError, RulesetError, DemoError, ValueError) as exc:
            raise BookError(book, bp.line, bp.field, str(exc)) from None
        if bp.marks is not None:
            marks = replace(marks, points=bp.marks(board))
        panels.append(Panel(board, analysis, caption=caption, verdict=bp.verdict, marks=marks))
    rulesets = {p.board.ruleset for p in panels}
    # units or objectives carrying the rules' letters ("Monster (A)", objective C): the panels are
    # titled, not lettered (one meaning per letter)
    lettered_units = any(LETTER_TAG.search(u.name or "") for p in panels for u in p.board.units) or any(
        (p.board.context or {}).get("objective_names") for p in panels)
    sentences = []
    if len(rulesets) == 1:
        sentences.append(f"Rules: {ruleset_name(next(iter(rulesets)))}")
    return PanelFigure(panels, title=title, sentences=sentences, columns=f.options.columns, letters=not lettered_units)


def write_panel_figure(f: BookFigure, target: Path, book: str = "") -> list[str]:
    """Render a book figure with ``panels`` to ``target`` (format by suffix, atomic)."""

    fo = replace(f.options, format=format_for(target))
    fig = build_fitted(panel_figure_of(f, book), fo)
    write_atomic(target, fig.data)
    return fig.errors
