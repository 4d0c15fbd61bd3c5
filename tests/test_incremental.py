"""Cached and incremental analysis equal a cold one, on random edit sequences (hypothesis,
bounded examples): a board is edited step by step (a unit slid, turned, pushed into contact,
models removed) and analysed after every step with every cache warm; each result must equal
the analysis of the same board with every cache emptied (``game.core.lru.clear_all``)."""
import dataclasses
import copy

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game.core import lru
from game.core.analyse import analyse
from game.core.board import Board, Unit
from game.core.ruleset import load_ruleset

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def line(n_pairs: int, files: int, count: int) -> Board:
    """Two battle lines front to front, the second shifted half a unit: one chain of combats."""
    w = files * 20
    units = []
    for i in range(n_pairs):
        units.append(Unit(id=f"a{i}", player=1, kind="ranked", base=(20, 20), files=files, count=count,
                          front=(100.0 + i * w + w / 2, 400.0), facing_deg=0.0,
                          profile={"attacks": 1, "initiative": 3, "agility": 3}))
        units.append(Unit(id=f"b{i}", player=2, kind="ranked", base=(20, 20), files=files, count=count,
                          front=(100.0 + i * w + w, 400.0), facing_deg=180.0,
                          profile={"attacks": 2, "initiative": 4, "agility": 4, "movement": 1}))
    return Board(units=units, ruleset="whfb8", table=(2000.0, 1000.0))


edit = st.tuples(st.sampled_from(["slide", "turn", "back", "flank", "remove", "profile", "troop"]), st.integers(0, 7),
                 st.sampled_from([-20.0, -10.0, -5.0, 0.0, 5.0, 10.0, 20.0]))


def apply(board: Board, e) -> Board:
    """``board`` with edit ``e`` made (a new board sharing the units it leaves alone)."""
    kind, i, d = e
    u = board.units[i % len(board.units)]
    if kind == "slide":
        board = board.with_unit(u.translated(d, 0.0))
    elif kind == "turn":
        board = board.with_unit(u.rotated(90.0 if d > 0 else -90.0, u.front))
    elif kind == "back":
        board = board.with_unit(u.translated(0.0, d))
    elif kind == "flank":
        other = board.units[(i + 3) % len(board.units)]
        board = board.with_unit(dataclasses.replace(
            u, facing_deg=(other.facing_deg + 90.0) % 360.0,
            front=(other.front[0] + other.width_mm / 2 + u.depth_mm, other.front[1] + 20.0)))
    elif kind == "profile":  # a profile value the rules read (attacks, initiative / agility, movement)
        key = ("attacks", "initiative", "agility", "movement")[int(abs(d)) % 4]
        prof = dict(u.profile)
        prof[key] = max(0, int(prof.get(key, 3)) + (1 if d >= 0 else -1))
        board = board.with_unit(dataclasses.replace(u, profile=prof))
    elif kind == "troop":  # a unit key a policy reads (The Old World's troop type)
        troop = "monstrous_infantry" if u.extra.get("troop_type") != "monstrous_infantry" else "regular_infantry"
        board = board.with_unit(dataclasses.replace(u, extra=dict(u.extra, troop_type=troop)))
    elif kind == "remove" and u.count > 1:
        board = board.with_unit(dataclasses.replace(u, count=max(1, u.count - 1 - int(abs(d)) % 3)))
    return board


def cold(board: Board, rs) -> dict:
    lru.clear_all()
    return analyse(copy.deepcopy(board), rs).to_json()


@SETTINGS
@given(st.sampled_from(["whfb8", "t9a", "tow", "tow_2024"]), st.integers(1, 4), st.sampled_from([(4, 8), (5, 13)]),
       st.lists(edit, min_size=1, max_size=6))
