"""The Warhammer 40,000 Fight phase as a click-through, one picture per step (seeds/003).

Steps: start of the phase; pile-in by the active player, then by the opponent; one step per
unit selected to fight (an overrun fight shows its pile-in first, then the fight with its
casualties removed; a destroyed transport's passengers get their own emergency-disembark
step); consolidation by the active player, then by the opponent, and any enemy unit an
engaging consolidation newly engaged is selected to fight. Captions are our own words citing
the rule by name; every number in them comes from the ruleset.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional, Union

from game.core.analysis import Analysis
from game.core.board import Board
from game.core.parts import FightSelection, FightSequence, MoveReach, OffTable, Removed, StrikeStep
from game.core.ruleset import Ruleset
from game.core.strategy import PhaseStep
from game.engines.engagement_range import engine as w
from game.engines.engagement_range.fight import Selection, fight_sequence, strike_order
from game.engines.engagement_range.parts import Consolidation, DestroyedModels, SelectedToFight, StepCaption
from game.engines.engagement_range.moves import consolidation_step, pile_in_step
from game.engines.engagement_range.table import Params, Table, ordinal, other


class _Steps:
    def __init__(self, board: Board, rs: Ruleset):
        self.board, self.rs = board, rs
        self.p = Params.of(rs)
        self.out: list[Union[PhaseStep, tuple[str, Board, Analysis]]] = []
        self.names = {u.id: u.name or u.id for u in board.units}
        self.objectives = [tuple(o) for o in (board.context or {}).get("objectives") or []]

    def n(self, uid: str) -> str:
        """A unit's name for a caption (captions name units, never ids)."""
        return self.names.get(uid, uid)

    def ns(self, uids) -> str:
        return ", ".join(self.n(u) for u in uids)

    def target(self, t: str) -> str:
        """A move's target in words: a unit's name, or "objective" (numbered when there are several)."""
        if t in self.names:
            return self.n(t)
        for i, o in enumerate(self.objectives, start=1):
            if t == f"objective at ({o[0]:.0f}, {o[1]:.0f})":
                return "objective" if len(self.objectives) == 1 else f"objective {i}"
        return t

    def snap(self, caption: str, step: str, tab: Optional[Table], reports: dict, *, seq: Optional[list] = None,
             only: Optional[str] = None, moves: Optional[dict] = None, reach: Optional[float] = None,
             extra: tuple = (), choose: Optional[Selection] = None) -> None:
        assert tab is not None, "a step is drawn on a table"
        b = tab.to_board()
        b = replace(b, context=dict(b.context, step=step))
        a = Analysis(ruleset=self.rs.id)
        w.apply_moves(a, reports)
        a.add_moves({mid: list(path) for mid, path in (moves or {}).items()})
        w.results(self.board, tab, self.p, a, reports, only_unit=only)
        if seq is not None:
            a.put(FightSequence(tuple(FightSelection.of(s.entry) for s in seq)))
            a.strike_order = [StrikeStep.of(s) for s in strike_order(seq, tab)]
        if a.moves:
            a.put(MoveReach(round(reach or self.p.pile_in_mm, 3)))
        if step == "consolidate":
            a.put(Consolidation({u: r.mode for u, r in reports.items()}))
        a.put(StepCaption(caption), OffTable(w.off_table(self.board, tab)), *extra)
        if choose is not None and len(choose.pool) > 1 and seq is not None:
            # the player chose this unit: a click on another of theirs chooses it instead
            # (``context.fight_order``, the units selected before it first)
            before = tuple(s.entry["unit"] for s in seq[:choose.entry["order"] - 1])
            self.out.append(PhaseStep(caption, b, a, kind="choose", choices=choose.pool, choice_key="fight_order",
                                      chosen_before=before))
            return
        self.out.append((caption, b, a))

    def offer(self, s: Selection) -> str:
        """The caption's note of the player's choice (Fight: the player selects which unit fights)."""
        others = [u for u in s.pool if u != s.entry["unit"]]
        if not others:
            return ""
        return f" Player {s.entry['player']} could select {self.ns(others)} instead."  # words for any page: the window adds how to choose


