"""The drawers of the core part types (:mod:`game.core.parts`), registered in
:mod:`game.render.drawers`: one place says how each part is drawn, listed in the legend and
explained on hover, for every view. A drawer draws with the :class:`~game.render.painter.Paint`
``p`` of :func:`game.render.scene.draw_scene` (its canvas ``p.c``, view ``p.v``, lengths ``p.u``,
palette ``p.pal``, label placer ``p.placer``, drawn models ``p.models``).

* :class:`~game.core.parts.MoveReach`: a reach disc round each move's start (stage ``table``);
  legend "Move reach N\\" from the start";
* :class:`~game.core.parts.CombatSlots`: slot dots, filled black / free white, larger for a
  large model (``under``); legend rows for slots and models standing in them;
* :class:`~game.core.parts.Locked`: a padlock on each held model (``over``); legend "Padlock:
  in base contact, may not move" (the padlock was never explained before);
* :class:`~game.core.parts.OutlinedRows` (with :class:`~game.core.parts.ReducedAttackers`):
  the rows outlined, every fighter of those units numbered (``ranks``);
* :class:`~game.core.parts.FightSequence`: a numbered badge by each unit on the table
  (``labels``); legend section "Fight sequence";
* the core parts every analysis holds: :class:`~game.core.parts.Moves` (``moves``: the start
  a dotted outline, an arrow to the model, its length; legend "Moved by a rule, from its dotted
  outline"), :class:`~game.core.parts.GapLinks` (``gaps``: lettered arrows or dashed links;
  legend row), :class:`~game.core.parts.StrikeOrder` (the legend's strike order section);
* :class:`~game.core.parts.UnitReasons`, :class:`~game.core.parts.RankBonus`,
  :class:`~game.core.parts.Allocations`: legend sections only.
"""
from __future__ import annotations

import math
from collections import Counter
from operator import itemgetter, methodcaller
from typing import AbstractSet, Any, Optional, Sequence

from game.core.analysis import Analysis
from game.core import geometry as g
from game.core.board import Board, Unit, parse_slot
from game.core.unit_models import Model
from game.core.lru import LRU
from game.core.names import humanize, plural, with_count
from game.core.parts import (Allocation, Allocations, CombatSlots, FightSequence, GapLinks, Locked, MoveReach, Moves,
                             OffTable, OutlinedRows, RankBonus, ReducedAttackers, Removed, RoleWords, StepShown, StrikeOrder,
                             UnitReasons)
from game.render import gap_marks, move_marks, unit_marks as um
from game.render.attack_badges import badged
from game.render.drawers import LegendContext, LegendItem, legend_parts, register
from game.render.drawn import DrawnModel, circle_pts, drawn_models
from game.render.labels import badge, count_mark
from game.render.options import SceneOptions
from game.render.painter import Paint
from game.render.palette import lw

_PARTITION, _HEAD = methodcaller("partition", "."), itemgetter(0)  # model id -> unit id, in C
OUTLINE = (250, 190, 0)       # the outlined-row colour (with a dark edge, for any fill under it)
RING = (255, 255, 255)        # the disc of a fighter with reduced attacks


# --- move reach --------------------------------------------------------------------------------
def reach_shown(pal: dict, options: SceneOptions) -> bool:
    """Move reach is drawn on screen, and on paper only when asked (``reach``): a ring round
    every moved model buries the models and the labels of a printed figure."""
    return not pal.get("print") or options.reach


def draw_reach(p: Paint, part: MoveReach, analysis: Analysis) -> None:
    if not part.mm or not reach_shown(p.pal, p.o):
        return
    for mid, path in analysis.moves.items():
        if not path:
            continue
        p.c.tag = f"reach:{mid}"
        reach_circle(p, p.v.to_px(path[0]), float(part.mm) * p.v.scale)


def reach_circle(p: Paint, c: tuple, r: float) -> None:
    """A move's reach around its start (px): on paper a thin dashed ring without fill (many
    overlapping tinted discs would bury the models), on screen a tinted disc."""
    if p.pal.get("print"):
        pts = circle_pts(c, r, 72)
        p.c.line(pts + [pts[0]], p.pal["reach_edge"], p.u(lw("thin")), dashed=True)
    else:
        p.c.circle(c, r, fill=p.pal["reach"], outline=p.pal["reach_edge"], width=p.u(lw("thin")))


