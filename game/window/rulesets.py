"""Rulesets in the window: switching the board's ruleset (R, the ruleset chooser; an undoable
edit), the rulesets it cannot use and why, and compare mode (K) against a second ruleset.
Every rule-system question goes to the document's
:class:`~game.window.rulesystems.RuleSystems` adapter; the window never names a rule system.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from game.core.names import plural
from game.core.compare import differences
from game.core.ruleset import RulesetError
from game.window.dialogs import DialogsSection, rules_dialog
from game.window.status import Status

if TYPE_CHECKING:
    from game.window.document import Document
    from game.window.steps_view import StepsView
    from game.window.table_view import TableView


#: the longest menu row (characters) that fits the chooser's 520 px buttons; a longer one names
#: the ruleset by its ``short_name`` instead (the tip keeps the full name)
MENU_CHARS = 62


class RulesetCommands:
    """The ruleset and compare commands on ``doc`` (edits go through ``table.apply``)."""

    def __init__(self, doc: Document, status: Status, dialogs: DialogsSection, table: TableView,
                 steps: StepsView) -> None:
        self.doc, self.status, self.dialogs, self.table, self.steps = doc, status, dialogs, table, steps

    def usable(self) -> list[str]:
        """The rulesets this board can be analysed under."""
        return self.doc.rules.usable(self.doc.board, self.doc.rs.id)

    def set_ruleset(self, rid: str) -> bool:
        """Analyse the board under ruleset ``rid`` (an undoable edit of the board's ruleset)."""
        doc = self.doc
        if rid == doc.rs.id:
            return False
        try:
            rs = doc.rules.load(rid)
        except RulesetError as exc:
            self.status.warn(str(exc))
            return False
        why = doc.rules.unavailable_reason(doc.board, rid, doc.rs.id)
        if why:
            self.status.say(f"{rs.name} ({rid}) {why}.")
            return False
        # a unit held in a drag is put down first: the drag is its own edit, undone apart from
        # the switch (the board the drag began on still names the old ruleset)
        self.table.finish_drag()
        before, old = doc.live.analysis, doc.rs.id
        self.table.apply(doc.editor.set_ruleset(doc.board, rs.id))
        after = doc.live.analysis
        # a count of differences says something only where some model fights under either ruleset
        fights = any(m.role != "none" for a in (before, after) if a is not None for m in a.models.values())
        n = len(differences(before, after)) if fights else 0
        said = f": {plural(n, 'model')} fight{'s' if n == 1 else ''} differently than under {old}" if fights else ""
        self.status.say(f"Ruleset {rs.name} ({rs.id}){said}. R cycles, Ctrl+R chooses, Ctrl+Z goes back.")
        return True

    def cycle(self, step: int = 1) -> bool:
        """Switch to the next (``step`` 1) or previous (-1) ruleset this board can use; the
        message names the rulesets skipped and why."""
        self.steps.leave(quiet=True)
        doc = self.doc
        choices = doc.rules.choices(doc.board, doc.rs.id)
        ids = [r for r, _ in choices]
        i = ids.index(doc.rs.id) if doc.rs.id in ids else -1
        skipped = []
        for k in range(1, len(ids) + 1):
            rid, why = choices[(i + step * k) % len(ids)]
            if rid == doc.rs.id:
                break
            if why:
                skipped.append(f"skipped {rid}: {why}")
                continue
            ok = self.set_ruleset(rid)
            if ok and skipped:
                self.status.add(" (" + "; ".join(skipped) + ")")
            return ok
        self.status.say("No other ruleset can analyse this board" + (" (" + "; ".join(skipped) + ")." if skipped
                                                                     else "."))
        return False

    def menu(self) -> None:
        """The ruleset chooser: every shipped ruleset; those this board cannot use are greyed
        out, with the reason in their tip and beside their name."""
        doc = self.doc
        choices = doc.rules.choices(doc.board, doc.rs.id)
        if self.dialogs.gui is None:
            self.status.say("; ".join(f"{r}: {why or 'usable'}" for r, why in choices))
            return
        greyed = [f"{r} {why}" for r, why in choices if why]
        self.status.say("Choose a ruleset" + (" (greyed: " + "; ".join(greyed) + ")." if greyed else "."))
        rows = []
        for rid, why in choices:
            rs = doc.rules.load(rid) if not why.startswith("cannot") else None
            name = rs.name if rs is not None else rid
            short = doc.rules.short_reason(doc.board, rid, doc.rs.id)
            tail = " (in use)" if rid == doc.rs.id else f" ({short})" if why else ""
            text = f"{rid}: {name}{tail}"
            if len(text) > MENU_CHARS and rs is not None:  # never cut a name: the ruleset's short name
                text = f"{rid}: {rs.short}{tail}"
            rows.append((text, rid, f"{rid}: {name}; {why}" if why else name, not why and rid != doc.rs.id))

        def done(rid: str) -> None:
            self.steps.leave(quiet=True)
            self.set_ruleset(rid)

        self.dialogs.open(rules_dialog(self.dialogs.gui, rows, done))

    # -- compare mode ----------------------------------------------------------------------------
    def set_compare(self, rid: Optional[str]) -> None:
        """Compare mode against ruleset ``rid`` (None: off)."""
        doc = self.doc
        if rid == doc.rs.id or (rid is not None and rid not in self.usable()):
            rid = doc.rules.compare_partner(doc.board, doc.rs.id)
        doc.live.compare_id = rid
        doc.recompute()
        doc.notify("ruleset")
        if rid is None:
            self.status.say("Compare mode off.")
        else:
            self.status.say(f"Compare mode: {plural(len(doc.live.diffs), 'model')} {'fights' if len(doc.live.diffs) == 1 else 'fight'} differently under {rid} (hatched, "
                            f"ringed in yellow; hover one to read how). Shift+K picks another ruleset, K turns it off.")

    def toggle_compare(self) -> None:
        doc = self.doc
        self.set_compare(None if doc.live.compare_id else doc.rules.compare_partner(doc.board, doc.rs.id))

    def cycle_compare(self) -> None:
        others = [x for x in self.usable() if x != self.doc.rs.id]
        if others:
            i = others.index(self.doc.live.compare_id) if self.doc.live.compare_id in others else -1
            self.set_compare(others[(i + 1) % len(others)])
