"""Switching the ruleset (R) while a unit is held: the drag is put down first, as its own edit,
so Ctrl+Z undoes the switch alone and a second Ctrl+Z the move (headless window, synthetic events)."""
from apputil import SCENARIOS, make_app


def test_switching_the_ruleset_mid_drag_puts_the_unit_down_as_its_own_edit():
    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", gui=False)
    board = d.doc.board
    uid = "goblins"
    start = board.unit(uid).center()
    first_rs = d.doc.rs.id
    a = d.table.camera.to_px(start)
    b = d.table.camera.to_px((start[0] + 20, start[1] - 30))
    d.move_mouse(a)
    d.press(a)
    for i in range(1, 7):
        d.move_mouse((a[0] + (b[0] - a[0]) * i / 6, a[1] + (b[1] - a[1]) * i / 6), (1, 0, 0))
    assert d.table.busy()
    moved = d.doc.board.unit(uid).center()
    assert moved != start
    d.action("ruleset:1")
    assert d.doc.rs.id != first_rs
    assert not d.table.busy()  # the unit was put down
    d.release(b)
    assert d.doc.board.unit(uid).center() == moved
    d.action("undo")  # the switch alone
    assert d.doc.rs.id == first_rs
    assert d.doc.board.unit(uid).center() == moved
    d.action("undo")  # then the move
    assert d.doc.board.unit(uid).center() == start
    assert d.doc.rs.id == first_rs