def legend_reach(part: MoveReach, ctx: LegendContext) -> list[LegendItem]:
    if not part.mm or not ctx.moves or not reach_shown(ctx.options.palette or {}, ctx.options):
        return []
    return [LegendItem("row", f"Move reach {round(float(part.mm) / g.MM_PER_INCH, 2):g}\" from the start", swatch="reach")]


# --- combat slots ------------------------------------------------------------------------------
def draw_slots(p: Paint, part: CombatSlots, analysis: Analysis) -> None:
    """A small dot, black when filled, white when free, a larger ring for a large model's slot
    (drawn under the models standing in them)."""
    filled = any(s.filled_by for s in part.slots)
    models = p.models or (drawn_models(p.b, analysis) if filled else [])  # the slots are drawn before the models
    drawn = {dm.id: dm.shape for dm in models}
    for i, s in enumerate(part.slots):
        p.c.tag = f"slot:{s.model}:{i}"
        c = p.v.to_px(tuple(s.at))
        large = s.size == "large"
        r = p.u(4.5 if large else 3.0)
        filler = drawn.get(s.filled_by) if s.filled_by else None
        if filler is not None:
            slot_tick(p, tuple(s.at), filler, r)
        p.c.circle(c, r, fill=p.pal["slot_filled"] if s.filled_by else p.pal["slot_free"],
                   outline=p.pal["slot_edge"], width=p.u(lw("medium" if large else "thin")))
        p.placer.add((c[0] - r, c[1] - r, c[0] + r, c[1] + r), soft=True)


def slot_tick(p: Paint, at: tuple, filler: g.Shape, r: float) -> None:
    """A filled slot whose filler stands beside it, not on it: a short line (at most
    ``SLOT_MARK_UNITS`` beyond the dot) from the dot towards the filler's edge, so no filled dot
    is left without its model; nothing when the filler covers the slot."""
    from game.render.unit_marks import SLOT_MARK_UNITS

    if g.gap_mm(filler, g.Circle(at, 0.01)) <= 0.0:
        return  # the model stands in its slot
    near = g.closest_points(g.Circle(at, 0.01), filler)[1]
    a, b = p.v.to_px(at), p.v.to_px(near)
    L = math.hypot(b[0] - a[0], b[1] - a[1])
    if L <= r:
        return
    k = min(1.0, (p.u(SLOT_MARK_UNITS) + r) / L)  # pointing at the filler, never across the block
    p.c.line([a, (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)], p.pal["slot_edge"], p.u(lw("medium")))


def legend_slots(part: CombatSlots, ctx: LegendContext) -> list[LegendItem]:
    slots = part.slots
    if not slots:
        return []
    n_f = sum(1 for s in slots if s.filled_by)
    out = [LegendItem("row", f"Combat slots: {n_f} filled, {len(slots) - n_f} free", swatch="slots")]
    moved = [dm for dm in ctx.shown if dm.slot_from is not None]
    if moved:
        out.append(LegendItem("row", f"Allocated model standing in its slot, from its place in the unit "
                                     f"({plural(len(moved), 'model')})", swatch="slotmove"))
    if any(s.size == "large" for s in slots):
        out.append(LegendItem("row", "Slot of a large model: larger dot", swatch="slot_large"))
    return out


# --- locked models -----------------------------------------------------------------------------
def draw_locked(p: Paint, part: Locked, analysis: Analysis) -> None:
    drawn = {dm.id: dm for dm in (p.models or [])}
    for mid in part.models:
        if mid in drawn:
            p.safe(f"lock {mid}", lock_mark, p, drawn[mid])


def lock_mark(p: Paint, dm: DrawnModel) -> None:
    """A small padlock at the top of the base: it is in base contact and may not move."""
    p.c.tag = f"locked:{dm.id}"
    x0, y0, x1, y1 = dm.shape.bbox()
    c = p.v.to_px(((x0 + x1) / 2, y0 + (y1 - y0) * 0.22))
    s = max(p.u(4), 2.5)
    padlock(p, c, s)


def padlock(p: Paint, c: tuple, s: float) -> None:
    """A padlock of half-width ``s`` px centred on ``c`` (a model mark and its legend swatch)."""
    col = p.pal["badge"]
    p.c.polygon([(c[0] - s, c[1] - s * 0.1), (c[0] + s, c[1] - s * 0.1), (c[0] + s, c[1] + s * 1.2),
                 (c[0] - s, c[1] + s * 1.2)], fill=col, outline=(255, 255, 255), width=p.u(lw("hair")))
    arc = [(c[0] + s * 0.6 * math.cos(t), c[1] - s * 0.1 - s * 0.8 * math.sin(t))
           for t in [math.pi * i / 8 for i in range(9)]]
    p.c.line(arc, col, p.u(lw("thin")))


