"""The window's drawing and dragging shortcuts (issue 25) give what the plain code gives.

* the legend's model ids kept by difference (``legend.ShownIds``) and the strike order's
  counts kept by step: the window's legend after drags, edits, undo, redo and ruleset switches
  equals the legend recounted from scratch (a plain list of the same drawn models);
* label placement scoring every candidate at once (``Placer.best`` with numpy) picks the box the
  plain loop picks, on random boxes full of ties;
* models drawn by runs (``unit_marks.models`` handing ``PygameCanvas.polygons`` a run of bases) give the pixels the
  per-model path gives;
* ``snap_to_contact`` on the units near the dragged one finds what the whole board gives;
* the overlap check after a drop is kept only for the board it was made on.
Headless, no clock read (the window's clock is a fake one)."""
from __future__ import annotations

import dataclasses
import random

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apputil import SCENARIOS, make_app
from game.core.board import Board, Unit
from game.physics import trays
from game.render import legend, placer, unit_marks
from game.render.canvas import Canvas
from game.render.pygame_canvas import PygameCanvas
from game.render.legend import ShownIds, legend_items
from game.render.scene import draw_scene

RANK_AND_FILE = ("whfb8", "t9a", "tow", "tow_2024")


# -- the legend ----------------------------------------------------------------------------------
def recount(d) -> list:
    """The legend of what the window shows, counted again from every drawn model."""
    board, analysis, models = d.table.shown()
    return legend_items(board, analysis, list(models), d.table.options)


def window_legend(d) -> list:
    board, analysis, models = d.table.shown()
    assert getattr(models, "by_unit", None) is not None  # the window's kept lists (else nothing is tested)
    return legend_items(board, analysis, models, d.table.options)


@pytest.mark.parametrize("rid", RANK_AND_FILE)
def test_window_legend_equals_a_recount_after_drags_edits_undo_and_ruleset_switches(rid):
    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", gui=False)
    d.table.options.legend = True
    if d.doc.rs.id != rid:
        d.app.rulesets.set_ruleset(rid)
        d.frame()
    r = random.Random(rid)
    ids = [u.id for u in d.doc.board.units]
    for step in range(14):
        what = r.choice(["drag", "drag", "forward", "model", "undo", "redo", "ruleset"])
        uid = r.choice(ids)
        u = d.doc.board.unit(uid)
        if what == "drag":
            c = u.center()
            d.select(uid)
            d.drag(c, (c[0] + r.uniform(-40, 40), c[1] + r.uniform(-40, 40)), frames=4)
        elif what == "forward":
            d.select(uid)
            d.action(f"forward:{r.choice([-20, 15, 30])}")
        elif what == "model":
            d.select(uid)
            d.action(f"model:{r.choice(['1', '-1'])}")
        elif what in ("undo", "redo"):
            d.action(what)
        else:
            d.app.rulesets.set_ruleset(r.choice(RANK_AND_FILE))
        d.frame(2)
        assert window_legend(d) == recount(d), (step, what, uid)


def test_unit_tally_from_the_units_results_equals_the_model_by_model_tally():
    """A unit's legend tally read from its ``UnitResults`` (results never made are the untouched
    ``none`` ones: no attacks, no targets) is the tally of looking every drawn model up in the
    board's results, on random units: roles drawn and made, attacks 0-3, targets in 0-3 units."""
    from types import SimpleNamespace

    from game.core.analysis import ModelResult
    from game.core.results import ModelResults, UnitResults

    r = random.Random(11)
    seen = {"fast": 0, "many": 0, "div": 0, "untouched_fighting": 0}
    for _ in range(300):
        n = r.randint(1, 12)
        ids = [f"u.r1f{k}" for k in range(n)]
        ur = UnitResults.of(ids, [(float(k), 0.0) for k in range(n)])
        lst = []
        for k, mid in enumerate(ids):
            role = r.choice(["attack", "support", "none", "odd"])
            if r.random() < 0.7:
                targets = tuple(f"{r.choice('abc')}.r1f{r.randrange(3)}" for _ in range(r.randint(0, 3)))
                ur.made[k] = ModelResult(r.choice(["attack", "support", "none"]), r.randint(0, 3), targets)
            elif role != "none":
                seen["untouched_fighting"] += 1
            lst.append(SimpleNamespace(id=mid, role=role))
        got = legend._tally_unit(lst, "u", ur)
        want = legend._tally(lst, ModelResults({"u": ur}), set())
        assert got == want
        seen["fast"] += 1
        seen["many"] += got[1]
        seen["div"] += got[3]
    assert all(seen.values()), seen
    stranger = [SimpleNamespace(id="stranger.r1f1", role="none")]
    assert legend._tally_unit(stranger, "u", ur) is None  # not the unit's: counted the usual way


