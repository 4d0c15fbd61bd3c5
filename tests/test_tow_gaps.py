"""The Old World's gap shortcuts equal the plain computation: Dividing Attacks' closest enemy
units (box bounds and a corner bound instead of every exact gap, :mod:`tow_gaps`) and the
edge-to-edge gap with the separating-axis test stopped at the first separating axis
(:func:`game.core.geometry.gap_mm`, :func:`~game.core.geometry.within`)."""
import math

from hypothesis import example, given, settings
from hypothesis import strategies as st

from game.core import geometry as g
from game.core.unit_models import Model
from game.engines.rank_and_file.tow_gaps import Gaps

coord = st.sampled_from([0.0, 5.0, 10.0, 19.5, 20.0, 20.5, 25.0, 40.0, 60.0]) | st.floats(-80, 80)
shape = st.tuples(st.sampled_from(["rect", "round", "oval"]), coord, coord,
                  st.sampled_from([0.0, 90.0, 180.0, 45.0, 13.0]), st.sampled_from([20.0, 25.0, 40.0]))


def make(spec, i: int, unit: str) -> Model:
    kind, x, y, facing, size = spec
    s = (g.rect((x, y), size, 20.0, facing) if kind == "rect" else g.Circle((x, y), size / 2) if kind == "round"
         else g.oval((x, y), size, 20.0, facing, sides=12))
    return Model(f"{unit}.m{i}", unit, f"m{i}", None, None, (x, y), facing, s)


def full_depth(a, b) -> float:
    return g._poly_overlap_depth(a, b)  # every axis (no stop)


def plain_gap(a, b) -> float:
    """gap_mm as it was: the separating-axis depth over every axis first."""
    if isinstance(a, g.Poly) and isinstance(b, g.Poly):
        depth = full_depth(a.points, b.points)
        if depth > 0:
            return -depth
        return math.sqrt(min(g._min_vertex_edge_d2(a.points, b.points), g._min_vertex_edge_d2(b.points, a.points)))
    return g.gap_mm(a, b)


def plain_within(a, b, tol: float) -> bool:
    if g.bbox_gap(a.bbox(), b.bbox()) > tol:
        return False
    if isinstance(a, g.Poly) and isinstance(b, g.Poly):
        depth = full_depth(a.points, b.points)
        if depth < -tol:
            return False
        if depth >= -1e-9:
            return True
        return plain_gap(a, b) <= tol
    return g.gap_mm(a, b) <= tol


@settings(max_examples=200, deadline=None)
@given(st.lists(shape, min_size=2, max_size=10), st.sampled_from([0.0, 0.5, 1.0, 3.0]))
def test_gap_and_within_stop_early_with_the_same_answer(specs, tol):
    shapes = [make(s, i, "a").shape for i, s in enumerate(specs)]
    for a in shapes:
        for b in shapes:
            assert g.gap_mm(a, b) == plain_gap(a, b)
            assert g.within(a, b, tol) == plain_within(a, b, tol)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(shape, min_size=0, max_size=5), min_size=2, max_size=4),
       st.lists(shape, min_size=1, max_size=4), st.sampled_from([0.0, 0.5, 25.4]))
def test_closest_enemy_units_equal_comparing_every_exact_gap(enemies, askers, tol):
    models = {f"e{k}": [make(s, i, f"e{k}") for i, s in enumerate(specs)] for k, specs in enumerate(enemies)}
    gaps = Gaps(models)
    ids = sorted(models)
    asks = [(make(s, i, "me"), ids[: 2 + i % (len(ids) - 1)]) for i, s in enumerate(askers)]
    got = gaps.closest(asks, tol)
    for (m, es), answer in zip(asks, got):
        dist = {e: gaps(m, e, None) for e in es}  # each exact gap, as the fight compared them before
        assert answer == [e for e in es if dist[e] <= min(dist.values()) + tol]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([(20.0, 20.0), (25.0, 50.0), (40.0, 40.0), (32.5, 17.0)]), st.integers(1, 6), st.integers(1, 23),
       st.floats(-500, 500), st.floats(-500, 500), st.sampled_from([0.0, 90.0, 180.0, 270.0, 45.0, 13.7, 333.3]))
def test_boxes_of_a_ranked_unit_from_its_arrays_equal_each_bases_box(base, files, count, x, y, facing):
    from game.core.board import Unit
    from game.engines.rank_and_file.base_boxes import rect_boxes
    u = Unit(id="u", player=1, kind="ranked", base=base, files=files, count=count, front=(x, y), facing_deg=facing)
    got = rect_boxes(u, u.models())
    assert got is not None
    assert [list(map(float, r)) for r in zip(*got)] == [list(m.shape.bbox()) for m in u.models()]
    assert rect_boxes(u, list(u.models())) is None  # not the unit's own list: built from the shapes


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.005, 0.01, 0.05, 0.1, 0.49, 0.5, 0.51, 0.55, 1.0, 3.0]),
                          st.sampled_from([-30.0, -10.0, 0.0, 4.0, 10.0, 20.0, 31.0]),
                          st.sampled_from([0.0, 90.0, 180.0, 45.0])), min_size=2, max_size=4),
       st.sampled_from([0.0, 0.5]), st.sampled_from([0.0, 180.0, 90.0]))
