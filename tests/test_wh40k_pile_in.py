"""wh40k Pile-in Moves (seeds/003): golden boards checked geometrically, plus a hypothesis property over random skirmish boards."""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings, strategies as st

from game.core import geometry as g
from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.engines.engagement_range import engine as wh40k
from game.engines.engagement_range.table import moved_shape
from game.core.scenario import board_from_dict

RS = load_ruleset("wh40k")
P = wh40k.Params.of(RS)
ER, MOVE, TOL = 25.4, 76.2, 0.5



def board(units, **context):
    ctx = {"step": "pile_in", "active_player": 1}
    ctx.update(context)
    return board_from_dict({"ruleset": "wh40k", "units": units, "context": ctx})


def charge_board():
    # the shared conformance picture: m1 in base contact, the others can all reach 1"
    return board([
        {"id": "intercessors", "player": 1, "base": 32,
         "models": [[600, 332], [560, 360], [640, 380], [700, 390], [530, 395]]},
        {"id": "cultists", "player": 2, "base": 32, "models": [[600, 300], [640, 300], [680, 300]]},
    ], charged=["intercessors"])


def shapes(b):
    return {m.id: (m.shape, m.unit_id) for m in b.models()}


def check_pile_in(b, res, unit_id, *, must_engage=True):
    """The rules of Pile-in Moves, as seen from the start and end of the whole step."""
    start = shapes(b)
    player = b.unit(unit_id).player
    enemies = [m for m, (_, u) in start.items() if b.unit(u).player != player]
    end = {m: moved_shape(s, tuple(res.models[m].at)) for m, (s, _) in start.items()}
    for mid, (s, u) in start.items():
        if u != unit_id:
            continue
        in_contact = any(g.gap_mm(s, start[o][0]) <= TOL for o in enemies)
        moved = g.dist(s.center, end[mid].center) > 1e-6
        if in_contact:
            assert not moved, f"{mid} was in base contact but moved"
            continue
        before = min(g.gap_mm(s, start[o][0]) for o in enemies)
        after = min(g.gap_mm(end[mid], end[o]) for o in enemies)
        if must_engage and before <= MOVE + ER - 2:
            assert after <= ER + TOL, f"{mid} could reach engagement range but ended {after:.1f} mm away"
        if moved:
            path = res.moves[mid]
            assert g.dist(path[0], s.center) < 1e-6 and g.dist(path[-1], end[mid].center) < 1e-6
            assert wh40k.path_length(path) <= MOVE + 1e-6
            assert after < before - TOL, f"{mid} did not end closer ({before:.1f} -> {after:.1f})"
        if before <= ER:  # started engaged: still engaged
            assert after <= ER + 1e-6
    ids = list(end)
    for i, a in enumerate(ids):
        for c in ids[i + 1:]:
            assert g.gap_mm(end[a], end[c]) >= -1e-6, f"{a} and {c} overlap"


def test_golden_charge_pile_in():
    b = charge_board()
    res = analyse(b, RS)
    check_pile_in(b, res, "intercessors")
    assert "intercessors.m1" not in res.moves          # base contact: stays
    assert {m for m in res.moves if m.startswith("intercessors.")} == {f"intercessors.m{i}" for i in range(2, 6)}
    assert all(res.models[f"intercessors.m{i}"].role == "attack" for i in range(1, 6))
    assert res.to_json()["move_reach_mm"] == pytest.approx(76.2)
    assert res.to_json()["pile_in_targets"]["intercessors"] == ["cultists"]


@pytest.mark.parametrize("angle", [0, 37, 90, 200])
def test_pile_in_does_not_depend_on_where_the_board_lies(angle):
    b = charge_board()
    b = b.with_units(u.rotated(angle, (640, 360)).translated(-120, 55) for u in b.units)
    res = analyse(b, RS)
    check_pile_in(b, res, "intercessors")
    assert sum(1 for m, r in res.models.items() if m.startswith("intercessors.") and r.role == "attack") == 5


def test_opponent_piles_in_after_the_active_player():
    # Blue is 2" away and not engaged: it is only eligible once Red has piled in (Red moves first).
    b = board([
        {"id": "red", "player": 1, "base": 32, "models": [[400, 400], [440, 400]]},
        {"id": "blue", "player": 2, "base": 32, "models": [[400, 300], [440, 300], [520, 280]]},
    ], charged=["red"])
    res = analyse(b, RS)
    check_pile_in(b, res, "red")
    assert {"red.m1", "red.m2"} <= set(res.moves)
    assert "blue.m3" in res.moves, "blue became engaged after red moved, so it piles in too"
    assert res.models["blue.m3"].role == "attack"
    # the same board with Blue active: red is not engaged and blue did not charge, nobody moves
    b.context["active_player"] = 2
    b.context["charged"] = []
    assert analyse(b, RS).moves == {}


def test_unit_that_cannot_end_engaged_does_not_pile_in():
    # charged, an enemy within 5" but 4.5" away: 3" cannot make it engaged, so no pile-in at all
    b = board([
        {"id": "red", "player": 1, "base": 32, "models": [[400, 400]]},
        {"id": "blue", "player": 2, "base": 32, "models": [[400, 400 - 32 - 4.5 * 25.4]]},
    ], charged=["red"])
    res = analyse(b, RS)
    assert res.moves == {}
    assert any("must end engaged" in n for n in res.notes)


def test_uncharged_unengaged_unit_does_not_pile_in():
    b = board([
        {"id": "red", "player": 1, "base": 32, "models": [[400, 400]]},
        {"id": "blue", "player": 2, "base": 32, "models": [[400, 330]]},
    ])
    assert analyse(b, RS).moves == {}


