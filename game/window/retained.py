"""Retained drawing for the window: units that did not change are drawn once, into a layer.

:class:`RetainedScene` draws what :func:`game.render.scene.draw_scene` draws, in three layers
(``SceneOptions.layer``):

* ``base``: the table, terrain and every unit that has not changed since the layer was
  drawn, with their labels; kept in an off-screen surface and blitted each frame;
* ``units``: the units that changed (the dragged unit, its enemies whose roles changed) and
  the units gap links join to them (a link is drawn with both its units: :func:`linked`),
  drawn over the base every frame; those of them that stood still since the last frame go
  into a *still layer* (a copy of the base with them drawn on it, kept while they and the
  base stay as they are: :meth:`RetainedScene._draw_live`), and only the rest are drawn over
  it, their labels kept clear of those the still layer placed (``SceneOptions.keep_off``)
  and, where they can, of its units (``SceneOptions.keep_clear``), as one drawing of them all;
* ``top``: selection, hover, overlays, title, status, banner and tooltip, every frame;
* the legend panel is drawn with the base and redrawn there alone when its items change.

A unit "changed" when its pose, its models' roles, the marks its results draw on the bases
(attack counts, dividing marks), moves, gap links, compare or overlap marks differ from what
the base shows (:func:`unit_signatures`). The base is redrawn whole when the view, the window
size or the table-wide options change, when a unit is deleted, when many units changed at
once, and once the picture has settled after a drag (so labels are placed among all units
again; never while a unit is held). When nothing at all changed since the last frame, the
last frame is blitted as it was.

Units that start changing (a unit picked up, an enemy whose marks change mid-drag) are taken
off the base by redrawing only the px box they covered (:meth:`RetainedScene._draw_region`):
while the base is drawn whole the canvas notes where each drawing call went, under its tag
(:mod:`game.window.base_regions`), and where each label, badge and marker was placed
(:class:`~game.render.placer.Placements`); the redraw is cut to the box and draws the table
there, the units with a drawing in it and their labels where they were (the other labels do
not move), and the legend panel where the box reaches it. The box drawn this way is, pixel
for pixel, what a whole base without those units would show with the labels kept in place.

Parts drawn table-wide (its drawer's ``table_wide``: a fight sequence, combat slots, a move
reach; :mod:`game.render.drawers`) are drawn unit by unit like the rest, and the base is drawn
again whole whenever one of them changes (:func:`wide_key`: their JSON, kept by part object).
A canvas that records its calls (tests) is drawn whole each frame.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Optional

from game.core.board import Board, unit_of

from game.core import geometry as g
from game.core.results import ModelResults, UnitResults

from game.render.pygame_canvas import PygameCanvas
from game.render.drawers import table_wide, wide_parts
from game.render.legend import legend_items
from game.render.drawn import DrawnList, DrawnModel, drawn_models
from game.render.options import SceneOptions
from game.render.placer import Placements, UnitBoxes, moved_units
from game.render.scene import draw_scene, ruleset_of, scene_layout
from game.window.base_regions import Regions

_NOTHING = object()

# options that change every unit's look: the base is redrawn when one of them changes
_BASE_FIELDS = ("palette", "labels", "ids", "letters", "counts", "font_scale", "top_inset", "caption_band",
                "legend", "panel_width", "title", "wrap_title", "ruleset_name")
# options legend_items reads: the legend is built again when one of them changes
_LEGEND_FIELDS = ("legend", "visible", "ids", "letters", "counts", "palette", "differ", "differ_label", "overlaps",
                  "callouts")
MAX_MOVING_SHARE = 0.25  # more units than this changed at once: redraw the base whole


def result_marks(res: tuple) -> tuple:
    """What the results ``res`` of a unit's models draw on the bases besides their roles: for
    each model its attacks (the ``×N`` count) and whether it fights models of two or more
    units (the dividing mark); None for a model without a result."""
    out: list = []
    for r in res:
        if r is None:
            out.append(None)
            continue
        ts = r.targets
        two = r.role == "attack" and len(ts) > 1 and len({unit_of(t) for t in ts}) > 1
        out.append((r.attacks, two))
    return tuple(out)


class DrawnModels:
    """:func:`game.render.scene.drawn_models`, rebuilt only for the units whose pose or results
    changed since the last call (the window calls it on every frame of a drag).

    Analyses with rule-mandated moves or combat slots take the plain function (their models
    may be drawn away from their slots)."""

    def __init__(self) -> None:
        # unit id -> (key, results tuple, list of DrawnModel, models, their ids, how many have a
        # result, result marks, the engine's result dict of the unit or None)
        self.per: dict[str, tuple] = {}

    def __call__(self, board: Board, analysis: Any) -> list[DrawnModel]:
        amodels = analysis.models if analysis is not None else {}
        if analysis is not None and (analysis.moves or table_wide(analysis)):
            self.per = {}
            return drawn_models(board, analysis)
        # the analysis' own per-unit results (game.core.results), while it reads from them: a
        # unit whose results are the same object as last time has the same results (its ids are
        # not looked up one by one); none once the results were changed or read whole
        live = amodels.units() if isinstance(amodels, ModelResults) else None
        own = live or {}
        out, by_unit, marks, per, seen = DrawnList(), {}, {}, {}, 0
        for u in board.units:
            try:
                pk = u.pose_key()
                ms = u.models(pk)
            except Exception:  # noqa: BLE001 - as drawn_models: a unit that cannot be built is left out
                continue
            old = self.per.get(u.id)
            d = own.get(u.id)
            key = (pk, u.player, u.name, u.kind)
            if d is not None and old is not None and old[7] is d and old[3] is ms and old[0] == key:
                per[u.id] = old
                by_unit[u.id] = old[2]
                marks[u.id] = old[6]
                seen += old[5]
                out.extend(old[2])
                continue
            ids = old[4] if old is not None and old[3] is ms else [m.id for m in ms]  # (the same list: its ids)
            blk = live.get(u.id) if live is not None else None  # (what the analysis reads this unit's models from)
            if type(blk) is UnitResults and list(blk) == ids:
                res = tuple(blk.values())  # (its results in order)
            else:
                res = tuple(map((blk if type(blk) is dict else amodels).get, ids))  # (a dict answers in C)
            if old is not None and old[0] == key and old[1] == res:
                lst, n, mk = old[2], old[5], old[6]
            else:
                n = sum(map(bool, res))  # the models with a result (a result is always true)
                mk = result_marks(res)
                lst = []
                for m, r in zip(ms, res):
                    if r is None:
                        lst.append(DrawnModel(m.id, u, m.shape, "none"))
                        continue
                    at = tuple(r.at) if r.at is not None else None
                    if at is None or at == m.center or g.dist(at, m.center) < 1e-6:
                        lst.append(DrawnModel(m.id, u, m.shape, r.role))
                    else:
                        return drawn_models(board, analysis)  # drawn elsewhere: the general rules
            seen += n
            per[u.id] = (key, res, lst, ms, ids, n, mk, d)
            by_unit[u.id] = lst
            marks[u.id] = mk
            out.extend(lst)
        if seen != len(amodels):  # results for models the board does not hold: the general rules
            self.per = {}
            return drawn_models(board, analysis)
        self.per = per
        out.by_unit, out.marks = by_unit, marks
        return out


def unit_signatures(board: Board, analysis: Any, models: list[DrawnModel], options: SceneOptions) -> dict[str, tuple]:
    """For each unit id, everything its drawing depends on: pose, roles (and where each model
    is drawn after a move), gap links, compare and overlap marks."""
    links: dict[str, list] = {}
    for a, b in (analysis.gap_links if analysis is not None else []):
        for m in (a, b):
            links.setdefault(unit_of(m), []).append((a, b))
    by_unit = getattr(models, "by_unit", None)
    if by_unit is not None and not options.differ and not options.overlaps:
        # one list object per unchanged unit (DrawnModels): the same object compares equal at once;
        # with the marks its results draw on the bases (counts, dividing marks: not in the roles)
        marks = models.marks  # type: ignore[attr-defined]
        return {u.id: (u.pose_key(), u.name, u.player, by_unit.get(u.id), marks.get(u.id), tuple(links.get(u.id, ())))
                for u in board.units}
    per: dict[str, list] = {u.id: [] for u in board.units}
    differ = options.differ or {}
    over = set(options.overlaps or ())
    moves = analysis.moves if analysis is not None else {}
    amodels = analysis.models if analysis is not None else {}
    for dm in models:
        lst = per.get(dm.unit.id)
        if lst is not None:
            mid = dm.id
            r = amodels.get(mid)
            lst.append((mid, dm.role, dm.slot_from, mid in differ, mid in over,
                        tuple(map(tuple, moves[mid])) if mid in moves else None, result_marks((r,))))
    return {u.id: (u.pose_key(), u.name, u.player, tuple(per[u.id]), tuple(links.get(u.id, ()))) for u in board.units}


_WIDE: dict = {}  # id(part) -> (part, its JSON as text): the parts drawn table-wide, as last seen


def wide_key(analysis: Any) -> tuple:
    """What the table-wide parts of ``analysis`` show (their JSON as text, worked out once per
    part object: a drag's paused views share their parts with the analysis they come from)."""
    out = []
    for part in wide_parts(analysis):
        hit = _WIDE.get(id(part))
        if hit is None or hit[0] is not part:
            if len(_WIDE) > 64:
                _WIDE.clear()
            hit = _WIDE[id(part)] = (part, repr(part.to_json()))
        out.append((type(part).__name__, hit[1]))
    return tuple(out)


def _sub(board: Board, analysis: Any, models: list[DrawnModel], keep: set[str]) -> tuple[Board, Any, list[DrawnModel]]:
    """The board, analysis and drawn models restricted to the units ``keep``."""
    b = board.with_units(u for u in board.units if u.id in keep)
    if analysis is not None and dataclasses.is_dataclass(analysis) and not isinstance(analysis, type):
        an: Any = analysis

        def mine(mid: str) -> bool:
            return unit_of(mid) in keep

        analysis = an.replaced(
            moves={k: v for k, v in an.moves.items() if mine(k)},
            gap_links=[lk for lk in an.gap_links if mine(lk[0]) and mine(lk[1])])
    by_unit = getattr(models, "by_unit", None)
    if by_unit is not None:  # (DrawnModels: the units' lists in board order) no test per model
        kept: list[DrawnModel] = []
        for u in board.units:
            if u.id in keep:
                kept += by_unit.get(u.id, ())
        return b, analysis, kept
    return b, analysis, [dm for dm in models if dm.unit.id in keep]


def linked(units: set[str], links: Any) -> set[str]:
    """``units`` and every unit a gap link (a pair of model ids, ``links``) joins to one of
    them, directly or through others."""
    out = set(units)
    pairs = [(unit_of(a), unit_of(b)) for a, b in links]
    changed = bool(out)
    while changed:
        changed = False
        for ua, ub in pairs:
            if (ua in out) != (ub in out):
                out |= {ua, ub}
                changed = True
    return out


def apart(still: set[str], links: Any) -> set[str]:
    """The units of ``still`` not joined by a gap link (a pair of model ids, ``links``),
    directly or through other units of ``still``, to a unit outside it: a link is drawn with
    the units at both its ends, so the still layer and the units drawn over it never share one."""
    out = set(still)
    pairs = [(unit_of(a), unit_of(b)) for a, b in links]
    changed = True
    while changed:
        changed = False
        for ua, ub in pairs:
            if (ua in out) != (ub in out):
                out.discard(ua)
                out.discard(ub)
                changed = True
    return out


def _given(items: Any) -> Optional[list]:
    """Legend items built by :meth:`RetainedScene._legend` as the panel takes them (None when
    building them failed: the panel builds them again and reports the error)."""
    return None if items is _NOTHING else items


class RetainedScene:
    """The window's drawing with a retained layer of unchanged units (see the module doc).
    ``redraws`` counts full base redraws and ``skipped`` frames that were only blitted."""

    def __init__(self) -> None:
        self.base: Any = None       # pygame.Surface of the base layer
        self.base_canvas: Optional[PygameCanvas] = None
        self.base_key: Any = None
        self.base_sigs: dict[str, tuple] = {}
        self.moving: set[str] = set()
        self.last_key: Any = None
        self.last: Any = None       # the last composed frame (pygame.Surface)
        self.settled = 0
        self.base_legend: Any = None  # the legend items the base layer shows
        self.redraws = 0
        self.skipped = 0
        self.last_sigs: dict[str, tuple] = {}  # the unit signatures of the last frame drawn
        self.holding = False  # a drag is on: units that stand still are not folded into the base yet
        self.legend_memo: Optional[tuple] = None  # (analysis, models, units, options key, items)
        self.legend_builds = 0
        self.regions: Optional[Regions] = None  # where each unit of the base layer was drawn
        self.placements: Optional[Placements] = None  # where the base layer's labels were placed
        self.partial = 0  # base redraws of a region only (units taken off it)
        self.base_version = 0  # counts every drawing on the base layer (the still layer is of one)
        self.still: Any = None  # pygame.Surface: the base with the live units that stood still
        self.still_canvas: Optional[PygameCanvas] = None
        self.still_key: Any = None  # (base key, base version, options the units layer reads)
        self.still_sigs: dict[str, tuple] = {}  # the units the still layer shows: their signatures
        self.still_placed: list = []  # the px boxes their labels, badges and markers took
        self.still_units: tuple = ()  # the px boxes of their trays and bases, which labels keep off
        self.still_box: Any = None  # pygame.Rect: where the still layer's units were drawn
        self.still_builds = 0
        self.still_reused = 0  # frames that drew live units over the still layer, not all anew

    def _base_canvas(self) -> PygameCanvas:
        assert self.base_canvas is not None, "the base layer is drawn first"
        return self.base_canvas

    def reset(self) -> None:
        """Forget every layer (the next frame draws everything)."""
        self.base = self.base_key = self.last = self.last_key = None
        self.base_sigs, self.moving = {}, set()

    def draw(self, canvas: Any, board: Board, analysis: Any, view: Any, options: SceneOptions,
             models: Optional[list[DrawnModel]]) -> list[str]:
        """Draw the scene on ``canvas`` (as :func:`draw_scene` would); returns drawing errors.
        Steps: keys; the last frame if unchanged; the plan; the base; live units; top; keep."""
        if not isinstance(canvas, PygameCanvas) or canvas.record or models is None:
            self.reset()
            return draw_scene(canvas, board, analysis, view, options=options, models=models)
        surf = canvas.surface
        size = surf.get_size()
        base_key, sigs, frame_key = self._keys(board, analysis, view, options, models, size)
        if self._same_frame(surf, frame_key, size, sigs):
            return []
        prev_sigs, self.last_sigs = self.last_sigs, sigs
        full, moving, leaving = self._plan(analysis, sigs, base_key, size)
        errors = self._update_base(canvas, board, analysis, view, options, models, size, base_key, sigs,
                                   full, moving, leaving)
        if self.moving:
            errors += self._draw_live(canvas, board, analysis, view, options, models, sigs, prev_sigs, base_key)
        else:
            surf.blit(self.base, (0, 0))
        errors += draw_scene(canvas, board, analysis, view, options=dataclasses.replace(options, layer="top"),
                             models=models)
        self._keep(surf, size, frame_key)
        return errors

    def _keys(self, board: Board, analysis: Any, view: Any, options: SceneOptions, models: list[DrawnModel],
              size: tuple[int, int]) -> tuple[Any, dict[str, tuple], Any]:
        """(the key of the base layer every unit is drawn over, unit signatures, the frame's key)."""
        base_key = (size, view.scale, tuple(view.offset_px), board.table, repr(board.terrain),
                    repr((board.context or {}).get("objectives")), board.title,
                    analysis.ruleset if analysis is not None else None,
                    bool(options.status),
                    tuple(repr(getattr(options, f)) for f in _BASE_FIELDS), wide_key(analysis))
        sigs = unit_signatures(board, analysis, models, options)
        frame_key = (base_key, sigs, repr(dataclasses.replace(options, palette={}, differ={}, overlaps=())),
                     id(analysis), tuple(sorted(options.differ or {})), tuple(options.overlaps or ()))
        return base_key, sigs, frame_key

    def _same_frame(self, surf: Any, frame_key: Any, size: tuple[int, int], sigs: dict[str, tuple]) -> bool:
        """Whether the last frame stands as it was (blitted on ``surf``). Counts the frames the units
        stood still; settled with units drawn live (no drag on), the base is drawn afresh."""
        if frame_key == self.last_key and self.last is not None and self.last.get_size() == size:
            surf.blit(self.last, (0, 0))  # nothing changed: the last frame as it was
            self.skipped += 1
            self.settled += 1
            if not (self.moving and self.settled >= 2 and not self.holding):
                return True
            self.base_key = None  # settled with units still drawn live: fold them into the base
            return False
        # the units stand still though something else changed (the status line's frame
        # time): settled all the same, so units drawn live are folded into the base
        self.settled = self.settled + 1 if sigs == self.last_sigs else 0
        if self.moving and self.settled >= 2 and not self.holding:
            self.base_key = None
        return False

    def _plan(self, analysis: Any, sigs: dict[str, tuple], base_key: Any, size: tuple[int, int]
              ) -> tuple[bool, set[str], set[str]]:
        """(draw the base whole?, the units to draw live, the units that start changing this
        frame and leave the base, drawn again without them as a region)."""
        full = self.base_key != base_key or self.base is None or self.base.get_size() != size
        if full:
            return True, set(), set()  # the view, table or options changed (or it settled): one fresh base
        changed = {uid for uid, s in sigs.items() if self.base_sigs.get(uid) != s}
        gone = set(self.base_sigs) - set(sigs)
        # a unit joined by a gap link to a changing one is drawn live with it: a link is
        # drawn with the units at both its ends (else neither layer draws it)
        moving = linked(self.moving | changed, analysis.gap_links if analysis is not None else [])
        if gone or (moving - self.moving and len(moving) > max(3, MAX_MOVING_SHARE * len(sigs))):
            return True, set(), set()  # too much changed (or a unit went): one fresh base
        return False, moving, moving - self.moving

    def _update_base(self, canvas: PygameCanvas, board: Board, analysis: Any, view: Any, options: SceneOptions,
                     models: list[DrawnModel], size: tuple[int, int], base_key: Any, sigs: dict[str, tuple],
                     full: bool, moving: set[str], leaving: set[str]) -> list[str]:
        """Bring the base up to date: the leaving units' region drawn without them (whole when it
        cannot be drawn alone), the whole base, or its legend alone. Returns drawing errors."""
        legend_was = self.base_legend
        errors: list[str] = []
        if leaving:
            part = self._draw_region(board, analysis, view, options, models, leaving)
            if part is None:
                full = True  # (the region could not be drawn alone) a base without them, drawn whole
            else:
                errors += part
                self.moving = moving
                self.base_sigs = {uid: s for uid, s in self.base_sigs.items() if uid not in moving}
        if full:
            errors += self._draw_base(board, analysis, view, options, models, moving, size)
            self.base_key, self.moving = base_key, moving
            self.base_sigs = {uid: s for uid, s in sigs.items() if uid not in moving}
            self.base_legend = self._legend(board, analysis, models, options)
        elif options.legend:
            items = self._legend(board, analysis, models, options)
            if items != self.base_legend:  # the legend changed (counts, strike order): redraw it alone
                errors += draw_scene(self._base_canvas(), board, analysis, view, models=models,
                                     options=dataclasses.replace(options, layer="panel",
                                                                 legend_items=_given(items)))
                self.base_legend = items
        if full or leaving:
            self.base_version += 1  # the base was drawn again (whole or a region)
        elif self.base_legend is not legend_was:
            self._panel_to_still(canvas, board, analysis, options)
        return errors

    def _keep(self, surf: Any, size: tuple[int, int], frame_key: Any) -> None:
        """Keep a copy of the frame for the next, unless a drag is on (mid-drag every frame differs:
        a whole-window copy of each is waste; the first frame after the drag is kept)."""
        if self.holding:
            self.last_key = None
            return
        if self.last is None or self.last.get_size() != size:
            self.last = surf.copy()
        else:
            self.last.blit(surf, (0, 0))
        self.last_key = frame_key

    def _draw_live(self, canvas: PygameCanvas, board: Board, analysis: Any, view: Any, options: SceneOptions,
                   models: list[DrawnModel], sigs: dict[str, tuple], prev: dict[str, tuple],
                   base_key: Any) -> list[str]:
        """The base and the units drawn live (:attr:`moving`) on ``canvas``, through the
        *still layer*: a copy of the base with the live units that stood still (their signature
        the same as on the last frame) drawn on it, kept while the base and those units stay
        as they are; each frame then blits it and draws over it only the live units that
        changed (their labels kept clear of those the still layer placed). A drag moves one
        unit; its enemies change now and then: most frames draw one unit, not three.

        The still layer is drawn again when the base was drawn again, when a unit it shows
        changed or is no longer live, or when a unit drawn over it stood still (it joins);
        with no live unit standing still there is none (every live unit drawn over the base).
        A unit standing still that a gap link joins to a unit drawn over the layer is drawn
        over it too (:func:`apart`: the link is drawn with both)."""
        import pygame

        surf = canvas.surface
        key = (base_key, self.base_version, tuple(sorted(options.differ or {})), tuple(options.overlaps or ()),
               repr(options.visible), bool(options.labels), bool(options.counts))
        kept = self.still_sigs
        valid = (self.still is not None and self.still_key == key and self.still.get_size() == surf.get_size()
                 and all(uid in self.moving and sigs.get(uid) == s for uid, s in kept.items()))
        standing = apart({uid for uid in self.moving if uid in prev and prev[uid] == sigs.get(uid)},
                         analysis.gap_links if analysis is not None else [])
        errors: list[str] = []
        if not valid or not standing <= kept.keys():
            self.still_sigs, self.still_placed, self.still_key, self.still_units = {}, [], None, ()
            if not standing:
                self.still = self.still_canvas = None
                b, a, ms = _sub(board, analysis, models, self.moving)
                surf.blit(self.base, (0, 0))
                return draw_scene(canvas, b, a, view, options=dataclasses.replace(options, layer="units"), models=ms)
            if self.still is None or self.still.get_size() != surf.get_size():
                self.still = pygame.Surface(surf.get_size())
                self.still_canvas = PygameCanvas(self.still)
            assert self.still_canvas is not None
            self.still.blit(self.base, (0, 0))
            placed: list = []
            b, a, ms = _sub(board, analysis, models, standing)
            self.still_canvas.painted = []
            try:
                errors += draw_scene(self.still_canvas, b, a, view, models=ms,
                                     options=dataclasses.replace(options, layer="units", placed=placed))
                drawn = self.still_canvas.painted
                self.still_box = drawn[0][1].unionall([r for _t, r in drawn[1:]]) if drawn else None
            finally:
                self.still_canvas.painted = None
            self.still_sigs = {uid: sigs[uid] for uid in standing}
            self.still_placed, self.still_key = placed, key
            self.still_units = tuple(UnitBoxes(b, view, moved_units(a)).avoid(ms))
            self.still_builds += 1
        else:
            self.still_reused += 1
        surf.blit(self.still, (0, 0))
        rest = self.moving - self.still_sigs.keys()
        if rest:
            b, a, ms = _sub(board, analysis, models, rest)
            errors += draw_scene(canvas, b, a, view, models=ms, options=dataclasses.replace(
                options, layer="units", keep_off=tuple(self.still_placed), keep_clear=self.still_units))
        return errors

    def _panel_to_still(self, canvas: PygameCanvas, board: Board, analysis: Any, options: SceneOptions) -> None:
        """The legend panel was drawn again on the base alone: the same px copied into the
        still layer, or (a unit it shows drawn into the panel's box) the still layer dropped."""
        if self.still is None or self.still_key is None:
            return
        panel = scene_layout(canvas, board, options, ruleset_of(analysis)).panel
        if panel is None:
            return
        import pygame

        rect = pygame.Rect(*(int(v) for v in panel)).inflate(4, 4)
        if self.still_box is not None and self.still_box.colliderect(rect):
            self.still_key = None
            return
        self.still.blit(self.base, rect.topleft, rect)

    def _legend(self, board: Board, analysis: Any, models: list[DrawnModel], options: SceneOptions) -> Any:
        """The legend's items, built again only when something they show changed (the
        analysis, the drawn models, the units or an option the legend reads): a frame that only
        changes the status line or the hover rebuilds nothing."""
        if not options.legend:
            return None
        key = tuple(repr(getattr(options, f, None)) for f in _LEGEND_FIELDS)
        memo = self.legend_memo
        if (memo is not None and memo[0] is analysis and memo[1] is models and memo[3] == key
                and len(memo[2]) == len(board.units) and all(a is b for a, b in zip(memo[2], board.units))):
            return memo[4]
        try:
            items: Any = legend_items(board, analysis, models, options)
        except Exception:  # noqa: BLE001 - the panel reports its own error when drawn
            items = _NOTHING
        self.legend_memo = (analysis, models, list(board.units), key, items)
        self.legend_builds += 1
        return items

    def _draw_base(self, board: Board, analysis: Any, view: Any, options: SceneOptions,
                   models: list[DrawnModel], moving: set[str], size: tuple[int, int]) -> list[str]:
        """The base layer drawn whole: every unit but ``moving``; where each unit was drawn
        (:attr:`regions`) and each label placed (:attr:`placements`) are noted for
        :meth:`_draw_region`."""
        import pygame

        if self.base is None or self.base.get_size() != size:
            self.base = pygame.Surface(size)
            self.base_canvas = PygameCanvas(self.base)
        canvas = self._base_canvas()
        self.redraws += 1
        keep = {u.id for u in board.units} - moving
        b, a, ms = _sub(board, analysis, models, keep) if moving else (board, analysis, models)
        # the status text stays (the layout keeps room for the status line; the top layer redraws it)
        # the legend panel is drawn once, of the whole board (with units left out too: it tells of
        # the live ones), after the table (layer ``table``: the base without it)
        self.placements = Placements()
        o = dataclasses.replace(options, layer="table" if options.legend else "base", hover=None, hover_px=None,
                                selection=(), overlays=[], banner="", warning="", placements=self.placements)
        canvas.painted = []
        try:
            errors = draw_scene(canvas, b, a, view, options=o, models=ms)
            self.regions = Regions(canvas.painted, keep)
        finally:
            canvas.painted = None
        if options.legend:
            errors += draw_scene(canvas, board, analysis, view, models=models, options=dataclasses.replace(
                options, layer="panel", legend_items=_given(self._legend(board, analysis, models, options))))
        return errors

    def _draw_region(self, board: Board, analysis: Any, view: Any, options: SceneOptions,
                     models: list[DrawnModel], leaving: set[str]) -> Optional[list[str]]:
        """Take the units ``leaving`` off the base layer by drawing again only the px boxes they
        covered (:meth:`Regions.regions`: one per unit, overlapping ones merged): cut to each
        box, the table there and the units drawn in it, their labels where they were placed
        (:attr:`placements` reused), and the legend panel where the box reaches it. Returns the
        drawing errors, or None when the boxes cannot be drawn alone (the base is then drawn
        whole): no regions noted, parts drawn table-wide or rule moves (drawn away from their
        units), a drawing of unknown owner in a box, or a label placed anew (its old spot
        unknown)."""
        reg, seen = self.regions, self.placements
        if reg is None or seen is None or self.base is None or table_wide(analysis) or (
                analysis is not None and analysis.moves):
            return None
        box = self.base.get_rect()
        rects = [r for r in (q.clip(box) for q in reg.regions(leaving)) if r.w and r.h]
        if any(not reg.clear_of_unknown(r) for r in rects):
            return None
        keep = {u.id for u in board.units} - self.moving - leaving
        canvas = self._base_canvas()
        again = Placements(reuse=seen.seen)
        o = dataclasses.replace(options, layer="table", hover=None, hover_px=None, selection=(), overlays=[],
                                banner="", warning="", placements=again)
        panel = scene_layout(canvas, board, options, ruleset_of(analysis)).panel if options.legend else None
        errors: list[str] = []
        for rect in rects:  # (none: drawn nowhere on the base, nothing to take off)
            b, a, ms = _sub(board, analysis, models, reg.touching(rect, keep))
            canvas.push_clip((rect.x, rect.y, rect.w, rect.h))
            try:
                errors += draw_scene(canvas, b, a, view, options=o, models=ms)
                if panel is not None and rect.colliderect(panel) and not again.missed:
                    errors += draw_scene(canvas, board, analysis, view,
                                         options=dataclasses.replace(options, layer="panel"), models=models)
            finally:
                canvas.pop_clip()
            if again.missed:
                return None
        self.partial += 1
        reg.forget(leaving)
        return errors
