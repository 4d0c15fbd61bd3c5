"""The one-page HTML export: demo --html, render -o OUT.html, checked without and with a browser."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from game.core.demo import build_steps, load_demo
from game.core.names import humanize, unit_names
from game.render.html_page import demo_page
from game.render.drawn import drawn_models
from game.render.window_layers import hover_lines

from tests.browser import Browser, find_chromium

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "assets" / "demos" / "whfb8_close_combat.yaml"
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


class _Page(HTMLParser):
    """Every attribute that may fetch something, the step sections and the hover JSON."""

    def __init__(self):
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []
        self.sections: list[dict] = []
        self.svgs = 0
        self.hovers: list[dict] = []
        self._in_hover = False
        self._buf = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k, v in attrs:
            if k in ("src", "href", "xlink:href", "srcset", "action", "data", "poster") or (v and "url(" in v):
                self.refs.append((tag, k, v or ""))
        if tag == "section" and "step" in (a.get("class") or ""):
            self.sections.append(a)
        if tag == "svg":
            self.svgs += 1
        if tag in ("link", "iframe", "object", "embed", "img", "image"):
            self.refs.append((tag, "", ""))
        if tag == "script" and "hover" in (a.get("class") or ""):
            self._in_hover, self._buf = True, ""
        elif tag == "script" and "src" in a:
            self.refs.append((tag, "src", a["src"]))

    def handle_data(self, data):
        if self._in_hover:
            self._buf += data

    def handle_endtag(self, tag):
        if tag == "script" and self._in_hover:
            self.hovers.append(json.loads(self._buf))
            self._in_hover = False


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


@pytest.fixture(scope="module")
def demo_html(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("html") / "out.html"
    r = _run("demo", str(DEMO), "--html", str(out))
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    assert "wrote" in r.stdout
    return out


def test_demo_page_is_one_self_contained_file(demo_html: Path):
    text = demo_html.read_text(encoding="utf-8")
    p = _Page()
    p.feed(text)
    steps = build_steps(load_demo(DEMO))
    assert p.refs == []                                   # nothing fetched: no src=, href=, url(), link, img
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text)  # the SVG namespace is a name, not a fetch
    assert len(p.sections) == len(steps) == p.svgs        # one drawn step per demo step
    assert [s["data-caption"] for s in p.sections][0] == steps[0].caption
    assert "hidden" not in p.sections[0] and all("hidden" in s for s in p.sections[1:])
    assert len(p.hovers) == len(steps)
    # the window's hover text of every model drawn, by its SVG group
    st = steps[0]
    mid = next(m for m, r in st.analysis.models.items() if r.role == "support")
    assert p.hovers[0][f"model-{mid}"] == [list(x) for x in hover_lines(st.board, st.analysis, mid)]
    assert humanize(st.analysis.models[mid].why, unit_names(st.board)) in [ln for ln, _ in p.hovers[0][f"model-{mid}"]]
    assert f'id="model-{mid}"' in text
    for i, s in enumerate(steps):  # every model drawn at every step has its hover text
        assert set(p.hovers[i]) == {f"model-{dm.id}" for dm in drawn_models(s.board, s.analysis)}


def test_page_carries_its_font(demo_html: Path):
    """The font the SVG names is inside the page (an @font-face data: URL per weight), cut down
    to the page's characters; every url( in the file is such a data: URL."""
    import base64
    import io

    from fontTools.ttLib import TTFont

    text = demo_html.read_text(encoding="utf-8")
    urls = re.findall(r"url\(([^)]*)\)", text)
    assert urls and all(u.startswith("data:font/ttf;base64,") for u in urls)
    faces = re.findall(r'@font-face\{font-family:"DejaVu Sans";font-style:normal;font-weight:(\w+);'
                       r'src:url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\) format\("truetype"\)\}', text)
    assert [w for w, _ in faces] == ["normal", "bold"]
    assert 'font-family="DejaVu Sans, sans-serif"' in text      # the SVG names the embedded family
    caption = build_steps(load_demo(DEMO))[1].caption
    for _, data in faces:
        raw = base64.b64decode(data)
        font = TTFont(io.BytesIO(raw))
        assert font["name"].getDebugName(1) == "DejaVu Sans"
        cmap = font.getBestCmap()
        assert all(ord(c) in cmap for c in set(caption))       # every letter of a caption is there
        assert ord("\u4e2d") not in cmap                       # and not the whole font: a subset
        assert len(raw) < 120_000


def test_page_is_deterministic_and_escapes_script_text():
    steps = build_steps(load_demo(DEMO))[:2]
    a, b = demo_page(steps, "t </script><b>"), demo_page(steps, "t </script><b>")
    assert a == b
    assert a.count("</script>") == a.count("<script")     # the title cannot end a script early
    assert "&lt;/script&gt;" in a


def test_render_scenario_as_one_step_page(tmp_path):
    out = tmp_path / "one.html"
    r = _run("render", str(SCENARIO), "-o", str(out))
    assert r.returncode == 0, r.stderr
    p = _Page()
    p.feed(out.read_text(encoding="utf-8"))
    assert p.refs == [] and len(p.sections) == 1 and p.svgs == 1
    assert any(k.startswith("model-dwarfs.") for k in p.hovers[0])


def test_html_option_checks_its_output(tmp_path):
    r = _run("demo", str(DEMO), "--html", str(tmp_path / "out.png"))
    assert r.returncode == 2 and "--html must end in .html" in r.stderr
    r = _run("demo", str(DEMO), "--html", str(DEMO))
    assert r.returncode == 2


@pytest.mark.skipif(find_chromium() is None, reason="no chromium on this machine")
def test_in_a_headless_browser(demo_html: Path, tmp_path):
    with Browser("file://" + str(demo_html)) as b:
        assert b.eval("document.getElementById('counter').textContent") == "1 / 17"
        visible = "[...document.querySelectorAll('section.step')].filter(s => !s.hidden).map(s => s.id)"
        assert b.eval(visible) == ["step-1"]
        first = b.screenshot()
        b.key("ArrowRight")
        assert b.eval(visible) == ["step-2"]
        assert b.eval("document.getElementById('counter').textContent") == "2 / 17"
        assert "Horde" in b.eval("document.getElementById('caption').textContent")
        second = b.screenshot()
        assert first != second
        b.key(" ")
        assert b.eval(visible) == ["step-3"]
        b.key("ArrowLeft")
        b.key("r")
        assert b.eval(visible) == ["step-1"]
        # hover: the pointer over a model's base shows its explanation
        box = b.eval("(() => { const g = document.querySelector('#step-1 g.model.support');"
                     " const r = g.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, g.id]; })()")
        b.mouse_move(box[0], box[1])
        tip = b.eval("[getComputedStyle(document.getElementById('tip')).display, document.getElementById('tip').textContent]")
        assert tip[0] == "block"
        mid = box[2].split("-", 1)[1]  # the model is named by its unit's name and slot, not its id
        assert mid.split(".", 1)[1] in tip[1] and mid not in tip[1] and "supporting attack" in tip[1].lower()
        (tmp_path / "step1.png").write_bytes(first)
        # the embedded font is the one the page draws with (no font of this machine needed)
        assert b.eval("(async () => { await document.fonts.ready; return [...document.fonts]"
                      ".filter(f => f.family.replace(/\"/g, '') === 'DejaVu Sans' && f.status === 'loaded').length; })()",
                      ) >= 1