# a slide keeping every base contact changes which enemy unit is closest to a Press of Battle
# model of the slid unit's enemy (The Old World reads enemy positions: the enemy is decided again)
@example("tow", 2, (5, 13), [("slide", 0, 5.0)])
@example("tow", 2, (4, 8), [("back", 0, -10.0)])
@example("tow", 2, (5, 13), [("slide", 2, 5.0)])  # a gap beyond Movement changes (its words give it)
@example("tow", 2, (4, 8), [("back", 2, -10.0)])
@example("whfb8", 2, (5, 13), [("slide", 0, 5.0), ("slide", 0, 10.0)])
def test_incremental_analysis_equals_a_cold_one(rid, pairs, shape, edits):
    rs = load_ruleset(rid)
    board = line(pairs, *shape)
    board = dataclasses.replace(board, ruleset=rid)
    analyse(board, rs)  # warm every cache
    for e in edits:
        board = apply(board, e)
        warm = analyse(board, rs).to_json()
        assert warm == cold(board, rs), e


def test_a_slide_decides_only_the_units_whose_inputs_changed(monkeypatch):
    """One unit slid along a chain of eight units: only it and the enemies whose base contacts
    with it changed are decided again (their enemies are read, not decided); the rest is kept."""
    from game.engines.rank_and_file import engine, incremental
    monkeypatch.setattr(incremental, "_moved", lambda *a: set())  # (a decision moved: the test below)
    rs = load_ruleset("whfb8")
    board = line(4, 5, 13)
    analyse(board, rs)
    decided = []
    real = engine.decide
    monkeypatch.setattr(engine, "decide", lambda c: decided.append(c.only) or real(c))
    board = board.with_unit(board.unit("a2").translated(5.0, 0.0))  # every base contact stays
    warm = analyse(board, rs).to_json()
    assert decided == [{"a2"}]  # whfb8's policies read no enemy's position: b1, b2 are kept
    assert warm == cold(board, rs)
    decided.clear()
    analyse(board, rs)  # nothing changed: nothing decided
    assert decided == []
    board = board.with_unit(board.unit("a2").translated(10.0, 0.0))  # a2's bases now meet b2's differently
    warm = analyse(board, rs).to_json()
    assert decided == [{"a2", "b1", "b2"}] or decided == [{"a2", "b2"}]
    assert warm == cold(board, rs)


def test_a_policy_reading_enemy_positions_decides_the_enemies_again(monkeypatch):
    """The Old World's fight measures gaps to enemy bases (``geometry=True``): a slide that
    keeps every base contact still decides the slid unit's enemies again when an answer they
    got from those gaps changes (``recheck``); with every answer the same, they are kept."""
    from game.engines.rank_and_file import tow_gaps
    monkeypatch.setattr(tow_gaps, "same_answers", lambda *a: False)  # (tow imported it by name)
    from game.engines.rank_and_file import tow
    monkeypatch.setattr(tow, "same_answers", lambda *a: False)
    monkeypatch.setattr(tow, "same_answers_many", lambda models, units, batch: [False] * len(batch))
    from game.engines.rank_and_file import engine
    rs = load_ruleset("tow")
    board = line(4, 5, 13)
    board = dataclasses.replace(board, ruleset="tow")
    analyse(board, rs)
    decided = []
    real = engine.decide
    monkeypatch.setattr(engine, "decide", lambda c: decided.append(c.only) or real(c))
    board = board.with_unit(board.unit("a2").translated(5.0, 0.0))
    warm = analyse(board, rs).to_json()
    assert decided == [{"a2", "b1", "b2"}]
    assert warm == cold(board, rs)


def test_enemies_whose_gap_answers_hold_are_kept(monkeypatch):
    """The same slide with The Old World's recheck as it is: the slid unit is decided again,
    an enemy only if a gap answer it got changed; the result equals a cold analysis."""
    from game.engines.rank_and_file import engine, incremental
    monkeypatch.setattr(incremental, "_moved", lambda *a: set())  # (a decision moved: the test below)
    rs = load_ruleset("tow")
    board = line(4, 5, 13)
    board = dataclasses.replace(board, ruleset="tow")
    for u in board.units:  # no Movement: only Dividing Attacks ask for gaps
        u.profile.pop("movement", None)
    analyse(board, rs)
    decided = []
    real = engine.decide
    monkeypatch.setattr(engine, "decide", lambda c: decided.append(c.only) or real(c))
    board = board.with_unit(board.unit("a2").translated(1.0, 0.0))
    warm = analyse(board, rs).to_json()
    assert len(decided) == 1 and "a2" in decided[0] and decided[0] <= {"a2", "b1", "b2"}
    assert decided[0] != {"a2", "b1", "b2"}  # at least one enemy kept: its answers held
    assert warm == cold(board, rs)


