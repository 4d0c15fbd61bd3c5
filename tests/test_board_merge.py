"""The board-wide merge of separate combats (``rank_and_file.engine._assemble``) equals a cold
analysis on random edit sequences (hypothesis, bounded examples, every rank-and-file ruleset).

A board of several separate combats (ranked units of mixed bases front to front, on a flank,
turned tables, skirmishers against a ranked unit) is edited step by step -- one unit slid,
pulled apart, pushed into contact with another combat, turned, thinned, given another profile,
the units' board order changed -- and analysed after every step with every cache warm: each
combat's share kept on its cached part and the models of the last merge written over only
where a combat changed. Each result must equal the analysis of the same board with every cache
emptied (``game.core.lru.clear_all``), byte for byte in its JSON, the merged models' order
included."""
import copy
import dataclasses
import json

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.core import geometry as gm
from game.core import lru
from game.core.analyse import analyse
from game.core.board import Board, Unit
from game.core.engagement import combats
from game.core.ruleset import load_ruleset

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BASES = [(20, 20), (25, 25), (20, 40), (40, 40)]


def _ranked(uid: str, player: int, base, files: int, count: int, front, facing: float, attacks: int) -> Unit:
    return Unit(id=uid, player=player, kind="ranked", base=base, files=files, count=count, front=front,
                facing_deg=facing, profile={"attacks": attacks, "initiative": 2 + player, "agility": 2 + player})


@st.composite
def combat(draw, i: int, gap: float) -> list[Unit]:
    """One combat about (``gap`` i, 500), its table turned by a multiple of 90 degrees or not."""
    kind = draw(st.sampled_from(["front", "flank", "skirmish"]))
    turn = float(draw(st.sampled_from([0, 90, 180, 270, 30])))
    base = draw(st.sampled_from(BASES))
    files = draw(st.integers(3, 6))
    a = _ranked(f"a{i}", 1, base, files, draw(st.integers(files, files * 3)), (gap * i + 300.0, 500.0), turn,
                draw(st.integers(1, 3)))
    if kind == "skirmish":
        d = 25.0
        placed = [(gm.to_table(-a.width_mm / 2 + d / 2 + d * k, -d / 2, a.front, turn), None) for k in range(3)]
        b = Unit(id=f"s{i}", player=2, kind="skirmish", base=d, placed=placed, facing_deg=(turn + 180) % 360,
                 profile={"attacks": 2, "initiative": 4, "agility": 4})
        return [a, b]
    bbase = draw(st.sampled_from(BASES))
    bfiles = draw(st.integers(2, 5))
    b = _ranked(f"b{i}", 2, bbase, bfiles, draw(st.integers(bfiles, bfiles * 3)), a.front, turn, 2)
    if kind == "front":
        b = dataclasses.replace(b, facing_deg=(turn + 180) % 360,
                                front=gm.to_table(5.0 * draw(st.integers(-4, 4)), 0.0, a.front, turn))
    else:
        b = dataclasses.replace(b, facing_deg=(turn + 90) % 360,
                                front=gm.to_table(-a.width_mm / 2, min(a.depth_mm, 5.0 * draw(st.integers(0, 4))),
                                                  a.front, turn))
    return [a, b]


@st.composite
def tables(draw) -> Board:
    n = draw(st.integers(2, 4))
    gap = draw(st.sampled_from([1000.0, 250.0, 200.0]))  # 200, 250: near enough to be a neighbour (t9a's gaps)
    units = [u for i in range(n) for u in draw(combat(i, gap))]
    if draw(st.booleans()):  # combats interleaved in board order
        units = units[0::2] + units[1::2]
    return Board(units=units, ruleset="whfb8", table=(1000.0 * n + 600.0, 1200.0))


edit = st.tuples(st.sampled_from(["slide", "apart", "join", "turn", "remove", "profile", "swap"]),
                 st.integers(0, 7), st.sampled_from([-10.0, -5.0, 5.0, 10.0]))


