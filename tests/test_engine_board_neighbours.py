"""The units near a combat that may block an extended base (rank-and-file ``_analyse_board``
with a neighbour-reading policy, e.g. t9a's extend_bases) are found from every unit's box at
once (engine._Boxes): the same units, in board order, as testing each unit's box with
geometry.bbox_gap."""
import random

from game.core import geometry as g
from game.core.board import Board, Unit
from game.core.engagement import units_box
from game.engines.rank_and_file import engine


def _units(r: random.Random) -> list[Unit]:
    out = []
    for i in range(40):
        out.append(Unit(id=f"u{i}", player=1 + i % 2, kind="ranked", base=(20, 20), files=r.randint(2, 6),
                        count=r.randint(4, 20), front=(r.uniform(0, 900), r.uniform(0, 700)),
                        facing_deg=r.choice([0.0, 90.0, 180.0, 270.0, r.uniform(0, 360)])))
    return out


def test_boxes_touching_give_the_units_bbox_gap_gives():
    r = random.Random(7)
    for _ in range(20):
        units = _units(r)
        near = engine._Boxes(units)
        for _ in range(20):
            x, y = r.uniform(-50, 900), r.uniform(-50, 700)
            box = (x, y, x + r.uniform(0, 200), y + r.uniform(0, 200))
            but = {u.id for u in r.sample(units, 3)}
            want = [u for u in units if u.id not in but and g.bbox_gap(units_box([u]), box) <= 0]
            assert near.touching(box, but) == want
        u = units[0]  # a box sharing an edge exactly touches
        b = units_box([u])
        assert u in near.touching((b[2], b[1], b[2] + 10, b[3]), set())
