"""Distances on the table as a player measures them: base edge to base edge, in the ruleset's unit.

Pure (no pygame, no pymunk). Lengths in table mm inside; shown in the unit a ruleset's
``measure`` section names (``in`` for the Warhammer games and 40k, ``cm`` or ``mm``).

A ruleset file may carry (checked by :func:`parse_measure` when the ruleset loads)::

    measure:
      unit: in                                   # in, cm or mm: how lengths are shown
      reach:                                     # drawn around a dragged unit (optional)
        - {label: Movement, profile: movement, rule: Movement}   # a profile value, in `unit`
        - {label: Pile-in, param: pile_in_in, rule: Pile In}     # a parameter of the ruleset
      charge: align                              # or keep_angle: the charge tool's contact

Functions: :func:`unit_gap` (the gap between two units' bases and its two closest points),
:func:`nearest_enemy`, :func:`moved_mm` (how far a unit moved between two poses: its
furthest-moving corner or model), :func:`reaches` (the ruleset's reach lengths for a unit),
:func:`snap_to_corner` and :func:`tape` (the tape's ends snapped to base corners, and the
length edge to edge when both ends are on bases), :func:`fmt_length`.
"""
from __future__ import annotations


from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from game.core.record import Record, record
from game.core import geometry as g
from game.core.board import Board, Unit
from game.core.lru import LRU

UNIT_MM = {"in": g.MM_PER_INCH, "cm": 10.0, "mm": 1.0}
REACH_SOURCES = ("profile", "param", "value")
MAX_REACHES = 4
#: how the window's charge tool places a charger: flush and aligned, or straight ahead keeping
#: its angle (rules that let misaligned units fight, e.g. over gaps); Shift+click does the other
CHARGE_MODES = ("align", "keep_angle")


@record
class Reach(Record):
    """A length the ruleset lets a unit cover: ``label`` (shown), ``rule`` (the rule's name),
    from a unit's ``profile`` key, a ruleset ``param`` or a fixed ``value``, in the measure's unit."""

    label: str
    rule: str
    profile: Optional[str] = None
    param: Optional[str] = None
    value: Optional[float] = None


@record
class Measure(Record):
    """A ruleset's ``measure`` section: ``unit`` (in, cm, mm) and its ``reach`` lengths."""

    unit: str = "mm"
    reach: tuple = field(default_factory=tuple)
    charge: str = "align"

    @property
    def mm_per_unit(self) -> float:
        return UNIT_MM[self.unit]


def parse_measure(data: Any, fail: Callable[[tuple, str], None], params: Optional[dict] = None) -> Measure:
    """Check a ``measure`` mapping; ``fail(path, message)`` raises the loader's error (a path
    below ``("measure",)``); ``params`` are the ruleset's parameters (a ``param`` reach must
    name one whose value is a number)."""
    if not isinstance(data, dict):
        fail(("measure",), "must be {unit: in|cm|mm, reach: [{label, rule, profile|param|value}]}")
    for k in data:
        if k not in ("unit", "reach", "charge"):
            fail(("measure", k), "unknown key; allowed: unit, reach, charge")
    charge = data.get("charge", "align")
    if charge not in CHARGE_MODES:
        fail(("measure", "charge"), f"must be one of {', '.join(CHARGE_MODES)} (got {charge!r})")
    unit = data.get("unit", "mm")
    if unit not in UNIT_MM:
        fail(("measure", "unit"), f"must be one of {', '.join(UNIT_MM)} (got {unit!r})")
    raw = data.get("reach") or []
    if not isinstance(raw, list) or len(raw) > MAX_REACHES:
        fail(("measure", "reach"), f"must be a list of at most {MAX_REACHES} reaches")
    out = []
    for i, r in enumerate(raw):
        p = ("measure", "reach", i)
        if not isinstance(r, dict):
            fail(p, "must be {label, rule, profile: KEY | param: NAME | value: N}")
        extra = set(r) - {"label", "rule", *REACH_SOURCES}
        if extra:
            fail(p + (sorted(map(str, extra))[0],), "unknown key; allowed: label, rule, profile, param, value")
        for k in ("label", "rule"):
            if not isinstance(r.get(k), str) or not r[k].strip() or len(r[k]) > 60:
                fail(p + (k,), "is required (text of up to 60 characters)")
        src = [k for k in REACH_SOURCES if k in r]
        if len(src) != 1:
            fail(p, "give exactly one of profile: KEY, param: NAME, value: N")
        v = r[src[0]]
        if src[0] == "value":
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 1000:
                fail(p + ("value",), f"must be a number above 0 and at most 1000 (got {v!r})")
            v = float(v)
        elif not isinstance(v, str) or not v:
            fail(p + (src[0],), "must be a name (text)")
        if src[0] == "param" and params is not None:
            pv = params.get(v)
            if pv is None or isinstance(pv.value, bool) or not isinstance(pv.value, (int, float)):
                fail(p + ("param",), f"no numeric parameter {v!r} in this ruleset")
        out.append(Reach(r["label"].strip(), r["rule"].strip(), **{src[0]: v}))
    return Measure(unit, tuple(out), charge)


