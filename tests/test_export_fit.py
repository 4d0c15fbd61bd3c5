"""The window's Export says what `render` says (issue 40): a print size too small for the figure
is refused in the dialog with the line naming what does not fit and the smallest size that
would; no file is written and the form stays open."""
from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402

from apputil import make_app  # noqa: E402
from game.core.paths import DEFAULT_SCENARIO  # noqa: E402

CTRL = pygame.KMOD_CTRL


def test_export_refuses_a_figure_that_does_not_fit_in_its_dialog(tmp_path):
    app = make_app(DEFAULT_SCENARIO, recent_file=tmp_path / "recent.json", out_dir=tmp_path / "out")
    out = tmp_path / "fig.png"
    app.key(pygame.K_e, CTRL)
    app.fill({"file": str(out), "size": "10x10mm", "dpi": "150"})
    app.answer("Export")
    form = app.dialogs.top()
    assert form is not None and not out.exists() and "Exported" not in app.status.message
    text = form.error_text
    assert "does not fit 10x10mm" in text and "smallest size that holds it is" in text
    app.fill({"size": "180x120mm"})
    app.answer("Export")
    assert out.exists() and app.dialogs.top() is None and "Exported" in app.status.message
