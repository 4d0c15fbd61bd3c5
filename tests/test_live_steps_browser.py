"""A live page's steps in a real browser (chromium-headless-shell, Playwright): ``live DEMO.yaml``
gives the demo's steps (N / P, the arrows and the two buttons), each opening where the demo left it
and draggable from there; a 40k page, whose engine cannot run in the page, steps through the Fight
phase as computed when the page was built and says in one line why it is not live."""
from __future__ import annotations

import pytest

from tests.live_support import ROLES_JS, ROOT, browser, build, drag, grabbable, open_page, serving  # noqa: F401

DEMO = ROOT / "assets" / "demos" / "slots_large_model.yaml"


def _board(page):
    from game.core.scenario import parse_scenario

    return parse_scenario(page.evaluate("window.meleeLive.scenario()"))


def _places(board):
    return {u.id: (round(u.front[0], 3), round(u.front[1], 3), round(u.facing_deg, 3), len(u.models())) for u in board.units}


def test_a_demo_page_steps_and_each_step_drags_from_where_the_demo_left_it(browser, tmp_path):
    import game  # noqa: F401 - engine discovery
    from game.core.demo import build_steps, load_demo
    from game.render.svg_canvas import group_id

    built = build_steps(load_demo(DEMO))
    folder = build(DEMO, tmp_path / "page")
    with serving(folder) as url:
        page = open_page(browser, url)
        assert page.evaluate("document.body.dataset.ready") == "true"
        assert page.locator("#stepbar").is_visible()
        assert page.locator("#counter").inner_text() == f"Step 1 / {len(built)}"
        assert page.locator("#caption").inner_text() == built[0].caption
        page.keyboard.press("n")
        page.click("#next")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.body.dataset.step") == "4"
        assert _places(_board(page)) == _places(built[3].board)
        roles = page.evaluate(ROLES_JS)
        want = {group_id(f"model:{mid}"): r.role for mid, r in built[3].analysis.models.items()}
        assert {g: r for g, r in roles.items() if g in want} == {g: want[g] for g in roles if g in want}
        gid = grabbable(page)
        uid = gid[len("model-"):].split(".")[0]
        drag(page, gid, 0, 60)
        after = _places(_board(page))
        before = _places(built[3].board)
        assert after[uid] != before[uid]
        assert {k: v for k, v in after.items() if k != uid} == {k: v for k, v in before.items() if k != uid}
        page.keyboard.press("p")
        page.click("#prev")
        assert page.evaluate("document.body.dataset.step") == "2"
        assert _places(_board(page)) == _places(built[1].board)
        page.keyboard.press("n")
        page.keyboard.press("n")
        assert _places(_board(page)) == before   # the demo's board again, not the one dragged
        page.context.close()


def test_a_40k_page_steps_through_the_fight_phase_as_built(browser, tmp_path):
    import game  # noqa: F401 - engine discovery
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.core.scenario import load_scenario
    from game.live.steps import phase_steps

    path = ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml"
    board = load_scenario(path)
    steps = phase_steps(board, analyse(board, load_ruleset(board.ruleset)))
    folder = build(path, tmp_path / "page")
    with serving(folder) as url:
        page = open_page(browser, url)
        ready = page.evaluate("document.body.dataset.ready")
        if ready == "true":
            pytest.skip("the 40k engine runs in this page: nothing precomputed to show")
        assert ready == "static"
        status = page.locator("#status").inner_text().strip()
        assert status.startswith("Not live yet") and "\n" not in status
        assert page.locator("#counter").inner_text() == f"Step 1 / {len(steps)}"
        first = page.inner_html("#board")
        page.keyboard.press("n")
        assert page.evaluate("document.body.dataset.step") == "2"
        assert page.locator("#caption").inner_text() == steps[1].caption
        assert page.inner_html("#board") != first
        page.click("#next")
        assert page.locator("#caption").inner_text() == steps[2].caption
        page.click("#prev")
        page.click("#prev")
        assert page.inner_html("#board") == first
        page.context.close()