def fmt_length(mm: float, unit: str = "mm") -> str:
    """``'2.5"'`` (in), ``'6.4 cm'``, ``'63 mm'``."""
    k = UNIT_MM.get(unit, 1.0)
    if unit == "in":
        return f'{mm / k:.1f}"'
    if unit == "cm":
        return f"{mm / k:.1f} cm"
    return f"{mm:.0f} mm"


def _shapes(u: Unit) -> list:
    return [u.tray()] if u.is_ranked else [m.shape for m in u.models()]


def unit_gap(a: Unit, b: Unit) -> tuple[float, g.Point, g.Point]:
    """``(gap_mm, point on a, point on b)``: the shortest distance between the two units'
    bases (a ranked unit's tray, a skirmisher's model bases), edge to edge; 0 or less when
    they touch or overlap."""
    best: Optional[tuple[float, g.Point, g.Point]] = None
    for sa in _shapes(a):
        for sb in _shapes(b):
            d = g.gap_mm(sa, sb)
            if best is None or d < best[0]:
                pa, pb = g.closest_points(sa, sb)
                best = (d, pa, pb)
    if best is None:
        raise ValueError(f"{a.id} or {b.id} has no models")
    return best


_BOXES = LRU(1024)  # pose key -> that pose's bounding box (bounded): a unit that did not move is not measured again


def _box(u: Unit) -> tuple[float, float, float, float]:
    """(min_x, min_y, max_x, max_y) table mm of the unit's bases (its tray or its models'
    bases), kept by :meth:`Unit.pose_key` (the shapes depend on the pose alone)."""
    k = u.pose_key()
    box = _BOXES.get(k)
    if box is None:
        box = _BOXES.put(k, _box_of(u))
    return box


