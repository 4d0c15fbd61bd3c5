"""Rulesets in the window (mixed into :class:`game.window.app.App`): switching the board's
ruleset (R, the drop-down; an undoable edit), the rulesets it cannot use and why, and compare
mode (K) against a second ruleset. Every rule-system question goes to the window's
:class:`~game.window.rulesystems.RuleSystems` adapter."""
from __future__ import annotations

from typing import Optional

from game.core.ruleset import RulesetError


class RulesMixin:
    def usable_rulesets(self) -> list[str]:
        return self.rules.usable(self.board, self.rs.id)

    def set_ruleset(self, rid: str) -> bool:
        """Analyse the board under ruleset ``rid`` (an undoable edit of the board's ruleset)."""
        if rid == self.rs.id:
            return False
        try:
            rs = self.rules.load(rid)
        except RulesetError as exc:
            self.banner = str(exc)
            return False
        why = self.rules.unavailable_reason(self.board, rid, self.rs.id)
        if why:
            self.message = f"{rs.name} ({rid}) {why}."
            return False
        from game.core.compare import differences

        before, old = self.live.analysis, self.rs.id
        self.apply(self.editor.set_ruleset(self.board, rs.id))
        n = len(differences(before, self.live.analysis))
        self.message = (f"Ruleset {rs.name} ({rs.id}): {n} model{'s' if n != 1 else ''} fight differently than under "
                        f"{old}. R cycles, Ctrl+Z goes back.")
        return True

    def cycle_ruleset(self, step: int = 1) -> bool:
        """Switch to the next (``step`` 1) or previous (-1) ruleset this board can use; the
        message names the rulesets skipped and why."""
        choices = self.rules.choices(self.board, self.rs.id)
        ids = [r for r, _ in choices]
        i = ids.index(self.rs.id) if self.rs.id in ids else -1
        skipped = []
        for k in range(1, len(ids) + 1):
            rid, why = choices[(i + step * k) % len(ids)]
            if rid == self.rs.id:
                break
            if why:
                skipped.append(f"skipped {rid}: {why}")
                continue
            ok = self.set_ruleset(rid)
            if ok and skipped:
                self.message += " (" + "; ".join(skipped) + ")"
            return ok
        self.message = "No other ruleset can analyse this board" + (" (" + "; ".join(skipped) + ")." if skipped else ".")
        return False

    def set_compare(self, rid: Optional[str]) -> None:
        """Compare mode against ruleset ``rid`` (None: off)."""
        if rid == self.rs.id or (rid is not None and rid not in self.usable_rulesets()):
            rid = self.rules.compare_partner(self.board, self.rs.id)
        self.live.compare_id = rid
        self.recompute()
        self.refresh_toolbar()
        if rid is None:
            self.message = "Compare mode off."
        else:
            self.message = (f"Compare mode: {len(self.live.diffs)} model(s) fight differently under {rid} (hatched, "
                            f"ringed in yellow; hover one to read how). Shift+K picks another ruleset, K turns it off.")

    def toggle_compare(self) -> None:
        self.set_compare(None if self.live.compare_id else self.rules.compare_partner(self.board, self.rs.id))

    def cycle_compare(self) -> None:
        others = [x for x in self.usable_rulesets() if x != self.rs.id]
        if others:
            i = others.index(self.live.compare_id) if self.live.compare_id in others else -1
            self.set_compare(others[(i + 1) % len(others)])

