"""The legend panel: rows as data, laid out and drawn, and measured without drawing.

:func:`legend_items` turns (board, analysis, drawn models, options) into a list of
:class:`LegendItem` (headings, swatch rows, paragraphs). It is honest: a row appears only
for what the picture shows, and every count is of the models in the picture
(``SceneOptions.visible``: the ids inside a cropped figure). Rows for roles come from
:func:`role_rows`, worded by the analysing strategy (``analysis.legend.role_labels``, built
from the ruleset's values and rule names; no rule system is named here). :func:`layout_legend` places the items in a panel
(font px, positions) with any canvas's text metrics, so a figure is sized from
:func:`legend_height` instead of a dry-run render, and :func:`draw_panel` draws
exactly that layout, shrinking the text (to 70 %) rather than cutting a line.
"""
from __future__ import annotations

from operator import attrgetter, itemgetter, methodcaller
from typing import AbstractSet, KeysView, Mapping, Optional, Sequence

from game.core.analysis import Analysis, ModelResult
from game.core.board import Board, empty_slots, unit_of
from game.core.lru import LRU
from game.core.parts import RoleWords, StepShown
from game.core.results import ModelResults, UnitResults
from game.core.strategy import Legend

from game.render.canvas import Canvas, wrap
from game.render.attack_badges import badged
from game.render.hatching import cross_hatch, hatch_segments
from game.render.labels import unit_caption
from game.render.drawers import LegendContext, LegendItem, legend_parts
from game.core.names import humanize, plural, with_count
from game.render.part_marks import cross, numbers_fighters, padlock, reach_circle, removed_ids
from game.render.palette import lw, player_colour, with_alpha
from game.render.drawn import DrawnList, DrawnModel
from game.render.options import SceneOptions
from game.render.painter import Paint
from game.render.point_marks import point_swatch
from game.render.unit_marks import DIFFER_COLOUR, role_fill

ROLE_LABEL = {"attack": "Fights: in base contact or across a gap", "support": "Supporting attack",
              "none": "Does not fight"}
_ID, _UNIT_ID = attrgetter("id"), attrgetter("unit.id")
FADED_ALPHA = 200  # (game.render.marks.DIM_ALPHA: the step views' faded models)


def at_step(label: str, step: str) -> str:
    """Role row ``label`` at strike step ``step`` ("Agility 3"), said once inside its words:
    "Fights: in base contact" -> "Fights at Agility 3: in base contact"; "Supporting attack"
    -> "Supporting attack at Agility 3"; a bracket stays whole ("Fights (allocated: X) at ...")."""
    head, sep, rest = label.partition(": ")
    if sep and "(" not in head:
        return f"{head} at {step}: {rest}"
    return f"{label} at {step}"


def role_rows(legend: Optional[Legend], counts: dict, words: Optional[dict] = None, step: str = "") -> list[LegendItem]:
    """Role rows (``attack``, ``support``, ``none``) worded by the strategy's ``legend`` (a
    :class:`game.core.strategy.Legend`, or None: the generic words) or by the analysis's own
    ``words`` (a :class:`~game.core.parts.RoleWords` part), each with its count of models in
    the picture; a role nobody has is left out. ``step``: the label of the strike step shown
    (the counts are of its strikers, and the fighting rows say so); ``counts["later"]``: the
    fighters striking at another step (drawn faded), a row of their own."""
    labels = {**(legend.role_labels if legend is not None else {}), **(words or {})}
    out = []
    for role in ("attack", "support", "none"):
        if not counts.get(role):
            continue
        label = labels.get(role, ROLE_LABEL[role])
        if step and role != "none":
            label = at_step(label, step)
        out.append(LegendItem("row", with_count(label, plural(counts[role], 'model')), swatch=f"role:{role}"))
    if step and counts.get("later"):
        out.append(LegendItem("row", f"Fights at another step, faded here ({plural(counts['later'], 'model')})",
                              swatch="faded"))
    return out