def test_shown_ids_follow_replaced_added_and_removed_units():
    from game.render.drawn import DrawnModel

    r = random.Random(3)
    shown = ShownIds()
    by_unit: dict = {}
    g_shape = None
    for step in range(300):
        uid = f"u{r.randrange(6)}"
        op = r.random()
        if op < 0.2:
            by_unit.pop(uid, None)
        else:  # a new list for the unit (a pose or result changed); ids may repeat across units
            n = r.randrange(0, 5)
            by_unit[uid] = [DrawnModel(f"{r.choice([uid, 'shared'])}.m{r.randrange(8)}", None, g_shape, "none")
                            for _ in range(n)]
        by_unit = dict(by_unit)
        got = shown.update(by_unit)
        assert set(got) == {dm.id for lst in by_unit.values() for dm in lst}, step


def test_strike_order_counts_kept_by_step_equal_a_fresh_count():
    from collections import Counter

    from game.render.part_marks import _per_unit

    r = random.Random(5)
    for _ in range(200):
        mids = tuple(f"u{r.randrange(5)}.r{r.randrange(3)}f{r.randrange(9)}" for _ in range(r.randrange(0, 30)))
        want = dict(Counter(m.partition(".")[0] for m in mids))
        assert _per_unit(mids) == want
        assert list(_per_unit(list(mids))) == list(want)  # the same order of units


# -- label placement -----------------------------------------------------------------------------
coord = st.one_of(st.integers(-5, 60).map(float), st.floats(-50, 600, allow_nan=False))
size = st.one_of(st.integers(0, 12).map(lambda i: 5.0 * i), st.floats(0, 80))  # whole sizes: scores tie
box = st.tuples(coord, coord, size, size).map(lambda t: (t[0], t[1], t[0] + t[2], t[1] + t[3]))


def plain_best(p: placer.Placer, boxes, avoid):
    scores = []
    for b in boxes:
        sc = p.score(b, avoid)
        if sc <= 0:
            return b
        scores.append(sc)
    i = min(range(len(scores)), key=lambda k: (scores[k], k))
    return p.inside(boxes[i])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(box, max_size=12), st.lists(box, max_size=6), st.lists(box, max_size=12),
       st.lists(box, min_size=1, max_size=60), st.booleans())
def test_vectorised_label_placement_picks_the_plain_loops_box(taken, soft, avoid, cands, repeat):
    p = placer.Placer((0.0, 0.0, 400.0, 300.0))
    for b in taken:
        p.add(b)
    for b in soft:
        p.add(b, soft=True)
    if repeat:  # ties: the same candidates again
        cands = cands + cands
    want = plain_best(p, cands, avoid)
    assert p.best(cands, avoid) == want
    p.add(want)  # the placer's arrays follow what is added
    assert p.best(cands, avoid) == plain_best(p, cands, avoid)


def test_label_placement_ties_go_to_the_first_candidate_as_in_the_plain_loop():
    p = placer.Placer((0.0, 0.0, 400.0, 300.0))
    p.add((0.0, 0.0, 250.0, 250.0))
    cands = [(10.0 * i, 10.0 * i, 10.0 * i + 10, 10.0 * i + 10) for i in range(1, 21)]  # all inside: all tie
    assert p.best(cands) == plain_best(p, cands, []) == cands[0]


