"""A combat round, step by step: strike steps, casualties falling, closing up, recalculation.

The analysis of one board says who fights and in what order. A round goes on from there:

1. **Strike steps.** The board is analysed and its strike order read (Initiative for whfb8 and
   tow, Agility Steps for t9a; a ruleset without one, like ``slots``, fights in one step).
   The first step is the highest value; each later step is the next lower value found by
   analysing the board *as it is then*, so models killed earlier no longer strike.
2. **Casualties.** At each step the user (a click, a demo's ``casualties`` action, or
   :func:`play_round`'s ``casualties``) marks the models that fall. Every model of the step
   strikes, marked or not: casualties are removed after the step, so at equal Initiative both
   sides strike before anyone is removed (whfb8 seed 002 "Equal Initiative"; tow 5.2).
3. **Removal**, by the ruleset's ``casualty_removal``: ``rear_rank`` (whfb8, t9a, tow 3.2:
   ranked units lose models from the back rank, a single rank evenly from both ends; the
   marked models only give the count) or ``as_marked`` (``slots``: the marked models go).
   Skirmish models always go as marked.
4. **Stepping forward.** With ``stepped_forward_can_attack: false`` (tow 3.3) the dead are
   counted off the ends of the fighting rank, and the models that stepped forward into those
   places cannot attack for the rest of the phase. whfb8 and t9a: they can.
5. **Closing up.** Pairs still locked in combat (``context.combats``, else every pair engaged
   when the round began) that no longer touch close up by the ruleset's ``close_up`` policy
   (:mod:`game.core.closing`). The unit that did not lose models moves.
6. **Recalculation.** With ``round_winner: most_casualties_inflicted`` (``slots``, seed 004
   "Recalculation of allocated models") a last step names the unit that removed the most
   enemy models as the round's winner (``context.round_winner``), who then counts as the
   attacker, and the board is analysed again.

Pure: stdlib and ``game.core`` only. Lengths in table mm.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Optional

from game.core import geometry as g
from game.core.analysis import Analysis, ModelResult
from game.core.analyse import analyse
from game.core.parts import StepShown, StrikeStep
from game.core.board import Board, Unit, parse_slot, slot_name, unit_of
from game.core.ruleset import Ruleset
from game.core.strategy import PhaseStep
from game.core import closing


class RoundError(ValueError):
    """A casualty list the board cannot take: ``field`` names the offending entry
    (``orcs``, ``orcs[2]``), the message says why."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


@dataclass
class RoundStep:
    """One step of a round as shown.

    ``kind``: ``strike`` (a strike step: ``striking`` model ids strike, ``fallen`` are marked
    as casualties), ``remove`` (the board after removal and closing up: ``removed`` ids of the
    board before, ``moves`` closing-up paths also in ``analysis.moves``), ``recalculate``
    (``slots``: the round's winner counts as the attacker) or ``end``. ``label``: the strike
    step's label ("Initiative 5") or a word for the others; ``number``: the strike step's
    1-based number in this round; ``cannot_attack``: models that stepped forward (tow).
    """

    kind: str
    label: str
    caption: str
    board: Board
    analysis: Analysis
    number: int = 0
    striking: list[str] = field(default_factory=list)
    fallen: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    cannot_attack: list[str] = field(default_factory=list)
    moves: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _name(board: Board, uid: str) -> str:
    try:
        u = board.unit(uid)
    except KeyError:
        return uid
    return u.name or uid


def _rule(rs: Ruleset, key: str) -> str:
    """The rule a ruleset parameter implements, or '' if the ruleset has no such parameter."""
    return rs.params[key].rule if key in rs.params else ""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _strikers(board: Board, uid: str, n: int) -> str:
    """``n`` models of unit ``uid`` as a caption names them: ``10 Knights``, ``1 model of
    Knights``, or the name alone for a unit of one model (``Giant``)."""
    try:
        whole = len(board.unit(uid).models())
    except KeyError:
        whole = -1
    name = _name(board, uid)
    if n == whole == 1:
        return name
    return f"1 model of {name}" if n == 1 else f"{n} {name}"


def _value_of(step: StrikeStep) -> Any:
    return step.step