def attacks_of(analysis: Optional[Analysis], mid: str) -> int:
    r = analysis.models.get(mid) if analysis is not None else None
    return r.attacks if r is not None else 1


def divides(analysis: Optional[Analysis], mid: str) -> int:
    """Number of enemy units a fighting model's targets belong to (2+: it may divide its attacks)."""
    r = analysis.models.get(mid) if analysis is not None else None
    if r is None or r.role != "attack":
        return 0
    return len({unit_of(t) for t in (r.targets or [])})


Tally = tuple[dict, int, set, int]
_TALLIES = LRU(1024)  # unit id -> (its latest list of drawn models, that list's Tally): one per unit, so
# a list the window replaced is let go at once (a cache of old lists kept their models alive)


def _tally(shown: Sequence[DrawnModel], results: Mapping[str, ModelResult], gone: AbstractSet[str]) -> Tally:
    """One pass over drawn models: (role counts, how many make a number of attacks other than 1
    and those numbers as text (×N), how many fighters touch two or more enemy units
    (:func:`divides`)); models in ``gone`` are not counted by role."""
    counts = {"attack": 0, "support": 0, "none": 0}
    many_n, many_set, n_div = 0, set[str](), 0
    for dm in shown:
        role = dm.role
        if not gone or dm.id not in gone:
            counts[role if role in counts else "none"] += 1
        r = results.get(dm.id)
        if role != "none":
            n_att = r.attacks if r is not None else 1
            if n_att != 1:
                many_n += 1
                many_set.add(str(n_att))
        if r is not None and r.role == "attack" and r.targets and len(r.targets) > 1 \
                and len({unit_of(t) for t in r.targets}) > 1:
            n_div += 1
    return counts, many_n, many_set, n_div


def _unit_tally(uid: str, lst: Sequence[DrawnModel], results: Mapping[str, ModelResult]) -> Tally:
    """:func:`_tally` of unit ``uid``'s drawn models ``lst``, kept while the window shows that
    very list (it builds a new one whenever the unit or its models' results change)."""
    hit = _TALLIES.get(uid)
    if hit is None or hit[0] is not lst:
        ur = results.unit(uid) if isinstance(results, ModelResults) else None
        t = _tally_unit(lst, uid, ur) if ur is not None else None
        hit = _TALLIES.put(uid, (lst, t if t is not None else _tally(lst, results, set())))
    return hit[1]


def _tally_unit(lst: Sequence[DrawnModel], uid: str, ur: UnitResults) -> Optional[Tally]:
    """:func:`_tally` of unit ``uid``'s drawn models ``lst`` read straight from that unit's
    :class:`~game.core.results.UnitResults` ``ur`` (the one a board's results give each of
    ``uid``'s model ids ``<uid>.<slot>``): a model whose result was never made is the untouched
    ``none`` one (no attacks, no targets), so it is not made here. None (count the usual way)
    when a drawn model is not one of ``ur``'s."""
    pos, made = ur._pos, ur.made
    prefix = uid + "."
    counts = {"attack": 0, "support": 0, "none": 0}
    many_n, many_set, n_div = 0, set[str](), 0
    for dm in lst:
        mid = dm.id
        i = pos.get(mid)
        if i is None or not (mid.startswith(prefix) or mid == uid):
            return None
        role = dm.role
        counts[role if role in counts else "none"] += 1
        r = made.get(i)
        n_att, r_role, targets = (r.attacks, r.role, r.targets) if r is not None else (0, "none", ())
        if role != "none" and n_att != 1:
            many_n += 1
            many_set.add(str(n_att))
        if r_role == "attack" and targets and len(targets) > 1 and len({unit_of(t) for t in targets}) > 1:
            n_div += 1
    return counts, many_n, many_set, n_div


