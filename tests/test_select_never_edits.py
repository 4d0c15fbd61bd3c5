"""Selecting never edits: a click without a drag on a unit standing within the snap distance
(0.5 mm) of an enemy leaves it where it stands -- no move, no "Moved" text, the board clean,
and Ctrl+S writes the file as it was. Driven headless with synthetic events."""
from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from apputil import make_app

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def near_contact(tmp_path: Path, gap_mm: float) -> Path:
    """The goblins' front ``gap_mm`` short of the dwarfs' front (negative: overlapping)."""
    text = SCENARIO.read_text(encoding="utf-8")
    goblins = text.index("id: goblins")
    at = text.index("front: [640, 400]", goblins)
    text = text[:at] + f"front: [640, {400 - gap_mm:g}]" + text[at + len("front: [640, 400]"):]
    p = tmp_path / "near.yaml"
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("gap_mm", [0.5, 0.2, 0.01])
def test_a_click_without_drag_moves_nothing(tmp_path, gap_mm):
    path = near_contact(tmp_path, gap_mm)
    before = path.read_bytes()
    d = make_app(path, recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    unit0 = d.doc.board.unit("goblins")
    assert unit0.front[1] == pytest.approx(400 - gap_mm)
    d.table.set_tool("move")
    d.click(unit0.center())
    d.frame(5)
    assert d.table.selection == "goblins"
    assert d.doc.board.unit("goblins").pose_key() == unit0.pose_key()
    assert not d.doc.dirty
    assert "Moved" not in d.status.message and "selected" in d.status.message
    d.key(pygame.K_s, pygame.KMOD_CTRL)
    assert path.read_bytes() == before


def test_a_real_drag_still_snaps_flush(tmp_path):
    """The snap stays for a drag: a tray dragged and left 0.3 mm short is set flush."""
    path = near_contact(tmp_path, 5.0)
    d = make_app(path, recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    c = d.doc.board.unit("goblins").center()
    d.drag(c, (c[0], c[1] + 4.7), frames=120)
    assert d.doc.dirty
    assert d.doc.board.unit("goblins").front[1] == pytest.approx(400.0, abs=1e-6)
