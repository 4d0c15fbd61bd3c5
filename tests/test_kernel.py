"""The array kernel against the plain geometry it replaces (hypothesis, bounded examples).

* a ranked unit's models from its slot template and pose equal the slot-by-slot construction;
* contacts found on arrays (interval test when square, separating axes otherwise) equal the
  exact pairwise test of every base against every base;
* the sort-and-sweep pairing finds every pair of boxes within the tolerance;
* the caches are bounded and drop the oldest entry, never everything.
"""
import dataclasses
import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core import contact
from game.core import geometry as g
from game.core.board import Unit
from game.core.lru import LRU

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
coord = st.floats(-200, 200, allow_nan=False).map(lambda v: round(v, 1))


@st.composite
def ranked(draw, uid, player):
    files = draw(st.integers(1, 8))
    return Unit(id=uid, player=player, kind="ranked", base=draw(st.sampled_from([(20, 20), (25, 50), (40, 20)])),
                files=files, count=draw(st.integers(1, files * 4)),
                last_rank=draw(st.sampled_from(["left", "center", "right"])),
                empty=draw(st.sampled_from([[], ["r1f1"], ["r2f2", "r1f3"]])),
                front=(draw(coord), draw(coord)),
                facing_deg=draw(st.sampled_from([0.0, 90.0, 180.0, 270.0, 30.0, 45.0, 137.5])))


@st.composite
def skirmish(draw, uid, player):
    n = draw(st.integers(1, 6))
    placed = [((draw(coord) / 4, draw(coord) / 4), draw(st.sampled_from([None, 32, (25, 50), {"oval": [60, 35]}])))
              for _ in range(n)]
    return Unit(id=uid, player=player, kind="skirmish", base=25, placed=placed,
                facing_deg=draw(st.sampled_from([0.0, 90.0, 33.0])))


@SETTINGS
@given(ranked("a", 1))
def test_models_from_template_equal_slot_by_slot(u):
    ms = u.models()
    assert [(m.rank, m.file) for m in ms] == u.occupied_slots()
    for m in ms:
        c = u.slot_center(m.rank, m.file)
        assert abs(m.center[0] - c[0]) < 1e-9 and abs(m.center[1] - c[1]) < 1e-9
        want = g.rect(c, u.base_w, u.base_d, u.facing_deg)
        assert all(abs(p[0] - q[0]) < 1e-9 and abs(p[1] - q[1]) < 1e-9 for p, q in zip(m.shape.points, want.points))
        assert m.id == f"a.{m.slot}" and m.unit_id == "a"


@SETTINGS
@given(st.one_of(ranked("a", 1), skirmish("a", 1)), st.one_of(ranked("b", 2), skirmish("b", 2)),
       st.sampled_from([0.0, 0.5, 1.0]), st.booleans())
def test_array_contacts_equal_every_pair_tested(a, b, tol, snap):
    if snap and a.is_ranked and b.is_ranked:
        # put b's front exactly on a's front edge (the common, square case)
        b = dataclasses.replace(b, facing_deg=(a.facing_deg + 180.0) % 360.0, front=a.front)
    ma, mb = a.models(), b.models()
    want = sorted((i, j) for (i, x), (j, y) in itertools.product(enumerate(ma), enumerate(mb))
                  if g.gap_mm(x.shape, y.shape) <= tol)
    got = contact.model_contacts(a, ma, b, mb, tol)
    # a pair exactly at the tolerance may fall either way by rounding: allow only those
    for p in set(got) ^ set(want):
        assert abs(g.gap_mm(ma[p[0]].shape, mb[p[1]].shape) - tol) < 1e-6, p
    # and symmetric (up to pairs exactly at the tolerance; the engine always asks in one order)
    back = sorted((j, i) for i, j in contact.model_contacts(b, mb, a, ma, tol))
    assert set(back) ^ set(got) <= {p for p in set(got) | set(want) | set(back)
                                    if abs(g.gap_mm(ma[p[0]].shape, mb[p[1]].shape) - tol) < 1e-6}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(coord, coord, st.floats(0, 80), st.floats(0, 80)), min_size=0, max_size=30),
       st.sampled_from([0.0, 0.5, 3.0]))