class ShownIds:
    """The ids of the window's drawn models (``by_unit``: unit id -> that unit's list of drawn
    models, one list object per unit that stays the same while the unit and its results do),
    kept from frame to frame by difference: a unit whose list is a new object has its old ids
    taken out and its new ones put in (a count per id, so an id two units share stays while
    one of them holds it). The ids come as a live keys view: read it before the next update."""

    def __init__(self) -> None:
        self.lists: dict[str, Sequence[DrawnModel]] = {}   # unit id -> the list of drawn models its ids are from
        self.count: dict[str, int] = {}   # model id -> how many of those lists hold it

    def _drop(self, lst: Sequence[DrawnModel]) -> None:
        count = self.count
        for dm in lst:
            n = count[dm.id] - 1
            if n:
                count[dm.id] = n
            else:
                del count[dm.id]

    def _add(self, lst: Sequence[DrawnModel]) -> None:
        count = self.count
        for dm in lst:
            count[dm.id] = count.get(dm.id, 0) + 1

    def update(self, by_unit: Mapping[str, Sequence[DrawnModel]]) -> KeysView[str]:
        """The set of ids of every drawn model of ``by_unit`` (a keys view)."""
        lists = self.lists
        if len(lists) != len(by_unit) or any(uid not in by_unit for uid in lists):
            for uid in [uid for uid in lists if uid not in by_unit]:
                self._drop(lists.pop(uid))
        for uid, lst in by_unit.items():
            old = lists.get(uid)
            if old is lst:
                continue
            if old is not None:
                self._drop(old)
            self._add(lst)
            lists[uid] = lst
        return self.count.keys()


_SHOWN = ShownIds()  # the window's drawn models (one window a process)


def legend_items(board: Board, analysis: Optional[Analysis], models: Sequence[DrawnModel],
                 options: SceneOptions) -> list[LegendItem]:
    """The legend of a picture (see the module doc). ``models`` are the drawn models (the
    window's a list with ``by_unit``: unit id -> that unit's drawn models)."""
    vis = options.visible
    by_unit = models.by_unit if isinstance(models, DrawnList) and vis is None else None
    shown = list(models) if vis is None else [dm for dm in models if dm.id in vis]
    shown_ids: AbstractSet[str]
    if by_unit is not None:
        # the window's drawn models, one list per unit: the ids kept by difference (a drag
        # changes one or two units' lists a frame), not collected again from every model
        shown_ids = _SHOWN.update(by_unit)
        units_shown = {uid for uid, lst in by_unit.items() if lst}
    else:
        shown_ids = set(map(_ID, shown))
        units_shown = set(map(_UNIT_ID, shown))
    index = {u.id: i for i, u in enumerate(board.units)}
    names = {u.id: unit_caption(u, index[u.id], ids=options.ids, letters=options.letters) for u in board.units}
    a = analysis
    gone = removed_ids(a)  # crossed out: listed by their own row, never as "Does not fight"
    counts, many_set, n_div = _counts(a, shown, by_unit, gone)
    items = [LegendItem("heading", "Legend")] + _role_section(a, counts, shown, gone, names)
    moves = {m: p for m, p in (a.moves if a is not None else {}).items() if m in shown_ids and len(p) >= 2}
    cropped = frozenset() if vis is None else frozenset(dm.id for dm in models if dm.id not in vis)
    ctx = LegendContext(shown, shown_ids, units_shown, {u.id: names[u.id] for u in board.units}, moves, options, a,
                        cropped, board)
    if options.counts and many_set and not numbers_fighters(a, shown_ids):
        every = options.count_all
        n_badged = len(badged(shown, a, every))
        if n_badged:
            words = "where not 1" if every else "where its unit's others make another number"
            items.append(LegendItem("row", f"×N: makes N attacks, {words} ({plural(n_badged, 'model')})", swatch="count"))
    items += legend_parts(a, "marks", ctx)
    if n_div:
        items.append(LegendItem("row", f"Touches two enemy units: may divide its attacks ({plural(n_div, 'model')})",
                                swatch="divide"))
    items += legend_parts(a, "gaps", ctx)
    items += _picture_rows(board, a, options, ctx)
    items += legend_parts(a, "rows", ctx)
    items += _player_rows(board, units_shown, names)
    items += legend_parts(a, "order", ctx)  # the strike order section
    items += legend_parts(a, "sections", ctx)
    return compact(items + _note_rows(a, options, ctx))