def legend_locked(part: Locked, ctx: LegendContext) -> list[LegendItem]:
    n = sum(1 for m in part.models if m in ctx.shown_ids)
    if not n:
        return []
    return [LegendItem("row", f"Padlock: in base contact with an enemy, so it may not move ({plural(n, 'model')})", swatch="locked")]


def hover_locked(part: Locked, mid: str) -> str:
    return "Padlock: in base contact with an enemy, so it may not move." if mid in part.models else ""


# --- removed models ----------------------------------------------------------------------------
def draw_removed(p: Paint, part: Removed, analysis: Analysis) -> None:
    drawn = {dm.id: dm for dm in (p.models or [])}
    for mid in part.models:
        if mid in drawn:
            p.safe(f"removed {mid}", removed_mark, p, drawn[mid].shape.bbox(), mid)


def removed_mark(p: Paint, bbox: tuple, mid: str = "") -> None:
    """A dark cross on a white casing over the base's box (table mm): destroyed, removed."""
    p.c.tag = f"removed:{mid}"
    a, b = p.v.to_px((bbox[0], bbox[1])), p.v.to_px((bbox[2], bbox[3]))
    cross(p, (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])))


def cross(p: Paint, box: tuple) -> None:
    """The removed cross in the px box ``box`` (a model mark and its legend swatch)."""
    x0, y0, x1, y1 = box
    for q in ([(x0, y0), (x1, y1)], [(x0, y1), (x1, y0)]):
        p.c.line(q, (255, 255, 255), p.u(lw("bold", casing=True)))
        p.c.line(q, (20, 20, 20), p.u(lw("bold")))


def legend_removed(part: Removed, ctx: LegendContext) -> list[LegendItem]:
    n = sum(1 for m in part.models if m in ctx.shown_ids)
    return [LegendItem("row", f"{part.label}: crossed out ({plural(n, 'model')})", swatch="removed")] if n else []


def removed_ids(analysis: Optional[Analysis]) -> set:
    """Ids of the models a :class:`Removed` part crosses out (the legend counts them apart)."""
    part = analysis.part(Removed) if analysis is not None else None
    return set(part.models) if part is not None else set()


# --- outlined rows (fighting ranks) and reduced attackers ----------------------------------------
def rows_mm(board: Board, part: OutlinedRows) -> list[list[g.Point]]:
    """Outlines (table mm, corners) of every group of ``part``: one rectangle per group of
    rank-and-file slots."""
    out = []
    units = {u.id: u for u in board.units}
    for grp in part.groups():
        u = units.get(grp.unit)
        if u is None or not u.is_ranked:
            continue
        slots = []
        for mid in grp.models:
            try:
                slots.append(parse_slot(mid.split(".", 1)[1]))
            except (ValueError, IndexError):
                continue
        if not slots:
            continue
        r0, r1 = min(r for r, _ in slots), max(r for r, _ in slots)
        f0, f1 = min(f for _, f in slots), max(f for _, f in slots)
        a0, a1 = (f0 - 1) * u.base_w - u.width_mm / 2, f1 * u.base_w - u.width_mm / 2
        b0, b1 = (r0 - 1) * u.base_d, r1 * u.base_d
        out.append([g.to_table(a, b, u.front, u.facing_deg) for a, b in ((a0, b0), (a1, b0), (a1, b1), (a0, b1))])
    return out


def draw_rows(p: Paint, part: OutlinedRows, analysis: Analysis) -> set[str]:
    """Outline the rows and number every fighting model of a unit that has them: ``×N`` (its
    full Attacks) in base contact, a white disc with ``N`` when it attacks without touching an
    enemy (:class:`ReducedAttackers`). Returns the ids numbered here."""
    rows = rows_mm(p.b, part)
    if not part.groups():
        return set()
    for i, pts in enumerate(rows):
        p.c.tag = f"fighting_rank:{i}"
        px = p.v.pts(pts)
        p.c.line(px + [px[0]], (30, 30, 30), p.u(lw("bold", casing=True)))
        p.c.line(px + [px[0]], p.pal.get("fighting_rank", OUTLINE), p.u(lw("bold")))
    reduced = analysis.part(ReducedAttackers)
    apart = set(reduced.models) if reduced is not None else set()
    units = part.units()
    done = set()
    fighters = [dm for dm in p.models if dm.unit.id in units and dm.role == "attack"]
    # ×N only where it teaches (never ×1; the fighters differing from their unit's usual)
    shown = badged([dm for dm in fighters if dm.id not in apart], analysis, p.o.count_all, ("attack",))
    for dm in fighters:
        r = analysis.models.get(dm.id)
        attacks = r.attacks if r is not None else 0
        if dm.id in apart:
            p.safe(f"one attack {dm.id}", one_attack_mark, p, dm, attacks)
        elif dm.id in shown:
            p.safe(f"count {dm.id}", count_mark, p, dm, attacks)
        done.add(dm.id)
    return done


