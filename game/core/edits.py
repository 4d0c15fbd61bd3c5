"""Editing a board by hand: pure functions behind the window's unit palette and properties panel.

Each function takes a :class:`~game.core.board.Unit` (or a board) and returns a new one; the
input is never changed, so the caller can keep it for undo. Invalid requests raise
``ValueError`` with a sentence the window shows as it is.

Lengths in table mm, facings in degrees clockwise from north.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, replace
from typing import Any, Iterable, Optional

from game.core import geometry as g
from game.core.bases import OvalBase, RectBase, RoundBase, base_of
from game.core.board import Board, Unit, parse_slot
from game.core.validate import text_problem

#: gap (mm) left between a skirmisher and the model it is added next to
SKIRMISH_GAP_MM = 2.0
MAX_MODELS = 400
MAX_BASE_MM = 500.0


@dataclass(frozen=True)
class BaseChoice:
    """One entry of the new-unit palette: ``label``, ``base`` (``(w, d)`` mm or a diameter),
    how many ``models`` and ``files`` the new unit gets (``files`` is ignored for round bases,
    which make skirmish units)."""

    label: str
    base: Any
    models: int
    files: int = 1

    @property
    def round(self) -> bool:
        return isinstance(self.base, (int, float))


#: the new-unit palette: common base sizes (square and rectangular: rank-and-file; round: skirmish)
BASE_PALETTE: tuple[BaseChoice, ...] = (
    BaseChoice("20 mm square", (20, 20), 20, 5),
    BaseChoice("25 mm square", (25, 25), 15, 5),
    BaseChoice("40 mm square", (40, 40), 6, 3),
    BaseChoice("50 mm square", (50, 50), 3, 3),
    BaseChoice("25x50 cavalry", (25, 50), 5, 5),
    BaseChoice("50x100", (50, 100), 2, 2),
    BaseChoice("round 25 mm", 25, 5),
    BaseChoice("round 32 mm", 32, 5),
    BaseChoice("round 40 mm", 40, 3),
    BaseChoice("round 50 mm", 50, 2),
    BaseChoice("round 60 mm", 60, 1),
)


def unique_id(board: Board, stem: str) -> str:
    """An id not used by any unit of ``board``: ``stem`` itself, else ``stem_2``, ``stem_3``...
    ``stem`` is reduced to the allowed characters ``[a-z0-9_]``."""
    s = re.sub(r"[^a-z0-9_]+", "_", stem.lower()).strip("_") or "unit"
    used = {u.id for u in board.units}
    if s not in used:
        return s
    base = re.sub(r"_\d+$", "", s) or s
    n = 2
    while f"{base}_{n}" in used:
        n += 1
    return f"{base}_{n}"


def kind_word(choice: BaseChoice) -> str:
    """What a unit on ``choice`` bases usually is, for its name: infantry on small squares,
    cavalry on 25x50, monsters on 40-50 mm squares, chariots on 50x100, skirmishers on rounds."""
    if choice.round:
        return "Skirmishers" if float(choice.base) < 50 else "Monster"
    w, d = float(choice.base[0]), float(choice.base[1])
    if d > w * 1.5:
        return "Chariots" if w >= 50 else "Cavalry"
    return "Infantry" if w <= 30 else "Monsters"


def new_unit(board: Board, choice: BaseChoice, center: g.Point, player: int = 1,
             facing_deg: Optional[float] = None, profile: Optional[dict] = None) -> Unit:
    """A unit of ``choice`` centred on table point ``center`` (mm). Rectangular bases make a
    rank-and-file unit ``choice.files`` wide; round bases a skirmish unit of models in a line,
    ``SKIRMISH_GAP_MM`` apart. ``facing_deg`` defaults to 0 for player 1, 180 for player 2.
    The unit is named after its kind, numbered across both players ("Infantry 2", id
    ``p1_infantry_2``: the legend and the colours say whose it is);
    ``profile`` (default ``{attacks: 1}``) is copied in."""
    if player not in (1, 2):
        raise ValueError(f"player must be 1 or 2 (got {player})")
    facing = (0.0 if player == 1 else 180.0) if facing_deg is None else float(facing_deg) % 360
    word = kind_word(choice)
    names = {x.name for x in board.units}
    n = 1
    while (unique_id(board, f"p{player}_{word}_{n}") != f"p{player}_{word.lower()}_{n}"
           or f"{word} {n}" in names):
        n += 1
    uid = f"p{player}_{word.lower()}_{n}"
    name = f"{word} {n}"  # numbered across the board: the name alone tells the units apart
    prof = copy.deepcopy(profile) if profile else {"attacks": 1}
    if not choice.round:
        w, d = float(choice.base[0]), float(choice.base[1])
        files = max(1, min(choice.files, choice.models))
        u = Unit(id=uid, player=player, kind="ranked", base=RectBase(w, d), facing_deg=facing, name=name,
                 profile=prof, files=files, count=choice.models)
        # the tray's centre lies depth/2 behind the front midpoint
        return replace(u, front=g.to_table(0.0, -u.depth_mm / 2, center, facing))
    dia = float(choice.base)
    step = dia + SKIRMISH_GAP_MM
    n = choice.models
    placed = [(g.to_table((i - (n - 1) / 2) * step, 0.0, center, facing), None) for i in range(n)]
    return Unit(id=uid, player=player, kind="skirmish", base=RoundBase(dia), facing_deg=facing, name=name,
                profile=prof, placed=placed)


def _model_radius_mm(unit: Unit, base: Any) -> float:
    b = base_of(unit.base if base is None else base)
    return max(float(b.width_mm), float(b.depth_mm)) / 2


def add_model(unit: Unit, free: Any = None) -> Unit:
    """One model more. Rank-and-file: the count grows by one (the tray may gain a rank).
    Skirmish: a copy of the last model placed beside it, to its right as the unit faces, else
    behind, left, in front; ``free(unit) -> bool`` (optional) tells which candidate fits.
    Raises ValueError past :data:`MAX_MODELS` or when no candidate fits."""
    n = unit.count if unit.is_ranked else len(unit.placed)
    if n >= MAX_MODELS:
        raise ValueError(f"a unit holds at most {MAX_MODELS} models")
    u = unit
    if u.is_ranked:
        return replace(u, count=u.count + 1)
    if not u.placed:
        raise ValueError("a skirmish unit without models has nowhere to add one")
    (last, base) = u.placed[-1]
    step = 2 * _model_radius_mm(u, base) + SKIRMISH_GAP_MM
    for across, back in ((step, 0.0), (0.0, step), (-step, 0.0), (0.0, -step), (step, step), (-step, step)):
        p = g.to_table(across, back, last, u.facing_deg)
        cand = replace(u, placed=[*u.placed, (p, copy.deepcopy(base))])
        own = [q for q, _ in u.placed]
        if any(g.dist(p, q) < step - SKIRMISH_GAP_MM / 2 for q in own):
            continue
        if free is None or free(cand):
            return cand
    raise ValueError("there is no room next to the last model")


def remove_model(unit: Unit) -> Unit:
    """One model fewer: the last model (rank-and-file: the count drops by one; casualty slots
    that no longer exist are dropped). Raises ValueError when one model is left."""
    u = unit
    if u.is_ranked:
        if len(u.occupied_slots()) <= 1 or u.count <= 1:
            raise ValueError("the unit has one model left")
        u = replace(u, count=u.count - 1, files=min(u.files, u.count - 1))
        u = replace(u, empty=[s for s in u.empty if _slot_within(u, s)])
        if not u.occupied_slots():
            raise ValueError("the unit has one model left")
        return u
    if len(u.placed) <= 1:
        raise ValueError("the unit has one model left")
    return replace(u, placed=u.placed[:-1])


def _slot_within(u: Unit, slot: str) -> bool:
    try:
        r, f = parse_slot(slot)
    except ValueError:
        return False
    return r <= u.ranks and f <= u.files


def parse_base(text: str) -> Any:
    """``"25x50"`` / ``"25 x 50"`` -> ``(25.0, 50.0)`` (width x depth, mm); ``"32"`` -> ``32.0``
    (a round base's diameter). Raises ValueError for anything else or sizes outside (0, 500]."""
    t = str(text).strip().lower().replace("mm", "").replace("×", "x")
    parts = [p.strip() for p in t.split("x")] if "x" in t else [t]
    try:
        vals = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"a base is a diameter (32) or width x depth (25x50) in mm, not {text!r}") from None
    if len(vals) not in (1, 2) or any(not (0 < v <= MAX_BASE_MM) for v in vals):
        raise ValueError(f"a base is a diameter (32) or width x depth (25x50) in mm, each from 0 to "
                         f"{MAX_BASE_MM:.0f}, not {text!r}")
    return vals[0] if len(vals) == 1 else (vals[0], vals[1])