def _box_of(u: Unit) -> tuple[float, float, float, float]:
    boxes = [s.bbox() for s in _shapes(u)] or [(0.0, 0.0, 0.0, 0.0)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def nearest_enemy(board: Board, uid: str) -> Optional[tuple[str, float, g.Point, g.Point]]:
    """``(enemy unit id, gap_mm, point on the unit, point on the enemy)`` of the closest unit
    of another player (the first in board order of those equally close), or None when there
    is none. Units whose bounding boxes lie further apart than the best gap found are not
    measured (the box gap never exceeds the gap: the answer is the same as measuring all)."""
    u = board.unit(uid)
    others = [(i, o) for i, o in enumerate(board.units) if o.player != u.player and o.id != u.id]
    if not others:
        return None
    ub = _box(u)
    # nearest boxes first; a unit whose box gap exceeds the best exact gap cannot be nearer
    cands = sorted(((g.bbox_gap(ub, _box(o)), i, o) for i, o in others), key=lambda t: (t[0], t[1]))
    best: Optional[tuple[int, str, float, g.Point, g.Point]] = None
    for lb, i, o in cands:
        if best is not None and lb > 0.0 and lb > best[2] + 1e-6:
            break
        d, pa, pb = unit_gap(u, o)
        if best is None or d < best[2] or (d == best[2] and i < best[0]):
            best = (i, o.id, d, pa, pb)
    assert best is not None
    return best[1:]


def moved_mm(before: Unit, after: Unit) -> float:
    """How far a unit moved between two poses: the furthest-moving tray corner (ranked) or
    model (skirmish), straight line."""
    if before.is_ranked:
        return max(g.dist(p, q) for p, q in zip(before.tray().points, after.tray().points))
    return max((g.dist(p[0], q[0]) for p, q in zip(before.placed, after.placed)), default=0.0)


def reaches(measure: Measure, rs_values: Any, unit: Unit) -> list[tuple[str, str, float]]:
    """``[(label, rule, length_mm)]`` of every reach the ruleset defines that applies to
    ``unit`` (a ``profile`` reach the unit's profile lacks is left out)."""
    out = []
    for r in measure.reach:
        if r.profile is not None:
            v = unit.profile.get(r.profile)
        elif r.param is not None:
            v = getattr(rs_values, r.param, None)
        else:
            v = r.value
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
            continue
        out.append((r.label, r.rule, float(v) * measure.mm_per_unit))
    return out


def corners(board: Board) -> list[g.Point]:
    """Every base corner on the board: tray corners of ranked units, the corners of square
    skirmish bases (round bases have none)."""
    out: list[g.Point] = []
    for u in board.units:
        for s in _shapes(u):
            if isinstance(s, g.Poly) and len(s.points) <= 8:
                out += list(s.points)
    return out


def snap_to_corner(board: Board, p: g.Point, radius_mm: float) -> Optional[g.Point]:
    """The base corner nearest ``p`` within ``radius_mm``, or None."""
    best, bd = None, radius_mm
    for c in corners(board):
        d = g.dist(c, p)
        if d <= bd:
            best, bd = c, d
    return best


def _shape_at(board: Board, p: g.Point) -> Optional[tuple[str, Any]]:
    for u in reversed(board.units):
        for s in _shapes(u):
            inside = g.dist(p, s.center) <= s.radius_mm if isinstance(s, g.Circle) else g.point_in_poly(p, s.points)
            if inside:
                return u.id, s
    return None


@dataclass
class Tape:
    """A measured tape: ends ``a`` and ``b`` (mm), ``length_mm``, and ``edge``: True when both
    ends were on bases and the length is the gap between those bases, edge to edge."""

    a: g.Point
    b: g.Point
    length_mm: float
    edge: bool


def tape(board: Board, p0: g.Point, p1: g.Point, snap_mm: float = 0.0) -> Tape:
    """Measure from ``p0`` to ``p1``: an end within ``snap_mm`` of a base corner snaps to it;
    when both (unsnapped) ends lie on bases of different units, the tape runs between the two
    bases' closest points and reads their gap (edge to edge); otherwise point to point."""
    c0 = snap_to_corner(board, p0, snap_mm) if snap_mm > 0 else None
    c1 = snap_to_corner(board, p1, snap_mm) if snap_mm > 0 else None
    if c0 is None and c1 is None:
        s0, s1 = _shape_at(board, p0), _shape_at(board, p1)
        if s0 is not None and s1 is not None and s0[0] != s1[0]:
            d = g.gap_mm(s0[1], s1[1])
            a, b = g.closest_points(s0[1], s1[1])
            return Tape(a, b, max(0.0, d), True)
    a, b = c0 or p0, c1 or p1
    return Tape(a, b, g.dist(a, b), False)


@dataclass
class DragReadout:
    """What the window shows while a unit is dragged: ``moved_mm`` from where the drag began,
    the ``nearest`` enemy ``(unit id, gap_mm, point on the unit, point on the enemy)`` or None,
    the ruleset's ``reach`` ``[(label, rule, mm)]`` and ``unit`` (in, cm, mm) for the texts;
    ``enemy_name`` the nearest enemy's name as the texts say it ("" : its id)."""

    uid: str
    moved_mm: float
    nearest: Optional[tuple[str, float, g.Point, g.Point]]
    reach: list
    unit: str
    enemy_name: str = ""

    def lines(self) -> list[str]:
        """The readout as text: ``['moved 3.2" this move', 'gap 1.0" to Goblins', 'Movement 4": within']``
        ("this move": the drag or charge measured, told apart from the status line's total
        "moved ... since selected")."""
        out = [f"moved {fmt_length(self.moved_mm, self.unit)} this move"]
        if self.nearest is not None:
            gap = max(0.0, self.nearest[1])
            who = self.enemy_name or self.nearest[0]
            out.append(f"gap {fmt_length(gap, self.unit)} to {who}" if gap > 0.05 else f"touching {who}")
        for label, rule, mm in self.reach:
            word = "within" if self.moved_mm <= mm + 1e-6 else f"{fmt_length(self.moved_mm - mm, self.unit)} beyond"
            cite = f" ({rule})" if rule and rule.casefold() != label.casefold() else ""  # never "Movement 4" (Movement)"
            out.append(f"{label} {fmt_length(mm, self.unit)}{cite}: {word}")
        return out


def drag_readout(start: Unit, now: Unit, board: Board, measure: Measure, rs_values: Any) -> DragReadout:
    """The readout of a drag from pose ``start`` to ``now`` (same unit) on ``board`` (whose
    other units stand where they are); distances edge to edge in the ruleset's unit."""
    b = board.with_unit(now)  # (the other units shared)
    near = nearest_enemy(b, now.id)
    name = (b.unit(near[0]).name or near[0]) if near is not None else ""
    return DragReadout(now.id, moved_mm(start, now), near, reaches(measure, rs_values, now), measure.unit, name)
