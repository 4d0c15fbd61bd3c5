"""A drag analysed off the frame (game/window/live.py, tools.py, physics/trays.py): a body at
rest stays put (no creep under the contact solver), a resting hand still takes the worker's
answer and then keeps it (its pose is not sent again), and every frame draws the board the
shown answer is for, so roles always match positions (the hand's pose a ghost)."""
from __future__ import annotations

import math

from apputil import SCENARIOS, FakeClock, make_app

from game.core.analyse import analyse
from game.core.scenario import load_scenario
from game.physics.trays import TraySpace, with_position

WORKED = SCENARIOS / "wh40k_fight_phase.yaml"


def past(a, b, beyond_mm):
    """The point ``beyond_mm`` past ``b`` on the line from ``a``."""
    d = math.dist(a, b)
    return tuple(a[i] + (b[i] - a[i]) * (d + beyond_mm) / d for i in range(2))


def hold_monster(hand_of, frames: int):
    """The worked example's Monster dragged by the physics alone, the mouse held still at
    ``hand_of(board, start)``: (its start, its centre after each frame)."""
    b = load_scenario(WORKED)
    space = TraySpace(b)
    c = b.unit("monster").models()[0].center
    space.start_drag(b, ("monster", 0), c)
    hand = hand_of(b, c)
    seen = []
    for _ in range(frames):
        pos = space.drag_to(b, hand)
        if pos is not None:
            b = b.with_unit(with_position(b.unit("monster"), 0, pos))
        seen.append(b.unit("monster").models()[0].center)
    return c, hand, seen


def test_a_body_pressed_into_contact_rests_where_it_stopped():
    # the hand behind the Transport: pressed into it
    c, _, seen = hold_monster(lambda b, c: past(c, b.unit("transport").models()[0].center, 10.0), 150)
    assert seen[10] != c  # it moved up to the transport ...
    assert len(set(seen[90:])) == 1  # ... and then stays exactly where it stopped


def test_a_free_body_comes_to_rest_near_the_hand():
    c, hand, seen = hold_monster(lambda b, c: (c[0] - 60.0, c[1] + 80.0), 120)
    assert len(set(seen[35:])) == 1 and math.dist(seen[-1], hand) < 0.5  # (it used to crawl on for 45 frames)


def grab(mid: str = "monster.m1", tool: str = "move"):
    """The worked example in the window, every analysis "slow" (drags go to the worker, which
    is held busy), model ``mid`` pressed where it is drawn with ``tool``."""
    d = make_app(WORKED, gui=False, clock=FakeClock(step=0.05))
    bg = d.doc.live.background
    bg.hold = True
    drawn = next(dm.shape.center for dm in d.doc.live.models if dm.id == mid)
    cam = d.table.camera
    d.table.set_tool(tool)
    d.move_mouse(cam.to_px(drawn))
    d.press(cam.to_px(drawn))
    assert d.table.busy()
    return d, bg, cam, drawn


def test_a_resting_hand_shows_the_exact_analysis_and_keeps_it():
    d, bg, cam, drawn = grab()
    board = d.doc.board
    hand = past(board.unit("monster").models()[0].center, board.unit("transport").models()[0].center, 10.0)
    hand = (hand[0] + drawn[0] - board.unit("monster").models()[0].center[0],
            hand[1] + drawn[1] - board.unit("monster").models()[0].center[1])
    for i in range(1, 6):
        p = (drawn[0] + (hand[0] - drawn[0]) * i / 5, drawn[1] + (hand[1] - drawn[1]) * i / 5)
        d.move_mouse(cam.to_px(p), (1, 0, 0))
    d.frame(60)  # the hand rests, the worker still busy
    assert d.doc.live.solving
    bg.hold = False  # the worker answers
    d.frame(2)
    live = d.doc.live
    assert not live.solving
    assert live.analysis.to_json() == analyse(d.doc.board.copy(), d.doc.rs).to_json()
    shown, runs = live.analysis, bg.runs
    d.frame(30)  # still resting: kept, nothing sent again
    assert live.analysis is shown and not live.solving and bg.runs == runs
    assert d.table.shown()[0] is d.doc.board


def test_every_frame_draws_the_board_its_answer_is_for():
    d, bg, cam, drawn = grab()
    start = d.doc.board.unit("monster").models()[0].center
    for k in range(12):
        bg.hold = k % 4 != 2  # the worker answers now and then
        d.move_mouse(cam.to_px((drawn[0] - 4.0 * k, drawn[1] + 5.0 * k)), (1, 0, 0))
        board, analysis, models = d.table.shown()
        held = d.doc.board.unit("monster").models()[0].center
        assert analysis.to_json() == analyse(board.copy(), d.doc.rs).to_json()  # roles of the very poses drawn
        if d.doc.live.solving:
            assert board is not d.doc.board and board.unit("monster").models()[0].center != held
            ghosts = [o for o in d.table.move_tool.overlays(d.table) if o[0] == "ghost_shapes"]
            assert ghosts and any(s.center == held for s in ghosts[0][1])  # the hand's pose, dashed
        else:
            assert board is d.doc.board
    assert d.doc.board.unit("monster").models()[0].center != start


def test_a_forward_drag_at_rest_takes_the_answer_too():
    d, bg, cam, drawn = grab("assault_squad.m1", "forward")
    for i in range(1, 4):
        d.move_mouse(cam.to_px((drawn[0], drawn[1] - 4.0 * i)), (1, 0, 0))  # forward: up the page
    d.frame(5)
    assert d.doc.live.solving
    held = d.doc.board.unit("assault_squad").pose_key()
    bg.hold = False  # the worker answers while the hand rests
    d.frame(2)
    assert not d.doc.live.solving
    assert d.doc.live.analysis.to_json() == analyse(d.doc.board.copy(), d.doc.rs).to_json()
    runs = bg.runs
    d.frame(10)  # pressed against the Transport, at rest: no creep, nothing sent again
    assert d.doc.board.unit("assault_squad").pose_key() == held and bg.runs == runs


def test_a_pose_waiting_for_a_busy_worker_is_not_handed_over_again():
    """The hand rests while the worker is still busy: each frame polls for the answer, but the
    pose already handed over is not handed over again (a worker re-solving the same pose)."""
    d, bg, cam, drawn = grab()
    for i in range(1, 4):
        d.move_mouse(cam.to_px((drawn[0] - 5.0 * i, drawn[1] + 5.0 * i)), (1, 0, 0))
    d.frame(60)  # the body comes to rest under the hand
    held = d.doc.board.unit("monster").pose_key()
    assert d.doc.live.solving
    handed = bg.seq
    d.frame(30)
    assert d.doc.board.unit("monster").pose_key() == held  # at rest ...
    assert d.doc.live.solving and bg.seq == handed  # ... and its pose handed over once
