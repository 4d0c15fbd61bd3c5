"""The demo recorder (F6) never loses its work, driven headless with synthetic events: unsaved
steps asked about on quit and on Open (Save / Discard / Cancel), every change autosaved at once
to a recovery file offered by the next window (a new demo at start, a demo when it is opened
again), a signal keeps what is being typed, a demo changed outside is never overwritten unasked
(Overwrite / Reload / Cancel, whatever its time and size say), and a save with no change leaves
a hand-written demo byte for byte."""
from __future__ import annotations

import difflib
import os
import shutil
from pathlib import Path

import pygame

from apputil import SCENARIOS, make_app
from game.core.demo import load_demo
from game.window import recovery

SCENARIO = SCENARIOS / "dwarf_horde_vs_goblins.yaml"
ROOT = Path(__file__).resolve().parents[1]


def _app(tmp_path: Path, **kw):
    shutil.copy(SCENARIO, tmp_path / SCENARIO.name)
    return make_app(tmp_path / SCENARIO.name, out_dir=tmp_path / "recovery", recent_file=tmp_path / "r.json", **kw)


def _demo(tmp_path: Path) -> Path:
    """A hand-written demo (bundled t9a_melee.yaml with a comment of the user's) and its scenarios."""
    shutil.copytree(ROOT / "assets" / "scenarios", tmp_path / "scenarios", dirs_exist_ok=True)
    (tmp_path / "demos").mkdir(exist_ok=True)
    p = tmp_path / "demos" / "mine.yaml"
    p.write_text("# my demo: keep this comment\n" + (ROOT / "assets" / "demos" / "t9a_melee.yaml").read_text())
    return p


def _record(d, *captions: str) -> None:
    if not d.recorder.alive():
        d.action("demo_recorder")
    for c in captions:
        d.recorder.set_text("caption", c)
        d.recorder.run("add")


def _open(d, path: Path) -> None:
    if not d.recorder.alive():
        d.action("demo_recorder")
    d.recorder.run("open")
    d.pick_file(str(path))
    d.frame()


def _kept(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "recovery").glob("demo-*.autosave.yaml"))


def test_quit_with_unsaved_steps_asks_and_cancel_keeps_the_window(tmp_path):
    d = _app(tmp_path)
    _record(d, "One.", "Two.")
    d.post(pygame.event.Event(pygame.QUIT))
    top = d.dialogs.top()
    assert top is not None and "unsaved steps" in top.text and d.window.running
    d.answer("Cancel")
    assert d.window.running and len(d.recorder.rec.steps) == 2
    d.post(pygame.event.Event(pygame.QUIT))
    d.answer("Discard")
    assert not d.window.running
    assert _kept(tmp_path) == []  # thrown away: the recovery file goes too


def test_quit_save_writes_the_opened_demo_then_closes(tmp_path):
    p = _demo(tmp_path)
    d = _app(tmp_path)
    _open(d, p)
    n = len(d.recorder.rec.steps)
    _record(d, "A step of mine.")
    d.action("quit")
    d.answer("Save")
    assert not d.window.running
    assert len(load_demo(p).steps) == n + 1 and "# my demo: keep this comment" in p.read_text()
    assert _kept(tmp_path) == []


def test_open_with_unsaved_steps_asks_first(tmp_path):
    p = _demo(tmp_path)
    d = _app(tmp_path)
    _record(d, "One.")
    d.recorder.run("open")
    assert "unsaved steps" in d.dialogs.top().text
    d.answer("Cancel")
    assert [s.caption for s in d.recorder.rec.steps] == ["One."]
    assert p.exists()


def test_a_new_demo_is_autosaved_at_once_and_offered_at_the_next_start(tmp_path):
    first = _app(tmp_path)
    _record(first, "One.", "Two.")
    kept = _kept(tmp_path)
    assert len(kept) == 1  # written at once: a kill -9 now loses nothing
    head = recovery.read_header(kept[0])
    assert head is not None and head.for_file == recovery.NEW_DEMO and head.steps == "2"
    # the first window is killed: nothing else happens to it
    second = _app(tmp_path, surface=pygame.Surface((1400, 880)))
    top = second.dialogs.top()
    assert top is not None and "unsaved demo steps" in top.text and "2 steps" in top.text
    second.answer("Restore")
    assert [s.caption for s in second.recorder.rec.steps] == ["One.", "Two."]
    assert second.recorder.alive() and second.recorder.unsaved()


