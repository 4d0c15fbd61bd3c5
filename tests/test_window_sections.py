"""The window's views and sections driven directly: synthetic events into ``dispatch`` /
``on_event``, a fake clock, no window loop (docs/ARCHITECTURE.md, "The window")."""
from __future__ import annotations

import pygame
import pytest

from apputil import SCENARIOS, FakeClock, make_app
from game.window.actions import Actions
from game.window.status import Status, fit_line
from game.window.view import Section, View

CTRL = pygame.KMOD_CTRL


def keydown(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="")


class Recorder(Section):
    def __init__(self, name: str, log: list, takes: bool = False) -> None:
        self.name, self.log, self.takes = name, log, takes

    def on_event(self, ev) -> bool:
        self.log.append(("event", self.name))
        return self.takes

    def on_update(self) -> None:
        self.log.append(("update", self.name))

    def on_draw(self, screen) -> None:
        self.log.append(("draw", self.name))


class RecordingView(View):
    def __init__(self, sections, log: list) -> None:
        super().__init__(sections)
        self.log = log
        self.fail = False

    def on_event(self, ev) -> bool:
        self.log.append(("event", "view"))
        return True

    def on_update(self) -> None:
        if self.fail:
            raise RuntimeError("boom")
        self.log.append(("update", "view"))

    def on_draw(self, screen) -> None:
        self.log.append(("draw", "view"))

    def on_error(self, what: str, exc: BaseException) -> str:
        self.log.append(("error", what))
        return what


def test_sections_see_events_first_in_order_and_the_first_taker_stops_them():
    log: list = []
    view = RecordingView([Recorder("a", log), Recorder("b", log, takes=True), Recorder("c", log)], log)
    assert view.dispatch(keydown(pygame.K_a))
    assert log == [("event", "a"), ("event", "b")]  # c and the view never see it
    log.clear()
    view.sections[1].takes = False
    view.dispatch(keydown(pygame.K_a))
    assert log == [("event", "a"), ("event", "b"), ("event", "c"), ("event", "view")]
    log.clear()
    view.update()
    view.draw(None)
    # sections update before the view; the view draws first, the sections over it
    assert log == [("update", "a"), ("update", "b"), ("update", "c"), ("update", "view"),
                   ("draw", "view"), ("draw", "a"), ("draw", "b"), ("draw", "c")]


def test_the_window_goes_on_after_a_failing_frame_and_idles_on_its_clock():
    from game.window.window import ACTIVE_S, Window

    clock = FakeClock()
    log: list = []
    win = Window(surface=pygame.Surface((200, 100)), clock=clock)
    view = RecordingView([], log)
    win.show_view(view)
    assert win.frame() and ("draw", "view") in log
    view.fail = True
    log.clear()
    assert win.frame()  # the update raised: the view is told, the frame still draws
    assert ("error", "update failed") in log and ("draw", "view") in log
    view.fail = False
    win.frame()
    assert not win.idle()
    clock.advance(ACTIVE_S + 0.1)
    assert win.idle()
    log.clear()
    assert not win.frame() and log == [("update", "view")]  # nothing happened: nothing drawn


def test_actions_run_by_name_and_prefix_and_refuse_a_second_registration():
    got: list = []
    a = Actions()
    a.add("undo", lambda: got.append("undo"))
    a.add_prefix("turn", lambda arg: got.append(float(arg)))
    assert a.run("undo") and a.run("turn:-15") and got == ["undo", -15.0]
    assert not a.run("nothing") and not a.knows("nothing") and a.knows("turn:90")
    with pytest.raises(ValueError):
        a.add("undo", lambda: None)


def test_the_status_line_drops_the_least_important_parts_first():
    parts = [(0, "[move]"), (3, "selected"), (0, "the message"), (5, "rules x"), (6, "frame 1 ms")]
    width = len  # one px per character
    assert fit_line(parts) == "[move] selected  |  the message  |  rules x  |  frame 1 ms"
    assert fit_line(parts, width, 40) == "[move] selected  |  the message"
    assert fit_line(parts, width, 5) == "[move] the message"  # rank 0 is always kept
    s = Status()
    try:
        raise KeyError("x")
    except KeyError as exc:
        s.error("analysis failed", exc)
    assert s.banner.startswith("analysis failed: KeyError") and s.dismiss() and not s.banner and not s.dismiss()


