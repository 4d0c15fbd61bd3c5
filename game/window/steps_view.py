"""The steps view: a read-only walk through the steps of a phase.

For rulesets whose boards step through a phase (the rule-system adapter says which), N / P
show the board as it stands after each step with that step's analysis, caption and teaching
marks; Home or Esc goes back to the table view. The steps are computed once per board and
ruleset. It draws with the table view's camera and options (the same table, seen at a
step), shares its sections (toolbar, panels, dialogs), and leaves whenever the board is
edited. Keys that would edit the board are refused here (Ctrl+key leaves, then runs); a click
at a combat round's strike step marks a casualty (an undoable edit of ``context.casualties``);
at a step where a player chooses (``kind`` ``choose``), a click on another unit they could have
chosen chooses it (an undoable edit of the step's ``choice_key`` context list).
"""
from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Optional

import pygame

from game.core.board import unit_of
from game.core.names import humanize, model_name, unit_names
from game.core.scenario import dump_scenario
from game.render.drawn import DrawnModel, drawn_models, model_at
from game.render.marks import Marks
from game.window.actions import Actions
from game.window.keymap import STEP_SAFE
from game.window.view import View

if TYPE_CHECKING:
    from game.window.table_view import Scene, TableView


#: what the window adds to a step's caption where a player chose among units (the step's own
#: caption, as a demo exports it to PNG or HTML, says only who could have been selected)
CHOOSE_HOW = " Click one of their models to choose it."

