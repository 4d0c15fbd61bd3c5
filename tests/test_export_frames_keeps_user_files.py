"""``demo_view.export_frames`` itself (not only the command line's check before it) never
replaces a step file it did not write: a user's own ``step_01.png`` in the folder, or one of
its own changed since, stops the export with ``FileExistsError`` naming it before anything is
written; its own unchanged steps are replaced."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.core.demo import build_steps, load_demo
from game.window.demo_view import export_frames

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "assets" / "demos" / "slots_large_model.yaml"


def steps():
    return build_steps(load_demo(DEMO))[:2]


def test_a_users_own_step_file_is_never_replaced(tmp_path):
    out = tmp_path / "frames"
    out.mkdir()
    mine = out / "step_02.png"
    mine.write_bytes(b"my own picture")
    with pytest.raises(FileExistsError) as e:
        export_frames(steps(), "slots", out, size=(320, 210))
    assert "step_02.png" in str(e.value)
    assert mine.read_bytes() == b"my own picture" and sorted(p.name for p in out.iterdir()) == ["step_02.png"]


def test_its_own_steps_are_replaced_and_a_changed_one_is_not(tmp_path):
    out = tmp_path / "frames"
    first = export_frames(steps(), "slots", out, size=(320, 210))
    again = export_frames(steps(), "slots", out, size=(320, 210))
    assert [p.name for p in again] == [p.name for p in first] == ["step_01.png", "step_02.png"]
    first[0].write_bytes(b"edited by the user")
    with pytest.raises(FileExistsError):
        export_frames(steps(), "slots", out, size=(320, 210))
    assert first[0].read_bytes() == b"edited by the user"
