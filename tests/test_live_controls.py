"""The live page's controls in a real browser (chromium-headless-shell, Playwright): turning with
Q / E and the two buttons, undo and reset (buttons and keys), the ruleset switcher offering the
rulesets the scenario allows, a drag with a finger (touch events) and a tap on a model showing
the window's explanation. Each checks the board as the page's Python holds it
(``window.meleeLive.scenario()``), so a control that does nothing fails."""
from __future__ import annotations

import pytest

from tests.live_support import ROLES_JS, ROOT, browser, build, centre, open_page, serving  # noqa: F401

FIXTURE = ROOT / "tests" / "fixtures" / "live" / "slots_apart.yaml"


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    folder = build(FIXTURE, tmp_path_factory.mktemp("live") / "page")
    with serving(folder) as u:
        yield u


def board_of(page):
    from game.core.scenario import parse_scenario

    return parse_scenario(page.evaluate("window.meleeLive.scenario()"))


def facing(page, uid: str) -> float:
    return board_of(page).unit(uid).facing_deg % 360


def front(page, uid: str) -> tuple[float, float]:
    return tuple(board_of(page).unit(uid).front)


def test_turn_undo_reset_with_keys_and_buttons(browser, url):
    page = open_page(browser, url)
    assert page.evaluate("document.body.dataset.ready") == "true"
    assert facing(page, "wolves") == pytest.approx(270)
    page.mouse.click(*centre(page, "model-wolves.r1f1"))   # touching a unit picks it for turning
    page.keyboard.press("e")
    assert facing(page, "wolves") == pytest.approx(285)
    page.keyboard.press("q")
    page.keyboard.press("q")
    assert facing(page, "wolves") == pytest.approx(255)
    page.keyboard.press("Shift+E")
    assert facing(page, "wolves") == pytest.approx(256)
    page.click("#right")
    assert facing(page, "wolves") == pytest.approx(271)
    page.click("#left")
    assert facing(page, "wolves") == pytest.approx(256)
    page.click("#undo")
    assert facing(page, "wolves") == pytest.approx(271)
    page.keyboard.press("u")
    assert facing(page, "wolves") == pytest.approx(256)
    page.keyboard.press("Control+z")
    assert facing(page, "wolves") == pytest.approx(255)
    page.click("#reset")
    assert facing(page, "wolves") == pytest.approx(270)
    assert page.locator("#status").inner_text().strip() == "Back to the start."
    page.click("#undo")   # the reset is undone like any edit
    assert facing(page, "wolves") == pytest.approx(255)
    page.context.close()


def test_the_switcher_offers_the_rulesets_the_scenario_allows(browser, url):
    import game  # noqa: F401 - engine discovery
    from game.core import paths
    from game.core.compare import usable
    from game.core.scenario import load_scenario

    page = open_page(browser, url)
    offered = page.evaluate("[...document.querySelectorAll('#ruleset option')].map(o => o.value)")
    assert offered == usable(load_scenario(FIXTURE), paths.available(), keep="slots")
    assert len(offered) > 1 and page.evaluate("document.getElementById('ruleset').value") == "slots"
    other = next(r for r in offered if r != "slots")
    page.select_option("#ruleset", other)
    assert page.evaluate("document.body.dataset.ruleset") == other
    assert board_of(page).ruleset == other
    status = page.locator("#status").inner_text().strip()
    assert status.startswith("Rules:") or status.startswith("Not live yet")   # switched, or says in one line why not live
    page.click("#undo")
    assert board_of(page).ruleset == "slots" and page.evaluate("document.body.dataset.ruleset") == "slots"
    page.context.close()


def _touch(cdp, kind: str, x: float, y: float) -> None:
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": x, "y": y}]})


def test_a_finger_drags_a_unit_and_a_tap_explains_a_model(browser, url):
    page = open_page(browser, url, has_touch=True)
    gid = "model-wolves.r1f1"
    x, y = centre(page, gid)
    start = front(page, "wolves")
    cdp = page.context.new_cdp_session(page)
    page.evaluate("delete document.body.dataset.dropMs")
    _touch(cdp, "touchStart", x, y)
    for i in range(1, 11):
        _touch(cdp, "touchMove", x - 260 * i / 10, y)
    _touch(cdp, "touchEnd", x - 260, y)
    page.wait_for_function("document.body.dataset.dropMs !== undefined", timeout=30_000)
    moved = front(page, "wolves")
    assert moved[0] == pytest.approx(650.0, abs=0.05) and moved[1] == pytest.approx(start[1])  # stopped at the orcs' flank
    assert page.evaluate(ROLES_JS)[gid] == "attack"
    page.touchscreen.tap(*centre(page, gid))   # a tap without moving: the explanation the mouse's hover gives
    assert page.locator("#tip").is_visible()
    lines = [ln for ln in page.locator("#tip").inner_text().splitlines() if ln.strip()]
    assert lines[0].startswith("Wolf Riders") and front(page, "wolves") == moved
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.render.window_layers import hover_lines

    board = board_of(page)
    window = [t for t, _ in hover_lines(board, analyse(board, load_ruleset(board.ruleset)), "wolves.r1f1")]
    assert lines == [t for t in window if t.strip()]   # the window's own explanation, of the board as dragged
    page.context.close()
