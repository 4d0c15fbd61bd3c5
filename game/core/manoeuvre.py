"""Manoeuvres of rank-and-file units as pure geometry (no pygame, no pymunk).

Every function takes a :class:`~game.core.board.Unit` and returns a *new* unit (the input is
never changed). Lengths in table mm, angles in degrees clockwise from north; a unit's
``front`` is the midpoint of its front edge and its tray spans ``width_mm`` across and
``depth_mm`` back from there. Collision checks are not done here: callers compare the result
against the other units with :func:`game.core.geometry.gap_mm`.

These are the moves of a rank-and-file game's movement phase: moving straight forward or
back, wheeling about a front corner, turning about the centre, reforming (changing the number
of files) and charging into contact with an enemy's facing.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Optional

from game.core import geometry as g
from game.core.board import Unit, parse_slot

FACINGS = ("front", "right", "rear", "left")


def _need_ranked(unit: Unit, what: str) -> None:
    if not unit.is_ranked:
        raise ValueError(f"{what} needs a rank-and-file unit; {unit.id} is a skirmish unit")


def forward(unit: Unit, distance_mm: float) -> Unit:
    """Move ``unit`` straight along its facing by ``distance_mm`` (negative: straight back).

    Works for ranked and skirmish units (every model moves the same way)."""
    f = g.forward(unit.facing_deg)
    return unit.translated(f[0] * distance_mm, f[1] * distance_mm)


def front_corners(unit: Unit) -> tuple[g.Point, g.Point]:
    """(front-left, front-right) corners of a ranked unit's tray, as the unit sees them."""
    _need_ranked(unit, "a front corner")
    pts = unit.tray().points  # front-left, front-right, back-right, back-left
    return pts[0], pts[1]


def wheel(unit: Unit, angle_deg: float, pivot: str) -> Unit:
    """Wheel ``unit`` about its front-``pivot`` corner (``"left"`` or ``"right"``) by
    ``angle_deg`` clockwise (negative: anticlockwise).

    A forward wheel to the left pivots on the front-left corner turning anticlockwise
    (``wheel(u, -a, "left")``); to the right, the front-right corner turning clockwise
    (``wheel(u, a, "right")``). Raises ValueError for a skirmish unit or a bad ``pivot``."""
    if pivot not in ("left", "right"):
        raise ValueError(f"pivot must be 'left' or 'right' (got {pivot!r})")
    fl, fr = front_corners(unit)
    return unit.rotated(angle_deg, fl if pivot == "left" else fr)


def wheel_distance_mm(unit: Unit, angle_deg: float) -> float:
    """Distance the outer front corner travels in a wheel of ``angle_deg``: the arc of radius
    ``width_mm`` (how far a wheeling unit counts as having moved)."""
    _need_ranked(unit, "a wheel")
    return unit.width_mm * math.radians(abs(angle_deg))


def turn(unit: Unit, angle_deg: float) -> Unit:
    """Turn ``unit`` ``angle_deg`` clockwise about its centre (90: face right, 180: about face)."""
    return unit.rotated(angle_deg, unit.center())


def reform(unit: Unit, files: int) -> Unit:
    """The unit re-formed ``files`` wide about the centre of its tray.

    Casualty slots (``empty``) that fall outside the new formation are dropped. Raises
    ValueError unless ``1 <= files <= models``."""
    _need_ranked(unit, "reforming")
    if not 1 <= files <= max(1, unit.count):
        raise ValueError(f"files must be from 1 to {unit.count} (got {files})")
    c = unit.center()
    u = replace(unit, files=int(files))
    keep = []
    for s in u.empty:
        try:
            r, f = parse_slot(s)
        except ValueError:
            continue
        if r <= u.ranks and f <= u.files:
            keep.append(s)
    u = replace(u, empty=keep)
    # put the new tray's centre where the old one was
    return replace(u, front=g.to_table(0.0, -u.depth_mm / 2, c, u.facing_deg))


def move_distance_mm(before: Unit, after: Unit) -> float:
    """Straight-line distance moved by the furthest-moving tray corner (ranked) or model
    (skirmish) between two poses of the same unit."""
    if before.is_ranked:
        return max(g.dist(a, b) for a, b in zip(before.tray().points, after.tray().points))
    return max((g.dist(a[0], b[0]) for a, b in zip(before.placed, after.placed)), default=0.0)


