"""The window's and command line's words (issue 38, "Words"): the recovery dialog names the
file it is for, the ruleset chooser never cuts a name, F1 says what Ctrl+E and U do, and a
first argument that is neither a command nor a file says so. Driven headless."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pygame

from apputil import FakeClock, make_app
from game.cli.main import COMMANDS
from game.core.ruleset import load_ruleset
from game.window.rulesets import MENU_CHARS

ROOT = Path(__file__).resolve().parents[1]
BUILTIN = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def test_the_recovery_dialog_of_a_file_names_the_file(tmp_path):
    """A built-in scenario (saving asks where) edited, autosaved, the window killed: the next
    window on it offers the work naming the file, never as "A new board"."""
    rec = tmp_path / "recovery"
    first = make_app(BUILTIN, clock=FakeClock(), out_dir=rec, recent_file=tmp_path / "r.json")
    first.select("night_goblins")
    first.key(pygame.K_t)
    first.clock.advance(11)
    first.frame()
    assert first.doc.session.autosave_path.exists()
    second = make_app(BUILTIN, clock=FakeClock(), out_dir=rec, recent_file=tmp_path / "r.json")
    d = second.dialogs.top()
    assert d is not None
    assert not d.text.lower().startswith("a new board") and BUILTIN.name in d.text.split(":", 1)[0], d.text


def test_the_ruleset_chooser_never_cuts_a_name(tmp_path):
    shutil.copy(BUILTIN, tmp_path / "b.yaml")
    d = make_app(tmp_path / "b.yaml", clock=FakeClock(), out_dir=tmp_path / "o", recent_file=tmp_path / "r.json")
    d.rulesets.menu()
    menu = d.dialogs.top()
    assert menu is not None
    labels = {value: b.text for b, value in menu.buttons.items()}
    assert len(labels) >= 5
    for rid, label in labels.items():
        rs = load_ruleset(rid)
        assert label.startswith(f"{rid}: {rs.name}") or label.startswith(f"{rid}: {rs.short}"), label
        assert len(label) <= MENU_CHARS and not label.endswith(("...", "…")), label
        font = pygame.font.SysFont(None, 15)  # (the gui's default theme font size)
        assert font.size(label)[0] < 520 - 40, label


def test_f1_says_what_export_and_new_unit_do(tmp_path):
    shutil.copy(BUILTIN, tmp_path / "b.yaml")
    d = make_app(tmp_path / "b.yaml", clock=FakeClock(), out_dir=tmp_path / "o", recent_file=tmp_path / "r.json")
    text = d.help.text()
    assert "<b>Ctrl+E</b>: export the view as a PNG, SVG or PDF figure" in text
    u = next(ln for ln in text.split("<br>") if ln.startswith("<b>U</b>"))
    assert "troop type" in u and u.index("troop type") < u.index("base size"), u


def test_a_word_that_is_no_command_and_no_file_says_so(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "main.py"), "nosuchcmd"], capture_output=True, text=True,
                         timeout=60, cwd=tmp_path)
    assert out.returncode == 2, out
    line = out.stderr.strip()
    assert "nosuchcmd: no such command" in line and all(c in line for c in COMMANDS), line
    assert "cannot read the file" not in line
    missing = subprocess.run([sys.executable, str(ROOT / "main.py"), "missing.yaml", "--frames", "1"],
                             capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert missing.returncode == 2 and "missing.yaml" in missing.stderr and "no such command" not in missing.stderr