def fight_phase_steps(board: Board, rs: Ruleset) -> list[Union[PhaseStep, tuple[str, Board, Analysis]]]:
    """``[(caption, board, analysis), ...]`` for the Fight phase of ``board`` (pure).

    Each board is the table after that step (``context.step`` set accordingly); each
    analysis holds the moves of that step and the roles of the unit acting in it. Steps: the
    start, the pile-ins, one or two per unit selected to fight, the consolidations.
    """
    S = _Steps(board, rs)
    ctx = dict(board.context)
    active = int(ctx.get("active_player", 1) or 1)
    t = Table(board)
    _start_step(S, t, ctx)
    _pile_in_steps(S, t, ctx, active)
    seq = fight_sequence(t, S.p, ctx)
    last = t
    for s in seq:
        _fight_steps(S, s, seq, last, active)
        last = s.table
    _consolidation_steps(S, last, ctx, seq, active)
    return S.out


def _start_step(S: _Steps, t: Table, ctx: dict) -> None:
    """The start of the phase: who has Fights First (and which chargers pile in unengaged)."""
    p = S.p
    charged = sorted(set(ctx.get("charged") or []) & set(t.units))
    ff = sorted((set(ctx.get("charged") or []) | set(ctx.get("fights_first") or [])) & set(t.units))
    unengaged = [u for u in charged if not t.engaged_with(u, p.er_mm)]
    cap = "Start of the Fight phase: "
    if ff:
        cap += f"{S.ns(ff)} {'is' if len(ff) == 1 else 'are'} Fights First"
        if charged:
            cap += f" ({S.ns(charged)} charged this turn, so {'it is' if len(charged) == 1 else 'they are'} eligible to pile in"
            cap += f", {S.ns(unengaged)} even though unengaged)" if unengaged else ")"
        cap += "."
    else:
        cap += "no unit has Fights First this phase."
    S.snap(cap, "pile_in", t, {})


def _pile_in_steps(S: _Steps, t: Table, ctx: dict, active: int) -> None:
    """Pile In by the active player, then by the opponent (moving ``t``'s models)."""
    p = S.p
    pile = p.say_in("pile_in_in")
    for who, pl in (("active player", active), ("opponent", other(active))):
        reps = pile_in_step(t, p, ctx, players=[pl])
        moved = [u for u, r in reps.items() if r.paths]
        held = [u for u, r in reps.items() if not r.paths]
        txt = f"Pile In, player {pl} ({who}): "
        if moved:
            txt += f"{S.ns(moved)} move up to {pile} to engage as many models as they can"
            txt += "; models in base contact stay put"
        for u in held:
            locked = len(reps[u].locked) == len(t.by_unit.get(u, [])) and reps[u].locked
            txt += ("; " if txt[-2:] != ": " else "") + (
                f"{S.n(u)} is in base contact with enemy models, so it is not moved" if locked else
                f"{S.n(u)}: no model needs to or can move")
        if not reps:
            txt += "no unit is eligible"
        S.snap(txt + f" ({p.rules['pile_in_in']}).", "pile_in", t, reps)


def _consolidation_steps(S: _Steps, t: Table, ctx: dict, seq: list[Selection], active: int) -> None:
    """Consolidate by the active player, then by the opponent; an enemy unit an Engaging
    Consolidation newly engaged that had not fought is selected to fight (appended to ``seq``)."""
    p = S.p
    fought = {s.entry["unit"] for s in seq}
    eligible = fought | set(ctx.get("charged") or []) | {u for u in t.units if t.engaged_with(u, p.er_mm)}
    for who, pl in (("active player", active), ("opponent", other(active))):
        reps = consolidation_step(t, p, ctx, players=[pl], eligible=eligible)
        parts = []
        for u, r in reps.items():
            to = ", ".join(S.target(x) for x in r.targets)
            how = {"ongoing": "Ongoing Consolidation towards " + to,
                   "engaging": "Engaging Consolidation into " + to,
                   "objective": "Objective Consolidation onto the " + to,
                   "none": "no enemy or objective within reach, no move"}[r.mode]
            if r.mode != "none" and not r.paths:
                how += ", no move needed or possible"
            parts.append(f"{S.n(u)} ({how})")
        txt = f"Consolidate, player {pl} ({who}): " + ("; ".join(parts) if parts else "no eligible unit")
        txt += f", each model up to {p.say_in('consolidate_in')} ({p.rules['consolidate_in']})."
        picked = w.newly_engaged(t, reps, p, fought)
        extra = (SelectedToFight.of(picked),) if picked else ()
        S.snap(txt, "consolidate", t, reps, reach=p.consolidate_mm, extra=extra)
        for d in picked:
            more = fight_sequence(t, p, {**ctx, "charged": [], "fights_first": [d["unit"]], "active_player": d["player"]},
                                  selected=set(t.units) - {d["unit"]})
            fought.add(d["unit"])
            for s in more[:1]:
                s.entry["order"] = len(seq) + 1
                s.entry["selected_by"] = "Engaging Consolidation"
                seq.append(s)
                S.snap(f"{ordinal(s.entry['order'])} selection: {S.n(d['unit'])} was newly engaged by {S.n(d['by'])}'s Engaging "
                       f"Consolidation and had not fought, so player {d['player']} selects it to fight (Engaging "
                       "Consolidation).", "fight", s.at_fight or s.table, {}, seq=seq, only=d["unit"])
                t = s.table