def test_closest_near_the_tolerance_equals_comparing_every_exact_gap(enemies, tol, facing):
    """Square-on bases in front of a fighter, their gaps around 20 mm + tol: the bounds must
    never settle an answer the exact gaps would not give."""
    me = Model("me.m1", "me", "m1", None, None, (0.0, 0.0), facing, g.rect((0.0, 0.0), 20.0, 20.0, facing))
    models = {}
    for k, (extra, dx, turn) in enumerate(enemies):
        c = (dx, -(20.0 + 20.0 + extra))  # 20 mm between the fronts, plus extra
        models[f"e{k}"] = [Model(f"e{k}.m1", f"e{k}", "m1", None, None, c, turn, g.rect(c, 20.0, 20.0, turn))]
    gaps = Gaps(models)
    es = sorted(models)
    (answer,) = gaps.closest([(me, es)], tol)
    dist = {e: gaps(me, e, None) for e in es}
    assert answer == [e for e in es if dist[e] <= min(dist.values()) + tol]


def _ranked(uid: str, x: float, y: float, facing: float, files: int = 5, count: int = 10):
    from game.core.board import Unit
    return Unit(id=uid, player=1 if uid.startswith("a") else 2, kind="ranked", base=(20.0, 20.0), files=files,
                count=count, front=(x, y), facing_deg=facing)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(-120, 120), st.sampled_from([-40.5, -40.0, -40.3, -45.0, -60.0, -39.9]),
                          st.sampled_from([180.0, 0.0, 90.0, 200.0, 180.0 + 1e-9])), min_size=2, max_size=3),
       st.sampled_from([0.0, 0.5, 3.0]), st.sampled_from([0.0, 1e-10, 20.0]))
def test_closest_for_ranked_units_from_their_arrays_equals_comparing_every_exact_gap(enemies, tol, facing):
    """Asking models and enemy bases of ranked units standing as their poses say (the
    shortcut reads their boxes and box-likeness from the arrays, builds no outline): the same
    answers as comparing every exact gap."""
    me = _ranked("a", 0.0, 0.0, facing)
    units = {"a": me, **{f"b{k}": _ranked(f"b{k}", x, y, f) for k, (x, y, f) in enumerate(enemies)}}
    models = {uid: u.models() for uid, u in units.items()}
    gaps = Gaps(models, units)
    es = sorted(uid for uid in units if uid != "a")
    asks = [(m, es) for m in models["a"]]
    got = gaps.closest(asks, tol)
    for (m, _es), answer in zip(asks, got):
        dist = {e: Gaps(models)(m, e, None) for e in es}  # each exact gap, read from the shapes
        assert answer == [e for e in es if dist[e] <= min(dist.values()) + tol]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([(20.0, 20.0), (25.0, 50.0), (32.5, 17.0)]), st.integers(1, 6), st.integers(1, 17),
       st.floats(-5000, 5000), st.floats(-5000, 5000),
       st.sampled_from([0.0, 90.0, 180.0, 270.0, 45.0, 13.7, 1e-12, 1e-9, 2.9e-9, 1e-7, 89.9999999999, 360.0 - 1e-11])
       | st.floats(0, 360))
@example((20.0, 20.0), 3, 7, 123.4, -55.0, 2.9e-9)  # corners 1.01e-9 mm off square: not box-like
@example((25.0, 50.0), 3, 7, 123.4, -55.0, 1.1e-9)  # 0.96e-9 mm: box-like
@example((25.0, 50.0), 2, 5, -3000.0, 2000.0, 2.0e-9)
def test_box_like_of_a_ranked_units_bases_at_once_equals_each_shapes(base, files, count, x, y, facing):
    """The closest-enemy shortcut reads whether a ranked unit's bases are box-like once for
    the unit (:func:`base_boxes.unit_box_like`, from the corner offsets): when it answers, the
    answer of :func:`geometry.box_like` on every base outline (near-square-on facings too)."""
    from game.core.board import Unit
    from game.engines.rank_and_file.base_boxes import unit_box_like
    u = Unit(id="u", player=1, kind="ranked", base=base, files=files, count=count, front=(x, y), facing_deg=facing)
    got = unit_box_like(u, u.models())
    if facing in (0.0, 90.0, 180.0, 270.0, 45.0, 13.7):
        assert got is not None  # square-on or clearly turned: known at once
    if got is not None:
        assert [g.box_like(m.shape) for m in u.models()] == [got] * count
    assert unit_box_like(u, list(u.models())) is None  # not the unit's own list: read from the shapes