def one_attack_mark(p: Paint, dm: DrawnModel, attacks: int) -> None:
    """A white disc with a dark ring and the number of attacks, in the middle of the base."""
    p.c.tag = f"one_attack:{dm.id}"
    b = dm.shape.bbox()
    p0, p1 = p.v.to_px((b[0], b[1])), p.v.to_px((b[2], b[3]))
    bw, bh = abs(p1[0] - p0[0]), abs(p1[1] - p0[1])
    r = min(bw, bh) * 0.3
    if r < 4:
        return
    c = ((p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2)
    size = p.size(r * 1.3 / p.fs)  # at least the smallest print text: the disc grows round it
    r = max(r, size / 1.3)
    p.c.circle(c, r, fill=RING, outline=(20, 20, 20), width=p.u(lw("thin")))
    p.c.text(c, str(attacks), size, (20, 20, 20), anchor="center", bold=True)


def legend_rows(part: OutlinedRows, ctx: LegendContext) -> list[LegendItem]:
    n = part.shown(ctx.shown_ids)
    out = []
    if n and part.label:
        out.append(LegendItem("row", with_count(part.label, plural(n, 'row')), swatch="fighting_rank"))
    reduced = ctx.analysis.part(ReducedAttackers) if ctx.analysis is not None else None
    apart = [m for m in (reduced.models if reduced is not None else ()) if m in ctx.shown_ids]
    if apart and reduced is not None and reduced.label:
        out.append(LegendItem("row", with_count(reduced.label, plural(len(apart), 'model')), swatch="one_attack"))
    if n and _rows_badged(part, ctx, set(apart)):
        out.append(LegendItem("row", "×N: attacks of a fighter in base contact, where not its unit's usual"
                              if not ctx.options.count_all else "×N: attacks of a fighter in base contact",
                              swatch="count"))
    return out


def _rows_badged(part: OutlinedRows, ctx: LegendContext, apart: set) -> bool:
    """Does the picture carry a ``×N`` badge on a numbered fighter (:func:`draw_rows`)?"""
    units = part.units()
    fighters = [dm for dm in ctx.shown if dm.unit.id in units and dm.role == "attack" and dm.id not in apart]
    return bool(badged(fighters, ctx.analysis, ctx.options.count_all, ("attack",)))


def numbers_fighters(analysis: Optional[Analysis], shown_ids: AbstractSet[str]) -> bool:
    """Does an outlined-rows part number the fighters in this picture (so the generic ``×N``
    legend row is replaced by its own)?"""
    part = analysis.part(OutlinedRows) if analysis is not None else None
    return part is not None and part.shown(shown_ids) > 0


# --- fight sequence ----------------------------------------------------------------------------
def draw_fight_badges(p: Paint, part: FightSequence, analysis: Analysis) -> None:
    off = analysis.part(OffTable)
    units = {u.id: u for u in p.b.units}
    for e in part.entries:
        u = units.get(e.unit)
        if u is None or (off is not None and off.whole_unit([m.id for m in _models(u)])):
            continue
        p.safe("badge", badge, p, e)


def _models(u: Unit) -> list[Model]:
    try:
        return u.models()
    except Exception:  # noqa: BLE001 - a unit that cannot be built is drawn as before
        return []


def legend_fight(part: FightSequence, ctx: LegendContext) -> list[LegendItem]:
    if not part.entries:
        return []
    out = [LegendItem("space", units=8), LegendItem("heading", "Fight sequence")]
    for e in part.entries:
        tag = " (Fights First)" if e.fights_first else ""
        out.append(LegendItem("para", f"{e.order}. {ctx.names.get(e.unit, e.unit)}: {e.fight or 'normal'}{tag}"))
    return out


# --- legend-only parts -------------------------------------------------------------------------
def legend_reasons(part: UnitReasons, ctx: LegendContext) -> list[LegendItem]:
    """Only the strike values a rule changed (``part.changed``)."""
    return [LegendItem("para", humanize(why, ctx.names), dim=True)
            for uid, why in part.why.items() if uid in ctx.units_shown and uid in part.changed]


def legend_rank_bonus(part: RankBonus, ctx: LegendContext) -> list[LegendItem]:
    if not part.bonus or not any(uid in ctx.units_shown for uid in part.bonus):
        return []
    out = [LegendItem("space", units=8), LegendItem("heading", "Rank Bonus")]
    reasons = part.why or {}
    groups: dict[tuple, list[str]] = {}  # units with the same bonus for the same reason: one line
    for uid, n in part.bonus.items():
        if uid in ctx.units_shown:
            groups.setdefault((n, reasons.get(uid) or ""), []).append(ctx.names.get(uid, uid))
    for (n, why), names in groups.items():
        out.append(LegendItem("para", f"{', '.join(names)}: +{n}"))
        if why:
            out.append(LegendItem("para", humanize(why, ctx.names), dim=True))
    return out


def legend_allocation(part: Allocations, ctx: LegendContext) -> list[LegendItem]:
    if not part.by_unit:
        return []
    out = [LegendItem("space", units=8), LegendItem("heading", "Allocation to melee")]
    for uid, d in part.by_unit.items():
        out.append(LegendItem("para", allocation_line(ctx.names.get(uid, uid), d)))
    return out


def allocation_line(name: str, d: Allocation) -> str:
    """One readable line of a unit's melee allocation (an :class:`~game.core.parts.Allocation`):
    how many fight and how the number came about (share of which total, bonus, small-unit
    rule, slot limit)."""
    actual, final = d.actual, d.final
    if d.whole:
        how = f"a small unit of {_fmt(d.models if d.models is not None else final)}, allocated whole"
    elif d.share is not None and d.total is not None:
        how = f"{_fmt(d.share)}% of {_fmt(d.total)} = {_fmt(d.base)}"
    else:
        how = f"base {_fmt(d.base)}"
    if d.bonus:
        how += f", +{_fmt(d.bonus)} bonus"
    line = f"{name}: {_fmt(actual)} fight (allocated {_fmt(final)}: {how}"
    if actual != final:
        line += f"; only {_fmt(actual)} free combat slots"
    return line + ")"


def _fmt(v: object) -> str:
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return str(v)


# --- the core parts: moves, gap links, strike order --------------------------------------------
def draw_moves(p: Paint, part: Moves, analysis: Analysis) -> None:
    """Every move the same way, in every view: a dashed outline where the model stood (the
    model is drawn where it ends), an arrow from the outline to the model (crossing arrows of
    alike models swapped apart, :func:`game.render.move_marks.uncrossed`) and its length beside it."""
    for mid, path in part.paths.items():
        p.safe(f"ghost {mid}", um.ghost, p, mid, path)
    whole = p.safe("uncross moves", move_marks.uncrossed, analysis, p.models) or dict(part.paths)
    drawn = p.safe("thin moves", move_marks.thinned, whole, analysis) or whole  # a unit moved alike: 2 arrows
    for mid, path in drawn.items():
        p.safe(f"move {mid}", um.move, p, mid, path)
    p.safe("move marks", move_marks.draw, p, analysis, drawn, whole)


def legend_moves(part: Moves, ctx: LegendContext) -> list[LegendItem]:
    if not ctx.moves:
        return []
    return [LegendItem("row", f"Moved by a rule, from its dotted outline, length beside it ({plural(len(ctx.moves), 'model')})",
                       swatch="move")]


def draw_gap_links(p: Paint, part: GapLinks, analysis: Analysis) -> None:
    """Lettered arrows along the engaged facing (or dashed links) between models fighting
    across a gap (:mod:`game.render.gap_marks`)."""
    gap_marks.draw(p, analysis, p.o.gap_letter_start, p.o.gap_lettered)


def legend_gap_links(part: GapLinks, ctx: LegendContext) -> list[LegendItem]:
    """One row for the contacts over gaps, counting what the drawer draws: its arrows (a, b...;
    a slanted gap is arrowed at its two ends only) when every link is drawn as an arrow, else
    the pairs of models in contact."""
    n = sum(1 for x, y in part.links if x in ctx.shown_ids or y in ctx.shown_ids)
    if not n:
        return []
    words = "In contact across a gap: a base extended along the engaged facing"
    count = f"{plural(n, 'pair')} of models"
    if ctx.board is not None:
        ends = {m for link in part.links for m in link[:2]}
        shapes = {dm.id: dm.shape for dm in ctx.shown if dm.id in ends}
        arrows, plain = gap_marks.plan(ctx.board, ctx.analysis, shapes)
        if arrows and not plain:
            count = plural(len(arrows), "arrow")
    return [LegendItem("row", f"{words} ({count})", swatch="gap")]


_PER_UNIT = LRU(64)  # a strike step's model ids (tuple) -> models per unit: a drag's analyses repeat them


def _per_unit(mids: Sequence[str]) -> dict[str, int]:
    """Models per unit (unit id -> count, in the order the units first come) of the model ids
    ``mids``, kept by the ids themselves (a long strike step of a big table is counted once
    while it stays the same). The dict is shared: never change it."""
    key = tuple(mids)
    hit = _PER_UNIT.get(key)
    if hit is None:
        hit = _PER_UNIT.put(key, dict(Counter(map(_HEAD, map(_PARTITION, key)))))
    return hit


def strike_line(label: str, per_unit: dict[str, int], now: str = "") -> str:
    """One strike step in words from its ``label`` and ``{unit name: models striking}``: a
    step whose label already names its one unit names it once and counts its models
    (``"Red Monster (A), Fights First: 1 model"``); otherwise the label, then each unit with
    its count of models (``"Initiative 4: Dwarfs (20 models)"``); ``now`` (e.g. ``" (this
    step)"``) follows the label."""
    if len(per_unit) == 1:
        (name, n), = per_unit.items()
        if label.startswith(name):
            return f"{label}{now}: {plural(n, 'model')}"
    who = ", ".join(f"{name} ({plural(n, 'model')})" for name, n in per_unit.items())
    return f"{label}{now}{' at the same time' if len(per_unit) > 1 else ''}: {who}"


def legend_strike_order(part: StrikeOrder, ctx: LegendContext) -> list[LegendItem]:
    """The strike order section: each step's units (by name) and how many of their models
    strike at it in the picture (less those cropped out; embarked models, never drawn, count
    as in the window), then the parts listed under it (``legend_at="strike"``)."""
    if not part.steps:
        return []
    shown = ctx.analysis.part(StepShown) if ctx.analysis is not None else None
    out = [LegendItem("space", units=8), LegendItem("heading", "Strike order")]
    for i, step in enumerate(part.steps, start=1):
        # models per unit, in the order the units first strike (unit ids hold no dot)
        mids = [mid for mid in step.models if mid not in ctx.cropped] if ctx.cropped else step.models
        per = _per_unit(mids)
        if not per:
            continue
        label = humanize(step.label or str(step.step), ctx.names)
        now = " (this step)" if shown is not None and shown.label == str(step.label or step.step) else ""
        out.append(LegendItem("para", f"{i}. {strike_line(label, {ctx.names.get(k, k): n for k, n in per.items()}, now)}"))
    return out + legend_parts(ctx.analysis, "strike", ctx)


register(Moves, draw=draw_moves, stage="moves", legend=legend_moves, legend_at="moves")
register(GapLinks, draw=draw_gap_links, stage="gaps", legend=legend_gap_links, legend_at="gaps")
register(StrikeOrder, legend=legend_strike_order, legend_at="order")
register(MoveReach, draw=draw_reach, stage="table", legend=legend_reach, legend_at="rows", table_wide=True)
register(CombatSlots, draw=draw_slots, stage="under", legend=legend_slots, legend_at="rows", table_wide=True)
register(Removed, draw=draw_removed, stage="over", legend=legend_removed, legend_at="marks",
         hover=lambda part, mid: f"{part.label}: removed from the table." if mid in part.models else "")
register(Locked, draw=draw_locked, stage="over", legend=legend_locked, legend_at="rows", hover=hover_locked)
register(OutlinedRows, draw=draw_rows, stage="ranks", legend=legend_rows, legend_at="marks")
register(FightSequence, draw=draw_fight_badges, stage="labels", legend=legend_fight, legend_at="sections",
         table_wide=True)
register(UnitReasons, legend=legend_reasons, legend_at="strike")
register(RankBonus, legend=legend_rank_bonus, legend_at="sections")
register(Allocations, legend=legend_allocation, legend_at="sections")
# read where they act, not drawn on their own: the models of an OffTable part are left out of the
# drawn models and get no label (drawn.py, scene.py), the legend words roles by RoleWords and counts
# the strike step by StepShown (legend.py), ReducedAttackers numbers models beside OutlinedRows
for _kind in (OffTable, StepShown, RoleWords, ReducedAttackers):
    register(_kind)