def _fight_steps(S: _Steps, s: Selection, seq: list[Selection], before: Table, active: int) -> None:
    e = s.entry
    p = S.p
    shown = seq[:e["order"]]
    tag = p.rules.get("fights_first_chooser", "Fights First") if e["fights_first"] else "Resolve Remaining Combats"
    head = f"{ordinal(e['order'])} selection ({tag}): player {e['player']}'s {S.n(e['unit'])}"
    if e["fight"] == "overrun":
        why = f"is unengaged but was {e.get('overrun_because', 'engaged at the start of the Fight step')}, so it " \
              "makes an overrun fight"
        if s.moves:
            S.snap(f"{head} {why}: first an extra pile-in of up to {p.say_in('pile_in_in')} to engage "
                   f"{S.ns(sorted({q.split('.')[0] for ts in s.targets.values() for q in ts})) or 'the enemy'} "
                   f"(Overrun Fight, {p.rules['pile_in_in']}).{S.offer(s)}", "fight", s.at_fight, {}, seq=shown,
                   only=e["unit"], moves=s.moves, choose=s)
        else:
            S.snap(f"{head} {why}, but cannot pile in to engage anyone (Overrun Fight).{S.offer(s)}", "fight",
                   s.at_fight, {}, seq=shown, only=e["unit"], choose=s)
        choose = None
        head = f"{ordinal(e['order'])} selection, continued: {S.n(e['unit'])}"
        how = "then fights (Overrun Fight)"
    else:
        how = "makes a normal fight (Normal Fight)" if s.attackers else "is selected but no model is engaged"
        choose = s
    out = []
    if s.destroyed:
        out.append(f"destroying {S.ns(s.destroyed)}")
    if s.killed:
        victims = sorted({k.split('.')[0] for k in s.killed})
        out.append(f"destroying {len(s.killed)} model{'s' if len(s.killed) != 1 else ''} of {S.ns(victims)} "
                   "(removed)")
    if not out and s.attackers:
        out.append("inflicting no casualties")
    cap = f"{head} {how}" + (", " + " and ".join(out) if out else "") + "." + (S.offer(s) if choose else "")
    # drawn as the unit fights, every model it destroys (whole units or some models of one)
    # standing there crossed out: destroyed models look the same at every step
    shown_at = s.at_fight or s.table
    gone = tuple(m for u in s.destroyed for m in shown_at.by_unit.get(u, [])) + tuple(
        k for k in s.killed or () if k in shown_at.pieces)
    S.snap(cap, "fight", shown_at, {}, seq=shown, only=e["unit"],
           extra=((DestroyedModels(tuple(s.killed)),) if s.killed else ())
           + ((Removed(gone, f"Destroyed by {S.n(e['unit'])}'s fight"),) if gone else ()), choose=choose)
    revealed = [u for u in s.table.units if u not in (s.at_fight or before).units]
    if revealed:
        engaged = [u for u in revealed if s.table.engaged_with(u, p.er_mm)]
        state = ("after doing so it is unengaged" if not engaged else "after doing so it is engaged")
        carrier = S.ns(sorted({str(S.board.unit(u).extra.get("embarked_in", "")) for u in revealed} - {""})) or "the carrier"
        S.snap(f"{S.ns(revealed)}: {carrier}, carrying {'it' if len(revealed) == 1 else 'them'}, was destroyed, so "
               f"{'it makes' if len(revealed) == 1 else 'they make'} an emergency disembark; {state} "
               "(Emergency Disembark).", "fight", s.table, {}, seq=shown)