def _counts(a: Optional[Analysis], shown: Sequence[DrawnModel], by_unit: Optional[Mapping[str, Sequence[DrawnModel]]],
            gone: AbstractSet[str]) -> tuple[dict[str, int], set[str], int]:
    """The picture's role counts, the attack numbers other than 1 it shows (as text) and how
    many fighters touch two enemy units (:func:`_tally`; the window's lists a unit at a time)."""
    results: Mapping[str, ModelResult] = a.models if a is not None else {}
    if by_unit is not None and not gone:
        # the window's drawn models: one list per unit, the same object while the unit and its
        # results stay the same, so each unit's tally is kept from frame to frame
        tallies = [_unit_tally(uid, lst, results) for uid, lst in by_unit.items()]
    else:
        tallies = [_tally(shown, results, gone)]
    counts = {"attack": 0, "support": 0, "none": 0}
    many_set: set[str] = set()
    n_div = 0
    for t_counts, _, t_many, t_div in tallies:
        for k, n in t_counts.items():
            counts[k] += n
        many_set |= t_many
        n_div += t_div
    return counts, many_set, n_div


def _role_section(a: Optional[Analysis], counts: dict[str, int], shown: Sequence[DrawnModel], gone: AbstractSet[str],
                  names: dict[str, str]) -> list[LegendItem]:
    """The role rows: worded by the analysis' :class:`RoleWords`; at a strike step
    (:class:`StepShown`) its strikers counted apart from the fighters of other steps."""
    words = a.part(RoleWords) if a is not None else None
    step = a.part(StepShown) if a is not None else None
    if step is not None:  # a strike step: its strikers only; the other fighters strike at another step
        now = set(step.models)
        counts = {"attack": 0, "support": 0, "none": 0, "later": 0}
        for dm in shown:
            role = dm.role if dm.role in counts else "none"
            if gone and dm.id in gone:
                continue
            counts[role if role == "none" or dm.id in now else "later"] += 1
    return role_rows(a.legend if a is not None else None, counts, words.role_labels() if words else None,
                     step=humanize(step.label, names) if step is not None else "")


def _picture_rows(board: Board, a: Optional[Analysis], options: SceneOptions, ctx: LegendContext) -> list[LegendItem]:
    """Rows of what this picture draws beside the parts: empty places (print), moves, the
    figure's pointing marks, fronts, compare marks and overlapping bases."""
    items: list[LegendItem] = []
    if (options.palette or {}).get("print"):
        n_empty = sum(len(empty_slots(u)) for u in board.units if u.id in ctx.units_shown)
        if n_empty:
            items.append(LegendItem("row", f"Empty place in a unit: a gap ({plural(n_empty, 'place')})", swatch="empty"))
    items += legend_parts(a, "moves", ctx)  # one convention in every view: the model ends where it is drawn
    keyed: set = set()
    for pm in options.point_marks:  # the figure's pointing marks, in its own words (a mark without says: no row)
        if pm.says and (pm.swatch, pm.says) not in keyed and any(m in ctx.shown_ids for m in pm.models):
            keyed.add((pm.swatch, pm.says))
            items.append(LegendItem("row", pm.says, swatch=pm.swatch))
    if any(dm.unit.is_ranked for dm in ctx.shown):
        items.append(LegendItem("row", "Front of a unit", swatch="front"))
    if options.differ:
        n = len([m for m in options.differ if m in ctx.shown_ids])
        items.append(LegendItem("row", f"{options.differ_label or 'Differs under the other ruleset'} ({plural(n, 'model')})",
                                swatch="differ"))
    n_over = len([m for m in set(options.overlaps or ()) if m in ctx.shown_ids])
    if n_over:
        items.append(LegendItem("row", f"Base overlaps another base ({plural(n_over, 'model')}): "
                                       "move them apart", swatch="overlap"))
    return items


