"""Distances as a player measures them (game.core.measure) and the charge that keeps its angle."""
from __future__ import annotations

import math
import textwrap

import pytest

from game.core import geometry as g
from game.core import manoeuvre as mv
from game.core import measure as ms
from game.core.board import Board, Unit
from game.core.ruleset import RulesetError, clear_cache, load_ruleset


def ranked(front=(500.0, 400.0), facing=0.0, files=5, count=15, uid="u", player=1, profile=None):
    return Unit(id=uid, player=player, kind="ranked", base=(20.0, 20.0), facing_deg=facing, files=files, count=count,
                front=front, name=uid, profile=dict(profile or {}))


def test_unit_gap_is_base_edge_to_base_edge():
    a = ranked(front=(500, 400), facing=0)            # tray from y 400 down to 460
    b = ranked(front=(500, 330), facing=180, uid="b", player=2)  # tray from y 330 up to 270
    d, pa, pb = ms.unit_gap(a, b)
    assert d == pytest.approx(70.0)
    assert pa[1] == pytest.approx(400) and pb[1] == pytest.approx(330)
    board = Board(units=[a, b, ranked(front=(100, 100), uid="c", player=1)], ruleset="whfb8")
    enemy, gap, _, _ = ms.nearest_enemy(board, "u")
    assert enemy == "b" and gap == pytest.approx(70.0)
    assert ms.nearest_enemy(Board(units=[a], ruleset="whfb8"), "u") is None


def test_moved_is_the_furthest_corner():
    u = ranked()
    assert ms.moved_mm(u, mv.forward(u, 30)) == pytest.approx(30)
    w = mv.wheel(u, 90, "left")
    assert ms.moved_mm(u, w) == pytest.approx(math.hypot(100, 60) * math.sqrt(2))  # the back-right corner's chord


def test_shipped_rulesets_show_inches_and_their_reach():
    for rid in ("whfb8", "t9a", "tow", "wh40k"):
        assert load_ruleset(rid).measure.unit == "in"
    rs = load_ruleset("wh40k")
    assert ms.reaches(rs.measure, rs.values, ranked()) == [("Pile-in", "Pile-in Moves", pytest.approx(3 * 25.4))]
    rs = load_ruleset("whfb8")
    assert ms.reaches(rs.measure, rs.values, ranked()) == []          # no movement in the profile: no ring
    assert ms.reaches(rs.measure, rs.values, ranked(profile={"movement": 4})) == [
        ("Movement", "Movement", pytest.approx(4 * 25.4))]
    assert ms.fmt_length(63.5, "in") == '2.5"' and ms.fmt_length(63.5, "mm") == "64 mm"


def test_bad_measure_sections_name_the_field(tmp_path):
    from game.core.ruleset import RULESET_DIR
    text = (RULESET_DIR / "whfb8.yaml").read_text()
    for bad, field in (("  unit: furlongs\n", "measure.unit"),
                       ("  unit: in\n  reach:\n    - {label: Movement, param: nothing_here, rule: Movement}\n",
                        "measure.reach[0].param"),
                       ("  unit: in\n  reach:\n    - {label: Movement, rule: Movement}\n", "measure.reach[0]")):
        t = text.replace("  unit: in\n  reach:\n    - {label: Movement, profile: movement, rule: Movement}\n", bad)
        assert t != text
        (tmp_path / "whfb8.yaml").write_text(t)
        clear_cache()
        with pytest.raises(RulesetError) as e:
            load_ruleset("whfb8", tmp_path)
        assert field in str(e.value) and ":" in str(e.value)
    clear_cache()


def test_tape_snaps_to_corners_and_reads_edge_to_edge():
    a = ranked(front=(500, 400), facing=0)
    b = ranked(front=(500, 330), facing=180, uid="b", player=2)
    board = Board(units=[a, b], ruleset="whfb8")
    fl = a.tray().points[0]
    t = ms.tape(board, (fl[0] + 2, fl[1] + 1), (fl[0] + 2, 200), snap_mm=5)
    assert t.a == pytest.approx(fl) and not t.edge
    t = ms.tape(board, (500, 430), (505, 300))          # inside both trays: the gap between them
    assert t.edge and t.length_mm == pytest.approx(70.0)
    t = ms.tape(board, (0, 0), (30, 40))
    assert t.length_mm == pytest.approx(50) and not t.edge


def test_charge_keeps_the_angle_when_asked():
    target = ranked(front=(500, 300), facing=180, uid="t", player=2)   # its front edge at y 300
    charger = ranked(front=(520, 420), facing=10)                      # misaligned by 10 degrees
    kept = mv.charge(charger, target, align=False)
    assert kept.facing_deg == pytest.approx(10)
    d, _, _ = ms.unit_gap(kept, target)
    assert abs(d) < 1e-6                                               # in contact, not overlapping
    f = g.forward(10)
    moved = g.sub(kept.front, charger.front)
    assert abs(moved[0] * f[1] - moved[1] * f[0]) < 1e-6               # straight along its facing
    aligned = mv.charge(charger, target)
    assert aligned.facing_deg == pytest.approx(0)                      # the aligned charge turns it flush
    away = ranked(front=(520, 420), facing=180)                        # facing away: falls back to aligning
    assert mv.charge(away, target, align=False).facing_deg == pytest.approx(0)


