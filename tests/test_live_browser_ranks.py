"""Rank-and-file pages recompute live in a real browser (Debian's chromium-headless-shell driven
by Playwright; the engine in Pyodide without numpy): a whfb8 unit dragged into an enemy's flank
with the mouse turns models to attack and support, the roles ``analyse --json`` gives for the
board as dragged, and the hover text the window gives; every bundled whfb8, t9a and tow scenario
opens live. ``test_rank_and_file_drop_timings`` prints drop-to-redraw per bundled rank-and-file
scenario (figures for the notes; nothing is decided by them)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.live_support import ROOT, analyse_json, build, serving
from tests.live_support import GRABBABLE_JS, ROLES_JS, browser, drag, open_page, tip_lines  # noqa: F401

FIXTURE = ROOT / "tests" / "fixtures" / "live" / "whfb8_apart.yaml"
RANK_AND_FILE = ("whfb8", "t9a", "tow")   # (tow_2024 has no bundled scenario: a tow page offers it)


def test_whfb8_drag_into_flank_contact_gives_analyse_roles(browser, tmp_path, capsys):  # noqa: F811
    folder = build(FIXTURE, tmp_path / "page")
    with serving(folder) as url:
        page = open_page(browser, url)
        assert page.evaluate("document.body.dataset.ready") == "true"
        before = page.evaluate(ROLES_JS)
        assert before and set(before.values()) == {"none"}
        gid = "model-wolves.r1f1"
        hover_before = tip_lines(page, gid)
        drag(page, gid, -260, 0)   # 185 mm west at 1.4 px/mm: past the orcs' flank, so it stops there
        after = page.evaluate(ROLES_JS)
        drop_ms = page.evaluate("document.body.dataset.dropMs")
        dragged = tmp_path / "dragged.yaml"
        dragged.write_text(page.evaluate("window.meleeLive.scenario()"), encoding="utf-8")
        hover_after = tip_lines(page, gid)
        page.close()
    with capsys.disabled():
        print(f"\nwhfb8 drag into flank contact: drop->redraw {drop_ms} ms")
    expected = analyse_json(dragged)["models"]
    from game.render.svg_canvas import group_id

    roles = {group_id(f"model:{mid}"): r["role"] for mid, r in expected.items()}
    assert set(after) == set(roles)
    assert after == roles
    assert after[gid] == "attack" and "support" in after.values()
    assert any(g.startswith("model-orcs") and r == "attack" for g, r in after.items())
    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.core.scenario import load_scenario
    import game.render.part_marks  # noqa: F401 - registers the drawers of the core part types (the page's scene does)
    from game.render.window_layers import hover_lines

    board = load_scenario(dragged)
    window = [t for t, _ in hover_lines(board, analyse(board, load_ruleset(board.ruleset)), "wolves.r1f1")]
    assert hover_after != hover_before and hover_after == [t.strip() for t in window if t.strip()]


def _bundled_rank_and_file() -> list[Path]:
    return [p for p in sorted((ROOT / "assets" / "scenarios").glob("*.yaml")) if p.name.split("_")[0] in RANK_AND_FILE
            or p.name.startswith("dwarf")]


def test_rank_and_file_drop_timings(browser, tmp_path, capsys):  # noqa: F811
    """Every bundled rank-and-file page is live (not the static picture); a drag and drop of a
    unit is re-analysed and redrawn; ready and drop-to-redraw times printed."""
    rows, states = [], {}
    for path in _bundled_rank_and_file():
        folder = build(path, tmp_path / path.stem)
        with serving(folder) as url:
            page = open_page(browser, url)
            states[path.name] = page.evaluate("document.body.dataset.ready")
            ready_ms = page.evaluate("document.body.dataset.readyMs")
            gid = page.evaluate(GRABBABLE_JS)
            drag(page, gid, -12, 8, steps=4)
            drop_ms = page.evaluate("document.body.dataset.dropMs")
            page.close()
        rows.append(f"{path.name:45s} {states[path.name]:7s} ready {ready_ms} ms  drop->redraw {drop_ms} ms")
    with capsys.disabled():
        print("\nrank-and-file live page timings (chromium-headless-shell):\n" + "\n".join(rows))
    assert states and set(states.values()) == {"true"}, states
