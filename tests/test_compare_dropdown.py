"""The toolbar's compare drop-down, driven headless: it is filled when the user opens it (the
window's first frame does not load every ruleset to list them), with the same options as
before: off, then every other ruleset the board can use; it follows a compare switch."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from apputil import SCENARIOS, make_app  # noqa: E402


def opened_options(d) -> list[str]:
    """Click the compare drop-down as a user would; the texts of the list it opens."""
    dd = d.toolbar.dropdowns["compare"]
    d.click_px(dd.rect.center)
    d.app.window.frame()
    assert dd.current_state is dd.menu_states["expanded"], "the drop-down opened"
    return [o[0] if isinstance(o, tuple) else o for o in dd.options_list]


def test_opening_the_compare_drop_down_lists_the_usable_rulesets(tmp_path):
    d = make_app(SCENARIOS / "whfb8_initiative.yaml", copy_to=tmp_path)
    others = [r for r in d.rulesets.usable() if r != "whfb8"]
    assert len(others) >= 3
    assert opened_options(d) == ["Compare: off"] + [f"Compare: {r}" for r in others]
    assert d.toolbar.dropdowns["compare"].selected_option[0] == "Compare: off"


def test_the_drop_down_follows_a_compare_switch(tmp_path):
    d = make_app(SCENARIOS / "whfb8_initiative.yaml", copy_to=tmp_path)
    d.rulesets.set_compare("t9a")
    d.app.window.frame()
    dd = d.toolbar.dropdowns["compare"]
    assert dd.selected_option[0] == "Compare: t9a"
    opts = opened_options(d)
    assert opts[0] == "Compare: off" and "Compare: t9a" in opts and "Compare: whfb8" not in opts