def at_step(an: Analysis, step: StrikeStep) -> Analysis:
    """The analysis as one strike step shows it: each model striking at ``step`` with only the
    model parts striking at it (``step.parts``, ``model/part``; the attacks of those parts), so a
    step view draws what strikes at that step, not the model's total. Models whose parts all
    strike together, and every other model, are as analysed; a :class:`StepShown` part names the
    step and its strikers (the legend counts those). Returns a copy (``an`` unchanged)."""
    shown = StepShown(str(step.label or step.step), tuple(step.models))
    if not step.parts:
        return an.replaced().put(shown)
    by_model: dict[str, list[str]] = {}
    for mp in step.parts:
        m, _, part = str(mp).partition("/")
        by_model.setdefault(m, []).append(part)
    out = an.replaced(models=dict(an.models))
    for mid, names in by_model.items():
        r = an.models.get(mid)
        if r is None or not r.parts or set(names) >= set(r.parts):
            continue
        n = sum(int(r.parts.get(x, 0)) for x in names)
        out.models[mid] = dataclasses.replace(
            r, attacks=n, parts={k: v for k, v in r.parts.items() if k in names},
            why=f"At {step.label}: {' and '.join(names)} strike{'s' if len(names) == 1 else ''}, "
                f"{_plural(n, 'attack')} ({r.attacks} in the whole round). {r.why}".strip())
    return out.put(shown)


# ----- removal ------------------------------------------------------------------------------
def express(unit: Unit, keep: set[tuple[int, int]]) -> Unit:
    """A copy of ranked ``unit`` holding exactly the models in slots ``keep`` ((rank, file)):
    the fewest ranks that hold them, then the smallest model count whose layout (with the
    unit's ``last_rank``) contains them, the rest listed as ``empty``. Raises ValueError if
    ``keep`` is empty."""
    if not keep:
        raise ValueError("a unit needs at least one model")
    last = max(r for r, _ in keep)
    for k in range(1, unit.files + 1):
        u = replace(unit, count=unit.files * (last - 1) + k, empty=[])
        layout = set(u.occupied_slots())
        if keep <= layout:
            return replace(u, empty=[slot_name(r, f) for r, f in sorted(layout - keep)])
    raise AssertionError("unreachable: a full tray holds every slot")


