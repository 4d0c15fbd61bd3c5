"""An idle window costs next to nothing: the hover is looked up again only when the mouse (or
the camera, or the models drawn) moved, and the legend is built again only when something it
shows changed; frames that only redraw the status line rebuild neither."""
from pathlib import Path

from apputil import make_app
from game.window import table_view

SCEN = Path(__file__).resolve().parents[1] / "assets" / "scenarios" / "whfb8_flank_no_support.yaml"


def test_hover_looked_up_only_when_the_mouse_moves(monkeypatch):
    app = make_app(SCEN)
    table = app.app.table
    calls = []
    real = table_view.model_at
    monkeypatch.setattr(table_view, "model_at", lambda models, p: calls.append(p) or real(models, p))
    unit = app.app.doc.board.units[0]
    px = table.camera.to_px(unit.center())
    app.move_mouse(px)
    assert len(calls) == 1 and app.table.hover is not None
    hovered = app.table.hover
    for _ in range(30):  # the window keeps drawing for a while: the mouse stays put
        app.frame()
    assert len(calls) == 1 and app.table.hover == hovered
    app.move_mouse((px[0] + 1, px[1]))
    assert len(calls) == 2
    table.camera.pan(5, 0)  # the table moved under the mouse: looked up again
    app.frame()
    assert len(calls) == 3


def test_the_legend_is_not_rebuilt_when_nothing_in_it_changed():
    app = make_app(SCEN)
    retained = app.app.table.retained
    app.frame(3)
    built = retained.legend_builds
    for i in range(20):  # the status line changes (frame times), nothing the legend shows
        app.clock.advance(0.01)
        app.app.window.invalidate()
        app.frame()
    assert retained.legend_builds == built
    u = app.app.doc.board.units[0]
    app.drag(u.center(), (u.center()[0] - 40.0, u.center()[1]), frames=5)  # the board changed: rebuilt
    assert retained.legend_builds > built


def test_a_dragged_unit_is_folded_into_the_base_once_it_stands_still():
    """After a drag the unit is drawn live only until it stands still for two frames, though
    the status line (frame times) changes every frame (it was drawn live until the window idled)."""
    app = make_app(SCEN)
    retained = app.app.table.retained
    u = app.app.doc.board.units[0]
    a = app.app.table.camera.to_px(u.center())
    app.move_mouse(a)
    app.press(a)
    app.move_mouse((a[0] - 30, a[1]), (1, 0, 0))
    app.frame(40)  # held still, mouse button down: still drawn live
    assert retained.moving
    app.release((a[0] - 30, a[1]))
    for _ in range(4):
        app.clock.advance(0.01)
        app.frame()
    assert not retained.moving


def test_nothing_happened_nothing_drawn_but_a_change_between_frames_is_drawn():
    """Lately active, a frame in which nothing changed leaves the picture as it stands (no
    widget update, no drawing); a board edited, or the camera moved, between two frames is
    drawn on the next one."""
    from game.core import manoeuvre as mv

    app = make_app(SCEN)
    win = app.app.window
    unit = app.app.doc.board.units[0]
    app.move_mouse(app.app.table.camera.to_px(unit.center()))  # over the table, not on a widget
    app.frame(3)
    drawn = win.frames
    for _ in range(10):
        app.clock.advance(0.01)
        app.frame()
    assert win.frames == drawn  # nothing changed: nothing drawn
    app.put_unit(mv.forward(app.app.doc.board.unit(unit.id), 5))  # changed between frames
    app.frame()
    assert win.frames == drawn + 1
    app.app.table.camera.pan(5, 0)
    app.frame()
    assert win.frames == drawn + 2
    app.frame(3)
    assert win.frames == drawn + 2