def test_paths_route_around_a_wall_of_friends():
    # a line of friends (in contact with the enemy) blocks the straight path of the model behind
    b = board([
        {"id": "red", "player": 1, "base": 32,
         "models": [[368, 432], [400, 432], [432, 432], [400, 485]]},
        {"id": "blue", "player": 2, "base": 32, "models": [[400, 400], [368, 400], [432, 400]]},
    ], charged=["red"])
    res = analyse(b, RS)
    check_pile_in(b, res, "red", must_engage=False)
    path = res.moves["red.m4"]
    assert len(path) > 2, "the path bends around the friends"
    assert res.models["red.m4"].role == "attack"
    start = {m.id: m.shape for m in b.models()}
    for a_, c_ in zip(path, path[1:]):  # never through a base: sample the slide
        for k in range(21):
            pt = (a_[0] + (c_[0] - a_[0]) * k / 20, a_[1] + (c_[1] - a_[1]) * k / 20)
            for mid, sh in start.items():
                if mid != "red.m4":
                    assert g.gap_mm(g.Circle(pt, 16), sh) >= -0.3, (pt, mid)


def test_oval_and_mixed_bases_keep_the_rules():
    b = board([
        {"id": "beast", "player": 1, "base": {"oval": [120, 92]}, "models": [[300, 420]]},
        {"id": "guard", "player": 2, "base": 25, "models": [[300, 330], [330, 330], {"at": [260, 320], "base": 40}]},
    ], charged=["beast"])
    res = analyse(b, RS)
    assert "beast.m1" in res.moves
    end = moved_shape(b.unit("beast").models()[0].shape, res.models["beast.m1"].at)
    assert wh40k.path_length(res.moves["beast.m1"]) <= MOVE
    for m in b.unit("guard").models():
        assert g.gap_mm(end, moved_shape(m.shape, res.models[m.id].at)) >= 0
    assert res.models["beast.m1"].role == "attack"


def test_path_finder_goes_around_and_respects_the_limit():
    import shapely
    from game.engines.engagement_range.geom import PathFinder

    disc = shapely.Point(50, 0).buffer(32 - 0.05, quad_segs=8)
    corner = shapely.Point(50, 0).buffer(32 + 0.35, quad_segs=8)
    path = PathFinder().path((0, 0), (100, 0), [disc], [corner], 150)
    assert path[0] == (0.0, 0.0) and path[-1] == (100.0, 0.0) and len(path) > 2
    assert wh40k.path_length(path) <= 150
    line = shapely.LineString(path)
    assert not line.intersects(disc)
    assert PathFinder().path((0, 0), (100, 0), [disc], [corner], 105) is None  # too short a move


# ----- property: random skirmish boards ------------------------------------------------------------
def random_board(seed: int):
    rng = random.Random(seed)
    units, placed = [], []
    n_units = rng.randint(2, 4)
    for k in range(n_units):
        player = 1 + k % 2
        base = rng.choice([25, 28.5, 32, 40, 50])
        cx, cy = rng.uniform(350, 650), rng.uniform(250, 550)
        models = []
        for _ in range(rng.randint(1, 6)):
            for _try in range(30):
                p = (cx + rng.uniform(-70, 70), cy + rng.uniform(-70, 70))
                if all(math.dist(p, q) >= base / 2 + r + 0.5 for q, r in placed):
                    models.append([round(p[0], 2), round(p[1], 2)])
                    placed.append((p, base / 2))
                    break
        if models:
            units.append({"id": f"u{k}", "player": player, "base": base, "models": models})
    charged = [u["id"] for u in units if rng.random() < 0.5]
    return board(units, charged=charged, active_player=rng.choice([1, 2]))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_every_pile_in_obeys_the_rules(seed):
    b = random_board(seed)
    if len({u.player for u in b.units}) < 2:
        return
    t = wh40k.Table(b)
    ctx = b.context
    active = ctx["active_player"]
    for pl in (active, 3 - active):
        before = {m: pc.shape for m, pc in t.pieces.items()}
        engaged_before = {m: {e for e in t.enemy_units(pc.unit_id) if t.model_unit_gap(pc.shape, e) <= ER}
                          for m, pc in t.pieces.items()}
        reps = wh40k.pile_in_step(t, P, ctx, players=[pl])
        for uid, rep in reps.items():
            for mid, path in rep.paths.items():
                s0, s1 = before[mid], t.pieces[mid].shape
                assert g.dist(path[0], s0.center) < 1e-6 and g.dist(path[-1], s1.center) < 1e-6
                assert wh40k.path_length(path) <= MOVE + 1e-6
                enemies0 = [pc for pc in t.pieces.values() if pc.unit_id in rep.targets]
                closest = min(rep.targets, key=lambda e: min(g.gap_mm(s0, before[q.id]) for q in enemies0 if q.unit_id == e))
                d0 = min(g.gap_mm(s0, before[q.id]) for q in enemies0 if q.unit_id == closest)
                d1 = min(g.gap_mm(s1, q.shape) for q in enemies0 if q.unit_id == closest)
                assert d1 < d0 - TOL, f"{mid} not closer to {closest}: {d0:.2f} -> {d1:.2f}"
                assert not any(g.gap_mm(s0, before[q.id]) <= TOL for q in t.pieces.values()
                               if t.player(q.unit_id) != pl), f"{mid} moved out of base contact"
                for e in engaged_before[mid]:
                    assert t.model_unit_gap(s1, e) <= ER + 1e-6, f"{mid} left engagement with {e}"
        ids = list(t.pieces)
        for i, a in enumerate(ids):
            for c in ids[i + 1:]:
                if a in {m for r in reps.values() for m in r.paths} or c in {m for r in reps.values() for m in r.paths}:
                    assert g.gap_mm(t.pieces[a].shape, t.pieces[c].shape) >= -1e-6, f"{a} overlaps {c}"
