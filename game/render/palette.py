"""Named colours of a figure; callers override entries (python-chess ``colors=`` style).

Roles are red (attacks), blue (supporting attack) and neutral grey (does not fight); players
are told apart by the tray and base outline colours (green-teal and amber), never by red/blue.
"""
from __future__ import annotations

PALETTE: dict[str, tuple] = {
    "background": (58, 62, 66),
    "table": (236, 231, 218),
    "table_edge": (150, 140, 120),
    "grid": (0, 0, 0, 18),
    "attack": (214, 39, 40),
    "support": (31, 119, 220),
    "none": (205, 205, 200),
    "ghost": (90, 90, 90),
    "base_edge": (40, 40, 40),
    "player1": (0, 121, 107),
    "player2": (191, 110, 0),
    "tray_alpha": (40,),
    "gap_link": (20, 20, 20),
    "move": (130, 40, 170),
    "reach": (130, 40, 170, 12),
    "reach_edge": (130, 40, 170, 90),
    "terrain": (160, 160, 160),
    "terrain_edge": (90, 90, 90),
    "terrain_hatch": (110, 110, 110),
    "objective": (250, 200, 40),
    "objective_edge": (60, 50, 0),
    "slot_free": (255, 255, 255),
    "slot_filled": (30, 30, 30),
    "slot_edge": (30, 30, 30),
    "badge": (30, 30, 30),
    "badge_text": (255, 255, 255),
    "label": (25, 25, 25),
    "label_bg": (255, 255, 255, 215),
    "panel": (248, 247, 243),
    "panel_edge": (120, 120, 120),
    "panel_text": (25, 25, 25),
    "panel_dim": (95, 95, 95),
    "title_bg": (34, 38, 42),
    "title_text": (245, 245, 245),
    "status_bg": (34, 38, 42),
    "status_text": (225, 225, 225),
    "banner_bg": (170, 20, 20),
    "banner_text": (255, 255, 255),
    "warning_bg": (255, 204, 51, 235),
    "warning_text": (25, 25, 25),
    "overlap": (15, 15, 15),
    "overlap_dash": (255, 255, 255),
    "selection": (225, 0, 200),
    "hover": (0, 0, 0),
    "target": (255, 230, 0),
    "tooltip_bg": (255, 255, 240),
    "tooltip_edge": (60, 60, 60),
    "tooltip_text": (20, 20, 20),
    "tape": (20, 20, 20),
    "scale_bar": (40, 40, 40),
    "caption_bg": (34, 38, 42, 235),
    "caption_text": (250, 250, 250),
    "empty_hatch": (90, 90, 90),
    "legal": (0, 130, 60),
    "illegal": (200, 30, 35),
}


def player_colour(palette: dict, player: int) -> tuple:
    """Outline colour of ``player`` (1 or 2; others fall back to player 2's)."""
    return palette.get(f"player{player}", palette["player2"])


def with_alpha(colour: tuple, alpha: int) -> tuple:
    """``colour`` with its alpha replaced by ``alpha`` (0-255)."""
    return tuple(colour[:3]) + (int(alpha),)


# Okabe-Ito colour-blind safe palette: red/blue keep their meaning as vermillion/blue; figures
# drawn with it also hatch supporting models and give fighting models a heavy outline
# (game.render.marks.role_patterns), so roles never depend on colour alone.
COLOURBLIND: dict[str, tuple] = {
    "attack": (213, 94, 0),
    "support": (0, 114, 178),
    "none": (225, 225, 220),
    "player1": (0, 158, 115),
    "player2": (204, 121, 167),
    "move": (0, 0, 0),
    "reach": (0, 0, 0, 22),
    "reach_edge": (0, 0, 0, 110),
    "objective": (240, 228, 66),
    "selection": (230, 159, 0),
    "target": (240, 228, 66),
}

COLOURBLIND["patterns"] = (1,)

# Greyscale-safe: printed in black and white, roles differ by fill shade and outline style
# (attack dark with a heavy solid outline, support mid grey hatched white with a dashed
# outline, none pale with a thin outline), as The Ninth Age's own diagrams tell them apart.
GREYSCALE: dict[str, tuple] = {
    "patterns": (1,),
    "attack": (70, 70, 70),
    "support": (150, 150, 150),
    "none": (232, 232, 232),
    "player1": (30, 30, 30),
    "player2": (120, 120, 120),
    "move": (0, 0, 0),
    "reach": (0, 0, 0, 18),
    "reach_edge": (0, 0, 0, 110),
    "table": (255, 255, 255),
    "table_edge": (120, 120, 120),
    "terrain": (200, 200, 200),
    "objective": (210, 210, 210),
    "selection": (0, 0, 0),
    "target": (0, 0, 0),
    "differ": (255, 255, 255),
    "fighting_rank": (200, 200, 200),  # the outlined fighting rank: a light ring on its dark casing
    "ghost": (60, 60, 60),  # where a move started: dotted (empty places: hatched, grey dashes)
    "objective_edge": (40, 40, 40),
    "legal": (0, 0, 0),  # the verdicts differ by their mark (tick, cross) and word
    "illegal": (0, 0, 0),
    "status_bg": (38, 38, 38),
    "banner_bg": (40, 40, 40),
    "warning_bg": (215, 215, 215, 235),
    "tooltip_bg": (250, 250, 250),
}

