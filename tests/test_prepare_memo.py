"""Preparing a combat reuses what did not move: the engagements found on the way while
grouping combats equal :func:`find_engagements` (same pairs, same order) on random boards of
ranked and skirmish units, including a unit with no model; the contact sets kept from one
frame to the next equal those built from scratch."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core import lru
from game.core.board import Board, Unit
from game.core.engagement import boundary, combats, combats_and_engagements, find_engagements

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# positions on a 20 mm grid (edges meet edges: many contacts, front, flank and rear)
unit_st = st.tuples(st.sampled_from(["ranked", "ranked", "skirmish", "empty"]), st.integers(1, 2),
                    st.integers(0, 5).map(lambda k: k * 20.0), st.integers(0, 3).map(lambda k: k * 20.0),
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
@given(st.lists(unit_st, min_size=2, max_size=5), st.booleans())
def test_engagements_from_grouping_equal_find_engagements(specs, warm):
    board = board_of(specs)
    if not warm:
        lru.clear_all()
    groups, engs = combats_and_engagements(board, 0.5)
    assert groups == combats(board, 0.5)
    if any(not u.models() for u in board.units) or len(groups) > 1:
        assert engs is None
    else:
        assert engs == engagements_of(board, 0.5)


def _scratch(pairs: dict) -> dict:
    out: dict = {}
    for hits in pairs.values():
        for x, y in hits:
            out.setdefault(x, set()).add(y)
            out.setdefault(y, set()).add(x)
    return out


hits_st = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), max_size=5, unique=True)


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 3), hits_st), min_size=1, max_size=12))
def test_contacts_of_keeps_only_the_sets_of_units_whose_pairs_did_not_change(edits):
    """A sequence of frames, each changing the hits of one pair of a fixed chain of units
    (a0-b0, b0-a1, a1-b1, b1-a2): every frame's contacts equal those built from scratch."""
    from game.engines.rank_and_file.contacts import contacts_of
    names = [("a0", "b0"), ("a1", "b0"), ("a1", "b1"), ("a2", "b1")]
    pairs = {k: () for k in names}
    for which, hits in edits:
        a, b = names[which]
        pairs = dict(pairs)
        pairs[(a, b)] = tuple((f"{a}.m{i}", f"{b}.m{j}") for i, j in hits)
        got = contacts_of(pairs)
        assert {k: v for k, v in got.items() if v} == _scratch(pairs)


def test_a_pair_slid_with_the_same_contacts_keeps_the_contact_sets():
    """A unit slid along its enemy's front without changing which bases touch keeps the
    contact sets of both units from the frame before (``contacts.contacts_of``: equal
    hits); slid to touch other bases, new sets, equal to what a cold frame finds."""
    from game.core.ruleset import load_ruleset
    from game.engines.rank_and_file import engine
    rs = load_ruleset("whfb8")

    def contacts(dx: float) -> dict:
        a = Unit(id="a", player=1, kind="ranked", base=(20, 20), files=5, count=10, front=(100.0 + dx, 100.0))
        b = Unit(id="b", player=2, kind="ranked", base=(20, 20), files=5, count=10, front=(100.0, 100.0),
                 facing_deg=180.0)
        return dict(engine.prepare(Board(units=[a, b], ruleset="whfb8", table=(400.0, 400.0)), rs).contacts)

    first = contacts(0.0)
    same = contacts(0.3)  # every base still meets the same enemy bases (within the 0.5 mm tolerance)
    assert same == first and all(same[m] is first[m] for m in first)
    other = contacts(10.0)
    assert other != first and other["a.r1f1"] is not first["a.r1f1"]
    lru.clear_all()
    assert contacts(10.0) == other and contacts(0.3) == first