def test_a_unit_slid_with_the_same_contacts_takes_its_earlier_decision_moved(monkeypatch):
    """A unit slid along the enemy front with every base contact as it was before (and, in
    The Old World, every gap answer as it was) is not decided again: its earlier decision
    stands, each model at its new centre (``incremental._moved``); one slid to meet the
    enemy's bases differently is decided again; every result equals a cold analysis."""
    from game.engines.rank_and_file import engine
    for rid in ("whfb8", "tow"):
        rs = load_ruleset(rid)
        board = line(4, 5, 13)
        board = dataclasses.replace(board, ruleset=rid)
        for u in board.units:  # no Movement: only Dividing Attacks ask for gaps
            u.profile.pop("movement", None)
        steps = ((1.0, True), (-2.0, True), (12.0, False), (-12.0, True))  # the last: back where the 2nd was
        boards, b = [], copy.deepcopy(board)
        for dx, _same in steps:
            b = copy.deepcopy(b)
            b = b.with_unit(b.unit("a2").translated(dx, 0.0))
            boards.append(b)
        colds = [cold(b, rs) for b in boards]  # (each empties every cache: all before the warm run)
        analyse(board, rs)
        decided = []
        real = engine.decide
        monkeypatch.setattr(engine, "decide", lambda c: decided.append(c.only) or real(c))
        for (dx, same), b, want in zip(steps, boards, colds):
            warm = analyse(b, rs).to_json()
            assert (not any("a2" in (d or {"a2"}) for d in decided)) == same, (rid, dx, decided)
            decided.clear()
            assert warm == want, (rid, dx)
        monkeypatch.setattr(engine, "decide", real)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["rank_bonus", "data", "mixed", "ranks"]), st.integers(1, 9),
       st.lists(st.lists(st.integers(0, 8), max_size=3), min_size=1, max_size=5))
@example("ranks", 3, [[1]])
@example("mixed", 5, [[0, 1], [3]])
@example("rank_bonus", 8, [[7], [2, 3]])
def test_parts_joined_as_a_tree_with_kept_pairs_equal_merging_left_to_right(kind, n, frames):
    """The memo's assembly joins each part type's pieces as a balanced tree of pairs and keeps
    the pairs for the next assembly (:func:`incremental._joined`): after any pieces are
    replaced, the same part as merging every piece left to right (content and JSON); a generic
    part whose pieces mix mappings and plain values falls back to left to right."""
    from game.core.parts import DataPart, RankBonus
    from game.engines.rank_and_file.incremental import _joined
    from game.engines.rank_and_file.parts import FightingRank, FightingRanks
    made = [0]

    def make(i: int):
        made[0] += 1
        u, v = f"u{i}", made[0]
        if kind == "rank_bonus":
            return RankBonus({u: v}, None if v % 3 == 0 else {u: f"why {v}"})
        if kind == "data" or (kind == "mixed" and v % 2):
            return DataPart({u: v})
        if kind == "mixed":
            return DataPart(None if v % 4 else v)
        return FightingRanks(label="" if v % 2 else f"label {v}", ranks=(FightingRank.of(
            {"unit": u, "enemy": "e", "facing": "front", "row": v, "present": 1, "row_models": [f"{u}.r1f1"],
             "assumed": 1, "models": [], "second": [], "stand_ins": [], "supporters": [], "out_of_reach": []}),))

    pieces = [make(i) for i in range(n)]
    old: dict = {}
    for changes in [[]] + frames:
        for i in changes:
            pieces[i % n] = make(i % n)
        used: dict = {}
        got = _joined(list(pieces), old, used)
        want = pieces[0]
        for p in pieces[1:]:
            want = want.merged(p)
        assert got == want and got.json_items() == want.json_items()
        old = used