def _rear_rank_order(unit: Unit, occupied: set[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    """The ``n`` slots removed from the back: each time a model of the rearmost rank, the one
    whose loss leaves the tidiest tray (fewest empty slots to list), then the outermost."""
    occ = set(occupied)
    out = []
    centre = (unit.files + 1) / 2
    for _ in range(min(n, len(occ) - 1)):
        last = max(r for r, _ in occ)
        row = [s for s in occ if s[0] == last]

        def cost(s: tuple[int, int]) -> tuple:
            left = occ - {s}
            return (len(express(unit, left).empty), -abs(s[1] - centre), -s[1])

        s = min(row, key=cost)
        occ.discard(s)
        out.append(s)
    return out


@dataclass
class Removal:
    """What removing a step's casualties did: the ``board`` after, ``removed`` model ids (of
    the board before), ``stepped`` models that stepped forward and cannot attack, ``lost``
    models lost per unit, ``destroyed`` units with no model left, and ``notes``."""

    board: Board
    removed: list[str] = field(default_factory=list)
    stepped: list[str] = field(default_factory=list)
    lost: Counter = field(default_factory=Counter)
    destroyed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def remove_casualties(board: Board, rs: Ruleset, fallen: list[str], analysis: Optional[Analysis] = None,
                      cannot_attack: frozenset = frozenset()) -> Removal:
    """Remove the models ``fallen`` (ids on ``board``) by the ruleset's rules (module
    docstring, items 3 and 4). ``analysis`` is the board's analysis at the step (it tells
    which models were in a fighting rank, for stepping forward). Returns a :class:`Removal`
    on a copy of the board."""
    policy = rs.p("casualty_removal")
    can_attack = rs.p("stepped_forward_can_attack")
    out = Removal(board)
    by_unit: dict[str, list[str]] = {}
    for mid in fallen:
        by_unit.setdefault(unit_of(mid), []).append(mid)
    for uid, mids in by_unit.items():
        u = out.board.unit(uid)
        out.lost[uid] += len(mids)
        if not u.is_ranked:
            drop = {int(m.split(".", 1)[1][1:]) - 1 for m in mids}
            kept = [p for i, p in enumerate(u.placed) if i not in drop]
            out.removed += [m for m in mids]
            if not kept:
                out.board = out.board.without([uid])
                out.destroyed.append(uid)
                continue
            out.board = out.board.with_unit(replace(u, placed=kept))
            continue
        occupied = set(u.occupied_slots())
        marked = {parse_slot(m.split(".", 1)[1]) for m in mids}
        if len(marked) >= len(occupied):
            out.removed += [f"{uid}.{slot_name(*s)}" for s in sorted(occupied)]
            out.board = out.board.without([uid])
            out.destroyed.append(uid)
            continue
        if policy == "rear_rank":
            gone = _rear_rank_order(u, occupied, len(marked))
        else:
            gone = sorted(marked)
        keep = occupied - set(gone)
        out.board = out.board.with_unit(express(u, keep))
        out.removed += [f"{uid}.{slot_name(*s)}" for s in gone]
        if not can_attack and analysis is not None:
            out.stepped += _stepped_forward(u, keep, len(marked), analysis, cannot_attack)
    return out


def _stepped_forward(unit: Unit, keep: set[tuple[int, int]], n: int, analysis: Analysis,
                     already: frozenset) -> list[str]:
    """tow 3.3/3.4: ``n`` casualties are counted off the ends of the unit's fighting rank(s),
    the first fighting rank first; the models standing in those places after removal stepped
    forward. Returns their ids (at most ``n``)."""
    centre = (unit.files + 1) / 2
    fighting = []
    for r, f in keep:
        mid = f"{unit.id}.{slot_name(r, f)}"
        res = analysis.models.get(mid)
        if res is not None and res.role == "attack" and mid not in already:
            fighting.append((r, -abs(f - centre), f, mid))
    fighting.sort()
    return [mid for *_, mid in fighting[:n]]


# ----- the round ----------------------------------------------------------------------------
class Round:
    """A round played step by step on a copy of ``board`` (see the module docstring).

    :meth:`strike` gives the next strike step (or None when nobody is left to strike),
    :meth:`resolve` removes the step's casualties and closes up, :meth:`finish` ends the round.
    """

    def __init__(self, board: Board, rs: Ruleset):
        self.rs = rs
        self.board = replace(board, context={k: v for k, v in (board.context or {}).items() if k != "combats"})
        self.combats = [list(p) for p in (board.context or {}).get("combats") or []]
        self.charged = set((board.context or {}).get("charged") or [])
        self.last_value: Any = None
        self.number = 0
        self.done = False
        self.cannot_attack: set[str] = set()
        self.struck: set[str] = set()
        self.lost: Counter = Counter()
        self.inflicted: Counter = Counter()
        first = self.analyse(self.board)
        if not self.combats:  # every pair engaged when the round begins stays locked in combat
            seen = set()
            for e in first.engagements:
                key = frozenset((e.unit, e.enemy))
                if key not in seen:
                    seen.add(key)
                    self.combats.append([e.unit, e.enemy])
        self.current: Optional[RoundStep] = None

    def analyse(self, board: Board) -> Analysis:
        an = analyse(board, self.rs)
        for mid in self.cannot_attack:
            r = an.models.get(mid)
            if r is not None and r.attacks:
                an.models[mid] = ModelResult(
                    role="none", attacks=0, targets=[], at=r.at,
                    why=(f"Stepped forward into the fighting rank this phase, so it cannot attack "
                         f"({_rule(self.rs, 'stepped_forward_can_attack') or 'Stepping forward'})."))
        if self.cannot_attack:
            an.strike_order = [dataclasses.replace(s, models=tuple(m for m in s.models if m not in self.cannot_attack))
                               for s in an.strike_order]
        an.strike_order = [s for s in an.strike_order if s.models]
        return an

    def _steps(self, an: Analysis) -> list[StrikeStep]:
        if an.strike_order:
            return list(an.strike_order)
        striking = tuple(m for m, r in an.models.items() if r.role in ("attack", "support") and r.attacks > 0)
        return [StrikeStep(None, "Melee", striking)] if striking else []

    def strike(self) -> Optional[RoundStep]:
        """The next strike step on the board as it is now, or None (the round is over)."""
        if self.done:
            return None
        an = self.analyse(self.board)
        steps = self._steps(an)
        if self.last_value is not None or self.number:
            steps = [s for s in steps if s.step is not None and self.last_value is not None
                     and s.step < self.last_value]
        if not steps:
            self.done = True
            return None
        s = steps[0]
        self.number += 1
        self.last_value = s.step
        striking = list(s.models)
        self.struck |= set(striking)
        units = sorted({unit_of(m) for m in striking}, key=[u.id for u in self.board.units].index)
        label = str(s.label or s.step)
        rule = _rule(self.rs, "strike_order")
        counts = [(u, sum(1 for m in striking if m.startswith(u + '.'))) for u in units]
        cap = f"{label}: " + " and ".join(_strikers(self.board, u, n) for u, n in counts) + \
            (" strikes" if len(counts) == 1 and counts[0][1] == 1 else " strike")
        if len(units) > 1 and s.step is not None:
            cap += (f" at the same time; casualties are removed after both sides have struck"
                    + (f" ({rule})." if rule else "."))
        else:
            cap += f" ({rule})." if rule else "."
        self.current = RoundStep("strike", label, cap, self.board, at_step(an, s), self.number,
                                 striking=striking)
        if s.step is None:
            self.done = True  # one melee step only
        return self.current

    def mark(self, spec: dict) -> list[str]:
        """Mark casualties of the current strike step. ``spec``: ``{unit id: [slot names or
        model ids] | N}`` (N: the first N models of the unit the step's strikers can reach, then
        any). Returns the model ids marked; raises :class:`RoundError` on a bad entry."""
        st = self.current
        if st is None:
            raise RoundError("", "no strike step to mark casualties at")
        on_board = {m.id for m in st.board.models()}
        out: list[str] = []
        for uid, v in (spec or {}).items():
            try:
                u = st.board.unit(uid)
            except KeyError:
                raise RoundError(str(uid), f"no unit {uid!r} on the board (units: "
                                           f"{', '.join(x.id for x in st.board.units)})") from None
            models = [m.id for m in u.models()]
            if isinstance(v, bool) or not isinstance(v, (int, list)):
                raise RoundError(uid, f"must be a list of models like r1f3 or a number (got {v!r})")
            if isinstance(v, int):
                if not 1 <= v <= len(models):
                    raise RoundError(uid, f"must be 1 to {len(models)} ({uid} has {len(models)} models; got {v})")
                reached = {t for m in st.striking for t in st.analysis.models[m].targets}
                pick = [m for m in models if m in reached] + [m for m in models if m not in reached]
                out += pick[:v]
                continue
            for i, x in enumerate(v):
                mid = x if isinstance(x, str) and x.startswith(uid + ".") else f"{uid}.{x}"
                if mid not in on_board:
                    raise RoundError(f"{uid}[{i}]", f"{uid} has no model {x!r} on the board")
                if mid not in out:
                    out.append(mid)
        st.fallen = out
        if out:
            per = Counter(unit_of(m) for m in out)
            st.caption += " Falling: " + ", ".join(f"{_plural(n, 'model')} of {_name(st.board, u)}"
                                                   for u, n in per.items()) + "."
            both = [m for m in out if m in set(st.striking)]
            if both:
                st.caption += f" {_plural(len(both), 'model')} marked here still strike at this step."
        return out

    def resolve(self) -> Optional[RoundStep]:
        """Remove the current step's casualties, close up, and return the ``remove`` step
        (None when nobody fell)."""
        st = self.current
        if st is None or not st.fallen:
            return None
        rm = remove_casualties(self.board, self.rs, st.fallen, st.analysis, frozenset(self.cannot_attack))
        striking_units = {unit_of(m) for m in st.striking}
        for uid, n in rm.lost.items():
            self.lost[uid] += n
            for a, b in self.combats:
                enemy = b if a == uid else a if b == uid else None
                if enemy in striking_units:
                    self.inflicted[enemy] += n
        # a model standing where one that has already struck stood loses nothing more
        rm.stepped = [m for m in rm.stepped if m not in self.struck]
        self.cannot_attack |= set(rm.stepped)
        board, moves, notes = self._close_up(rm.board, set(rm.lost))
        an = self.analyse(board)
        an.moves = closing.merge_moves(moves, an.moves)
        self.board = board
        parts = []
        removal = self.rs.p("casualty_removal")
        rule = _rule(self.rs, "casualty_removal")
        for uid, n in rm.lost.items():
            where = "from the back rank" if removal == "rear_rank" and st.board.unit(uid).is_ranked else "as marked"
            parts.append(f"{_name(st.board, uid)}: {n} {where}")
        cap = "Casualties removed: " + "; ".join(parts) + (f" ({rule})." if rule else ".")
        for uid in rm.destroyed:
            cap += f" {_name(st.board, uid)} is destroyed."
        if rm.stepped:
            cap += (f" {_plural(len(rm.stepped), 'model')} stepped forward into the fighting rank and cannot attack "
                    f"this phase ({_rule(self.rs, 'stepped_forward_can_attack')}).")
        movers = sorted({unit_of(m) for m in moves})
        for uid in movers:
            p = next(v for k, v in moves.items() if k.startswith(uid + "."))
            how = "straight forward" if self.rs.p("close_up") == "advance_along_facing" else "without turning"
            cap += (f" The units were separated, so {_name(board, uid)} moves {g.dist(p[0], p[-1]):.0f} mm {how} "
                    f"to regain contact "
                    f"({_rule(self.rs, 'close_up')}).")
        cap += " The next step is fought with what is left."
        out = RoundStep("remove", "Casualties", cap, board, an, st.number, removed=rm.removed,
                        cannot_attack=sorted(self.cannot_attack), moves=moves, notes=rm.notes + notes)
        self.current = None
        return out

    def _close_up(self, board: Board, lost: set[str]) -> tuple[Board, dict, list[str]]:
        """Close up every pair of :attr:`combats` that no longer touches; the unit that did
        not lose models moves (else a charger, else the pair's first unit)."""
        moves: dict = {}
        notes: list[str] = []
        ids = {u.id for u in board.units}
        for a, b in self.combats:
            if a not in ids or b not in ids:
                continue
            order = sorted([a, b], key=lambda u: (u in lost, u not in self.charged, u != a))
            for mover in order:
                enemy = b if mover == a else a
                shut = closing.close_up(board, self.rs, [[mover, enemy]])
                if shut.moved:
                    board = shut.board
                    moves.update(shut.moves)
                    break
                if not shut.notes:
                    break  # still touching
            else:
                notes += shut.notes
        return board, moves, notes

    def finish(self) -> RoundStep:
        """The round's last step: ``recalculate`` when the ruleset names a round winner
        (``round_winner: most_casualties_inflicted``), else ``end``."""
        lost = ", ".join(f"{_name(self.board, u)} lost {n}" for u, n in self.lost.items()) or "nobody fell"
        how = self.rs.p("round_winner")
        if how == "most_casualties_inflicted":
            ranked = self.inflicted.most_common()
            winner = ranked[0][0] if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]) else None
            board = self.board
            if winner is not None and winner in {u.id for u in board.units}:
                board = replace(board, context=dict(board.context or {}, round_winner=winner))
                cap = (f"Round over ({lost}). {_name(board, winner)} removed the most enemy models, so it won the round "
                       f"and now counts as the attacker: allocation recalculated ({_rule(self.rs, 'round_winner')}).")
            else:
                cap = (f"Round over ({lost}). No side removed more models, so no round winner: the attacker stays "
                       f"and the allocation is recalculated on what is left ({_rule(self.rs, 'round_winner')}).")
            return RoundStep("recalculate", "Recalculation", cap, board, self.analyse(board), self.number)
        return RoundStep("end", "End of round", f"End of the round: {lost}.", self.board,
                         self.analyse(self.board), self.number)


