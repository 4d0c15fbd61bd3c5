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
a part type declaring ``json_only`` (a :class:`~game.core.parts.DataPart`) is only written to
the JSON; any other part without a drawer raises :class:`NoDrawer` (never skipped silently).

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

from game.core.analysis import Analysis
from game.core.parts import Part
from game.render.options import SceneOptions
from game.render.painter import Paint

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
    not cropped: the window lists them too) and the ``board`` drawn."""

    shown: list
    shown_ids: AbstractSet[str]
    units_shown: AbstractSet[str]
    names: dict
    moves: dict
    options: SceneOptions
    analysis: Optional[Analysis]
    cropped: frozenset = frozenset()
    board: Any = None  # the board drawn (a legend row may count what its drawer draws on it)


@dataclass(frozen=True)
class PartDrawer:
    """How one part type shows (see the module doc); every field optional."""

    draw: Optional[Callable[[Paint, Any, Analysis], Optional[set[str]]]] = None
    stage: str = "over"
    legend: Optional[Callable[[Any, LegendContext], list[LegendItem]]] = None
    legend_at: str = "rows"
    hover: Optional[Callable[[Any, str], Optional[str]]] = None
    table_wide: bool = False


_REGISTRY: dict[type, PartDrawer] = {}


class NoDrawer(LookupError):
    """A part to draw whose type has no drawer (nor a base type with one) and is not
    ``json_only``: register its drawer (:mod:`game.render.part_marks`) or declare it JSON only."""


def register(kind: type, **how: Any) -> PartDrawer:
    """Register the drawer of part type ``kind`` (replacing any); ``how``: :class:`PartDrawer` fields.
    Raises ``ValueError`` for an unknown stage or legend place."""
    d = PartDrawer(**how)
    if d.stage not in STAGES or d.legend_at not in LEGEND_PLACES:
        raise ValueError(f"{kind.__name__}: stage {d.stage!r} / legend_at {d.legend_at!r}")
    _REGISTRY[kind] = d
    return d


def drawer_of(kind: type[Part]) -> Optional[PartDrawer]:
    """The drawer of part type ``kind`` or of its nearest registered base type; None for a
    ``json_only`` type. Raises :class:`NoDrawer` for any other type without one."""
    for t in kind.__mro__:
        if t in _REGISTRY:
            return _REGISTRY[t]
    if kind.json_only:
        return None
    raise NoDrawer(f"no drawer for the part type {kind.__module__}.{kind.__qualname__}: register one "
                   "(game/render/part_marks.py) or declare it json_only")


def _parts(analysis: Optional[Analysis]) -> Iterator[Part]:
    return iter(analysis.parts) if analysis is not None else iter(())


def drawn_parts(analysis: Optional[Analysis], stage: str) -> list[tuple[PartDrawer, Part]]:
    """(drawer, part) of every part of ``analysis`` drawn at ``stage``, in the analysis' order."""
    out = []
    for p in _parts(analysis):
        d = drawer_of(type(p))
        if d is not None and d.draw is not None and d.stage == stage:
            out.append((d, p))
    return out


def legend_parts(analysis: Optional[Analysis], place: str, ctx: LegendContext) -> list[LegendItem]:
    """Legend items of every part of ``analysis`` listed at ``place``."""
    out: list[LegendItem] = []
    for p in _parts(analysis):
        d = drawer_of(type(p))
        if d is not None and d.legend is not None and d.legend_at == place:
            out += d.legend(p, ctx) or []
    return out


def part_hover_lines(analysis: Optional[Analysis], model_id: str) -> list[str]:
    """Tooltip lines the parts of ``analysis`` add for ``model_id``."""
    out = []
    for p in _parts(analysis):
        d = drawer_of(type(p))
        line = d.hover(p, model_id) if d is not None and d.hover is not None else None
        if line:
            out.append(line)
    return out


def wide_parts(analysis: Optional[Analysis]) -> list[Part]:
    """The parts of ``analysis`` that mark the whole table (fight order, slots, reach), empty
    ones left out (they mark nothing)."""
    out = []
    for p in _parts(analysis):
        d = drawer_of(type(p))
        if d is not None and d.table_wide and p.to_json():
            out.append(p)
    return out


def table_wide(analysis: Optional[Analysis]) -> bool:
    """Does ``analysis`` hold a part that marks the whole table (fight order, slots, reach)?"""
    return bool(wide_parts(analysis))
