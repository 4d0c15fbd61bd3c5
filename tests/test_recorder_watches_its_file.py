"""The demo recorder notices an outside change of the demo it has open while it is open, as
the scenario editor notices its file's (the same :class:`game.window.diskstate.Watch`, polled
every few seconds of the window's clock): it asks Overwrite / Reload / Cancel once, before any
Save; Cancel is not asked again until Save; an unchanged file asks nothing. Driven headless
with synthetic events and the fake clock of the test driver."""
from __future__ import annotations

import shutil
from pathlib import Path

from apputil import SCENARIOS, make_app

SCENARIO = SCENARIOS / "dwarf_horde_vs_goblins.yaml"
ROOT = Path(__file__).resolve().parents[1]


def _opened(tmp_path: Path):
    shutil.copy(SCENARIO, tmp_path / SCENARIO.name)
    shutil.copytree(ROOT / "assets" / "scenarios", tmp_path / "scenarios", dirs_exist_ok=True)
    (tmp_path / "demos").mkdir()
    p = tmp_path / "demos" / "mine.yaml"
    p.write_text((ROOT / "assets" / "demos" / "t9a_melee.yaml").read_text())
    d = make_app(tmp_path / SCENARIO.name, out_dir=tmp_path / "recovery", recent_file=tmp_path / "r.json")
    d.action("demo_recorder")
    d.recorder.run("open")
    d.pick_file(str(p))
    d.frame()
    assert d.recorder.rec.path == str(p) and d.dialogs.top() is None
    return d, p



def test_an_outside_change_is_asked_about_while_open(tmp_path):
    d, p = _opened(tmp_path)
    d.clock.advance(30)
    d.frame(3)
    assert d.dialogs.top() is None  # nothing changed: nothing asked
    theirs = p.read_text().replace("Restricted Attacks:", "RESTRICTED ATTACKS! (theirs)", 1)
    p.write_text(theirs)
    d.clock.advance(30)
    d.frame()
    top = d.dialogs.top()
    assert top is not None and "changed on disk" in top.text, d.status.message
    assert top.button("Reload") is not None and p.read_text() == theirs
    d.answer("Reload")
    d.frame()
    assert any(s.caption.startswith("RESTRICTED ATTACKS") for s in d.recorder.rec.steps)
    d.clock.advance(30)
    d.frame(3)
    assert d.dialogs.top() is None  # reloaded: the file is the recorder's again


def test_cancel_is_not_asked_again_until_save(tmp_path):
    d, p = _opened(tmp_path)
    p.write_text(p.read_text() + "# theirs\n")
    d.clock.advance(30)
    d.frame()
    assert d.dialogs.top() is not None and "changed on disk" in d.dialogs.top().text
    d.answer("Cancel")
    d.frame()
    assert d.dialogs.top() is None
    d.clock.advance(30)
    d.frame(3)
    assert d.dialogs.top() is None  # answered: no nagging
    d.recorder.run("save")  # Save asks again, nothing written
    assert d.dialogs.top() is not None and p.read_text().endswith("# theirs\n")


def test_a_deleted_demo_is_noticed_while_open(tmp_path):
    d, p = _opened(tmp_path)
    p.unlink()
    d.clock.advance(30)
    d.frame()
    top = d.dialogs.top()
    assert top is not None and "moved or deleted" in top.text and not p.exists()
