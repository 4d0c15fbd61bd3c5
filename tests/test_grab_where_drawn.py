"""Grab what you see: pressing, hovering and box-selecting on the table use where a model is
drawn (a piled-in model at its piled-in place); the dashed outline where it stood is a ghost,
not a handle (game/window/table_view.py ``body_at``, ``select_box``)."""
from __future__ import annotations

import math

from apputil import SCENARIOS, FakeClock, make_app

PILE_IN = SCENARIOS / "wh40k_pile_in.yaml"
MID = "intercessors.m2"  # piled in 2.4" up to the cultists; drawn there, its start a dashed outline


def drawn_at(d, mid):
    return next(dm.shape.center for dm in d.doc.live.models if dm.id == mid)


def standing(d, mid):
    return next(m.center for m in d.doc.board.unit(mid.split(".")[0]).models() if m.id == mid)


def test_the_piled_in_model_is_grabbed_where_it_is_drawn_and_dragged():
    d = make_app(PILE_IN, gui=False, clock=FakeClock(step=0.05))
    start, drawn = standing(d, MID), drawn_at(d, MID)
    assert math.dist(start, drawn) > 50.0  # drawn 2.4" from where it stands
    cam = d.table.camera
    d.move_mouse(cam.to_px(drawn))
    assert d.table.hover == MID  # the tooltip is the drawn model's
    d.table.set_tool("move")
    d.drag(drawn, (drawn[0] - 40.0, drawn[1]), frames=60)
    assert d.table.selection == "intercessors"
    assert "Nothing there" not in d.status.message
    now = standing(d, MID)
    assert math.dist(now, (start[0] - 40.0, start[1])) < 3.0  # the hand's move, from where it stood
    assert not d.doc.live.solving


def test_the_dashed_start_outline_is_not_a_handle():
    d = make_app(PILE_IN, gui=False)
    start = standing(d, MID)
    assert all(math.dist(dm.shape.center, start) > 17.0 for dm in d.doc.live.models)  # no base drawn there (32 mm bases)
    before = d.doc.board.unit("intercessors").pose_key()
    d.table.set_tool("move")
    d.drag(start, (start[0] + 30.0, start[1]), frames=10)
    assert d.table.selection is None
    assert d.doc.board.unit("intercessors").pose_key() == before


def test_a_box_selects_the_units_drawn_in_it():
    d = make_app(PILE_IN, gui=False)
    ms = [dm.shape.center for dm in d.doc.live.models if dm.unit.id == "intercessors"]
    c = (sum(p[0] for p in ms) / len(ms), sum(p[1] for p in ms) / len(ms))
    assert math.dist(c, d.doc.board.unit("intercessors").center()) > 20.0  # drawn well up from where they stand
    d.table.select_box((c[0] - 8, c[1] - 8), (c[0] + 8, c[1] + 8))
    assert d.table.selection == "intercessors"


def test_a_casualty_click_on_the_drawn_model_removes_it():
    d = make_app(PILE_IN, gui=False)
    n = len(d.doc.board.unit("intercessors").models())
    start = standing(d, MID)
    d.table.set_tool("casualty")
    d.click(drawn_at(d, MID))
    left = [m.center for m in d.doc.board.unit("intercessors").models()]
    assert len(left) == n - 1 and start not in left  # that very model