def test_a_recheck_of_closest_answers_settled_by_the_arrays_makes_no_model():
    """:func:`tow_gaps.same_answers` on Dividing Attacks reads of square-on ranked units asks
    the arrays (boxes, box-likeness once per unit): no model of the moved unit is made."""
    from game.engines.rank_and_file.tow_gaps import same_answers
    me = _ranked("a", 0.0, 0.0, 0.0)
    units = {"a": me, "b0": _ranked("b0", -50.0, -40.2, 180.0), "b1": _ranked("b1", 50.0, -40.2, 180.0)}
    models = {uid: u.models() for uid, u in units.items()}
    gaps = Gaps(models, units)
    asks = [(m, ["b0", "b1"]) for m in models["a"]]
    gaps.closest(asks, 0.5)
    moved = {**units, "a": me.translated(0.25, 0.0)}
    fresh = {uid: u.models() for uid, u in moved.items()}
    assert same_answers(fresh, moved, gaps.reads["a"])
    assert not fresh["a"]._filled  # (board.Models: made only when read as models)


def _line_reads(shift_x: float, shift_y: float, tol: float, was_x: float = 0.0):
    """Dividing Attacks reads of a ranked unit ``a`` between two enemy units (``b1`` slid by
    ``was_x``), then ``b1`` slid by (shift_x, shift_y) instead: (models, units, reads) as they
    stand after the slide."""
    me = _ranked("a", 0.0, 0.0, 0.0, files=6, count=18)
    units = {"a": me, "b0": _ranked("b0", -35.0, -0.0, 180.0, files=4, count=8),
             "b1": _ranked("b1", 45.0, -0.0, 180.0, files=4, count=8)}
    base = units["b1"]
    units["b1"] = base.translated(was_x, 0.0)
    models = {uid: u.models() for uid, u in units.items()}
    gaps = Gaps(models, units)
    gaps.closest([(m, ["b0", "b1"]) for m in models["a"] if m.rank > 1], tol)
    moved = {**units, "b1": base.translated(shift_x, shift_y)}
    return {uid: u.models() for uid, u in moved.items()}, moved, gaps.reads["a"]


@settings(max_examples=150, deadline=None)
@given(st.floats(-12, 12), st.floats(-3, 3), st.sampled_from([0.5, 3.0, 25.4]))
@example(0.3, 0.0, 0.5)
@example(-8.0, 0.0, 0.5)
def test_a_closest_answer_kept_by_its_margin_is_the_answer_measured_again(dx, dy, tol):
    """A recheck skips measuring a closest-units answer whose recorded margin exceeds twice
    how far its units slid (:func:`tow_gaps.same_answers`): it must say what measuring every
    read again says (each read's margin taken away)."""
    from game.engines.rank_and_file.tow_gaps import same_answers
    models, units, reads = _line_reads(dx, dy, tol)
    assert any(r[5] is not None for r in reads)  # (margins recorded)
    bare = [r[:5] + (None, None) for r in reads]
    for r in reads:
        assert same_answers(models, units, [r]) == same_answers(models, units, [r[:5] + (None, None)])
    assert same_answers(models, units, reads) == same_answers(models, units, bare)


def test_rechecks_asked_together_equal_each_asked_alone():
    """:func:`tow_gaps.same_answers_many` (one array pass for several units' reads) gives each
    list the verdict :func:`same_answers` gives it alone."""
    from game.engines.rank_and_file.tow_gaps import same_answers, same_answers_many
    batch = []
    for was in (0.0, 0.4, -6.0, 9.0, 30.0):
        models, units, reads = _line_reads(0.4, 0.0, 0.5, was)
        batch.append(reads)
    bare = [[r[:5] + (None, None) for r in reads] for reads in batch]
    want = [same_answers(models, units, r) for r in bare]
    assert same_answers_many(models, units, bare) == want
    assert same_answers_many(models, units, batch) == want
    assert True in want and False in want


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-120, 120), st.sampled_from([-40.5, -40.0, -40.3, -45.0, -60.0, -39.9]),
                          st.sampled_from([180.0, 0.0, 90.0, 200.0])), min_size=2, max_size=3),
       st.sampled_from([0.0, 0.5, 3.0]))
def test_closest_settled_on_the_arrays_at_once_equals_one_by_one(enemies, tol):
    """Many asks are settled on the arrays at once (:func:`tow_gaps._settle_boxes`), few one by
    one: the same answers and margins either way."""
    from game.engines.rank_and_file import tow_gaps
    me = _ranked("a", 0.0, 0.0, 0.0, files=8, count=40)
    units = {"a": me, **{f"b{k}": _ranked(f"b{k}", x, y, f) for k, (x, y, f) in enumerate(enemies)}}
    models = {uid: u.models() for uid, u in units.items()}
    es = sorted(uid for uid in units if uid != "a")
    asks = [(m, es[: 2 + i % (len(es) - 1)]) for i, m in enumerate(models["a"])]
    assert len(asks) > tow_gaps._MANY
    together: list = []
    got = Gaps(models, units)._closest(asks, tol, together)
    old = tow_gaps._MANY
    try:
        tow_gaps._MANY = len(asks)
        alone: list = []
        assert Gaps(models, units)._closest(asks, tol, alone) == got
    finally:
        tow_gaps._MANY = old
    assert [None if x is None else round(x, 9) for x in together] == [None if x is None else round(x, 9) for x in alone]
    for (m, es_), answer in zip(asks, got):
        dist = {e: Gaps(models)(m, e, None) for e in es_}
        assert answer == [e for e in es_ if dist[e] <= min(dist.values()) + tol]
