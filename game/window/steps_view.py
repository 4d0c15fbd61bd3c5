"""The phase-steps view of the window: a read-only walk through the steps of a phase.

For rulesets whose boards step through a phase (the rule-system adapter says which), N / P
show the board as it stands after each step with that step's analysis and caption; Home or
Esc goes back to the editable table. The steps are computed once per board and ruleset.
"""
from __future__ import annotations

from typing import Any, Optional

from game.core.scenario import dump_scenario

from game.render.scene import DrawnModel, drawn_models, model_at


class StepsView:
    """``steps``: ``[(caption, board, analysis)]``; ``index`` the one shown."""

    def __init__(self) -> None:
        self.steps: Optional[list] = None
        self.index = 0
        self.models: list[DrawnModel] = []
        self._key: Optional[tuple] = None
        self._cache: Optional[list] = None

    @property
    def active(self) -> bool:
        return self.steps is not None

    def enter(self, app: Any, index: int = 0) -> bool:
        """Show step ``index`` of the board's phase (computed once per board and ruleset)."""
        if not app.rules.has_steps(app.rs):
            names = ", ".join(app.rules.load(r).name for r in app.rules.ids() if app.rules.has_steps(app.rules.load(r)))
            app.message = (f"Stepping through the phase is for {names or 'rulesets with phase steps'} boards; this "
                           f"one is analysed under {app.rs.id} (R switches the ruleset).")
            return False
        app.finish_drag()
        key = (dump_scenario(app.board), app.rs.id)
        if self._key != key:
            try:
                self._cache = app.rules.steps(app.board, app.rs, app.services)
            except Exception as exc:  # noqa: BLE001
                app.show_error("the phase steps failed", exc)
                return False
            self._key = key
        if not self._cache:
            app.message = "This board has no phase steps to show."
            return False
        self.steps = self._cache
        self.index = max(0, min(index, len(self.steps) - 1))
        self._show(app)
        return True

    def step(self, app: Any, delta: int) -> None:
        """Next (``+1``) or previous (``-1``) step; from the board, N or P shows step 1."""
        if self.steps is None:
            self.enter(app, 0)
            return
        i = self.index + delta
        if i < 0:
            self.leave(app)
            return
        if i >= len(self.steps):
            n = len(self.steps)
            app.message = f"That was the last step ({n} of {n}). P goes back, Home leaves."
            return
        self.index = i
        self._show(app)

    def _show(self, app: Any) -> None:
        _, board, analysis = self.steps[self.index]
        self.models = drawn_models(board, analysis)
        app.hover = None
        app.message = f"Step {self.index + 1} of {len(self.steps)}: N next, P back, Home or Esc: back to the board."
        if getattr(self.steps[self.index], "kind", "") == "strike":
            app.message += " Click a model to mark it as a casualty of this step (again to unmark)."

    def marks(self) -> dict:
        """The current step's teaching marks: ``dim`` (not acting now) and ``fallen`` ids."""
        st = self.steps[self.index]
        return {"dim": list(getattr(st, "dim", ())), "fallen": list(getattr(st, "fallen", ()))}

    def click(self, app: Any, p_mm: Any) -> bool:
        """At a combat round's strike step, mark the model under ``p_mm`` as a casualty of the
        step, or unmark it: an undoable edit of the board's ``context.casualties`` (``{step
        label: {unit id: [slots]}}``); the round is worked out again from there. Returns False
        when this step takes no casualties or no model is there."""
        st = self.steps[self.index]
        if getattr(st, "kind", "") != "strike":
            return False
        dm = model_at(self.models, p_mm)
        if dm is None:
            app.message = "Click a model to mark it as a casualty of this step."
            return True
        uid, slot = dm.id.split(".", 1)
        board = app.board.copy()
        ctx = dict(board.context or {})
        cas = {str(k): dict(v) for k, v in (ctx.get("casualties") or {}).items()}
        step = cas.setdefault(st.label, {})
        listed = step.get(uid)
        listed = list(listed) if isinstance(listed, list) else []
        if slot in listed:
            listed.remove(slot)
            what = f"{dm.id} unmarked"
        else:
            listed.append(slot)
            what = f"{dm.id} marked as a casualty at {st.label}"
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
        board.context = ctx
        app.session.apply(board)
        app.recompute()
        index = self.index
        self.enter(app, index)
        app.message = f"{what} (Ctrl+Z undoes). N shows what follows."
        return True

    def leave(self, app: Any, quiet: bool = False) -> None:
        """Back to the editable board."""
        if self.steps is None:
            return
        self.steps = None
        self.models = []
        if not quiet:
            app.message = "Back to the editable board."

    def shown(self) -> tuple:
        _, b, a = self.steps[self.index]
        return b, a, self.models

    def caption(self) -> str:
        return f"{self.index + 1}/{len(self.steps)}  {self.steps[self.index][0]}"

    def title(self, board_title: str, name: str) -> str:
        return f"Step {self.index + 1} of {len(self.steps)}: {board_title or name}"

    def mode(self, name: str) -> str:
        label = getattr(self.steps[self.index], "label", "")
        return f"[{name} step {self.index + 1}/{len(self.steps)}{': ' + label if label else ''}]"
