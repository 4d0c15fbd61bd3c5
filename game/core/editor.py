"""The window's edits as pure commands, with one collision policy.

Each command takes a :class:`~game.core.board.Board` (never changed) and returns a
:class:`Change`: the new board and the sentence the status line shows, or ``board=None`` and
the reason it was refused. The window records the old board in its history and shows the
new one; tests call these directly.

Collision policy (:class:`Editor`): an edit may not leave a unit overlapping another by more
than ``tol_mm`` (or by more than it already did); moves and wheels stop at base contact
(bisection to within ``flush_mm``) instead of being refused. Lengths in table mm, angles in
degrees clockwise from north. No pygame, no pymunk.
"""
from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from game.core import edits as ed
from game.core import geometry as g
from game.core import manoeuvre as mv
from game.core.board import Board, Unit, parse_slot
from game.core.validate import MAX_CAPTION, MAX_TITLE, text_problem

OVERLAP_TOL_MM = 0.5
FLUSH_MM = 0.01   # how far a move or wheel may sink into another unit when it stops at contact
LAST_RANK = ("left", "center", "right")
_KEEP = object()


def fmt_distance(mm: float) -> str:
    """``'2.5" (63.5 mm)'``: inches first (the table's unit), millimetres after."""
    return f'{mm / g.MM_PER_INCH:.1f}" ({mm:.1f} mm)'


@dataclass
class Change:
    """The result of a command: ``board`` (None: refused), the status ``message``, the
    distance the edited unit moved (``moved``: ``(unit id, mm)`` or None) and the unit to
    select afterwards (``select``: a unit id, None to clear, or left as it is)."""

    board: Optional[Board]
    message: str
    moved: Optional[tuple[str, float]] = None
    select: Any = _KEEP

    @property
    def ok(self) -> bool:
        return self.board is not None

    @property
    def selects(self) -> bool:
        return self.select is not _KEEP


def refused(message: str) -> Change:
    return Change(None, message)


def _shapes(unit: Unit) -> list[g.Shape]:
    return [unit.tray()] if unit.is_ranked else [m.shape for m in unit.models()]


def n_models(u: Unit) -> int:
    """Models a unit holds now (casualty slots left out)."""
    return len(u.occupied_slots()) if u.is_ranked else len(u.placed)


def placed_message(u: Unit) -> str:
    """The status line of a unit just placed: its name, and its player unless the name says it
    (a name of an older file "Infantry 1 (P1)": "Placed Infantry 1 (P1); F2 edits it.";
    "Placed Infantry 2 for player 2; F2 edits it.")."""
    who = "" if f"(P{u.player})" in (u.name or "") else f" for player {u.player}"
    return f"Placed {u.name}{who}; F2 edits it."