def format_base(base: Any) -> str:
    """The text :func:`parse_base` reads back: ``"25x50"``, ``"32"``, ``"oval 60x35"``."""
    def n(v: Any) -> str:
        return f"{float(v):g}"
    b = base_of(base)
    if isinstance(b, RoundBase):
        return n(b.diameter_mm)
    return f"{'oval ' if isinstance(b, OvalBase) else ''}{n(b.width_mm)}x{n(b.depth_mm)}"


def set_base(unit: Unit, base: Any) -> Unit:
    """The unit on new bases. Rank-and-file: a rectangle ``(w, d)`` (a single number makes a
    square); the tray keeps its front midpoint. Skirmish: a diameter or ``(w, d)``; models that
    carry their own base keep it; centres stay."""
    if isinstance(base, (int, float)):
        return replace(unit, base=RectBase(float(base), float(base)) if unit.is_ranked else RoundBase(float(base)))
    return replace(unit, base=RectBase(float(base[0]), float(base[1])))


def set_files(unit: Unit, files: int) -> Unit:
    """The rank-and-file unit ``files`` wide, keeping its front midpoint (unlike a reform, which
    keeps the tray's centre). Raises ValueError for a skirmish unit or files outside 1..models."""
    if not unit.is_ranked:
        raise ValueError("only rank-and-file units have files")
    if not 1 <= int(files) <= max(1, unit.count):
        raise ValueError(f"files must be from 1 to {unit.count} (got {files})")
    u = replace(unit, files=int(files))
    return replace(u, empty=[s for s in u.empty if _slot_within(u, s)])


