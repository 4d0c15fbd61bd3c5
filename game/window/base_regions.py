"""Where each unit lies on the window's base layer, in px, so a part of it can be drawn again.

:class:`Regions` is built from what a :class:`~game.render.pygame_canvas.PygameCanvas` noted while the
base was drawn whole (``painted``: ``(tag, pygame.Rect)`` of every drawing call, the box it may
have changed). Each tag names what it drew (:mod:`game.render` sets ``canvas.tag``); the tag
says whose it is (:func:`owners`):

* the table, its terrain, objectives and scale bar: drawn again in any region redrawn;
* a unit's tray, bases, marks, label, badge ... (``tray:<unit>``, ``model:<model>``,
  ``gap:<model>|<model>``, ...): the unit (or units) it belongs to;
* anything else (no tag, an unknown kind): nobody's, so a region it touches cannot be drawn
  again unit by unit (:meth:`Regions.clear_of_unknown` says no; the base is drawn whole).

A unit's region is the union of the boxes of everything drawn for it (px, ``pygame.Rect``).
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from game.core.board import unit_of

TABLE_KINDS = frozenset({"table", "scale_bar", "terrain", "objective"})
# tags whose text after the kind is a unit or model id, then maybe ``:more`` (``slot:<model>:<i>``)
UNIT_KINDS = frozenset({"tray", "front", "label", "badge", "empty", "model", "ghost", "slotmove", "differ",
                        "overlap", "move", "count", "divide", "movelen", "reach", "locked", "removed",
                        "one_attack", "slot", "gap", "gapletter"})
_OWNERS: dict[str, Optional[tuple[str, ...]]] = {}


def owners(tag: str) -> Optional[tuple[str, ...]]:
    """The unit ids a drawing tagged ``tag`` belongs to: ``()`` for the table (terrain,
    objectives, scale bar), None for a tag of no known kind. ``gap:a|b`` belongs to both
    units; ``gapletter:<text>:a|b`` too."""
    hit = _OWNERS.get(tag, _OWNERS)
    if hit is not _OWNERS:
        return hit  # type: ignore[return-value]
    kind, _, rest = tag.partition(":")
    out: Optional[tuple[str, ...]]
    if kind in TABLE_KINDS:
        out = ()
    elif kind in UNIT_KINDS and rest:
        ids = rest.rsplit(":", 1)[-1] if kind == "gapletter" else rest.split(":", 1)[0]
        out = tuple(dict.fromkeys(unit_of(m) for m in ids.split("|") if m)) or None
    else:
        out = None
    if len(_OWNERS) > 200_000:
        _OWNERS.clear()
    _OWNERS[tag] = out
    return out


class Regions:
    """The px regions of the units on a base layer (see the module doc): ``of`` unit id ->
    ``pygame.Rect`` (union of its drawing), ``unknown``: boxes drawn by no known owner; sorted
    out of ``painted`` on first use (a base drawn whole for a zoom, a pan or a settle is often
    never taken apart, and sorting 2000 models' boxes costs about as much as noting them)."""

    def __init__(self, painted: list[tuple[str, Any]], units: Iterable[str]):
        self._painted: Optional[list] = painted  # (sorted out on first use: a base drawn whole
        self._units = set(units)  # for a zoom or a settle is often never taken apart)
        self._of: dict[str, Any] = {}
        self._unknown: list[Any] = []

    @property
    def of(self) -> dict[str, Any]:
        self._build()
        return self._of

    @property
    def unknown(self) -> list[Any]:
        self._build()
        return self._unknown

    def _build(self) -> None:
        painted, self._painted = self._painted, None
        if painted is None:
            return
        on_board = self._units
        by_tag: dict[str, list] = {}
        for tag, r in painted:  # (grouped by tag first: one owner look-up per tag)
            lst = by_tag.get(tag)
            if lst is None:
                by_tag[tag] = [r]
            else:
                lst.append(r)
        per: dict[str, list] = {}
        unknown: list[Any] = []
        for tag, rs in by_tag.items():
            who = owners(tag)
            if who is None or not on_board.issuperset(who):
                unknown += [r for r in rs if r.w and r.h]
                continue
            for u in who:
                q = per.get(u)
                if q is None:
                    per[u] = list(rs)
                else:
                    q += rs
        of: dict[str, Any] = {}
        for u, rs in per.items():
            rs = [r for r in rs if r.w and r.h]  # (an empty box: nothing drawn, a shape off the surface)
            if rs:
                of[u] = rs[0].unionall(rs[1:])
        self._of, self._unknown = of, unknown

    def regions(self, uids: Iterable[str], pad: int = 2) -> list[Any]:
        """Px boxes covering every drawing of the units ``uids`` (each grown by ``pad``): one
        per unit, those that overlap merged into one (so two units far apart give two small
        boxes, not one across the table); empty when none of them was drawn."""
        out = [self.of[u].inflate(2 * pad, 2 * pad) for u in uids if u in self.of]
        merged = True
        while merged and len(out) > 1:
            merged = False
            for i in range(len(out)):
                j = out[i].collidelist(out[i + 1:])
                if j >= 0:
                    out[i] = out[i].union(out.pop(i + 1 + j))
                    merged = True
                    break
        return out

    def clear_of_unknown(self, rect: Any) -> bool:
        """Does ``rect`` touch no drawing of unknown owner?"""
        return rect.collidelist(self.unknown) < 0

    def touching(self, rect: Any, uids: Iterable[str]) -> set[str]:
        """The units of ``uids`` with a drawing inside ``rect``."""
        of = self.of
        return {u for u in uids if u in of and of[u].colliderect(rect)}

    def forget(self, uids: Iterable[str]) -> None:
        """The units ``uids`` are no longer drawn on the base."""
        for u in uids:
            self.of.pop(u, None)