def facing_toward(target: Unit, point: g.Point) -> str:
    """The facing (front/right/rear/left) of ranked ``target`` whose arc holds ``point``.

    The arcs are bounded by the tray's diagonals extended outwards."""
    _need_ranked(target, "a facing")
    u, v = g.to_local(point, target.front, target.facing_deg)
    v -= target.depth_mm / 2
    if abs(v) / (target.depth_mm / 2) >= abs(u) / (target.width_mm / 2):
        return "front" if v < 0 else "rear"
    return "left" if u < 0 else "right"


def _edge(target: Unit, facing: str) -> tuple[g.Point, g.Point, float]:
    """(edge midpoint, outward direction, edge length) of one facing of ``target``'s tray."""
    W, D = target.width_mm, target.depth_mm
    local = {"front": ((0.0, 0.0), W), "rear": ((0.0, D), W), "left": ((-W / 2, D / 2), D), "right": ((W / 2, D / 2), D)}
    (a, b), length = local[facing]
    mid = g.to_table(a, b, target.front, target.facing_deg)
    f, r = g.forward(target.facing_deg), g.right(target.facing_deg)
    out = {"front": f, "rear": g.scale(f, -1), "right": r, "left": g.scale(r, -1)}[facing]
    return mid, out, length


def _ray_hit(p: g.Point, d: g.Point, pts: list) -> Optional[float]:
    """Smallest ``t >= 0`` where ``p + t d`` crosses an edge of the polygon ``pts`` (None: never)."""
    return g.ray_polygon_mm(p, d, pts, behind_mm=1e-9)


def contact_distance_mm(charger: Unit, target: Unit) -> Optional[float]:
    """How far ``charger`` moves straight along its facing until its tray first touches
    ``target``'s (None: that line of advance misses the target). Both rank-and-file."""
    _need_ranked(charger, "a charge")
    _need_ranked(target, "a charge target")
    f = g.forward(charger.facing_deg)
    back = g.scale(f, -1)
    a, b = list(charger.tray().points), list(target.tray().points)
    hits = [t for t in (_ray_hit(p, f, b) for p in a) if t is not None]
    hits += [t for t in (_ray_hit(p, back, a) for p in b) if t is not None]
    return min(hits) if hits else None


def charge_keeping_angle(charger: Unit, target: Unit) -> Optional[Unit]:
    """``charger`` moved straight forward, its facing kept, until its tray touches
    ``target``'s: a misaligned contact (for rules that let units fight misaligned, e.g.
    over gaps). None when its line of advance misses the target."""
    d = contact_distance_mm(charger, target)
    return None if d is None else forward(charger, d)


def charge(charger: Unit, target: Unit, facing: Optional[str] = None, align: bool = True) -> Unit:
    """Place ``charger`` in contact with ``target``: front edge flush against the facing of
    ``target`` whose arc holds the charger's centre (or ``facing`` if given), aligned with it,
    and slid along that edge as little as possible while keeping the most frontage in contact
    (``min(charger width, edge length)``). ``align=False``: keep the charger's angle and move
    it straight forward into contact (:func:`charge_keeping_angle`), falling back to the
    aligned charge when its line of advance misses the target.

    Both units must be rank-and-file (ValueError otherwise). Collisions with third units are
    for the caller to check."""
    _need_ranked(charger, "a charge")
    _need_ranked(target, "a charge target")
    if not align:
        kept = charge_keeping_angle(charger, target)
        if kept is not None:
            return kept
    side = facing or facing_toward(target, charger.center())
    if side not in FACINGS:
        raise ValueError(f"facing must be one of {', '.join(FACINGS)} (got {side!r})")
    mid, out, length = _edge(target, side)
    # the charger faces into the edge: its forward is -out
    new_facing = math.degrees(math.atan2(-out[0], out[1])) % 360  # forward(f) == -out
    along = (-out[1], out[0])  # a unit vector along the edge
    slack = abs(length - charger.width_mm) / 2
    cur = g.dot(g.sub(charger.front, mid), along)
    s = max(-slack, min(slack, cur))
    return replace(charger, facing_deg=round(new_facing, 9) % 360, front=g.add(mid, g.scale(along, s)))