def apply(board: Board, e) -> Board:
    """``board`` with edit ``e`` made (a new board sharing the units it leaves alone)."""
    kind, i, d = e
    u = board.units[i % len(board.units)]
    if kind == "slide":  # along its front: contacts change, the combat stays
        board = board.with_unit(u.translated(*gm.scale(gm.right(u.facing_deg), d)))
    elif kind == "apart":  # back from its enemy: a combat may split
        board = board.with_unit(u.translated(*gm.scale(gm.forward(u.facing_deg), -abs(d))))
    elif kind == "join":  # into the next combat's first unit's front: two combats may become one
        other = board.units[(i + 2) % len(board.units)]
        if u.is_ranked and other.is_ranked and other.player != u.player:
            board = board.with_unit(dataclasses.replace(u, facing_deg=(other.facing_deg + 180) % 360,
                                                        front=gm.to_table(d, 0.0, other.front, other.facing_deg)))
    elif kind == "turn":
        board = board.with_unit(u.rotated(90.0 if d > 0 else -90.0, u.center()))
    elif kind == "remove":
        if u.is_ranked and u.count > 1:
            board = board.with_unit(dataclasses.replace(u, count=u.count - 1))
        elif len(u.placed) > 1:
            board = board.with_unit(dataclasses.replace(u, placed=u.placed[:-1]))
    elif kind == "profile":
        prof = dict(u.profile)
        prof["attacks"] = 1 + (int(prof.get("attacks", 1)) % 3)
        prof["initiative"] = prof["agility"] = 1 + (int(prof.get("initiative", 3)) + 1) % 6
        board = board.with_unit(dataclasses.replace(u, profile=prof))
    else:  # swap two units in board order (the merge keeps board order)
        j = (i + 3) % len(board.units)
        k = i % len(board.units)
        units = list(board.units)
        units[j], units[k] = units[k], units[j]
        board = board.with_units(units)
    return board


def cold(board: Board, rs) -> str:
    lru.clear_all()
    return json.dumps(analyse(copy.deepcopy(board), rs).to_json(), indent=1)


@SETTINGS
@given(st.sampled_from(["whfb8", "t9a", "tow", "tow_2024"]), tables(), st.lists(edit, min_size=1, max_size=8))
def test_merging_separate_combats_warm_equals_a_cold_analysis(rid, board, edits):
    rs = load_ruleset(rid)
    board = dataclasses.replace(board, ruleset=rid)
    assume(len(combats(board, rs.values.contact_tolerance_mm)) >= 2)
    analyse(board, rs)  # warm every cache
    for e in edits:
        board = apply(board, e)
        warm = json.dumps(analyse(board, rs).to_json(), indent=1)
        assert warm == cold(board, rs), e
        again = json.dumps(analyse(board, rs).to_json(), indent=1)  # every combat cached
        assert again == warm, e


def test_an_analysis_handed_out_is_not_changed_by_the_next_one():
    """The merged models are a fresh dict each time: editing one analysis (or the board after
    it) leaves the others as they were."""
    rs = load_ruleset("whfb8")
    units = [u for i in range(3) for u in (
        _ranked(f"a{i}", 1, (20, 20), 4, 8, (1000.0 * i + 300.0, 500.0), 0.0, 1),
        _ranked(f"b{i}", 2, (20, 20), 4, 8, (1000.0 * i + 300.0, 500.0), 180.0, 1))]
    board = Board(units=units, ruleset="whfb8", table=(3600.0, 1200.0))
    first = analyse(board, rs)
    before = json.dumps(first.to_json())
    first.models.clear()
    board = board.with_unit(board.units[2].translated(10.0, 0.0))
    second = analyse(board, rs)
    assert second.models and second.models is not first.models
    board = board.with_unit(board.units[2].translated(-10.0, 0.0))
    assert json.dumps(analyse(board, rs).to_json()) == before



def _canonical(x):
    """``x`` (parsed JSON) with every object's keys and every list of objects or of strings
    sorted: the content, not the order in which separate combats were joined (an engine's
    per-unit output keys follow the combats, not the board, after a merge; order is checked
    by the test above)."""
    if isinstance(x, dict):
        return {k: _canonical(v) for k, v in sorted(x.items())}
    if isinstance(x, list):
        items = [_canonical(v) for v in x]
        if items and all(isinstance(v, (dict, str)) for v in items):
            items.sort(key=lambda v: json.dumps(v, sort_keys=True))
        return items
    return x


@SETTINGS
@given(st.sampled_from(["whfb8", "t9a", "tow", "tow_2024"]), tables())
def test_merging_separate_combats_equals_deciding_the_whole_board_at_once(rid, board):
    """The board-wide merge (each combat analysed alone, then its share of models, links, moves,
    engagements, notes, parts and strike steps joined) holds what the policies give when run
    once on the whole board as one piece (``engine.analyse_combat``: no split, no merge), both
    cold: a share that kept another combat's engagements, links or parts, or dropped its own,
    shows here, though the warm and cold analyses of the test above share the merge."""
    from game.engines.rank_and_file import engine

    rs = load_ruleset(rid)
    assume(len(combats(board, rs.values.contact_tolerance_mm)) > 1)
    lru.clear_all()
    merged = _canonical(analyse(copy.deepcopy(board), rs).to_json())
    lru.clear_all()
    whole = engine.analyse_combat(copy.deepcopy(board), rs)
    whole.legend = engine.legend(rs)
    assert merged == _canonical(whole.to_json())
