"""Invariants of the rules core, checked with hypothesis on generated boards.

* contact is symmetric (the gap from a to b equals the gap from b to a; a fighting model's
  targets fight it back);
* moving or turning the whole table changes no role, attack count, target, gap link or move;
* no model is both red and blue: a supporting model touches no enemy and every model has
  exactly one role.
"""
import dataclasses
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core import geometry as gm
from game.core.analyse import analyse
from game.core.board import Board, Unit
from game.core.ruleset import load_ruleset

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BASES = [(20, 20), (25, 25), (20, 40), (25, 50), (40, 40), (50, 50)]


@st.composite
def ranked_unit(draw, uid, player):
    base = draw(st.sampled_from(BASES))
    files = draw(st.integers(1, 10))
    models = draw(st.integers(1, files * 4))
    last = draw(st.sampled_from(["left", "center", "right"]))
    return Unit(id=uid, player=player, kind="ranked", base=base, files=files, count=models, last_rank=last,
                profile={"attacks": draw(st.integers(1, 3)), "initiative": draw(st.integers(1, 6)),
                         "agility": draw(st.integers(1, 6)), "height": draw(st.integers(1, 3))},
                keywords=draw(st.sampled_from([[], ["horde"]])))


def place(a: Unit, b: Unit, relation: str, offset_mm: float) -> Unit:
    """``b`` put against ``a``: front to front, on a flank, behind, or 1.5 mm+ apart.

    Offsets are multiples of 5 mm and base sizes multiples of 5 mm, so bases either touch
    exactly or stand at least 1.5 mm apart, as the contract promises for its cases."""
    W, D = a.width_mm, a.depth_mm
    if relation == "front":
        facing, local = (a.facing_deg + 180) % 360, (offset_mm, 0.0)
    elif relation == "apart":
        facing, local = (a.facing_deg + 180) % 360, (offset_mm, -1.5 - abs(offset_mm) / 10)
    elif relation == "left":
        facing, local = (a.facing_deg + 90) % 360, (-W / 2, min(max(offset_mm, 0.0), D))
    elif relation == "right":
        facing, local = (a.facing_deg + 270) % 360, (W / 2, min(max(offset_mm, 0.0), D))
    else:
        facing, local = a.facing_deg, (offset_mm, D)
    return dataclasses.replace(b, facing_deg=facing, front=gm.to_table(local[0], local[1], a.front, a.facing_deg))


@st.composite
def boards(draw):
    a = draw(ranked_unit("alpha", 1))
    b = draw(ranked_unit("beta", 2))
    a = dataclasses.replace(a, front=(600.0, 400.0), facing_deg=float(draw(st.sampled_from([0, 90, 180, 270, 15, 200]))))
    b = place(a, b, draw(st.sampled_from(["front", "left", "right", "rear", "apart"])),
              5.0 * draw(st.integers(-12, 12)))
    units = [a, b]
    if draw(st.booleans()):
        c = draw(ranked_unit("gamma", 2))
        c = place(a, c, draw(st.sampled_from(["left", "right", "rear"])), 5.0 * draw(st.integers(0, 8)))
        units.append(c)
    return Board(units=units, ruleset=draw(st.sampled_from(["whfb8", "t9a"])))


def summary(board: Board) -> dict:
    res = analyse(board, load_ruleset(board.ruleset)).to_json()
    return {
        "roles": {k: (v["role"], v["attacks"], tuple(sorted(v["targets"]))) for k, v in res["models"].items()},
        "links": sorted(tuple(sorted(p)) for p in res["gap_links"]),
        "moved": sorted(res["moves"]),
        "strike": [sorted(s["models"]) for s in res["strike_order"]],
    }


def transformed(board: Board, deg: float, pivot, shift) -> Board:
    out = board.copy()
    out = dataclasses.replace(out, units=[u.rotated(deg, pivot).translated(*shift) for u in board.units])
    return out


@SETTINGS
@given(boards(), st.floats(0, 360), st.tuples(st.floats(-500, 1500), st.floats(-500, 1500)),
       st.tuples(st.floats(-300, 300), st.floats(-300, 300)))
