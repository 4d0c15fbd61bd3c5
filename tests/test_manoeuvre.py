"""Pure manoeuvre maths (game.core.manoeuvre) and the no-overlap property of tray dragging."""
from __future__ import annotations

import dataclasses

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core import geometry as g
from game.core import manoeuvre as mv
from game.core.board import Unit
from game.core.scenario import load_scenario
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def ranked(front=(500.0, 400.0), facing=0.0, files=5, count=15, uid="u", player=1):
    return Unit(id=uid, player=player, kind="ranked", base=(20.0, 20.0), facing_deg=facing, files=files, count=count,
                front=front, name=uid)


def test_forward_and_back_along_facing():
    u = ranked(facing=90)
    assert mv.forward(u, 50).front == pytest.approx((550.0, 400.0))
    assert mv.forward(u, -25.4).front == pytest.approx((474.6, 400.0))
    assert u.front == (500.0, 400.0)  # the input is untouched


def test_wheel_keeps_pivot_corner_and_measures_arc():
    u = ranked()
    fl, fr = mv.front_corners(u)
    w = mv.wheel(u, -90, "left")  # wheel left: the right end swings forward round the left corner
    assert mv.front_corners(w)[0] == pytest.approx(fl)
    assert w.facing_deg == pytest.approx(270)
    assert mv.front_corners(w)[1] == pytest.approx((fl[0], fl[1] - 100))
    assert mv.wheel_distance_mm(u, 90) == pytest.approx(100 * math.pi / 2)
    with pytest.raises(ValueError):
        mv.wheel(u, 10, "middle")


def test_turn_about_centre_and_reform_keep_centre():
    u = ranked()
    t = mv.turn(u, 180)
    assert t.center() == pytest.approx(u.center()) and t.facing_deg == pytest.approx(180)
    r = mv.reform(ranked(count=15, files=5), 3)
    assert (r.files, r.ranks) == (3, 5) and r.center() == pytest.approx(u.center())
    with pytest.raises(ValueError):
        mv.reform(u, 0)


def test_reform_drops_casualties_outside_the_new_formation():
    u = dataclasses.replace(ranked(files=5, count=15), empty=["r1f5", "r2f2"])
    r = mv.reform(u, 4)
    assert r.empty == ["r2f2"]


@pytest.mark.parametrize("where,facing", [((500, 200), "front"), ((500, 600), "rear"), ((300, 430), "left"),
                                          ((700, 440), "right")])
def test_charge_goes_flush_and_aligned_to_the_facing_of_its_centre(where, facing):
    target = ranked(front=(500, 400), facing=0, files=10, count=30, uid="t", player=2)  # 200 x 60
    c = ranked(front=where, facing=37, files=5, count=10, uid="c")
    assert mv.facing_toward(target, c.center()) == facing
    new = mv.charge(c, target)
    assert g.gap_mm(new.tray(), target.tray()) == pytest.approx(0.0, abs=1e-6)
    out = {"front": 0, "right": 90, "rear": 180, "left": 270}[facing]
    assert new.facing_deg == pytest.approx((out + 180) % 360)
    # maximal contact: the whole of the shorter edge touches
    from game.core.engagement import edge_contact_lengths

    touch = edge_contact_lengths(target, [new.tray()], 0.5)[facing]
    assert touch == pytest.approx(min(new.width_mm, target.width_mm if facing in ("front", "rear") else target.depth_mm),
                                  abs=1.0)


def test_charge_needs_ranked_units():
    s = Unit(id="s", player=1, kind="skirmish", base=25.0, placed=[((0.0, 0.0), None)])
    with pytest.raises(ValueError):
        mv.charge(s, ranked())


def test_move_distance_is_the_furthest_corner():
    u = ranked()
    assert mv.move_distance_mm(u, mv.forward(u, 30)) == pytest.approx(30)
    # the back corner away from the pivot travels furthest: a chord of radius hypot(100, 60)
    assert mv.move_distance_mm(u, mv.wheel(u, 90, "right")) == pytest.approx(math.hypot(100, 60) * math.sqrt(2))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["dwarfs", "goblins", "night_goblins"]),
                          st.floats(0, 1200), st.floats(0, 800), st.integers(1, 30)), min_size=1, max_size=4))
def test_random_drags_never_overlap(drags):
    from game.physics.trays import TraySpace, with_position

    b = load_scenario(SCENARIO)
    ts = TraySpace(b)
    for uid, x, y, steps in drags:
        u = b.unit(uid)
        ts.start_drag(b, (uid, None), u.center())
        for _ in range(steps):
            p = ts.drag_to(b, (x, y))
            if p is not None:
                b = b.with_unit(with_position(b.unit(uid), None, p))
        ts.end_drag()
        for i, a in enumerate(b.units):
            for c in b.units[i + 1:]:
                assert g.gap_mm(a.tray(), c.tray()) >= -0.5, (a.id, c.id)
