"""The live page in a real browser (Debian's chromium-headless-shell driven by Playwright): a unit
dragged into contact with the mouse turns models to attack, with the roles ``analyse --json``
gives for the board as dragged and the window's hover text; the 40k page says in one line why it
is not live. ``test_timings`` prints the time to interactive of one page and drop-to-redraw per
bundled scenario, each a step of one demo page (figures for the notes; nothing is decided by them)."""
from __future__ import annotations

from pathlib import Path

from tests.live_support import (ROLES_JS, ROOT, analyse_json, browser, build, drag, open_page,  # noqa: F401
                                grabbable, serving, tip_lines)

FIXTURE = ROOT / "tests" / "fixtures" / "live" / "slots_apart.yaml"


def test_drag_into_contact_turns_models_to_attack(browser, tmp_path):
    folder = build(FIXTURE, tmp_path / "page")
    with serving(folder) as url:
        page = open_page(browser, url)
        assert page.evaluate("document.body.dataset.ready") == "true"
        before = page.evaluate(ROLES_JS)
        assert before and set(before.values()) == {"none"}
        gid = "model-wolves.r1f1"
        hover_before = tip_lines(page, gid)
        assert hover_before and hover_before[0].startswith("Wolf Riders")
        drag(page, gid, -260, 0)   # 185 mm west at 1.4 px/mm: past the orcs' flank, so it stops there
        after = page.evaluate(ROLES_JS)
        dragged = tmp_path / "dragged.yaml"
        dragged.write_text(page.evaluate("window.meleeLive.scenario()"), encoding="utf-8")
        hover_after = tip_lines(page, gid)
        page.context.close()
    expected = analyse_json(dragged)["models"]
    from game.render.svg_canvas import group_id

    roles = {group_id(f"model:{mid}"): r["role"] for mid, r in expected.items()}
    assert {g: r for g, r in after.items() if g in roles} == {g: roles[g] for g in after if g in roles}
    assert after[gid] == "attack" and roles[gid] == "attack"
    assert hover_after != hover_before
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.core.scenario import load_scenario
    import game.render.part_marks  # noqa: F401 - registers the drawers of the core part types (the page's scene does)
    from game.render.window_layers import hover_lines

    board = load_scenario(dragged)
    window = [t for t, _ in hover_lines(board, analyse(board, load_ruleset(board.ruleset)), "wolves.r1f1")]
    assert hover_after == [t for t in window if t.strip()]


def test_a_page_whose_engine_cannot_run_says_why_in_one_line(browser, tmp_path):
    folder = build(ROOT / "assets" / "scenarios" / "wh40k_pile_in.yaml", tmp_path / "page")
    with serving(folder) as url:
        page = open_page(browser, url)
        assert page.evaluate("document.body.dataset.ready") == "static"
        status = page.locator("#status").inner_text()
        models = page.evaluate(ROLES_JS)
        page.context.close()
    assert status.startswith("Not live yet") and "\n" not in status.strip()
    assert models  # the picture made when the page was built stays


def _bundled() -> list[Path]:
    return [p for p in sorted((ROOT / "assets" / "scenarios").glob("*.yaml")) if not p.name.startswith("wh40k")]


def test_timings(browser, tmp_path, capsys):
    """Time to interactive, and drop-to-redraw per bundled rank-and-file and slots scenario: one
    page (a demo whose steps load each scenario, so the runtime starts once), each step dragged."""
    import json

    demo = tmp_path / "all.yaml"
    demo.write_text(json.dumps({"title": "Every bundled scenario", "steps": [
        {"caption": p.name, "actions": [{"load": str(p)}]} for p in _bundled()]}), encoding="utf-8")
    folder = build(demo, tmp_path / "page")
    rows = []
    with serving(folder) as url:
        page = open_page(browser, url)
        rows.append(f"ready ({_bundled()[0].name} first): {page.evaluate('document.body.dataset.readyMs')} ms")
        for i, path in enumerate(_bundled()):
            if i:
                page.click("#next")
            assert page.evaluate("document.body.dataset.step") == str(i + 1)
            live = page.evaluate("window.meleeLive.picture().live")
            drop_ms = "-"
            if live:
                drag(page, grabbable(page), -12, 8, steps=4)
                drop_ms = page.evaluate("document.body.dataset.dropMs")
            rows.append(f"{path.name:45s} {'live' if live else 'static':7s} drop->redraw {drop_ms} ms")
        page.context.close()
    with capsys.disabled():
        print("\nlive page timings (chromium-headless-shell):\n" + "\n".join(rows))
