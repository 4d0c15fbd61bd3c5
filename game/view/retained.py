"""Retained drawing for the window: units that did not change are drawn once, into a layer.

:class:`RetainedScene` draws what :func:`game.view.scene.draw_scene` draws, in three layers
(``SceneOptions.layer``):

* ``base``: the table, terrain and every unit that has not changed since the layer was
  drawn, with their labels; kept in an off-screen surface and blitted each frame;
* ``units``: the units that changed (the dragged unit, its enemies whose roles changed),
  drawn over the base every frame;
* ``top``: selection, hover, overlays, legend, title, status, banner and tooltip, every frame.

A unit "changed" when its pose, its models' roles, moves, gap links, compare or overlap marks
differ from what the base shows (:func:`unit_signatures`). The base is redrawn when the view,
the window size or the table-wide options change, when a unit is deleted, when many units
changed at once, and once the picture has settled (so labels are placed among all units again).
When nothing at all changed since the last frame, the last frame is blitted as it was.

Boards whose analysis draws table-wide marks (a fight sequence, combat slots, move reach)
are drawn whole each frame, as is any canvas that records its calls (tests).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Optional

from game.core.board import Board

from .canvas import PygameCanvas
from .scene import DrawnModel, SceneOptions, draw_scene

# options that change every unit's look: the base is redrawn when one of them changes
_BASE_FIELDS = ("palette", "labels", "ids", "letters", "counts", "font_scale", "top_inset", "caption_band",
                "legend", "panel_width", "title", "wrap_title")
_GLOBAL_EXTRA = ("fight_sequence", "slots", "move_reach_mm")
MAX_MOVING_SHARE = 0.25  # more units than this changed at once: redraw the base whole


def unit_signatures(board: Board, analysis: Any, models: list[DrawnModel], options: SceneOptions) -> dict[str, tuple]:
    """For each unit id, everything its drawing depends on: pose, roles (and where each model
    is drawn after a move), gap links, compare and overlap marks."""
    per: dict[str, list] = {u.id: [] for u in board.units}
    differ = options.differ or {}
    over = set(options.overlaps or ())
    moves = getattr(analysis, "moves", None) or {}
    for dm in models:
        lst = per.get(dm.unit.id)
        if lst is not None:
            mid = dm.id
            lst.append((mid, dm.role, dm.slot_from, mid in differ, mid in over,
                        tuple(map(tuple, moves[mid])) if mid in moves else None))
    links: dict[str, list] = {}
    for a, b in getattr(analysis, "gap_links", None) or []:
        for m in (a, b):
            links.setdefault(m.split(".", 1)[0], []).append((a, b))
    return {u.id: (u.pose_key(), u.name, u.player, tuple(per[u.id]), tuple(links.get(u.id, ()))) for u in board.units}


def _sub(board: Board, analysis: Any, models: list[DrawnModel], keep: set[str]) -> tuple[Board, Any, list[DrawnModel]]:
    """The board, analysis and drawn models restricted to the units ``keep``."""
    b = dataclasses.replace(board, units=[u for u in board.units if u.id in keep])
    if analysis is not None and dataclasses.is_dataclass(analysis):
        def mine(mid: str) -> bool:
            return mid.split(".", 1)[0] in keep

        analysis = dataclasses.replace(
            analysis, moves={k: v for k, v in analysis.moves.items() if mine(k)},
            gap_links=[lk for lk in analysis.gap_links if mine(lk[0]) and mine(lk[1])])
    return b, analysis, [dm for dm in models if dm.unit.id in keep]


class RetainedScene:
    """The window's drawing with a retained layer of unchanged units (see the module doc).
    ``redraws`` counts full base redraws and ``skipped`` frames that were only blitted."""

    def __init__(self) -> None:
        self.base = None            # pygame.Surface of the base layer
        self.base_canvas: Optional[PygameCanvas] = None
        self.base_key: Any = None
        self.base_sigs: dict[str, tuple] = {}
        self.moving: set[str] = set()
        self.last_key: Any = None
        self.last = None            # the last composed frame (pygame.Surface)
        self.settled = 0
        self.redraws = 0
        self.skipped = 0

    def reset(self) -> None:
        """Forget every layer (the next frame draws everything)."""
        self.base = self.base_key = self.last = self.last_key = None
        self.base_sigs, self.moving = {}, set()

    def draw(self, canvas: Any, board: Board, analysis: Any, view: Any, options: SceneOptions,
             models: Optional[list[DrawnModel]]) -> list[str]:
        """Draw the scene on ``canvas`` (as :func:`draw_scene` would); returns drawing errors."""
        extra = getattr(analysis, "extra", None) or {}
        if (not isinstance(canvas, PygameCanvas) or canvas.record or models is None
                or any(extra.get(k) for k in _GLOBAL_EXTRA)):
            self.reset()
            return draw_scene(canvas, board, analysis, view, options=options, models=models)
        surf = canvas.surface
        size = surf.get_size()
        base_key = (size, view.scale, tuple(view.offset_px), board.table, repr(board.terrain),
                    repr((board.context or {}).get("objectives")), board.title, getattr(analysis, "ruleset", None),
                    tuple(repr(getattr(options, f)) for f in _BASE_FIELDS))
        sigs = unit_signatures(board, analysis, models, options)
        frame_key = (base_key, sigs, repr(dataclasses.replace(options, palette={}, differ={}, overlaps=())),
                     id(analysis), tuple(sorted(options.differ or {})), tuple(options.overlaps or ()))
        if frame_key == self.last_key and self.last is not None and self.last.get_size() == size:
            surf.blit(self.last, (0, 0))  # nothing changed: the last frame as it was
            self.skipped += 1
            self.settled += 1
            if self.moving and self.settled >= 2:
                self.base_key = None  # settled with units still drawn live: fold them into the base
            else:
                return []
        else:
            self.settled = 0
        errors: list[str] = []
        if self.base_key != base_key or self.base is None or self.base.get_size() != size:
            moving: set[str] = set()
        else:
            changed = {uid for uid, s in sigs.items() if self.base_sigs.get(uid) != s}
            gone = set(self.base_sigs) - set(sigs)
            moving = self.moving | changed
            if gone or (changed - self.moving and len(moving) > max(3, MAX_MOVING_SHARE * len(sigs))):
                moving = set()  # too much changed (or a unit went): one fresh base
                self.base_key = None
            elif changed - self.moving:
                self.base_key = None  # new units started changing: a base without them
            if self.base_key is not None:
                moving = self.moving
        if self.base_key is None or self.base is None or self.base.get_size() != size:
            errors += self._draw_base(board, analysis, view, options, models, moving, size)
            self.base_key, self.moving = base_key, moving
            self.base_sigs = {uid: s for uid, s in sigs.items() if uid not in moving}
        surf.blit(self.base, (0, 0))
        if self.moving:
            b, a, ms = _sub(board, analysis, models, self.moving)
            errors += draw_scene(canvas, b, a, view, options=dataclasses.replace(options, layer="units"), models=ms)
        errors += draw_scene(canvas, board, analysis, view, options=dataclasses.replace(options, layer="top"),
                             models=models)
        if self.last is None or self.last.get_size() != size:
            self.last = surf.copy()
        else:
            self.last.blit(surf, (0, 0))
        self.last_key = frame_key
        return errors

    def _draw_base(self, board: Board, analysis: Any, view: Any, options: SceneOptions,
                   models: list[DrawnModel], moving: set[str], size: tuple[int, int]) -> list[str]:
        import pygame

        if self.base is None or self.base.get_size() != size:
            self.base = pygame.Surface(size)
            self.base_canvas = PygameCanvas(self.base)
        self.redraws += 1
        keep = {u.id for u in board.units} - moving
        b, a, ms = _sub(board, analysis, models, keep) if moving else (board, analysis, models)
        o = dataclasses.replace(options, layer="base", hover=None, hover_px=None, selection=(), overlays=[],
                                status="", banner="", warning="")
        return draw_scene(self.base_canvas, b, a, view, options=o, models=ms)