def _player_rows(board: Board, units_shown: AbstractSet[str], names: dict[str, str]) -> list[LegendItem]:
    """One row per player: the units of the picture, by name."""
    players: dict[int, list[str]] = {}
    for u in board.units:
        if u.id in units_shown:
            players.setdefault(u.player, []).append(names[u.id])
    return [LegendItem("row", f"Player {pl}: {', '.join(players[pl])}", swatch=f"player:{pl}") for pl in sorted(players)]


def _note_rows(a: Optional[Analysis], options: SceneOptions, ctx: LegendContext) -> list[LegendItem]:
    """The analysis' notes (greyed) and the figure's numbered callouts."""
    items: list[LegendItem] = []
    notes = a.notes if a is not None else []
    if notes:
        items.append(LegendItem("space", units=6))
        items += [LegendItem("para", humanize(str(n), ctx.names), dim=True) for n in notes]
    for i, text in enumerate(options.callouts or (), start=1):
        if i == 1:
            items += [LegendItem("space", units=8), LegendItem("heading", "Notes")]
        items.append(LegendItem("para", f"{i}. {humanize(text, ctx.names)}"))
    return items


def compact(items: Sequence[LegendItem]) -> list[LegendItem]:
    """Merge explanation lines (greyed paragraphs) that say the same of several units:
    ``gobs_a: I6 (+4 ...)`` and ``gobs_b: I6 (+4 ...)`` become ``gobs_a, gobs_b: I6 (+4 ...)``.
    Nothing else changes (numbered lines keep their numbers)."""
    out: list[LegendItem] = []
    for it in items:
        prev = out[-1] if out else None
        if prev is not None and it.kind == prev.kind == "para" and it.dim and prev.dim:
            head_a, sep, tail_a = prev.text.partition(": ")
            head_b, _, tail_b = it.text.partition(": ")
            if sep and tail_a and tail_a == tail_b:
                out[-1] = LegendItem("para", f"{head_a}, {head_b}: {tail_a}", dim=True)
                continue
        out.append(it)
    return out


def layout_legend(canvas: Canvas, items: Sequence[LegendItem], box: tuple, fs: float,
                  text_scale: float = 1.0, ss: int = 1) -> tuple[list[tuple], float]:
    """Place ``items`` in the panel ``box`` (x, y, w, h px) at length scale ``fs`` (px per
    unit) with text ``text_scale`` times the usual size (font sizes whole px at the final size,
    ``ss``: the supersampling factor). Returns ``(ops, height)``: ops are
    ``("text", (x, y), string, size, bold, dim)`` and ``("swatch", kind, x, y, w, h)``."""
    x, y, w, _ = box
    k = fs * text_scale
    pad = 12 * fs
    sw, sh = 22 * fs, 14 * fs
    ss = max(1, int(ss))
    body, head = max(6, round(13 * k / ss)) * ss, max(6, round(15 * k / ss)) * ss
    line_h = canvas.text_size("Ag", body)[1] + 4 * k
    text_w = w - 2 * pad - sw - 8 * fs
    cy = y + pad
    ops: list[tuple] = []
    for it in items:
        if it.kind == "heading":
            ops.append(("text", (x + pad, cy), it.text, head, True, False))
            cy += canvas.text_size(it.text, head, True)[1] + 5 * k
        elif it.kind == "row":
            lines = wrap(canvas, it.text, body, text_w)
            ops.append(("swatch", it.swatch, x + pad, cy + line_h / 2 - sh / 2, sw, sh))
            for ln in lines:
                ops.append(("text", (x + pad + sw + 8 * fs, cy), ln, body, False, it.dim))
                cy += line_h
            cy += 2 * k
        elif it.kind == "para":
            for ln in wrap(canvas, it.text, body, w - 2 * pad):
                ops.append(("text", (x + pad, cy), ln, body, False, it.dim))
                cy += line_h
        elif it.kind == "space":
            cy += it.units * k
    return ops, cy - y + pad


