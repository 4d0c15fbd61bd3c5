"""The display options of :func:`game.render.scene.draw_scene` (:class:`SceneOptions`) and the
pixel areas it splits a canvas into (:class:`Layout`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

Point = tuple[float, float]


# The most of a figure the legend may take: of its width on the right, of its height below
# (a figure file; the window's panel may take up to 45 % of the window). A legend that fits
# in neither place within that share, even at 70 % text, may take up to LEGEND_MAX_SHARE
# rather than lose a line (small figures).
LEGEND_SHARE = 0.3
LEGEND_MAX_SHARE = 0.45


@dataclass
class SceneOptions:
    """Display options of :func:`draw_scene` (all optional).

    ``palette``: colour overrides merged over :data:`PALETTE` (a ``patterns`` entry adds role
    outline styles and hatching, for colour-blind and greyscale figures); ``legend``: draw the
    side panel; ``title``: caption (``None``: the board's title; ``""``: none);
    ``wrap_title``: wrap a long title over several lines (figures) instead of cutting it;
    ``ruleset_name``: the ruleset's display name a figure's title bar shows on the right (the
    caller looks it up: :func:`game.core.ruleset.ruleset_name`; empty: the ruleset's id; the
    window, without ``wrap_title``, shows ``ruleset: <id>``);
    ``hover``: model id under the cursor and ``hover_px`` the cursor (canvas px) for its
    tooltip; ``selection``: unit ids drawn highlighted; ``status``: text of the bottom status
    line; ``banner``: an error shown in red at the top; ``labels``: unit labels on/off;
    ``ids``: labels show the unit id after the name; ``letters``: labels and the legend
    name units ``A: name``, ``B: name``...; ``counts``: draw ``×N`` where it teaches
    (:mod:`game.render.attack_badges`: never ``×1``, only a model whose attacks differ from its
    unit's usual); ``count_all``: on every model making other than one attack (a figure about attacks);
    ``min_font_px``: the smallest text drawn on the table, px at the final size (a print figure: 6 pt); ``panel_width``: legend panel width (units); ``overlays``: extra items the
    window adds (``("tape", p0_mm, p1_mm, text)``, ``("ghost_unit", Unit)``, ``("text", (x, y)
    px, string)``); ``font_scale``: px per design unit (every text size, stroke and marker);
    ``top_inset``: px kept free under the title (the window's toolbar); ``caption_band``: px
    at the top of the table covered by a caption (labels keep below it); ``differ``:
    ``{model id: tooltip line}`` of models whose role or attacks differ under another ruleset
    (drawn hatched and ringed) and ``differ_label`` its legend entry; ``overlaps``: ids of
    models whose bases overlap another base (cross-hatched, ringed black and white, with a
    legend row); ``warning``: a line shown in an amber band at the top of the table;
    ``visible``: ids of the models inside the picture (a cropped figure), which the legend
    lists and counts (None: all); ``callouts``: texts of numbered callouts, listed in the legend;
    ``supersample``: the canvas is drawn at this many times its final size (font sizes are
    whole px at the final size, so a supersampled PNG lays text out exactly like the SVG);
    ``layer``: ``all``, or a layer of :mod:`game.window.retained` (``base``, ``units``, ``panel``, ``top``;
    ``table``: the base without the legend panel);
    ``gap_letter_start``: the first gap arrow's letter (0: ``a``; a multi-panel figure
    continues the letters from panel to panel); ``placed``: a list that receives the px boxes
    the scene placed (labels, badges, markers), so teaching marks drawn after it keep clear;
    ``placements``: a :class:`game.render.placer.Placements` that notes (and may reuse) where
    each label, badge and marker was placed (the window's retained layer); ``keep_off``: px
    boxes ``(x0, y0, x1, y1)`` taken before this drawing starts (labels, badges and markers
    an earlier drawing on the same canvas placed: this one keeps its own clear of them);
    ``keep_clear``: px boxes labels keep off where they can, as they keep off the units this
    drawing draws (the units an earlier drawing on the same canvas drew: the window's still layer);
    ``legend_items``: the legend panel's items when the caller built them already
    (:func:`game.render.legend.legend_items` of this board, analysis, drawn models and
    options; None: built by the panel).
    """

    palette: dict = field(default_factory=dict)
    legend: bool = True
    title: Optional[str] = None
    wrap_title: bool = False
    ruleset_name: str = ""
    hover: Optional[str] = None
    hover_px: Optional[Point] = None
    selection: Sequence[str] = ()
    status: str = ""
    banner: str = ""
    labels: bool = True
    ids: bool = False
    letters: bool = False
    counts: bool = False
    count_all: bool = False
    min_font_px: int = 0
    panel_width: int = 270
    legend_share: float = 0.45
    overlays: list = field(default_factory=list)
    font_scale: float = 1.0
    top_inset: int = 0
    caption_band: float = 0.0
    differ: dict = field(default_factory=dict)
    differ_label: str = ""
    overlaps: Sequence[str] = ()
    #: model ids ringed (a demo step's ``highlight``), drawn on the bases under the gap arrows,
    #: their letters, counts and labels (never over them); :func:`game.render.marks.draw_marks`
    #: then leaves them out
    rings: Sequence[str] = ()
    warning: str = ""
    visible: Optional[set] = None
    callouts: Sequence[str] = ()
    #: move reach rings in the print style (the screen style always draws them)
    reach: bool = False
    #: pointing marks drawn (:func:`game.render.marks.point_marks_of`): those with words get a key row
    point_marks: Sequence[Any] = ()
    supersample: int = 1
    layer: str = "all"
    gap_letter_start: int = 0
    gap_lettered: Optional[bool] = None
    placed: Optional[list] = None
    placements: Any = None
    keep_off: Sequence = ()
    keep_clear: Sequence = ()
    legend_items: Optional[list] = None


@dataclass
class Layout:
    """Pixel areas ``(left, top, width, height)`` of the table view, panel, title and status."""

    table: tuple
    panel: Optional[tuple]
    title: Optional[tuple]
    status: Optional[tuple]