def test_a_reopened_demo_offers_its_steps_and_saving_them_keeps_the_file_text(tmp_path):
    p = _demo(tmp_path)
    before = p.read_text()
    first = _app(tmp_path)
    _open(first, p)
    n = len(first.recorder.rec.steps)
    first.recorder.rec.index = n - 1  # added after the last step
    _record(first, "A step of mine.")
    assert len(_kept(tmp_path)) == 1
    second = _app(tmp_path, surface=pygame.Surface((1400, 880)))
    assert second.dialogs.top() is None  # a demo with a file is offered when it is opened
    _open(second, p)
    assert "unsaved demo steps" in second.dialogs.top().text
    second.answer("Restore")
    assert len(second.recorder.rec.steps) == n + 1
    second.recorder.run("save")
    after = p.read_text()
    assert len(load_demo(p).steps) == n + 1
    assert after.startswith("# my demo: keep this comment\n# The Ninth Age melee")
    assert after.count("load: ../scenarios/") == before.count("load: ../scenarios/")
    added = [ln for ln in difflib.ndiff(before.splitlines(), after.splitlines()) if ln[:1] in "+-"]
    assert added and all(ln.startswith("+") for ln in added)  # the new step's lines; nothing else moves
    assert _kept(tmp_path) == []


def test_a_signal_keeps_the_title_being_typed(tmp_path, capsys):
    d = _app(tmp_path)
    _record(d, "One.")
    d.recorder.set_text("title", "Typed just before the kill")
    d.window.stop("stopped by SIGTERM")
    assert not d.window.running
    head = recovery.read_header(_kept(tmp_path)[0])
    assert head is not None and head.title == "Typed just before the kill"
    assert "Unsaved demo steps were kept" in capsys.readouterr().out


def _edit_outside(p: Path, old: str, new: str) -> str:
    """Another program changes ``p`` keeping its size and modification time (cp -p, rsync -t)."""
    st = os.stat(p)
    theirs = p.read_text().replace(old, new, 1)
    assert len(theirs) == len(p.read_text()) and theirs != p.read_text()
    p.write_text(theirs)
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    return theirs


def test_save_over_an_outside_change_asks_overwrite_reload_cancel(tmp_path):
    p = _demo(tmp_path)
    d = _app(tmp_path)
    _open(d, p)
    _record(d, "Mine.")
    theirs = _edit_outside(p, "Restricted Attacks:", "RESTRICTED ATTACKS!")
    d.recorder.run("save")
    top = d.dialogs.top()
    assert top is not None and "changed on disk" in top.text and p.read_text() == theirs
    d.answer("Cancel")
    assert p.read_text() == theirs and d.recorder.unsaved()
    d.recorder.run("save")
    d.answer("Reload")
    assert p.read_text() == theirs
    assert any(s.caption.startswith("RESTRICTED ATTACKS") for s in d.recorder.rec.steps)
    assert "Mine." not in [s.caption for s in d.recorder.rec.steps]
    kept = _kept(tmp_path)
    assert kept and "Mine." in kept[0].read_text()  # my steps are kept in the recovery file
    _record(d, "Mine again.")
    theirs2 = _edit_outside(p, "RESTRICTED ATTACKS!", "Restricted-Attacks!")
    d.recorder.run("save")
    d.answer("Overwrite")
    text = p.read_text()
    assert text != theirs2 and "Mine again." in text and "RESTRICTED ATTACKS!" in text


def test_a_deleted_demo_asks_before_writing_it_back(tmp_path):
    p = _demo(tmp_path)
    d = _app(tmp_path)
    _open(d, p)
    _record(d, "Mine.")
    p.unlink()
    d.recorder.run("save")
    assert "moved or deleted" in d.dialogs.top().text and not p.exists()
    d.answer("Overwrite")
    assert "Mine." in p.read_text()


def test_save_with_no_change_leaves_the_demo_byte_identical(tmp_path):
    p = _demo(tmp_path)
    before = p.read_bytes()
    d = _app(tmp_path)
    _open(d, p)
    d.recorder.run("save")
    assert "Saved the demo" in d.status.message
    assert p.read_bytes() == before
