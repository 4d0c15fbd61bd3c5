"""Model results made only when read (:mod:`game.core.results`).

* a :class:`~game.core.results.ModelResults` over units' results reads as the dict they merge
  to, every way it is read (look-up, ``get``, ``in``, iteration, length, items, equality, copy,
  pickle); a change makes it that dict and never reaches the units' results (cached analyses
  share them), nor another mapping over the same units;
* an untouched model's result is made on first read (``none`` at its centre, its ``why``) and is
  then the same object;
* the rank-and-file engine's results with results made on demand equal those it gives when it
  makes every model's result first (every rank-and-file ruleset, random edits, cold and warm);
* a cold whfb8 table makes a result only for the models a policy reads, far fewer than its models.
"""
import dataclasses
import copy
import pickle
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core import analysis as A
from game.core import lru
from game.core.analyse import analyse
from game.core.analysis import ModelResult
from game.core.board import Unit
from game.core.results import ModelResults, UnitResults
from game.core.ruleset import load_ruleset
from game.engines.rank_and_file import engine

from test_incremental import apply, edit, line

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from common import big_table  # noqa: E402

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _blocks():
    a = UnitResults.of(["a.r1f1", "a.r1f2", "a.r2f1"], [(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)])
    assert a is not None
    a.at(1).role = "attack"
    a.made[1].attacks = 2
    a.set_why([0, 1], "not this one")
    b = {"b.m1": ModelResult("support", 1, ("a.r1f2",), (7.0, 8.0), "supports")}
    return a, b


def test_model_results_read_as_the_dict_they_merge_to():
    a, b = _blocks()
    m = ModelResults.merged([("a", a), ("none", None), ("b", b)])
    want = {"a.r1f1": ModelResult("none", 0, (), (1.0, 2.0), "not this one"),
            "a.r1f2": ModelResult("attack", 2, (), (3.0, 4.0), ""),
            "a.r2f1": ModelResult("none", 0, (), (5.0, 6.0), ""),
            "b.m1": b["b.m1"]}
    assert list(m) == list(want) and len(m) == 4 and bool(m)
    assert "a.r2f1" in m and "a.r9f9" not in m and "zz.m1" not in m and 3 not in m
    assert m["b.m1"] is b["b.m1"] and m.get("x.y") is None and m.get("x.y", 5) == 5
    assert m["a.r1f1"] == want["a.r1f1"] and m["a.r1f1"] is m["a.r1f1"]  # made once, then the same
    assert m == want and want == m and m.copy() == want
    assert pickle.loads(pickle.dumps(m)) == want and copy.deepcopy(m) == want
    assert dict(m.items()) == want and list(m.values()) == list(want.values())
    m.fill_why("nothing to do")
    assert m["a.r2f1"].why == "nothing to do" and m["a.r1f1"].why == "not this one" and m["a.r1f2"].why == ""


def test_a_change_makes_the_dict_and_leaves_the_units_results_alone():
    a, b = _blocks()
    m = ModelResults.merged([("a", a), ("b", b)])
    other = ModelResults.merged([("a", a), ("b", b)])
    m["a.r1f1"] = ModelResult("support", 1)
    del m["b.m1"]
    m["c.m1"] = ModelResult()
    assert list(m) == ["a.r1f1", "a.r1f2", "a.r2f1", "c.m1"] and m.unit("a") is None
    assert m["a.r1f1"].role == "support" and a["a.r1f1"].role == "none"
    assert other["a.r1f1"].role == "none" and "b.m1" in b and "b.m1" in other and other.unit("a") is a


def test_a_unit_given_twice_merges_as_dict_update_does():
    a, _ = _blocks()
    d = {"a.r1f1": ModelResult("support", 1)}
    m = ModelResults.merged([("a", a), ("a", d)])
    assert list(m) == ["a.r1f1", "a.r1f2", "a.r2f1"] and m["a.r1f1"].role == "support"
    assert UnitResults.of(["a.m1", "a.m1"], [(0.0, 0.0), (1.0, 1.0)]) is None  # (two models, one id)


def _both(board, rs) -> tuple[dict, dict]:
    """(the analysis' JSON with results made on demand, with every result made first), cold."""
    lru.clear_all()
    lazy = analyse(copy.deepcopy(board), rs).to_json()
    keep = engine._untouched
    engine._untouched = lambda *a: None
    try:
        lru.clear_all()
        eager = analyse(copy.deepcopy(board), rs).to_json()
    finally:
        engine._untouched = keep
    return lazy, eager


@SETTINGS
@given(st.sampled_from(["whfb8", "t9a", "tow", "tow_2024"]), st.integers(1, 3), st.sampled_from([(4, 8), (5, 13)]),
       st.lists(edit, min_size=0, max_size=4))
def test_results_made_on_demand_equal_every_result_made_first(rid, n_pairs, shape, edits):
    rs = load_ruleset(rid)
    board = line(n_pairs, *shape)
    board = dataclasses.replace(board, ruleset=rid)
    board = board.with_units([*board.units, Unit(id="s", player=2, kind="skirmish", base=25,  # (no rank: every model's why by default)
                                                 placed=[((1500.0, 900.0), None), ((1530.0, 900.0), None)])])
    for e in edits:
        board = apply(board, e)
        analyse(board, rs)  # (warm caches on the way: the incremental path too)
    lazy, eager = _both(board, rs)
    assert lazy == eager
    assert analyse(board, rs).to_json() == eager  # warm, incremental


def test_a_cold_whfb8_table_makes_results_only_for_the_models_read(monkeypatch):
    rs = load_ruleset("whfb8")
    board = big_table(1000)
    made = []
    init = A.ModelResult.__init__

    def counted(self, *args, **kw):
        made.append(1)
        init(self, *args, **kw)
    lru.clear_all()
    monkeypatch.setattr(A.ModelResult, "__init__", counted)
    res = analyse(board, rs)
    assert len(res.models) == 1000
    assert len(made) < 400  # (fighters and the two ranks behind them: 300 of 1000)
    assert sum(1 for r in res.models.values() if r.role != "none") == 200


def test_read_model_by_model_far_and_wide_it_becomes_its_dict():
    ids = [f"a.r1f{i}" for i in range(1, 201)]
    a = UnitResults.of(ids, [(float(i), 0.0) for i in range(200)])
    m = ModelResults.merged([("a", a)])
    for mid in ids[:60]:
        assert m[mid].at == (float(ids.index(mid)), 0.0)
    assert m.unit("a") is a  # (60 look-ups of 200 models: still over the unit's results)
    for mid in ids[60:]:
        assert m.get(mid) is a[mid]
    assert m.unit("a") is None and m == {mid: a[mid] for mid in ids}  # (its dict now; the same results)
