"""A ranked unit's models made only when read (:class:`game.core.board.Models`).

* the list reads as the models made one by one (ids, slots, centres, shapes), whatever way it
  is read (iterated, indexed, sliced, compared, added, copied), and its columns
  (``ids_of``, ``centers_of``) equal the models' own;
* its length and truth make no model; it cannot be changed in place;
* analysing a whfb8 table (cold, and while a unit is dragged in one big combat) makes no
  model object at all: the engine reads the columns.
"""
import copy
import sys
from pathlib import Path

import pytest

from game.core import board as B
from game.core.analyse import analyse
from game.core.board import Board, Unit
from game.core.unit_models import Model, Models, centers_of, ids_of
from game.core.lru import clear_all
from game.core.ruleset import load_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from common import big_combat, big_table  # noqa: E402


def _unit(**kw) -> Unit:
    d = dict(id="u", player=1, kind="ranked", base=(20, 25), files=4, count=10, last_rank="right",
             empty=["r2f2"], front=(10.5, -3.25), facing_deg=30.0)
    d.update(kw)
    return Unit(**d)


def _by_hand(u: Unit) -> list[Model]:
    out = []
    for r, f in u.occupied_slots():
        c = u.slot_center(r, f)
        out.append(Model(f"{u.id}.r{r}f{f}", u.id, f"r{r}f{f}", r, f, c, u.facing_deg,
                         B.base_shape(u.base, c, u.facing_deg)))
    return out


def _same(a: Model, b: Model) -> bool:
    close = all(abs(x - y) < 1e-9 for x, y in zip(a.center, b.center))
    pts = all(abs(p[0] - q[0]) < 1e-9 and abs(p[1] - q[1]) < 1e-9 for p, q in zip(a.shape.points, b.shape.points))
    return (a.id, a.unit_id, a.slot, a.rank, a.file, a.facing_deg) == (b.id, b.unit_id, b.slot, b.rank, b.file,
                                                                       b.facing_deg) and close and pts


def test_models_read_every_way_as_the_models_made_one_by_one():
    clear_all()
    u = _unit()
    want = _by_hand(u)
    ms = u.models()
    assert type(ms) is Models
    assert len(ms) == len(want) and bool(ms) and not ms._filled  # (length and truth make no model)
    assert ids_of(ms) == [m.id for m in want]
    assert all(abs(a[0] - b.center[0]) < 1e-9 and abs(a[1] - b.center[1]) < 1e-9
               for a, b in zip(centers_of(ms), want))
    assert all(_same(a, b) for a, b in zip(ms, want))
    assert [m.center for m in ms] == centers_of(ms)  # the columns are the models' own
    assert ms[0].id == want[0].id and ms[-1].id == want[-1].id and [m.id for m in ms[1:3]] == [m.id for m in want[1:3]]
    assert ms == list(ms) and list(ms) == ms and not (ms != list(ms))
    assert ms[2] in ms and ms.index(ms[3]) == 3 and ms.count(ms[0]) == 1
    assert [m.id for m in reversed(ms)] == [m.id for m in reversed(want)]
    assert [m.id for m in ms + []] == ids_of(ms) and [m.id for m in [] + ms] == ids_of(ms)
    for other in (copy.copy(ms), copy.deepcopy(ms), ms.copy()):  # (a model holds a closure: never pickled)
        assert type(other) is list and [m.id for m in other] == ids_of(ms)
    assert u.models() is ms  # cached by pose: the same list


def test_columns_of_a_plain_list_are_its_models():
    ms = _by_hand(_unit())
    assert ids_of(ms) == [m.id for m in ms] and centers_of(ms) == [m.center for m in ms]


def test_a_units_models_cannot_change_in_place():
    ms = _unit(front=(1.0, 2.0)).models()
    for change in (lambda: ms.append(ms[0]), lambda: ms.pop(), lambda: ms.sort(), lambda: ms.clear(),
                   lambda: ms.__setitem__(0, ms[1]), lambda: ms.__delitem__(0), lambda: ms.extend([])):
        with pytest.raises(TypeError):
            change()
    assert len(list(ms)) == len(ms)


@pytest.mark.parametrize("make", [big_table, big_combat])
def test_analysing_whfb8_makes_no_model_object(make):
    clear_all()
    rs = load_ruleset("whfb8")
    board: Board = make(600)
    res = analyse(board, rs)
    board = board.with_unit(board.units[3].translated(0.7, 0.1))  # a drag frame: a new pose for one unit
    res = analyse(board, rs)
    assert len(res.models) == 600
    assert not any(u.models()._filled for u in board.units)  # (each unit's own list: the engine read its columns)
