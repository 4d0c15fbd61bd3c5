"""Markup in a title, unit name, file name or caption is shown as written by every dialog,
never read as pygame_gui markup: ``<img src=...>`` loads no picture (and cannot stop the window
opening), ``<font pixel_size=20000>`` takes no memory, ``<br>`` and ``<a href>`` push nothing
away. Every such text goes through one function, :func:`game.window.gui.plain`. Driven
headless with synthetic events."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pygame_gui  # noqa: E402
import pytest  # noqa: E402

from apputil import FakeClock, make_app  # noqa: E402
from game.window.dialogs import Buttons, Form  # noqa: E402
from game.window.gui import plain  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
CTRL, SHIFT = pygame.KMOD_CTRL, pygame.KMOD_SHIFT

PAYLOADS = ['<img src="/etc/passwd"> x', "<font pixel_size=20000>big</font>", "a<br>b", "<a href=x>link</a>",
            "<font size=7 color=#ff0000>red</font> & <b>b</b>", "&lt;kept&gt; &amp;"]


def shown(box) -> str:
    """The text a pygame_gui text box (or entry box) lays out, as one string; fails on a
    picture or a link laid out in it (markup read as markup)."""
    layout = box.text_box_layout
    kinds = {type(c).__name__ for row in layout.layout_rows for c in row.items}
    assert not kinds & {"ImageLayoutRect", "HyperlinkTextChunk", "HorizRuleLayoutRect"}, kinds
    return "".join(getattr(c, "text", "") or "" for row in layout.layout_rows for c in row.items)


def write_scenario(path: Path, title: str, name: str = "Night Goblins") -> Path:
    """The test scenario at ``path`` with ``title`` and the night goblins named ``name``."""
    text = SCENARIO.read_text(encoding="utf-8").splitlines(keepends=True)
    text[0] = f"title: {json.dumps(title)}\n"
    path.write_text("".join(text).replace("name: Night Goblins", f"name: {json.dumps(name)}"), encoding="utf-8")
    return path


def question(d) -> Buttons:
    q = d.dialogs.top()
    assert isinstance(q, Buttons) and q.box is not None, q
    return q


@pytest.mark.parametrize("payload", PAYLOADS)
def test_unsaved_changes_question_shows_the_title_as_written(tmp_path, payload):
    d = make_app(write_scenario(tmp_path / "battle.yaml", payload), recent_file=tmp_path / "r.json",
                 out_dir=tmp_path / "rec")
    d.select("night_goblins")
    d.key(pygame.K_t)
    d.key(pygame.K_n, CTRL)  # New asks first: the title is in the question
    q = question(d)
    assert payload in q.text and shown(q.box) == q.text


@pytest.mark.parametrize("payload", PAYLOADS)
def test_replace_question_shows_the_other_title_as_written(tmp_path, payload):
    (tmp_path / "mine").mkdir()
    d = make_app(SCENARIO, copy_to=tmp_path / "mine", recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    d.select("night_goblins")
    d.key(pygame.K_t)
    other = write_scenario(tmp_path / "other.yaml", payload)
    d.key(pygame.K_s, CTRL | SHIFT)
    d.pick_file(str(other))
    q = question(d)
    assert q.button("Replace") is not None and payload in q.text and shown(q.box) == q.text


@pytest.mark.parametrize("payload", PAYLOADS)
def test_changed_on_disk_and_compare_show_names_as_written(tmp_path, payload):
    battle = write_scenario(tmp_path / "battle.yaml", "plain")
    d = make_app(battle, recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    d.select("night_goblins")
    d.key(pygame.K_t)
    write_scenario(battle, payload, name=payload)  # another program renames the unit and the title
    d.key(pygame.K_s, CTRL)
    q = question(d)
    assert q.button("Compare") is not None
    d.answer("Compare")
    q = question(d)
    assert q.button("Overwrite") is not None
    assert "units[night_goblins].name: on disk" in q.text
    assert shown(q.box) == q.text  # the names (shortened) as written, nothing taken as markup


@pytest.mark.parametrize("name", ["<img src=x> b", "<b>bold<br> a&b"])
def test_changed_on_disk_shows_a_file_name_as_written(tmp_path, name):
    battle = write_scenario(tmp_path / f"{name}.yaml", "plain")
    d = make_app(battle, recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    d.select("night_goblins")
    d.key(pygame.K_t)
    write_scenario(battle, "changed outside")
    d.key(pygame.K_s, CTRL)
    assert f"{name}.yaml was changed on disk" in shown(question(d).box)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_recovery_of_a_file_titled_with_markup_is_offered(tmp_path, payload):
    """The crash-recovery path: the window opens and offers the work (it used to exit 1 on
    ``<img>``, and the work could never be offered until the recovery file was deleted)."""
    battle = write_scenario(tmp_path / "battle.yaml", payload)
    first = make_app(battle, clock=FakeClock(), out_dir=tmp_path / "rec", recent_file=tmp_path / "r.json")
    first.select("night_goblins")
    first.key(pygame.K_t)
    first.clock.advance(11)
    first.frame()
    assert first.doc.session.autosave_path.exists()
    second = make_app(battle, clock=FakeClock(), out_dir=tmp_path / "rec", recent_file=tmp_path / "r.json")
    q = question(second)
    assert q.button("Restore") is not None
    assert payload in q.text and shown(q.box) == q.text
    second.answer("Restore")
    assert second.doc.board.unit("night_goblins").facing_deg == first.doc.board.unit("night_goblins").facing_deg


@pytest.mark.parametrize("payload", PAYLOADS + ["line one\n<br>line two"])
def test_title_and_export_forms_show_the_caption_as_written(tmp_path, payload):
    (tmp_path / "mine").mkdir()
    d = make_app(SCENARIO, copy_to=tmp_path / "mine", recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    d.key(pygame.K_t, CTRL)
    form = d.dialogs.top()
    assert isinstance(form, Form)
    d.fill({"title": payload.replace("\n", " ")})
    form.set("caption", payload)
    d.answer("Apply")
    assert d.doc.board.title == payload.replace("\n", " ")
    d.key(pygame.K_t, CTRL)  # again: the caption comes back in the box as written
    form = d.dialogs.top()
    box = form.els["caption"]
    assert box.get_text() == payload
    assert shown(box).replace("\n", "") == payload.replace("\n", "")
    assert form.els["title"].get_text() == payload.replace("\n", " ")
    d.key(pygame.K_ESCAPE)
    d.key(pygame.K_e, CTRL)
    form = d.dialogs.top()
    assert isinstance(form, Form) and form.els["caption"].get_text() == payload


@pytest.mark.parametrize("payload", PAYLOADS)
def test_a_tooltip_shows_its_text_as_written(tmp_path, payload):
    """Tooltips are HTML boxes too (a recent file's path, a template's name)."""
    (tmp_path / "mine").mkdir()
    d = make_app(SCENARIO, copy_to=tmp_path / "mine", recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    rows = [(payload, "x", payload, True)]
    b = Buttons(d.gui, "Recent files", "", [], lambda _: None, rows=rows)
    button = next(iter(b.buttons))
    tip = pygame_gui.elements.UITooltip(button.tool_tip_text, (0, 0), d.gui.manager, wrap_width=900)
    assert payload in shown(tip.text_block)


def test_plain_round_trips_through_an_entry_box_and_a_text_box(tmp_path):
    (tmp_path / "mine").mkdir()
    d = make_app(SCENARIO, copy_to=tmp_path / "mine", recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    m = d.gui.manager
    for payload in PAYLOADS:
        box = pygame_gui.elements.UITextBox(plain(payload), pygame.Rect(0, 0, 400, 200), manager=m)
        assert shown(box) == payload
        entry = pygame_gui.elements.UITextEntryBox(pygame.Rect(0, 0, 400, 200), "", manager=m)
        entry.set_text(plain(payload))
        assert entry.get_text() == payload and shown(entry) == payload
        box.kill()
        entry.kill()
