"""The drag's overlap checks look only at the bodies near the path of the step
(game.physics.trays._near_path): every pose between the last good one and the step's end gives
the same penetration as a check against every body of the board."""
import random

from game.core.board import Board, Unit
from game.physics import trays


def _board() -> Board:
    units = []
    for i in range(4):
        for j in range(3):
            units.append(Unit(id=f"u{i}{j}", player=1 + (i + j) % 2, kind="ranked", base=(20, 20), files=5, count=10,
                              front=(100.0 + 130 * i, 100.0 + 90 * j), facing_deg=(37.0 * i + 11 * j) % 360))
    units.append(Unit(id="sk", player=2, kind="skirmish", base=25,
                      placed=[((300.0 + 30 * k, 420.0), None) for k in range(4)]))
    return Board(units=units, ruleset="whfb8", table=(800.0, 600.0))


def test_bodies_near_the_path_give_the_same_penetration_at_every_pose_on_it():
    board = _board()
    r = random.Random(3)
    hits = 0
    for _ in range(150):
        u = r.choice(board.units)
        idx = r.randrange(len(u.placed)) if not u.is_ranked else None
        start, _f = trays.pose_of(u, idx)
        good = (start[0] + r.uniform(-30, 30), start[1] + r.uniform(-30, 30))
        end = (good[0] + r.uniform(-60, 60), good[1] + r.uniform(-60, 60))
        at_good = trays.with_position(u, idx, good)
        near = trays._near_path(trays.obstacles(board, (u.id, idx)), trays.shapes_of(at_good, idx),
                                (end[0] - good[0], end[1] - good[1]))
        for t in (0.0, 0.13, 0.5, 0.77, 1.0):
            q = (good[0] + (end[0] - good[0]) * t, good[1] + (end[1] - good[1]) * t)
            probe = trays.with_position(u, idx, q)
            want = trays.penetration_mm(board, (u.id, idx), probe)
            assert trays.penetration_mm(board, (u.id, idx), probe, near) == want
            hits += want > 0
    assert hits > 20  # many of the poses overlap a body