class Editor:
    """Commands on a board under one collision policy (``tol_mm`` overlap allowed)."""

    def __init__(self, tol_mm: float = OVERLAP_TOL_MM, flush_mm: float = FLUSH_MM):
        self.tol_mm = float(tol_mm)
        self.flush_mm = float(flush_mm)

    # -- collision policy --------------------------------------------------------------------
    def penetration(self, board: Board, unit: Unit) -> float:
        """Deepest overlap (mm, >= 0) of ``unit`` (in its new pose) with every other body of
        ``board``: other units, and for a skirmisher the other models of its own unit."""
        worst = 0.0
        mine = _shapes(unit)
        for other in board.units:
            if other.id == unit.id:
                if unit.is_ranked:
                    continue
                pairs = [(a, b) for i, a in enumerate(mine) for j, b in enumerate(mine) if j > i]
            else:
                pairs = [(a, b) for a in mine for b in _shapes(other)]
            for a, b in pairs:
                if g.bbox_gap(a.bbox(), b.bbox()) <= 0:
                    worst = max(worst, -g.gap_mm(a, b))
        return worst

    def blocker(self, board: Board, unit: Unit) -> Optional[Unit]:
        """The first other unit ``unit`` (in its new pose) overlaps by more than the tolerance."""
        mine = _shapes(unit)
        for other in board.units:
            if other.id == unit.id:
                continue
            for a in mine:
                for b in _shapes(other):
                    if g.bbox_gap(a.bbox(), b.bbox()) <= 0 and g.gap_mm(a, b) < -self.tol_mm:
                        return other
        return None

    def fits(self, board: Board, unit: Unit, tol_mm: Optional[float] = None) -> bool:
        """True when ``unit`` in its new pose overlaps others by at most ``tol_mm`` (default:
        the policy's tolerance), or by no more than it already did."""
        tol = self.tol_mm if tol_mm is None else tol_mm
        try:
            before = self.penetration(board, board.unit(unit.id))
        except KeyError:
            before = 0.0
        return self.penetration(board, unit) <= max(tol, before + 1e-6)

    def clamp(self, board: Board, make: Callable[[float], Unit], amount: float) -> tuple[float, Unit]:
        """The largest fraction of ``amount`` for which ``make(x)`` fits flush (bisection), and
        that unit: moves stop at base contact instead of sinking into the other unit."""
        full = make(amount)
        if self.fits(board, full, self.flush_mm):
            return amount, full
        lo, hi = 0.0, 1.0
        for _ in range(24):
            mid = (lo + hi) / 2
            if self.fits(board, make(amount * mid), self.flush_mm):
                lo = mid
            else:
                hi = mid
        return amount * lo, make(amount * lo)

    def group_shift(self, others: Board, units: Sequence[Unit], start_pen: dict, good: g.Point,
                    want: g.Point) -> g.Point:
        """How far (mm, ``(dx, dy)`` from the drag's start) a group dragged together may go
        toward ``want`` from the last shift that fitted, ``good``: the units (``units``, in
        their poses at the start) moved by ``want`` when none then overlaps a unit of
        ``others`` (the board without the group) by more than the tolerance, or by more than it
        did at the start (``start_pen`` ``{unit id: mm}``: escaping an overlap is allowed,
        deepening it is not); else the farthest point toward ``want`` (bisection) where they
        stand flush. The same no-overlap rule as one unit's drag and as :meth:`move_group`."""
        def fits(d: g.Point, tol: float) -> bool:
            return all(self.penetration(others, u.translated(d[0], d[1])) <= max(tol, start_pen.get(u.id, 0.0) + 1e-6)
                       for u in units)
        if fits(want, self.tol_mm):
            return want
        lo, hi = 0.0, 1.0
        for _ in range(16):
            mid = (lo + hi) / 2
            if fits((good[0] + (want[0] - good[0]) * mid, good[1] + (want[1] - good[1]) * mid), self.flush_mm):
                lo = mid
            else:
                hi = mid
        return (good[0] + (want[0] - good[0]) * lo, good[1] + (want[1] - good[1]) * lo)

    def replace(self, board: Board, new: Unit, message: str, moved_mm: float = 0.0) -> Change:
        """``board`` with ``new`` in place of the unit of its id, unless it would overlap another."""
        if not self.fits(board, new):
            b = self.blocker(board, new)
            return refused(f"{new.name} cannot do that: {b.name if b else 'another unit'} is in the way.")
        return Change(board.with_unit(new), message, (new.id, moved_mm) if moved_mm else None)

    @staticmethod
    def _unit(board: Board, uid: str) -> Unit:
        return board.unit(uid)

    # -- manoeuvres ----------------------------------------------------------------------------
    def turn(self, board: Board, uid: str, deg: float) -> Change:
        """Turn unit ``uid`` ``deg`` clockwise about its centre. A unit in base contact whose
        turn would sink a corner into the enemy turns and steps straight back just enough to
        stay in contact (the move only slides away), instead of being refused."""
        u = board.unit(uid)
        new = mv.turn(u, deg)
        msg = f"{u.name} turned to face {(u.facing_deg + deg) % 360:.0f} deg."
        if self.fits(board, new) or self.penetration(board, u) > self.tol_mm:
            return self.replace(board, new, msg)
        reach = max(u.width_mm, u.depth_mm) if u.is_ranked else 50.0
        if not self.fits(board, mv.forward(new, -reach)):
            return self.replace(board, new, msg)  # backing off does not free it: the usual refusal
        lo, hi = 0.0, reach
        for _ in range(30):
            mid = (lo + hi) / 2
            if self.fits(board, mv.forward(new, -mid), self.flush_mm):
                hi = mid
            else:
                lo = mid
        return self.replace(board, mv.forward(new, -hi), msg[:-1] + f", stepping back {fmt_distance(hi)} to stay in "
                                                                   "contact.", hi)

    def forward(self, board: Board, uid: str, distance_mm: float) -> Change:
        """Move unit ``uid`` straight forward (back if negative), stopping at contact."""
        u = board.unit(uid)
        d, new = self.clamp(board, lambda x: mv.forward(u, x), distance_mm)
        word = "forward" if distance_mm > 0 else "back"
        if abs(d) < 0.05:
            return refused(f"{u.name} cannot move {word}: something is in the way.")
        note = "" if abs(d - distance_mm) < 1e-6 else " (stopped at contact)"
        return self.replace(board, new, f"{u.name} moved {fmt_distance(abs(d))} {word}{note}.", abs(d))

    def wheel(self, board: Board, uid: str, deg: float, pivot: str) -> Change:
        """Wheel unit ``uid`` ``deg`` (clockwise +) about its front-``pivot`` corner, up to contact."""
        u = board.unit(uid)
        if not u.is_ranked:
            return refused("Only rank-and-file units wheel; turn skirmishers with Q/E.")
        a, new = self.clamp(board, lambda x: mv.wheel(u, x, pivot), deg)
        if abs(a) < 0.01:
            return refused(f"{u.name} cannot wheel that way: something is in the way.")
        d = mv.wheel_distance_mm(u, a)
        return self.replace(board, new, f"{u.name} wheeled {abs(a):.0f} deg about its front-{pivot} corner, "
                                        f"{fmt_distance(d)}.", d)

    def reform(self, board: Board, uid: str, delta_files: int) -> Change:
        """Reform unit ``uid`` ``delta_files`` files wider (narrower if negative) about its centre."""
        u = board.unit(uid)
        if not u.is_ranked:
            return refused("Only rank-and-file units reform.")
        try:
            new = mv.reform(u, u.files + delta_files)
        except ValueError as exc:
            return refused(f"Cannot reform {u.name}: {exc}.")
        return self.replace(board, new, f"{u.name} reformed {new.files} wide, {new.ranks} deep.")

    def charge(self, board: Board, charger_id: str, target_id: str, align: bool = True) -> Change:
        """Charge ``charger_id`` into contact with ``target_id`` (see :func:`manoeuvre.charge`):
        aligned flush with the facing charged, or (``align=False``) straight ahead keeping the
        charger's angle, a misaligned contact (falls back to aligning when that line misses)."""
        c, t = board.unit(charger_id), board.unit(target_id)
        if c.player == t.player:
            return refused(f"{t.name} is a friend; charge an enemy unit.")
        try:
            new = mv.charge(c, t, align=align)
        except ValueError as exc:
            return refused(f"Cannot charge: {exc}.")
        side = mv.facing_toward(t, c.center())
        b = self.blocker(board, new)
        if b is not None:
            return refused(f"Charge refused: {c.name} would overlap {b.name} on the {side} of {t.name}.")
        d = mv.move_distance_mm(c, new)
        how = "keeping its angle" if abs((new.facing_deg - c.facing_deg + 180) % 360 - 180) < 1e-6 else "aligned"
        return self.replace(board, new, f"{c.name} charged the {side} of {t.name}, {how}: {fmt_distance(d)}.", d)

    def set_position(self, board: Board, uid: str, x_text: Any, y_text: Any) -> Change:
        """Put unit ``uid`` at ``(x, y)`` mm: a ranked unit's front centre, a skirmisher's
        model centres' mean (the point a scenario's ``front`` / a demo's ``move: to`` names)."""
        u = board.unit(uid)
        try:
            x, y = float(str(x_text).strip()), float(str(y_text).strip())
        except ValueError:
            return refused("x and y are numbers of mm (e.g. 600 and 400.5).")
        if not (math.isfinite(x) and math.isfinite(y)) or max(abs(x), abs(y)) > 1_000_000:
            return refused("x and y must be finite and at most 1 km from the table's corner.")
        c = u.front if u.is_ranked else u.center()
        new = u.translated(x - c[0], y - c[1])
        return self.replace(board, new, f"{u.name} now stands at ({x:g}, {y:g}) mm.", mv.move_distance_mm(u, new))

    def set_facing(self, board: Board, uid: str, text: Any) -> Change:
        """Face unit ``uid`` ``text`` degrees (clockwise from north), turning about its front
        centre (ranked) or its centre (skirmish), so the position field keeps its value."""
        u = board.unit(uid)
        try:
            deg = float(str(text).strip()) % 360
        except ValueError:
            return refused("Facing is a number of degrees clockwise from north (0 = up the page).")
        if not math.isfinite(deg):
            return refused("Facing must be a finite number of degrees.")
        pivot = u.front if u.is_ranked else u.center()
        new = u.rotated(deg - u.facing_deg, pivot)
        return self.replace(board, new, f"{u.name} now faces {deg:g} deg.")

    def move_group(self, board: Board, uids: list, dx: float, dy: float) -> Change:
        """Move the units ``uids`` together by ``(dx, dy)`` mm (refused when one would then
        overlap a unit outside the group)."""
        return self._group(board, uids, lambda u: u.translated(dx, dy),
                           f"{len(uids)} units moved {fmt_distance(math.hypot(dx, dy))}.")

    def turn_group(self, board: Board, uids: list, deg: float) -> Change:
        """Turn the units ``uids`` together ``deg`` clockwise about the centre of their centres."""
        cs = [board.unit(u).center() for u in uids]
        pivot = (sum(c[0] for c in cs) / len(cs), sum(c[1] for c in cs) / len(cs))
        return self._group(board, uids, lambda u: u.rotated(deg, pivot), f"{len(uids)} units turned {deg:g} deg together.")

    def _group(self, board: Board, uids: list, make: Callable[[Unit], Unit], message: str) -> Change:
        if not uids:
            return refused("Select units first (Shift+click adds one, a box drag on the table selects several).")
        out = board
        for uid in uids:
            out = out.with_unit(make(board.unit(uid)))
        others = out.without(uids)
        for uid in uids:
            b = self.blocker(others, out.unit(uid))
            if b is not None:
                return refused(f"{out.unit(uid).name} would overlap {b.name}; the group stays.")
        return Change(out, message)

    def add_unit(self, board: Board, u: Unit) -> Change:
        """``u`` (a new unit, e.g. from a template) added, unless it would overlap a unit."""
        b = self.blocker(board, u)
        if b is not None:
            return refused(f"No room there: the new unit would overlap {b.name}.")
        return Change(board.with_units((*board.units, u)), placed_message(u), select=u.id)

    def casualty(self, board: Board, p_mm: g.Point) -> Change:
        """Remove the model under ``p_mm`` as a casualty, or restore the empty slot there."""
        for u in reversed(board.units):
            if u.is_ranked:
                if not g.point_in_poly(p_mm, u.tray().points):
                    continue
                a, b = g.to_local(p_mm, u.front, u.facing_deg)
                f = int((a + u.width_mm / 2) // u.base_w) + 1
                r = int(b // u.base_d) + 1
                if not (1 <= f <= u.files and 1 <= r <= u.ranks):
                    return refused("")
                slot = f"r{r}f{f}"
                if slot in u.empty:
                    new = dataclasses.replace(u, empty=[s for s in u.empty if s != slot])
                    return self.replace(board, new, f"{u.name}: {slot} restored ({len(new.occupied_slots())} models).")
                if (r, f) not in set(u.occupied_slots()):
                    return refused(f"{u.name}: slot {slot} holds no model (it is past the last model of the unit).")
                if len(u.occupied_slots()) <= 1:
                    return refused(f"{u.name} has one model left; it stays.")
                new = dataclasses.replace(u, empty=sorted([*u.empty, slot], key=parse_slot))
                return self.replace(board, new, f"{u.name}: {slot} removed as a casualty "
                                                f"({len(new.occupied_slots())} models left; click again to restore).")
            for i, m in enumerate(u.models()):
                s = m.shape
                inside = g.dist(p_mm, s.center) <= s.radius_mm if isinstance(s, g.Circle) else \
                    g.point_in_poly(p_mm, s.points)
                if inside:
                    if len(u.placed) <= 1:
                        return refused(f"{u.name} has one model left; it stays.")
                    new = dataclasses.replace(u, placed=[pl for j, pl in enumerate(u.placed) if j != i])
                    return self.replace(board, new, f"{u.name}: {m.slot} removed as a casualty (Ctrl+Z brings it back).")
        return refused("Click a model to remove it, or an empty slot of a tray to restore it.")

    # -- unit properties -------------------------------------------------------------------------
    def unit_edit(self, board: Board, uid: str, make: Callable[[Unit], Unit],
                  label: Callable[[Unit, Unit], str]) -> Change:
        """``make`` applied to unit ``uid`` (a ValueError it raises is the refusal's reason)."""
        u = board.unit(uid)
        try:
            new = make(u)
        except ValueError as exc:
            return refused(f"{u.name}: {exc}.")
        return self.replace(board, new, label(u, new))

    def add_model(self, board: Board, uid: str) -> Change:
        return self.unit_edit(board, uid, lambda u: ed.add_model(u, free=lambda c: self.fits(board, c)),
                              lambda u, n: f"{n.name}: one model more ({n_models(n)} models).")

    def remove_model(self, board: Board, uid: str) -> Change:
        return self.unit_edit(board, uid, ed.remove_model,
                              lambda u, n: f"{n.name}: one model fewer ({n_models(n)} models).")

    def rename(self, board: Board, uid: str, name: str) -> Change:
        """Unit ``uid`` named ``name``. A unit still carrying the id the palette gave it
        (``p1_infantry_2``) takes an id from its new name too (``dwarfs``), so a saved file
        reads well; ids named anywhere else in the board keep theirs. The message names the
        unit by its names only, never by an id."""
        ch = self.unit_edit(board, uid, lambda u: ed.renamed(u, name), lambda u, n: f"Renamed {u.name} to {n.name}.")
        if ch.ok and re.fullmatch(r"p[12]_[a-z]+_\d+", uid) and uid not in repr(board.context):
            new_id = ed.unique_id(board.without([uid]), name)
            if new_id != uid and not new_id.startswith("unit"):
                assert ch.board is not None  # an edit that went through (ch.ok) has its board
                ch.board = ch.board.with_units(dataclasses.replace(u, id=new_id) if u.id == uid else u
                                               for u in ch.board.units)
                ch.select = new_id
        return ch

    def set_player(self, board: Board, uid: str, player: int) -> Change:
        if board.unit(uid).player == player:
            return refused(f"{board.unit(uid).name} already belongs to player {player}.")
        return self.unit_edit(board, uid, lambda u: ed.with_player(u, player),
                              lambda u, n: f"{n.name} now belongs to player {player}.")

    def set_base(self, board: Board, uid: str, text: str) -> Change:
        return self.unit_edit(board, uid, lambda u: ed.set_base(u, ed.parse_base(text)),
                              lambda u, n: f"{n.name} now stands on {ed.format_base(n.base)} mm bases.")

    def set_files(self, board: Board, uid: str, text: Any) -> Change:
        def make(u: Unit) -> Unit:
            try:
                files = int(str(text).strip())
            except ValueError:
                raise ValueError(f"files must be a whole number (got {str(text)[:20]!r})") from None
            return ed.set_files(u, files)
        return self.unit_edit(board, uid, make, lambda u, n: f"{n.name} is now {n.files} wide, {n.ranks} deep.")

    def set_models(self, board: Board, uid: str, text: Any) -> Change:
        """Unit ``uid`` with ``text`` models (rank-and-file: the count; skirmish: models added
        beside the last or the last ones removed)."""
        def make(u: Unit) -> Unit:
            try:
                n = int(str(text).strip())
            except ValueError:
                raise ValueError(f"models must be a whole number (got {str(text)[:20]!r})") from None
            if not 1 <= n <= ed.MAX_MODELS:
                raise ValueError(f"models must be from 1 to {ed.MAX_MODELS}")
            if u.is_ranked:
                return dataclasses.replace(u, count=n + len(u.empty), files=min(u.files, n + len(u.empty)))
            new = u
            while len(new.placed) < n:
                new = ed.add_model(new, free=lambda c: self.fits(board, c))
            while len(new.placed) > n:
                new = ed.remove_model(new)
            return new
        return self.unit_edit(board, uid, make, lambda u, n: f"{n.name}: {n_models(n)} models.")

    def set_last_rank(self, board: Board, uid: str, where: str) -> Change:
        """Where the incomplete last rank of unit ``uid`` stands: left, center or right."""
        def make(u: Unit) -> Unit:
            if not u.is_ranked:
                raise ValueError("only rank-and-file units have a last rank")
            if where not in LAST_RANK:
                raise ValueError(f"the last rank stands left, centre (center) or right (got {where!r})")
            return dataclasses.replace(u, last_rank=where, empty=[])
        word = "centre" if where == "center" else where  # the format's value, said in British
        return self.unit_edit(board, uid, make, lambda u, n: f"{n.name}: the last rank stands at the {word}.")

    def set_profile(self, board: Board, uid: str, key: str, text: Any, whole: bool = True) -> Change:
        """Profile value ``key`` of unit ``uid`` (``""`` removes it). ``whole``: a whole number
        from 0 to 99, else a text value (a size class)."""
        def make(u: Unit) -> Unit:
            new = dataclasses.replace(u, profile=dict(u.profile))  # (its own profile, changed below)
            t = str(text).strip()
            if not t:
                new.profile.pop(key, None)
                return new
            if whole:
                try:
                    v = int(t)
                except ValueError:
                    raise ValueError(f"{key} must be a whole number (got {t[:20]!r})") from None
                if not 0 <= v <= 99:
                    raise ValueError(f"{key} must be from 0 to 99 (got {v})")
                new.profile[key] = v
            else:
                new.profile[key] = t[:40]
            return new
        return self.unit_edit(board, uid, make,
                              lambda u, n: f"{n.name}: {key} {n.profile.get(key, '(not set)')}.")

    def set_parts(self, board: Board, uid: str, text: str) -> Change:
        """The parts of a multi-part model: ``"rider 2/4, mount 1/3"`` (name attacks/agility);
        ``""`` makes it one part again."""
        def make(u: Unit) -> Unit:
            new = dataclasses.replace(u, profile=dict(u.profile))  # (its own profile, changed below)
            t = str(text).strip()
            if not t:
                new.profile.pop("parts", None)
                return new
            parts = []
            for item in t.split(","):
                bits = item.split()
                if len(bits) != 2 or bits[1].count("/") != 1:
                    raise ValueError(f"parts look like 'rider 2/4, mount 1/3' (name attacks/agility), not {item.strip()[:30]!r}")
                try:
                    a, s = (int(x) for x in bits[1].split("/"))
                except ValueError:
                    raise ValueError(f"attacks and agility of {bits[0][:20]!r} must be whole numbers") from None
                parts.append({"name": bits[0][:20], "attacks": a, "agility": s})
            new.profile["parts"] = parts
            return new
        return self.unit_edit(board, uid, make, lambda u, n: f"{n.name}: {len(n.profile.get('parts', []))} part(s).")

    def set_keywords(self, board: Board, uid: str, text: str) -> Change:
        """Keywords of unit ``uid`` from comma- or space-separated ``text``."""
        def make(u: Unit) -> Unit:
            words = [w.strip() for w in str(text).replace(",", " ").split() if w.strip()]
            if any(len(w) > 40 or not w.isprintable() for w in words):
                raise ValueError("a keyword is a printable word of up to 40 characters")
            return dataclasses.replace(u, keywords=words)
        return self.unit_edit(board, uid, make,
                              lambda u, n: f"{n.name}: keywords {', '.join(n.keywords) or '(none)'}.")

    def set_extra(self, board: Board, uid: str, key: str, value: Optional[str]) -> Change:
        """A key a ruleset reads beyond the contract (``troop_type``, ``weapon``); None removes it."""
        def make(u: Unit) -> Unit:
            extra = dict(u.extra)
            if value in (None, ""):
                extra.pop(key, None)
            else:
                extra[key] = str(value)
            return dataclasses.replace(u, extra=extra)
        return self.unit_edit(board, uid, make, lambda u, n: f"{n.name}: {key} {n.extra.get(key, '(default)')}.")

    # -- units ------------------------------------------------------------------------------------
    def duplicate(self, board: Board, uid: str) -> Change:
        """A copy of unit ``uid`` beside it (the first free place right, left, behind, in front)."""
        u = board.unit(uid)
        for c in ed.duplicate(board, u):
            if self.blocker(board, c) is None and on_table(board, c):
                return Change(board.with_units((*board.units, c)), f"Duplicated {u.name} as {c.name}.", select=c.id)
        return refused(f"There is no free room beside {u.name} for a copy.")

    def delete(self, board: Board, uid: str) -> Change:
        u = board.unit(uid)
        return Change(ed.without_unit(board, uid), f"Deleted {u.name} (Ctrl+Z brings it back).", select=None)

    def place(self, board: Board, choice: ed.BaseChoice, p_mm: g.Point, player: int,
              profile: Optional[dict] = None) -> Change:
        """A new unit of ``choice`` centred on ``p_mm`` (refused where it overlaps a unit)."""
        u = ed.new_unit(board, choice, p_mm, player, profile=profile)
        b = self.blocker(board, u)
        if b is not None:
            return refused(f"No room there: the new unit would overlap {b.name}.")
        return Change(board.with_units((*board.units, u)), placed_message(u), select=u.id)

    # -- the board ------------------------------------------------------------------------------
    @staticmethod
    def set_title(board: Board, text: str) -> Change:
        """The scenario's title: one line (runs of spaces and line breaks become one space) of
        at most :data:`~game.core.validate.MAX_TITLE` characters, as the file format allows."""
        t = " ".join(str(text).split())
        why = text_problem(t, max_len=MAX_TITLE)
        if why:
            return refused(f"The title {why}.")
        return Change(dataclasses.replace(board, title=t), f"Title: {t}." if t else "The title is cleared.")

    @staticmethod
    def set_caption(board: Board, text: str) -> Change:
        """The figure caption (saved as the scenario's ``caption``; shown under the title of
        exports): line breaks kept (trailing spaces of each line and blank lines at the ends
        dropped), at most :data:`~game.core.validate.MAX_CAPTION` characters, as the format allows."""
        t = caption_text(text)
        why = text_problem(t, max_len=MAX_CAPTION, multiline=True)
        if why:
            return refused(f"The caption {why}.")
        extra = dict(board.extra)
        if t.strip():
            extra["caption"] = t
        else:
            extra.pop("caption", None)
        return Change(dataclasses.replace(board, extra=extra), "Caption set." if t.strip() else "The caption is cleared.")

    @classmethod
    def set_title_caption(cls, board: Board, title: str, caption: str) -> Change:
        """The title and caption form: only a field the user changed is checked and set (an
        untouched caption from the file is kept as it is, whatever its length); one change."""
        out: Board = board
        said: list[str] = []
        if " ".join(str(title).split()) != board.title:
            ch = cls.set_title(out, title)
            if ch.board is None:
                return ch
            out, said = ch.board, said + [ch.message]
        old_caption = str(board.extra.get("caption") or "")
        if caption_text(caption) != caption_text(old_caption):  # a line break added or taken is a change
            ch = cls.set_caption(out, caption)
            if ch.board is None:
                return ch
            out, said = ch.board, said + [ch.message]
        if out is board:
            return Change(board, "")
        return Change(out, " ".join(said))

    @staticmethod
    def set_ruleset(board: Board, rid: str) -> Change:
        return Change(dataclasses.replace(board, ruleset=rid), "")


def caption_text(text: str) -> str:
    """A caption as it is kept: line breaks kept (CRLF read as one), trailing spaces of each
    line and blank lines at the ends dropped."""
    return "\n".join(line.rstrip() for line in str(text).replace("\r\n", "\n").split("\n")).strip("\n")


def on_table(board: Board, u: Unit) -> bool:
    """True when the unit's centre lies within one table size of the table."""
    c = u.center()
    w, h = board.table
    return -w <= c[0] <= 2 * w and -h <= c[1] <= 2 * h and math.isfinite(c[0]) and math.isfinite(c[1])
