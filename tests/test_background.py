"""Drags analysed off the frame (game/window/background.py, game/window/live.py): the frame
never waits, shows the newest finished analysis (marked "solving" while it is of an earlier
pose), and what is shown as current, and what stays after the drag, is exactly a cold analysis."""
from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.engines.engagement_range import geom, memo, table
from game.window.background import Background, InlineBackground, board_key
from game.window.live import LiveAnalysis, moved_units, paused_view
from wh40k_brute import random_board

RS = load_ruleset("wh40k")
WORKED = Path(__file__).resolve().parent / "fixtures" / "wh40k_fight_phase.yaml"


class Clock:
    """A fake clock: each reading is one second later (every analysis looks slow)."""

    t = 0.0

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


def cold(board):
    memo._SOLVED.clear()
    table._UNIT_GAPS.clear()
    geom._CURVES.clear()
    return analyse(board, RS).to_json()


def moved(board, uid, dx, dy):
    return board.with_unit(board.unit(uid).translated(dx, dy))


def live_on(board):
    bg = InlineBackground()
    live = LiveAnalysis(clock=Clock(), background=bg)
    live.run(board, RS)
    return live, bg


def test_a_worker_behind_the_drag_shows_the_last_analysis_marked_solving():
    b = load_scenario(WORKED)
    live, bg = live_on(b)
    before = live.analysis
    bg.hold = True  # the worker is still busy
    b2 = moved(b, "assault_squad", 12, -8)
    live.drag(b2, RS, "assault_squad")
    assert live.solving
    # the last answer with the board it is of: the dragged bases where that answer has them
    # (roles match positions; the view draws the hand's pose as a ghost)
    assert live.analysis is before and live.shown_board is not None
    assert live.shown_board.unit("assault_squad").pose_key() == b.unit("assault_squad").pose_key()
    drawn = {dm.id: dm.shape.center for dm in live.models}
    for mid, r in before.models.items():
        if mid in drawn and r.at is not None and mid not in before.moves:
            assert drawn[mid] == tuple(r.at)
    bg.hold = False  # the worker catches up: the analysis of this very board, as is
    live.drag(b2, RS, "assault_squad")
    assert not live.solving and live.shown_board is None
    assert live.analysis.to_json() == cold(b2)


def test_the_status_line_says_solving():
    from apputil import make_app

    app = make_app(WORKED, gui=False)
    live = app.doc.live
    live.background.hold = True
    live.inline_ms = 100.0  # the last analysis was slow: drags go to the worker
    b2 = app.doc.board = app.doc.board.with_unit(app.doc.board.unit("assault_squad").translated(10, 0))
    live.drag(b2, RS, "assault_squad")
    assert live.solving
    assert "solving" in app.table.status_text()


def test_a_result_for_an_earlier_board_is_never_shown_as_current():
    b = load_scenario(WORKED)
    live, bg = live_on(b)
    b1 = moved(b, "assault_squad", 10, 0)
    live.drag(b1, RS, "assault_squad")  # analysed (inline) at once
    bg.hold = True
    b2 = moved(b1, "assault_squad", 0, 10)
    live.drag(b2, RS, "assault_squad")
    assert live.solving and live.analysis.to_json() != cold(b2)


def test_moved_units_compares_poses():
    b = load_scenario(WORKED)
    b1 = moved(b, "assault_squad", 5, 0)
    assert moved_units(b, b1) == ["assault_squad"]
    assert moved_units(b, b) == []
    assert moved_units(None, b) == [u.id for u in b.units]


def test_paused_view_moves_every_named_unit():
    b = load_scenario(WORKED)
    a = analyse(b, RS)
    b1 = moved(moved(b, "assault_squad", 5, 0), b.units[0].id, 0, 5)
    v = paused_view(a, b1, "assault_squad", b.units[0].id)
    for uid in ("assault_squad", b.units[0].id):
        for m in b1.unit(uid).models():
            if m.id in v.models:
                assert tuple(v.models[m.id].at) == m.center


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10 ** 6),
       st.lists(st.tuples(st.floats(-12, 12), st.floats(-12, 12), st.booleans()), min_size=1, max_size=5))
def test_off_the_frame_is_exactly_a_cold_analysis(seed, steps):
    """Random mixed-base boards, dragged with the worker sometimes behind: every frame not marked
    solving shows exactly a cold analysis of the board shown, and so does the end of the drag."""
    b = random_board(seed, mixed=True, clump=bool(seed % 2))
    live, bg = live_on(b)
    for dx, dy, busy in steps:
        b = moved(b, "mob", dx, dy)
        bg.hold = busy
        live.drag(b, RS, "mob")
        if not live.solving:
            assert live.analysis.to_json() == cold(b)
    live.run(b, RS)  # the drag ends: the window analyses the final board itself
    assert not live.solving
    assert live.analysis.to_json() == cold(b)


def test_the_worker_process_gives_a_cold_analysis_and_the_latest_board_wins():
    b = load_scenario(WORKED)
    bg = Background()
    try:
        assert bg.submit(b, RS)
        assert not bg.submit(b, RS)  # the same board again: nothing to do
        b1, b2 = moved(b, "assault_squad", 6, 0), moved(b, "assault_squad", 9, 3)
        bg.submit(b1, RS)  # waits while the worker is busy ...
        bg.submit(b2, RS)  # ... and is replaced by the newer board
        first = bg.poll(timeout_s=120.0)
        assert first is not None and first.error == "" and first.key == board_key(b, RS)
        assert first.analysis.to_json() == cold(b)
        second = bg.poll(timeout_s=120.0)
        assert second is not None and second.key == board_key(b2, RS)  # b1 was never analysed
        assert second.analysis.to_json() == cold(b2)
        bg.submit(b1, RS)
        bg.forget()  # the window analysed itself: the answer still to come is dropped
        assert bg.poll(timeout_s=120.0) is None and not bg.busy
    finally:
        bg.close()
    assert bg._proc is None


def test_a_ruleset_that_does_not_pickle_stays_in_the_window():
    class Unpicklable:
        def __reduce__(self):
            raise TypeError("cannot pickle")

    assert not Background().usable(Unpicklable())  # type: ignore[arg-type]
    assert Background().usable(RS)


def test_analyses_cross_to_the_worker_and_back():
    """Boards, rulesets and analyses pickle (the worker sends them between processes) and come
    back the same, for every shipped scenario under its own ruleset."""
    import pickle

    from game.core.paths import ASSETS_DIR

    for path in sorted((ASSETS_DIR / "scenarios").glob("*.yaml")):
        b = load_scenario(path)
        rs = load_ruleset(b.ruleset)
        a = analyse(b, rs)
        assert pickle.loads(pickle.dumps(a)).to_json() == a.to_json(), path.name
        assert pickle.loads(pickle.dumps(b)).units[0].id == b.units[0].id
        if Background().usable(rs):  # else the window analyses its drags itself (see below)
            assert pickle.loads(pickle.dumps(rs)).id == rs.id
    assert Background().usable(RS)  # the engine analysed off the frame


def test_a_ruleset_that_cannot_be_sent_stays_in_the_window():
    class Unsendable:
        id = "x"

        def __reduce__(self):
            raise TypeError("no")

    assert not Background().usable(Unsendable())  # type: ignore[arg-type]