# The print style (``render`` and ``render-book`` by default; the window keeps PALETTE): white
# paper, no grid or table tint, a small palette whose role fills also differ in greyscale
# (attack dark red, support mid blue hatched white, none near-white), bold unit frames in the
# player colour, black text on white title and caption bands. ``print`` switches the scene's
# print drawing (support hatching, empty places hatched, frames at LINE_UNITS["bold"]).
PRINT: dict[str, tuple] = {
    "print": (1,),
    "background": (255, 255, 255),
    "table": (255, 255, 255),
    "table_edge": None,  # type: ignore[dict-item]
    "grid": None,  # type: ignore[dict-item]
    "tray_alpha": (0,),
    "attack": (200, 30, 35),
    "support": (70, 125, 215),
    "none": (243, 243, 243),
    "base_edge": (25, 25, 25),
    "player1": (0, 105, 92),
    "reach_edge": (110, 50, 150),
    "player2": (196, 104, 0),
    "empty_hatch": (90, 90, 90),
    "ghost": (120, 45, 160),  # where a move started: dotted, in its own tint (empty places: grey dashes)
    "move": (20, 20, 20),
    "gap_link": (20, 20, 20),
    "title_bg": (255, 255, 255),
    "title_text": (20, 20, 20),
    "title_rule": (20, 20, 20),
    "panel": (255, 255, 255),
    "panel_edge": (190, 190, 190),
    "caption_bg": (255, 255, 255, 235),
    "caption_text": (20, 20, 20),
    "caption_edge": (20, 20, 20),
    "label_bg": (255, 255, 255, 230),
    "terrain": (225, 225, 225),
    "terrain_hatch": (150, 150, 150),
    "legal": (0, 130, 60),
    "illegal": (200, 30, 35),
}

# --table: the table tint and the 6-inch grid back on a print figure (distances matter).
PRINT_TABLE: dict[str, tuple] = {"table": PALETTE["table"], "table_edge": PALETTE["table_edge"], "grid": PALETTE["grid"]}

# One line-weight scale for every figure (design units; 1 unit prints 0.2 mm): hair (hatching,
# panel frames), thin (base outlines, rings, dashed outlines, markers), medium (arrows, links,
# moves, marks over bases), bold (unit frames, fighting ranks, the scale bar). A line drawn over
# busy ground sits on a casing (a white or dark halo): its width plus a hair each side.
LINE_UNITS: dict[str, float] = {"hair": 0.8, "thin": 1.0, "medium": 2.0, "bold": 3.5}


def lw(weight: str, casing: bool = False) -> float:
    """Design units of a stroke of ``weight`` (a :data:`LINE_UNITS` name; KeyError for another);
    ``casing``: the halo drawn under such a stroke (its width plus a hair each side)."""
    return LINE_UNITS[weight] + (2 * LINE_UNITS["hair"] if casing else 0.0)


def stroke_units() -> set[float]:
    """Every stroke width a figure may use, in design units (each weight and its casing)."""
    return {round(lw(w, c), 6) for w in LINE_UNITS for c in (False, True)}


def style_palette(style: str, palette: str, table: bool = False) -> dict:
    """The palette overrides of a figure: the print style's (``style`` ``print``; ``table``
    puts the table tint and grid back) under the named ``palette`` (``default``,
    ``colourblind``, ``greyscale``); ``screen`` is the window's look. Raises ValueError."""
    out: dict = {}
    if style == "print":
        out.update(PRINT)
        if table:
            out.update(PRINT_TABLE)
    elif style != "screen":
        raise ValueError(f"style must be print or screen (got {style!r})")
    named = palette_named(palette)
    if style == "print" and named.get("table") == (255, 255, 255) and table:
        named.pop("table")
    out.update(named)
    return out


PALETTES: dict[str, dict] = {"default": {}, "colourblind": COLOURBLIND, "colorblind": COLOURBLIND,
                             "greyscale": GREYSCALE, "grayscale": GREYSCALE}


def palette_named(name: str) -> dict:
    """Overrides of the named palette (``default``, ``colourblind``, ``greyscale``); raises ValueError."""
    try:
        return dict(PALETTES[name])
    except KeyError:
        raise ValueError(f"palette must be one of default, colourblind, greyscale (got {name!r})") from None