def test_label_placement_with_a_candidate_not_finite_fails_as_the_plain_loop_does():
    p = placer.Placer((0.0, 0.0, 100.0, 100.0))
    p.add((10.0, 10.0, 20.0, 20.0))
    cands = [(float(i), 0.0, i + 30.0, 30.0) for i in range(20)] + [(0.0, 0.0, 5.0, float("inf"))]
    with pytest.raises(OverflowError):
        plain_best(p, cands[::-1], [])
    with pytest.raises(OverflowError):
        p.best(cands[::-1], [])


# -- drawing models straight onto the surface ------------------------------------------------------
class PlainCanvas(PygameCanvas):
    """A pygame canvas without the fast path: a batch of polygons drawn one by one by polygon()."""

    def polygons(self, polys, tags, fill=None, outline=None, width=1) -> None:
        Canvas.polygons(self, polys, tags, fill=fill, outline=outline, width=width)


def _model_by_model(p, dms) -> None:
    """``unit_marks.models`` as it was before runs were batched: every model through model()."""
    for dm in dms:
        p.safe(f"model {dm.id}", unit_marks.model, p, dm)


@pytest.mark.parametrize("name", ["dwarf_horde_vs_goblins.yaml", "whfb8_horde_casualties.yaml",
                                  "t9a_misaligned_other_unit.yaml", "wh40k_pile_in.yaml"])
@pytest.mark.parametrize("zoom", [1.0, 3.5])
def test_models_drawn_straight_give_the_pixels_of_the_model_by_model_path(name, zoom, monkeypatch):
    d = make_app(SCENARIOS / name, gui=False)
    cam = d.table.camera
    cam.zoom_about(zoom, (700, 440))  # zoomed in: bases cut by the canvas edge take the general path
    board, analysis, models = d.table.shown()
    o = dataclasses.replace(d.table.options, layer="all")
    a, b = pygame.Surface((1400, 880)), pygame.Surface((1400, 880))
    ea = draw_scene(PygameCanvas(a), board, analysis, cam, options=o, models=models)
    monkeypatch.setattr(unit_marks, "models", _model_by_model)
    eb = draw_scene(PlainCanvas(b), board, analysis, cam, options=o, models=models)
    assert ea == eb
    assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


# -- snapping to contact -------------------------------------------------------------------------
def tray_unit(uid: str, player: int, x: float, y: float, facing: float) -> Unit:
    return Unit(id=uid, player=player, kind="ranked", base=(20, 20), files=5, count=10, front=(x, y),
                facing_deg=facing, name=uid)


@settings(max_examples=120, deadline=None)
@given(st.floats(-0.6, 0.6), st.floats(-30, 30), st.lists(st.tuples(st.floats(-300, 300), st.floats(-300, 300),
                                                                    st.sampled_from([0.0, 90.0, 180.0, 33.0])),
                                                          max_size=6))
def test_snap_on_the_near_units_finds_what_the_whole_board_gives(gap, slide, others):
    a = tray_unit("a", 1, 300.0 + slide, 300.0, 0.0)
    # b faces a, its front `gap` mm off a's front (negative: overlapping)
    b = tray_unit("b", 2, 300.0, 300.0 - gap, 180.0)
    extra = [tray_unit(f"x{i}", 1 + i % 2, 300 + x, 300 + y, f) for i, (x, y, f) in enumerate(others)]
    board = Board(units=[a, b] + extra, ruleset="whfb8", table=(1000.0, 1000.0))
    for direction in ([(0.0, 1.0)], [(0.3, -1.0)], [None, (1.0, 0.0)]):
        got = trays.snap_to_contact(board, ("b", None), direction, 0.5)
        whole = trays._snap(board, ("b", None), direction, 0.5, 1e-6)
        assert (got is None) == (whole is None)
        if got is not None:
            assert got.pose_key() == whole.pose_key()