def play_round(board: Board, rs: Ruleset, casualties: Optional[dict] = None,
               strict: bool = True) -> list[RoundStep]:
    """Every step of a round on ``board``. ``casualties`` maps a strike step, by label
    ("Initiative 5") or 1-based number, to ``{unit id: [slots] | N}`` falling at that step.
    Returns strike, remove, ... and a last ``end`` or ``recalculate`` step. Raises
    :class:`RoundError` for a casualty list the board cannot take (``strict=False``: the
    entry is left out and named in the step's ``notes`` and caption)."""
    casualties = casualties or {}
    r = Round(board, rs)
    out: list[RoundStep] = []
    while True:
        st = r.strike()
        if st is None:
            break
        spec = casualties.get(st.label, casualties.get(st.number, casualties.get(str(st.number))))
        if spec:
            try:
                r.mark(spec)
            except RoundError as exc:
                if strict:
                    raise RoundError(f"{st.label}.{exc.field}" if exc.field else st.label, exc.message) from None
                st.notes.append(f"casualties {exc.field}: {exc.message}; left out")
                st.caption += f" (Casualties listed for {exc.field} left out: {exc.message}.)"
        out.append(st)
        rm = r.resolve()
        if rm is not None:
            out.append(rm)
    out.append(r.finish())
    return out


def round_phase_steps(board: Board, rs: Ruleset) -> list:
    """The round as the window's phase steps (:class:`game.core.strategy.PhaseStep`): strike
    steps dim the models not striking and cross out the ones falling. Casualties come from
    the board's ``context.casualties`` (``{step label: {unit id: [slots] | N}}``), which the
    window edits by clicks; entries the board cannot take are left out and said so."""
    spec = (board.context or {}).get("casualties") or {}
    out = []
    for st in play_round(board, rs, spec, strict=False):
        dim: tuple = ()
        if st.kind == "strike":
            striking = set(st.striking)
            dim = tuple(m.id for m in st.board.models() if m.id not in striking)
        out.append(PhaseStep(st.caption, st.board, st.analysis, dim=dim, fallen=tuple(st.fallen),
                             kind=st.kind, label=st.label))
    return out