def renamed(unit: Unit, name: str) -> Unit:
    """The unit with display name ``name`` (stripped; may not be empty, nor hold what a file's
    name may not: a line break or other control character, more than 200 characters);
    raises ValueError."""
    name = str(name).strip()
    if not name:
        raise ValueError("a name may not be empty")
    why = text_problem(name)
    if why:
        raise ValueError(f"the name {why}")
    return replace(unit, name=name)


def with_player(unit: Unit, player: int) -> Unit:
    """The unit given to ``player`` (1 or 2)."""
    if player not in (1, 2):
        raise ValueError(f"player must be 1 or 2 (got {player})")
    return replace(unit, player=int(player))


def duplicate(board: Board, unit: Unit, offsets_mm: Iterable[g.Point] = ()) -> list[Unit]:
    """Copies of ``unit`` with a fresh id and " (copy)" added to the name, one per table
    offset in ``offsets_mm`` (default: beside it to the right, left, behind, in front, with a
    25.4 mm gap); the caller keeps the first that fits."""
    x0, y0, x1, y1 = _bbox(unit)
    w, h = x1 - x0, y1 - y0
    gap = g.MM_PER_INCH
    offs = list(offsets_mm) or [(w + gap, 0.0), (-(w + gap), 0.0), (0.0, h + gap), (0.0, -(h + gap)),
                                (w + gap, h + gap), (-(w + gap), h + gap)]
    uid = unique_id(board, unit.id + "_2" if not re.search(r"_\d+$", unit.id) else unit.id)
    out = []
    for dx, dy in offs:
        out.append(replace(unit.translated(dx, dy), id=uid, name=(unit.name or unit.id) + " (copy)"))
    return out


def _bbox(unit: Unit) -> tuple[float, float, float, float]:
    shapes = [unit.tray()] if unit.is_ranked else [m.shape for m in unit.models()]
    boxes = [s.bbox() for s in shapes] or [(0.0, 0.0, 0.0, 0.0)]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def without_unit(board: Board, unit_id: str) -> Board:
    """A copy of ``board`` without unit ``unit_id`` (context lists naming it keep their other
    entries). Raises KeyError if there is no such unit."""
    board.unit(unit_id)
    ctx = dict(board.context)
    for k in ("charged", "fights_first"):
        if isinstance(ctx.get(k), list):
            ctx[k] = [x for x in ctx[k] if x != unit_id]
    if ctx.get("round_winner") == unit_id:
        del ctx["round_winner"]
    return replace(board.without([unit_id]), context=ctx)