# -- the overlap check after a drop ----------------------------------------------------------------
def test_overlaps_are_kept_only_for_the_board_they_were_found_on():
    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", gui=False)
    live, board, rs = d.doc.live, d.doc.board, d.doc.rs
    live.update_overlaps(board, rs)
    assert live.overlaps_of(board, rs)
    moved = board.units[0].translated(1.0, 0.0)
    board = board.with_unit(moved)
    assert not live.overlaps_of(board, rs)
    assert not live.overlaps_of(board.copy(), rs)
    # after a drag that ends overlapping, the overlaps shown are those of the board shown
    from game.core.checks import overlapping_bases

    gob, dw = d.doc.board.unit("goblins"), d.doc.board.units[0]
    d.select("goblins")
    d.drag(gob.center(), dw.center(), frames=6)
    d.frame(2)
    assert d.doc.live.overlaps == overlapping_bases(d.doc.board, d.doc.rs.p("contact_tolerance_mm"))


# -- the model under the mouse -------------------------------------------------------------------
def test_model_under_the_mouse_by_unit_equals_the_plain_look_up_after_drags():
    from game.render.drawn import _contains, model_at

    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", gui=False)
    r = random.Random(11)
    for step in range(6):
        u = r.choice(d.doc.board.units)
        c = u.center()
        if step % 2:  # a unit put over another: the one drawn last is under the mouse
            v = r.choice([x for x in d.doc.board.units if x.id != u.id])
            d.put_unit(u.translated(v.center()[0] - c[0] + r.uniform(-20, 20), v.center()[1] - c[1]))
        else:
            d.select(u.id)
            d.drag(c, (c[0] + r.uniform(-30, 30), c[1] + r.uniform(-30, 30)), frames=3)
        d.frame(2)
        models = d.doc.live.models
        assert getattr(models, "by_unit", None) is not None and len(models) >= 64
        xs = [dm.shape.bbox() for dm in models]
        x0, y0 = min(b[0] for b in xs) - 5, min(b[1] for b in xs) - 5
        x1, y1 = max(b[2] for b in xs) + 5, max(b[3] for b in xs) + 5
        pts = [(r.uniform(x0, x1), r.uniform(y0, y1)) for _ in range(300)] + [dm.shape.center for dm in models[::7]]
        for p in pts:
            want = next((dm for dm in reversed(list(models)) if _contains(dm, p)), None)
            assert model_at(models, p) is want, (step, p)


# -- overlapping bases, pairs kept by pose -----------------------------------------------------------
def _cold_overlaps(board, tol, limit):
    from game.core import checks

    saved = dict(checks._PAIRS._d)
    checks._PAIRS.clear()
    try:
        return checks.overlapping_bases(board, tol, limit)
    finally:
        checks._PAIRS.clear()
        checks._PAIRS._d.update(saved)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 4), st.floats(-25, 25), st.floats(-25, 25), st.sampled_from([0.0, 90.0, 45.0])),
                min_size=1, max_size=12),
       st.sampled_from(RANK_AND_FILE), st.sampled_from([1, 3, 7, 200]))
def test_overlaps_with_kept_pairs_equal_a_cold_check_after_every_edit(moves, rid, limit):
    from game.core import checks
    from game.core.ruleset import load_ruleset

    tol = load_ruleset(rid).p("contact_tolerance_mm")
    units = [tray_unit("a", 1, 100.0, 100.0, 0.0), tray_unit("b", 2, 100.0, 102.0, 180.0),
             tray_unit("c", 1, 150.0, 95.0, 0.0),
             Unit(id="s", player=2, kind="skirmish", base=25, name="s",
                  placed=[((60.0, 60.0), None), ((80.0, 62.0), None), ((70.0, 75.0), [20, 30])]),
             Unit(id="t", player=1, kind="skirmish", base=32, name="t", placed=[((120.0, 80.0), None), ((135.0, 85.0), None)])]
    board = Board(units=units, ruleset=rid, table=(600.0, 600.0))
    for k, dx, dy, turn in moves:
        u = board.units[k]
        u = u.translated(dx, dy) if turn == 0.0 else u.rotated(turn, u.center())
        board = board.with_unit(u)
        assert checks.overlapping_bases(board, tol, limit) == _cold_overlaps(board, tol, limit)