def test_the_steps_view_refuses_edit_keys_and_ctrl_leaves_first(tmp_path):
    d = make_app(SCENARIOS / "wh40k_fight_phase.yaml", copy_to=tmp_path, gui=False)
    steps, table = d.steps, d.table
    assert d.window.view is table
    table.dispatch(keydown(pygame.K_n))  # a view takes its events directly (no window loop)
    assert steps.active and d.window.view is steps and steps.position() == (0, len(steps.steps))
    before = d.doc.board.copy()
    table.select("monster")
    steps.dispatch(keydown(pygame.K_t))  # turn 90: an edit, refused on a step
    assert "step" in d.status.message and d.doc.board.unit("monster").facing_deg == before.unit("monster").facing_deg
    steps.dispatch(keydown(pygame.K_n))
    assert steps.position()[0] == 1
    steps.dispatch(keydown(pygame.K_d, CTRL))  # Ctrl+D (duplicate): leaves the steps, then runs
    assert not steps.active and d.window.view is table
    assert len(d.doc.board.units) == len(before.units) + 1 and d.doc.session.history.undo_depth == 1


def test_an_edit_closes_the_steps_view_through_the_document(tmp_path):
    d = make_app(SCENARIOS / "wh40k_fight_phase.yaml", copy_to=tmp_path, gui=False)
    d.steps.enter(2)
    assert d.steps.active
    d.table.select("monster")
    d.table.turn_selected(15)
    assert not d.steps.active and d.window.view is d.table and d.doc.session.history.undo_depth == 1


def test_a_dialog_is_modal_until_closed(tmp_path):
    from game.window.dialogs import Buttons

    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", copy_to=tmp_path)
    dialogs, chosen = d.dialogs, []
    assert not dialogs.on_event(keydown(pygame.K_t))  # nothing open: not the dialogs' key
    dlg = dialogs.open(Buttons(d.gui, "Q", "Really?", ["Yes", "No"], chosen.append))
    assert dialogs.top() is dlg
    assert dialogs.on_event(keydown(pygame.K_t))  # modal: taken, never the board's
    assert dialogs.on_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(1, 1), button=1))
    assert dialogs.on_event(pygame.event.Event(d.gui.pg.UI_BUTTON_PRESSED, ui_element=dlg.button("No")))
    assert chosen == ["No"] and dialogs.top() is None
    dialogs.open(Buttons(d.gui, "Q", "Really?", ["Yes", "No"], chosen.append))
    assert dialogs.on_event(keydown(pygame.K_ESCAPE)) and dialogs.top() is None and chosen == ["No"]


def test_the_toolbar_turns_its_buttons_into_actions_and_follows_the_ruleset(tmp_path):
    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", copy_to=tmp_path)
    ran: list = []
    tb = d.toolbar
    tb.run = ran.append
    button = next(b for b, a in tb.buttons.items() if a == "undo")
    assert tb.on_event(pygame.event.Event(d.gui.pg.UI_BUTTON_PRESSED, ui_element=button)) and ran == ["undo"]
    assert not tb.on_event(pygame.event.Event(d.gui.pg.UI_BUTTON_PRESSED, ui_element=object()))
    assert tb.label("rules_menu") == f"Rules: {d.doc.rs.id}"
    d.rulesets.cycle(1)
    assert tb.label("rules_menu") == f"Rules: {d.doc.rs.id}" != "Rules: whfb8"


def test_the_help_section_toggles_and_esc_closes_it_first(tmp_path):
    d = make_app(SCENARIOS / "dwarf_horde_vs_goblins.yaml", copy_to=tmp_path)
    d.help.toggle()
    assert d.help.is_open()
    d.table.select("dwarfs")
    d.app.actions.run("escape")
    assert not d.help.is_open() and d.table.selection == "dwarfs"  # Esc closed the help only
    d.app.actions.run("escape")
    assert d.table.selection is None
