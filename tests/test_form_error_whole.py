"""A dialog's refusal is shown whole: the Export dialog's sentence when the live page cannot be
written (the Pyodide runtime is missing) ends with what to do (`npm ci`), and it was cut at
90 characters in a one-line label, so the remedy never showed (trial 38b)."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402

from apputil import make_app  # noqa: E402
from game.core.paths import DEFAULT_SCENARIO  # noqa: E402


def test_the_export_dialog_shows_the_whole_refusal_with_its_remedy(tmp_path, monkeypatch):
    monkeypatch.setenv("MELEE_PYODIDE_DIR", str(tmp_path / "no_runtime"))
    app = make_app(DEFAULT_SCENARIO, recent_file=tmp_path / "recent.json", out_dir=tmp_path / "out")
    folder = tmp_path / "live_page"
    app.key(pygame.K_e, pygame.KMOD_CTRL)
    app.fill({"file": str(folder)})
    app.answer("Export")
    form = app.dialogs.top()
    assert form is not None and not folder.exists()
    shown = getattr(form.error, "html_text", None) or form.error.text  # what the dialog draws
    assert "Pyodide runtime is not installed" in shown and "npm ci" in shown
    assert shown[0].isupper()  # a sentence, as every other message of the window