def test_drag_readout_says_moved_gap_and_reach():
    start = ranked(front=(500, 500), facing=0, profile={"movement": 4})
    enemy = ranked(front=(500, 300), facing=180, uid="gobs", player=2)
    board = Board(units=[start, enemy], ruleset="whfb8")
    rs = load_ruleset("whfb8")
    now = mv.forward(start, 2 * 25.4)
    r = ms.drag_readout(start, now, board, rs.measure, rs.values)
    assert r.moved_mm == pytest.approx(50.8)
    assert r.nearest[0] == "gobs" and r.nearest[1] == pytest.approx(200 - 50.8)
    assert r.lines() == ['moved 2.0" this move', 'gap 5.9" to gobs', 'Movement 4.0": within']
    far = mv.forward(start, 5 * 25.4)
    assert ms.drag_readout(start, far, board, rs.measure, rs.values).lines()[-1] == 'Movement 4.0": 1.0" beyond'


def test_the_readout_is_drawn_through_the_canvas():
    from game.core.analyse import analyse
    from game.render.options import SceneOptions
    from game.render.scene import draw_scene
    from game.render.svg_canvas import SvgCanvas
    from game.render.transform import View

    start = ranked(front=(500, 500), facing=0, profile={"movement": 4, "attacks": 1, "initiative": 3})
    enemy = ranked(front=(500, 300), facing=180, uid="gobs", player=2, profile={"attacks": 1, "initiative": 2})
    board = Board(units=[start, enemy], ruleset="whfb8")
    rs = load_ruleset("whfb8")
    now = mv.forward(start, 50.8)
    board = board.with_unit(now)
    r = ms.drag_readout(start, now, board, rs.measure, rs.values)
    c = SvgCanvas(1000, 700)
    errors = draw_scene(c, board, analyse(board, rs), View.fit((300, 200, 700, 600), (0, 0, 1000, 700)),
                        options=SceneOptions(overlays=[("drag_readout", start, now, r)]))
    svg = c.body()
    assert not errors
    assert 'id="overlay-drag_readout"' in svg
    assert 'moved 2.0"' in svg and "gap 5.9&quot; to gobs" in svg.replace('"', "&quot;") or 'gap 5.9" to gobs' in svg
    assert "stroke-dasharray" in svg.split('id="overlay-drag_readout"', 1)[1]


def test_nearest_enemy_is_the_closest_first_in_board_order():
    """The boxes only skip units that cannot be nearer: the answer is that of measuring every
    enemy (ties: the first in board order), on random tables of ranked and skirmish units."""
    import random

    def every(board, uid):
        u = board.unit(uid)
        best = None
        for o in board.units:
            if o.player != u.player and o.id != u.id:
                d, pa, pb = ms.unit_gap(u, o)
                if best is None or d < best[1]:
                    best = (o.id, d, pa, pb)
        return best

    r = random.Random(7)
    for _ in range(150):
        units = []
        for i in range(r.randint(2, 8)):
            if r.random() < 0.6:
                units.append(ranked(front=(r.choice([100.0, 200.0, r.uniform(0, 600)]), r.choice([100.0, 300.0])),
                                    facing=r.choice([0.0, 90.0, 180.0, r.uniform(0, 360)]), files=r.randint(1, 6),
                                    count=r.randint(1, 20), uid=f"u{i}", player=r.randint(1, 2)))
            else:
                units.append(Unit(id=f"u{i}", player=r.randint(1, 2), kind="skirmish", base=25.0, name=f"u{i}",
                                  placed=[((r.uniform(0, 600), r.uniform(0, 600)), None) for _ in range(r.randint(1, 4))]))
        board = Board(units=units, ruleset="whfb8")
        for u in units:
            assert ms.nearest_enemy(board, u.id) == every(board, u.id)


def test_nearest_enemy_follows_a_unit_dragged_between_calls():
    """The bounding boxes are kept by pose: an enemy moved (same id, a new pose) is measured
    where it stands now, not where its box was first found."""
    me, near, far = ranked(front=(500, 400), uid="u"), ranked(front=(500, 300), uid="b", player=2), \
        ranked(front=(500, 800), uid="c", player=2)
    assert ms.nearest_enemy(Board(units=[me, near, far], ruleset="whfb8"), "u")[0] == "b"
    moved = [me, ranked(front=(500, 50), uid="b", player=2), ranked(front=(500, 520), uid="c", player=2)]
    enemy, gap, _, _ = ms.nearest_enemy(Board(units=moved, ruleset="whfb8"), "u")
    assert enemy == "c" and gap == pytest.approx(60.0)
    assert ms._box(moved[1]) == ms._box_of(moved[1]) and ms._box(moved[2]) == ms._box_of(moved[2])
