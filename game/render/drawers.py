"""The drawer registry: one drawer per part type, used by every view.

An analysis carries typed parts (:mod:`game.core.parts`). Each drawn part type registers here
one :class:`PartDrawer`: how it is drawn (``draw(painter, part, analysis)`` at a ``stage`` of
the scene), its legend rows (``legend(part, ctx)`` at a place ``legend_at`` of the legend), its
hover lines (``hover(part, model_id)``) and whether it marks the whole table (``table_wide``:
the window's retained layers redraw such boards whole). The window, step views, demos,
figures, compare panels, retained layers, legend and tooltip all go through
:func:`drawn_parts` / :func:`legend_parts` / :func:`part_hover_lines`, so every view draws the same
parts with the same marks and words. A part type without a drawer of its own takes its
nearest base type's (an engine's ``FightingRanks`` is drawn as the core ``OutlinedRows``);
a part with none (a :class:`~game.core.parts.DataPart`) is only written to the JSON.

Stages of :func:`game.render.scene.draw_scene`, back to front: ``table`` (over the terrain,
under the units), ``under`` (under the bases), ``moves`` (over the bases and the marks on them:
move arrows), ``over`` (over the move arrows), ``ranks`` (over the trays and front markers;
returns the ids of models it numbered, so the generic ``×N`` skips them), ``gaps`` (over the
``×N`` counts: gap links), ``labels`` (placed with the unit labels). Legend places: ``marks``
(after the role rows), ``gaps`` (after the dividing-attacks row), ``moves`` (after the print
style's empty places), ``rows`` (after the generic rows), ``order`` (after the players: the
strike order section), ``strike`` (inside it: the strike order's drawer lists them),
``sections`` (after it).

Drawers live in :mod:`game.render.part_marks`; this module only holds the registry and the
legend item type, so the legend and scene import it without a cycle.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import AbstractSet, Any, Callable, Iterator, Optional

from game.core.parts import Part

STAGES = ("table", "under", "moves", "over", "ranks", "gaps", "labels")
LEGEND_PLACES = ("marks", "gaps", "moves", "rows", "order", "strike", "sections")


@dataclass
class LegendItem:
    """One legend entry: ``kind`` ``heading``, ``row`` (a ``swatch`` kind and ``text``),
    ``para`` (wrapped text, ``dim`` greyed) or ``space`` (``units`` of blank)."""

    kind: str
    text: str = ""
    swatch: str = ""
    dim: bool = False
    units: float = 0.0


@dataclass(frozen=True)
class LegendContext:
    """What a part's legend rows may use: ``shown`` drawn models in the picture, their
    ``shown_ids`` and units (``units_shown``), ``names`` (unit id -> caption), ``moves`` shown
    (model id -> path), the scene ``options``, the whole ``analysis`` and the ids of drawn
    models ``cropped`` out of the picture (models never drawn, such as embarked ones, are
    not cropped: the window lists them too)."""

    shown: list
    shown_ids: AbstractSet[str]
    units_shown: AbstractSet[str]
    names: dict
    moves: dict
    options: Any
    analysis: Any
    cropped: frozenset = frozenset()


@dataclass(frozen=True)
class PartDrawer:
    """How one part type shows (see the module doc); every field optional."""

    draw: Optional[Callable[[Any, Any, Any], Any]] = None
    stage: str = "over"
    legend: Optional[Callable[[Any, LegendContext], list]] = None
    legend_at: str = "rows"
    hover: Optional[Callable[[Any, str], Optional[str]]] = None
    table_wide: bool = False


_REGISTRY: dict[type, PartDrawer] = {}


def register(kind: type, **how: Any) -> PartDrawer:
    """Register the drawer of part type ``kind`` (replacing any); ``how``: :class:`PartDrawer` fields.
    Raises ``ValueError`` for an unknown stage or legend place."""
    d = PartDrawer(**how)
    if d.stage not in STAGES or d.legend_at not in LEGEND_PLACES:
        raise ValueError(f"{kind.__name__}: stage {d.stage!r} / legend_at {d.legend_at!r}")
    _REGISTRY[kind] = d
    return d


def drawer_of(kind: type) -> Optional[PartDrawer]:
    """The drawer of ``kind`` or of its nearest registered base type (None: not drawn)."""
    for t in kind.__mro__:
        if t in _REGISTRY:
            return _REGISTRY[t]
    return None


def _parts(analysis: Any) -> Iterator[Part]:
    parts = analysis.parts if analysis is not None and hasattr(analysis, "parts") else ()
    return iter(parts)


def drawn_parts(analysis: Any, stage: str) -> list[tuple[PartDrawer, Part]]:
    """(drawer, part) of every part of ``analysis`` drawn at ``stage``, in the analysis' order."""
    out = []
    for p in _parts(analysis):
        d = drawer_of(type(p))
        if d is not None and d.draw is not None and d.stage == stage:
            out.append((d, p))
    return out


def legend_parts(analysis: Any, place: str, ctx: LegendContext) -> list[LegendItem]:
    """Legend items of every part of ``analysis`` listed at ``place``."""
    out: list[LegendItem] = []
    for p in _parts(analysis):
        d = drawer_of(type(p))
        if d is not None and d.legend is not None and d.legend_at == place:
            out += d.legend(p, ctx) or []
    return out


def part_hover_lines(analysis: Any, model_id: str) -> list[str]:
    """Tooltip lines the parts of ``analysis`` add for ``model_id``."""
    out = []
    for p in _parts(analysis):
        d = drawer_of(type(p))
        line = d.hover(p, model_id) if d is not None and d.hover is not None else None
        if line:
            out.append(line)
    return out


def wide_parts(analysis: Any) -> list:
    """The parts of ``analysis`` that mark the whole table (fight order, slots, reach), empty
    ones left out (they mark nothing)."""
    out = []
    for p in _parts(analysis):
        d = drawer_of(type(p))
        if d is not None and d.table_wide and p.to_json():
            out.append(p)
    return out


def table_wide(analysis: Any) -> bool:
    """Does ``analysis`` hold a part that marks the whole table (fight order, slots, reach)?"""
    return bool(wide_parts(analysis))