def test_moving_or_turning_the_table_changes_no_role(board, deg, pivot, shift):
    assert summary(transformed(board, deg, pivot, shift)) == summary(board)


@SETTINGS
@given(boards())
def test_contact_is_symmetric_and_no_model_is_red_and_blue(board):
    rs = load_ruleset(board.ruleset)
    res = analyse(board, rs)
    tol = rs.p("contact_tolerance_mm")
    shapes = {m.id: m for m in board.models()}
    for mid, r in res.models.items():
        assert r.role in ("attack", "support", "none")
        if r.role == "attack":
            for t in r.targets:
                assert mid in res.models[t].targets, f"{mid} fights {t} but not the other way round"
        if r.role == "support":
            m = shapes.get(mid)
            assert r.targets and r.attacks >= 1
            if m is not None and mid not in res.moves:
                enemies = [o for o in shapes.values() if o.unit_id != m.unit_id
                           and board.unit(o.unit_id).player != board.unit(m.unit_id).player]
                assert all(gm.gap_mm(m.shape, o.shape) > tol for o in enemies), f"{mid} supports while in contact"
        if r.role == "none":
            assert r.attacks == 0 and not r.targets


shape_st = st.one_of(
    st.builds(lambda x, y, d: gm.Circle((x, y), d / 2), st.floats(0, 200), st.floats(0, 200), st.floats(5, 80)),
    st.builds(lambda x, y, w, d, f: gm.rect((x, y), w, d, f), st.floats(0, 200), st.floats(0, 200),
              st.floats(5, 80), st.floats(5, 80), st.floats(0, 360)),
    st.builds(lambda x, y, w, d, f: gm.oval((x, y), w, d, f), st.floats(0, 200), st.floats(0, 200),
              st.floats(5, 80), st.floats(5, 80), st.floats(0, 360)),
)


@settings(max_examples=200, deadline=None)
@given(shape_st, shape_st)
def test_gap_is_symmetric(a, b):
    assert math.isclose(gm.gap_mm(a, b), gm.gap_mm(b, a), abs_tol=1e-6)


@settings(max_examples=200, deadline=None)
@given(shape_st, st.floats(0, 360), st.floats(-100, 100), st.floats(-100, 100))
def test_gap_to_a_moved_copy_is_the_distance_moved(a, deg, dx, dy):
    """Two equal bases side by side along any direction: the gap is consistent with geometry."""
    if isinstance(a, gm.Circle):
        b = gm.Circle((a.center[0] + dx, a.center[1] + dy), a.radius_mm)
        assert math.isclose(gm.gap_mm(a, b), math.hypot(dx, dy) - 2 * a.radius_mm, abs_tol=1e-6)
    else:
        b = gm.Poly(tuple((p[0] + dx, p[1] + dy) for p in a.points))
        g1 = gm.gap_mm(a, b)
        assert g1 <= math.hypot(dx, dy) + 1e-6


@SETTINGS
@given(boards(), boards())
def test_separate_combats_analysed_apart_equal_the_whole(b1, b2):
    """Combats are analysed (and cached) one by one: the result equals analysing everything at once."""
    from game.engines.rank_and_file import engine as ranked

    b2 = transformed(b2, 0.0, (0.0, 0.0), (3000.0, 0.0))
    b2 = b2.with_units(dataclasses.replace(u, id="far_" + u.id) for u in b2.units)
    board = Board(units=b1.units + b2.units, ruleset=b1.ruleset)
    rs = load_ruleset(board.ruleset)
    split = analyse(board, rs).to_json()
    whole = ranked.analyse_combat(board, rs).to_json()
    for key in ("models", "moves", "strike_order"):
        assert split[key] == whole[key], key
    assert sorted(map(sorted, split["gap_links"])) == sorted(map(sorted, whole["gap_links"]))
    assert sorted(split["engagements"], key=repr) == sorted(whole["engagements"], key=repr)
    assert analyse(board, rs).to_json() == split, "a cached second run gives the same result"