def legend_height(canvas: Canvas, items: Sequence[LegendItem], width: float, fs: float) -> float:
    """Pixel height the legend needs in a panel ``width`` px wide (measured, nothing drawn)."""
    return layout_legend(canvas, items, (0, 0, width, 0), fs)[1]


def fit_text_scale(canvas: Canvas, items: Sequence[LegendItem], box: tuple, fs: float, ss: int = 1) -> float:
    """The largest text scale (1 down to 0.7) at which the legend fits the panel height."""
    for s in (1.0, 0.93, 0.86, 0.8, 0.75, 0.7):
        if layout_legend(canvas, items, box, fs, s, ss)[1] <= box[3]:
            return s
    return 0.7


def draw_panel(p: Paint) -> None:
    if not p.lay.panel:
        return
    p.c.tag = "legend"
    x, y, w, h = p.lay.panel
    P = p.pal
    p.c.polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], fill=P["panel"], outline=P["panel_edge"],
                width=p.u(lw("thin")))
    items = p.o.legend_items if p.o.legend_items is not None else legend_items(p.b, p.a, p.models, p.o)
    ss = p.o.supersample
    scale = fit_text_scale(p.c, items, p.lay.panel, p.fs, ss)
    ops, _ = layout_legend(p.c, items, p.lay.panel, p.fs, scale, ss)
    for op in ops:
        if op[0] == "text":
            _, pos, text, size, bold, dim = op
            p.c.text(pos, text, size, P["panel_dim"] if dim else P["panel_text"], bold=bold)
        else:
            swatch(p, *op[1:])


