"""The HTML page (``render FILE -o x.html``, ``demo --html``) shows no empty dark band above
the table: the caption band is hidden while the step shown has no caption, and shown (with its
words) when it has one."""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from game.core.analyse import analyse
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.html_page import _SCRIPT, _STYLE, PageStep, page_html, scenario_page

GAP = Path(__file__).resolve().parents[1] / "assets" / "scenarios" / "whfb8_rear_gap.yaml"


class _Caption(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.attrs: dict | None = None

    def handle_starttag(self, tag, attrs):
        if dict(attrs).get("id") == "caption":
            self.attrs = dict(attrs)


def caption_attrs(page: str) -> dict:
    p = _Caption()
    p.feed(page)
    assert p.attrs is not None, "no caption element"
    return p.attrs


def test_a_scenario_page_has_no_caption_band():
    b = load_scenario(GAP)
    page = scenario_page(b, analyse(b, load_ruleset(b.ruleset)))
    assert "hidden" in caption_attrs(page)
    assert "#caption[hidden]{display:none}" in _STYLE  # hidden wins over the band's own style


def test_a_step_without_caption_hides_the_band_and_one_with_shows_it():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"></svg>'
    assert "hidden" not in caption_attrs(page_html("t", [PageStep("Words.", svg, {}), PageStep("", svg, {})]))
    assert "hidden" in caption_attrs(page_html("t", [PageStep("", svg, {}), PageStep("Words.", svg, {})]))
    assert "caption.hidden=!words" in _SCRIPT  # stepping hides or shows it with the step's caption
