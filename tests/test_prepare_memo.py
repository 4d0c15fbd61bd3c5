"""Preparing a combat reuses what did not move: the engagements found on the way while
grouping combats equal :func:`find_engagements` (same pairs, same order) on random boards of
ranked and skirmish units, including a unit with no model."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core import lru
from game.core.board import Board, Unit, poses_held
from game.core.engagement import boundary, combats, combats_and_engagements, find_engagements

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# positions on a 20 mm grid (edges meet edges: many contacts, front, flank and rear)
unit_st = st.tuples(st.sampled_from(["ranked", "ranked", "skirmish", "empty"]), st.integers(1, 2),
                    st.integers(0, 8).map(lambda k: k * 20.0), st.integers(0, 8).map(lambda k: k * 20.0),
                    st.sampled_from([0.0, 90.0, 180.0, 270.0, 45.0]))


def board_of(specs) -> Board:
    units = []
    for i, (kind, player, x, y, facing) in enumerate(specs):
        if kind == "skirmish":
            units.append(Unit(id=f"s{i}", player=player, kind="skirmish", base=25.0, facing_deg=facing,
                              placed=[((x, y), None), ((x + 26.0, y), None)]))
        else:
            units.append(Unit(id=f"u{i}", player=player, kind="ranked", base=(20, 20), files=5,
                              count=0 if kind == "empty" else 10, front=(x, y), facing_deg=facing))
    return Board(units=units, ruleset="whfb8", table=(400.0, 400.0))


def engagements_of(board: Board, tol: float) -> list:
    units = {u.id: u for u in board.units}
    models = {u.id: u.models() for u in board.units}
    bounds = {uid: boundary(units[uid], models[uid]) for uid in units}
    return find_engagements(units, models, bounds, tol)


@SETTINGS
@given(st.lists(unit_st, min_size=2, max_size=8), st.booleans())
def test_engagements_from_grouping_equal_find_engagements(specs, warm):
    board = board_of(specs)
    if not warm:
        lru.clear_all()
    with poses_held():
        groups, engs = combats_and_engagements(board, 0.5)
        assert groups == combats(board, 0.5)
        if any(not u.models() for u in board.units):
            assert engs is None
        else:
            assert engs == engagements_of(board, 0.5)