def swatch(p: Paint, kind: str, sx: float, sy: float, sw: float, sh: float) -> None:
    """Draw the legend swatch ``kind`` in the box (sx, sy, sw, sh) px."""
    P, u = p.pal, p.u
    pts = [(sx, sy), (sx + sw, sy), (sx + sw, sy + sh), (sx, sy + sh)]
    my = sy + sh / 2
    if kind.startswith("role:"):
        role_fill(p, pts, kind.split(":", 1)[1], "poly")
    elif kind == "faded":  # a fighter drawn faded, as a step view fades what strikes at another step
        role_fill(p, pts, "attack", "poly")
        p.c.polygon(pts, fill=tuple(P["table"][:3]) + (FADED_ALPHA,), outline=None)
    elif kind == "count":
        p.c.polygon(pts, fill=P["attack"], outline=P["base_edge"], width=u(lw("thin")))
        p.c.text((sx + sw / 2, my), "×2", p.size(sh * 0.75 / p.fs), (255, 255, 255), anchor="center", bold=True)
    elif kind == "fighting_rank":
        p.c.polygon(pts, fill=P["attack"], outline=None)
        p.c.line(pts + [pts[0]], (30, 30, 30), u(lw("bold", casing=True)))
        p.c.line(pts + [pts[0]], P.get("fighting_rank", (250, 190, 0)), u(lw("bold")))
    elif kind == "one_attack":
        p.c.polygon(pts, fill=P["attack"], outline=P["base_edge"], width=u(lw("thin")))
        p.c.circle((sx + sw / 2, my), sh * 0.42, fill=(255, 255, 255), outline=(20, 20, 20), width=u(lw("thin")))
        p.c.text((sx + sw / 2, my), "1", p.size(sh * 0.6 / p.fs), (20, 20, 20), anchor="center", bold=True)
    elif kind == "divide":
        p.c.polygon(pts, fill=P["attack"], outline=P["base_edge"], width=u(lw("thin")))
        r = sh * 0.32
        p.c.circle((sx + sw / 2, my), r, outline=(20, 20, 20), width=u(lw("thin", casing=True)))
        p.c.circle((sx + sw / 2, my), r, outline=(255, 255, 255), width=u(lw("thin")))
        p.c.line([(sx + sw / 2 - r * 0.55, my), (sx + sw / 2 + r * 0.55, my)], (255, 255, 255), u(lw("thin")))
    elif kind == "empty":
        for a, b in hatch_segments(pts, u(3.5)):
            p.c.line([a, b], P.get("empty_hatch", (90, 90, 90)), u(lw("hair")))
        p.c.line(pts + [pts[0]], P.get("empty_hatch", (90, 90, 90)), u(lw("thin")), dashed=True)
    elif kind == "gap":
        p.c.arrow([(sx, my), (sx + sw, my)], P["gap_link"], u(lw("medium")), head=u(6))
    elif kind == "move":
        p.c.line([(sx, sy), (sx + sw * 0.35, sy), (sx + sw * 0.35, sy + sh), (sx, sy + sh), (sx, sy)],
                 P["ghost"], u(lw("thin")), dashed="dot")
        p.c.arrow([(sx + sw * 0.2, my), (sx + sw, my)], P["move"], u(lw("medium")), head=u(7))
    elif kind == "front":
        cx = sx + sw / 2
        p.c.polygon([(cx, sy), (cx + sh * 0.35, sy + sh), (cx - sh * 0.35, sy + sh)], fill=P["panel_dim"],
                    outline=P["base_edge"], width=u(lw("thin")))
    elif kind == "differ":
        p.c.polygon(pts, fill=P["none"], outline=(20, 20, 20), width=u(lw("medium", casing=True)))
        for a, b in hatch_segments(pts, u(5)):
            p.c.line([a, b], (20, 20, 20, 150), u(lw("thin")))
        p.c.polygon(pts, fill=None, outline=P.get("differ", DIFFER_COLOUR), width=u(lw("medium")))
    elif kind == "overlap":
        col = P.get("overlap", (15, 15, 15))
        p.c.polygon(pts, fill=P["none"], outline=None)
        cross_hatch(p.c, pts, u(5), col, u(lw("thin")))
        p.c.polygon(pts, fill=None, outline=col, width=u(lw("medium", casing=True)))
        p.c.line(pts + [pts[0]], P.get("overlap_dash", (255, 255, 255)), u(lw("thin")), dashed=True)
    elif kind == "slots":
        r = sh * 0.3
        p.c.circle((sx + r + u(1), my), r, fill=P["slot_filled"], outline=P["slot_edge"], width=u(lw("thin")))
        p.c.circle((sx + sw - r - u(1), my), r, fill=P["slot_free"], outline=P["slot_edge"], width=u(lw("thin")))
    elif kind == "slot_large":
        p.c.circle((sx + sw / 2, my), sh * 0.45, fill=P["slot_free"], outline=P["slot_edge"], width=u(lw("medium")))
    elif kind == "slotmove":
        p.c.line([(sx, sy), (sx + sw * 0.35, sy), (sx + sw * 0.35, sy + sh), (sx, sy + sh), (sx, sy)],
                 P["ghost"], u(lw("thin")), dashed="dot")
        p.c.arrow([(sx + sw * 0.2, my), (sx + sw * 0.8, my)], P["slot_edge"], u(lw("medium")), head=u(5))
        p.c.circle((sx + sw - sh * 0.25, my), sh * 0.25, fill=P["slot_filled"], outline=P["slot_edge"], width=u(lw("thin")))
    elif kind == "removed":
        p.c.polygon(pts, fill=P["none"], outline=P["base_edge"], width=u(lw("thin")))
        cross(p, (sx + sw * 0.2, sy, sx + sw * 0.8, sy + sh))
    elif kind == "locked":
        padlock(p, (sx + sw / 2, sy + sh * 0.2), sh * 0.4)
    elif kind == "reach":
        reach_circle(p, (sx + sw / 2, my), sh * 0.55)
    elif kind.startswith("mark:"):
        point_swatch(p, kind, sx, sy, sw, sh)
    elif kind.startswith("player:"):
        col = player_colour(P, int(kind.split(":", 1)[1]))
        p.c.polygon(pts, fill=with_alpha(col, 60), outline=col, width=u(lw("bold") if P.get("print") else lw("medium")))