def test_sweep_finds_every_close_pair(rects, tol):
    boxes = [(x, y, x + w, y + h) for x, y, w, h in rects]
    want = [(i, j) for i, j in itertools.combinations(range(len(boxes)), 2)
            if max(boxes[i][0] - boxes[j][2], boxes[j][0] - boxes[i][2]) <= tol
            and max(boxes[i][1] - boxes[j][3], boxes[j][1] - boxes[i][3]) <= tol]
    assert contact.sweep_pairs(boxes, tol) == want


def test_lru_is_bounded_and_drops_the_oldest_only():
    c = LRU(3)
    for k in "abc":
        c.put(k, k.upper())
    assert c.get("a") == "A"      # refreshes a
    c.put("d", "D")               # drops b, the least recently used
    assert "b" not in c and len(c) == 3
    assert [c.get(k) for k in "acd"] == ["A", "C", "D"]
    for i in range(1000):
        c.put(i, i)
    assert len(c) == 3 and c.get(999) == 999


def test_model_cache_keeps_other_units_while_one_moves():
    units = [Unit(id=f"u{i}", player=1, kind="ranked", base=(20, 20), files=5, count=20, front=(i * 200.0, 0.0))
             for i in range(5)]
    first = [u.models() for u in units]
    for k in range(3000):  # a long drag: a new pose every frame, the whole board analysed each time
        units[0] = dataclasses.replace(units[0], front=(k * 0.01, 0.0))
        for x in units:
            x.models()
    assert all(units[i].models() is first[i] for i in range(1, 5))


@SETTINGS
@given(st.lists(st.one_of(ranked("r", 1), skirmish("s", 2)), min_size=1, max_size=4))
def test_indexed_overlap_check_equals_every_pair(units):
    from game.core.board import Board
    from game.core.checks import overlapping_bases

    units = [dataclasses.replace(u, id=f"u{i}") for i, u in enumerate(units)]
    board = Board(units=units, ruleset="whfb8")
    ms = [m for u in units for m in u.models()]
    want = []
    for ui, u in enumerate(units):
        own = u.models()
        if not u.is_ranked:
            want += [(a.id, b.id) for k, a in enumerate(own) for b in own[k + 1:] if g.gap_mm(a.shape, b.shape) < -0.5]
        for v in units[ui + 1:]:
            want += [(a.id, b.id) for a in own for b in v.models() if g.gap_mm(a.shape, b.shape) < -0.5]
    got = [(a, b) for a, b, _ in overlapping_bases(board, 0.5, limit=10 ** 6)]
    assert got == want, (len(ms), got, want)


def test_contacts_at_several_tolerances_on_the_same_geometry():
    """The same two units asked at one tolerance, then another, get each tolerance's contacts
    (bases 3 mm apart: none at 0.5 mm, every facing pair at 5 mm; a near test whose box is
    grown by the wrong tolerance, or too little, leaves them out)."""
    a = Unit(id="a", player=1, kind="ranked", base=(20, 20), files=5, count=10, front=(0.0, 0.0), facing_deg=0.0)
    b = Unit(id="b", player=2, kind="ranked", base=(20, 20), files=5, count=10, front=(0.0, -3.0), facing_deg=180.0)
    ma, mb = a.models(), b.models()
    for tol in (0.5, 5.0, 0.5, 2.99, 3.2):
        want = sorted((i, j) for (i, x), (j, y) in itertools.product(enumerate(ma), enumerate(mb))
                      if g.gap_mm(x.shape, y.shape) <= tol)
        assert contact.model_contacts(a, ma, b, mb, tol) == want, tol
        assert bool(want) == (tol >= 3.2 or tol == 5.0)