class StepsView(View):
    """``steps``: ``[(caption, board, analysis)]`` while shown (None on the table); ``index`` the one shown."""

    def __init__(self, table: TableView) -> None:
        super().__init__()
        self.table, self.doc, self.status = table, table.doc, table.status
        self.steps: Optional[list] = None
        self.index = 0
        self.models: list[DrawnModel] = []
        self.hover: Optional[str] = None
        self._key: Optional[tuple] = None
        self._cache: Optional[list] = None
        table.doc.listeners.append(self._follow)

    @property
    def active(self) -> bool:
        return self.steps is not None

    def _follow(self, what: str) -> None:
        if what in ("edited", "adopted"):
            self.leave(quiet=True)

    def register(self, actions: Actions) -> None:
        actions.add_prefix("step", lambda a: self.step(int(a)))
        actions.add("board", self.leave)

    def name(self) -> str:
        return self.doc.rules.steps_name(self.doc.rs)

    def enter(self, index: int = 0) -> bool:
        """Show step ``index`` of the board's phase (computed once per board and ruleset)."""
        doc, rules = self.doc, self.doc.rules
        if not rules.has_steps(doc.rs):
            names = ", ".join(rules.load(r).name for r in rules.ids() if rules.has_steps(rules.load(r)))
            self.status.say(f"Stepping through the phase is for {names or 'rulesets with phase steps'} boards; this "
                            f"one is analysed under {doc.rs.id} (R switches the ruleset).")
            return False
        self.table.finish_drag()
        key = (dump_scenario(doc.board), doc.rs.id)
        if self._key != key:
            try:
                self._cache = rules.steps(doc.board, doc.rs)
            except Exception as exc:  # noqa: BLE001
                self.status.error("the phase steps failed", exc)
                return False
            self._key = key
        if not self._cache:
            self.status.say("This board has no phase steps to show.")
            return False
        self.steps = self._cache
        self.index = max(0, min(index, len(self.steps) - 1))
        self._show()
        self.table.window.show_view(self)
        return True

    def step(self, delta: int) -> None:
        """Next (``+1``) or previous (``-1``) step; from the board, N or P shows step 1."""
        if self.steps is None:
            self.enter(0)
            return
        i = self.index + delta
        if i < 0:
            self.leave()
            return
        if i >= len(self.steps):
            n = len(self.steps)
            self.status.say(f"That was the last step ({n} of {n}). P goes back, Home leaves.")
            return
        self.index = i
        self._show()

    def _show(self) -> None:
        assert self.steps is not None
        _, board, analysis = self.steps[self.index]
        self.models = drawn_models(board, analysis)
        self.hover = None
        self.status.say(f"Step {self.index + 1} of {len(self.steps)}: N next, P back, Home or Esc: back to the board.")
        if getattr(self.steps[self.index], "kind", "") == "strike":
            self.status.add(" Click a model to mark it as a casualty of this step (again to unmark).")

    def marks(self) -> dict:
        """The current step's teaching marks: ``dim`` (not acting now) and ``fallen`` ids."""
        assert self.steps is not None
        st = self.steps[self.index]
        return {"dim": list(st.dim), "fallen": list(st.fallen)}

    def click(self, p_mm: Any) -> bool:
        """At a combat round's strike step, mark the model under ``p_mm`` as a casualty of the
        step, or unmark it: an undoable edit of the board's ``context.casualties`` (``{step
        label: {unit id: [slots]}}``); the round is worked out again from there. Returns False
        when this step takes no casualties or no model is there."""
        assert self.steps is not None
        st = self.steps[self.index]
        if st.kind == "choose":
            return self.choose(st, p_mm)
        if st.kind != "strike":
            return False
        dm = model_at(self.models, p_mm)
        if dm is None:
            self.status.say("Click a model to mark it as a casualty of this step.")
            return True
        uid, slot = dm.id.split(".", 1)
        board = self.doc.board
        ctx = dict(board.context or {})
        cas = {str(k): dict(v) for k, v in (ctx.get("casualties") or {}).items()}
        step = cas.setdefault(st.label, {})
        listed = step.get(uid)
        listed = list(listed) if isinstance(listed, list) else []
        names = unit_names(self.doc.board)
        if slot in listed:
            listed.remove(slot)
            what = f"{model_name(dm.id, names)} unmarked"
        else:
            listed.append(slot)
            what = f"{model_name(dm.id, names)} marked as a casualty at {humanize(st.label, names)}"
        if listed:
            step[uid] = listed
        else:
            step.pop(uid, None)
        if not step:
            cas.pop(st.label, None)
        if cas:
            ctx["casualties"] = cas
        else:
            ctx.pop("casualties", None)
        self.doc.session.apply(dataclasses.replace(board, context=ctx))
        self.doc.recompute()
        self.doc.notify("caption")
        self.enter(self.index)
        self.status.say(f"{what} (Ctrl+Z undoes). N shows what follows.")
        return True

    def choose(self, st: Any, p_mm: Any) -> bool:
        """At a step where a player chooses (a unit selected to fight, say), a click on a model
        of another unit they could have chosen chooses that one instead: an undoable edit of the
        board's ``context[st.choice_key]`` (the units chosen before this step, then this one,
        then the rest as they were); the phase is worked out again and shown at this step."""
        dm = model_at(self.models, p_mm)
        uid = unit_of(dm.id) if dm is not None else None
        if uid not in st.choices:
            names = unit_names(self.doc.board)
            self.status.say(f"Click a model of {', '.join(names.get(c, c) for c in st.choices)} to choose that unit "
                            "at this step.")
            return True
        board = self.doc.board
        ctx = dict(board.context or {})
        old = [u for u in (ctx.get(st.choice_key) or []) if isinstance(u, str)]
        first = list(st.chosen_before) + [uid]
        ctx[st.choice_key] = first + [u for u in old if u not in first]
        self.doc.session.apply(dataclasses.replace(board, context=ctx))
        self.doc.recompute()
        self.doc.notify("caption")
        self.enter(self.index)
        self.status.say(f"{unit_names(self.doc.board).get(str(uid), str(uid))} chosen at this step (Ctrl+Z undoes). N shows what "
                        "follows.")
        return True

    def leave(self, quiet: bool = False) -> None:
        """Back to the table view."""
        if self.steps is None:
            return
        self.steps = None
        self.models = []
        self.table.window.show_view(self.table)
        if not quiet:
            self.status.say("Back to the editable board.")

    def shown(self) -> Scene:
        assert self.steps is not None
        _, b, a = self.steps[self.index]
        return b, a, self.models

    def position(self) -> Optional[tuple[int, int]]:
        """(index, count) of the step shown, or None on the table."""
        return (self.index, len(self.steps)) if self.steps is not None else None

    def caption(self) -> str:
        assert self.steps is not None
        st = self.steps[self.index]
        how = CHOOSE_HOW if getattr(st, "kind", "") == "choose" and len(getattr(st, "choices", ())) > 1 else ""
        return f"{self.index + 1}/{len(self.steps)}  {st[0]}{how}"

    def title(self) -> str:
        assert self.steps is not None
        return f"Step {self.index + 1} of {len(self.steps)}: {self.doc.board.title or self.name()}"

    def mode(self) -> str:
        assert self.steps is not None
        label = getattr(self.steps[self.index], "label", "")
        return f"[{self.name()} step {self.index + 1}/{len(self.steps)}{': ' + label if label else ''}]"

    # -- the view ----------------------------------------------------------------------------------
    def on_event(self, ev: Any) -> bool:
        t = self.table
        if ev.type == pygame.KEYDOWN:
            mod = getattr(ev, "mod", 0)
            ctrl = bool(mod & (pygame.KMOD_CTRL | pygame.KMOD_META))
            action = t.keymap.action(ev.key, ctrl, bool(mod & pygame.KMOD_SHIFT))
            if action is None:
                return True
            if not action.startswith(STEP_SAFE):
                if not ctrl:
                    self.status.say(f"This is a {self.name()} step: N / P step, Home or Esc goes back to the board "
                                    "to edit it.")
                    return True
                self.leave(quiet=True)
            t.actions.run(action)
            return True
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            if t.in_table_area(ev.pos) and not self.click(t.camera.to_mm(ev.pos)):
                self.status.say("This is a phase step, not the board: Home or Esc goes back to edit it.")
            return True
        return t.on_event(ev)  # pan, zoom, the wheel: as on the table

    def allows_button(self, action: str) -> bool:
        """A toolbar button pressed on a step: True when it works on the step itself (stepping,
        help, files); any other leaves the steps view first."""
        return action in ("step:-1", "step:1", "board", "help") or \
            action.startswith(("save", "export", "open", "new", "title", "@"))

    def on_update(self) -> None:
        self.table.step_tools()
        self.hover = self.table.hover_at(self.models)

    def on_draw(self, screen: Any) -> None:
        self.table.paint(self.shown(), self.hover,
                         step=(self.title(), self.mode(), Marks(caption=self.caption(), **self.marks())))

    def on_error(self, what: str, exc: BaseException) -> str:
        return self.table.on_error(what, exc)

    def fingerprint(self) -> tuple:
        return (self.status.message, self.status.banner, self.hover, self.index)

    def busy(self) -> bool:
        return self.table.busy()
