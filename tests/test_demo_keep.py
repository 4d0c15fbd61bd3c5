"""Saving an opened demo keeps what its author wrote (game/core/demo_keep.py through
game/window/recorder.py: Recording.save): a save with no change leaves the file byte for byte;
after a change the comments and the ``load: ../scenarios/...`` references stay (not inlined),
the text is patched in place, and the file still builds into the recorder's steps."""
from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from game.core.demo import build_steps, load_demo, parse_demo
from game.core.demo_writer import step_key
from game.core.savefile import same
from game.core.yamlpatch import patch_text
from game.window.recorder import Recording

ROOT = Path(__file__).resolve().parents[1]
DEMOS = ROOT / "assets" / "demos"
NOTE = "# my own note about step two: keep me\n"


def _copy(tmp_path: Path, name: str, note: bool = True) -> Path:
    """The bundled demo ``name`` and the scenarios it loads, in ``tmp_path`` (demos/, scenarios/);
    a comment of the user's own is put before its second step."""
    shutil.copytree(ROOT / "assets" / "scenarios", tmp_path / "scenarios")
    (tmp_path / "demos").mkdir()
    p = tmp_path / "demos" / name
    text = (DEMOS / name).read_text(encoding="utf-8")
    if note:
        lines = text.splitlines(keepends=True)
        at = [i for i, ln in enumerate(lines) if ln.lstrip().startswith("- caption:")][1]
        text = "".join(lines[:at] + ["  " + NOTE] + lines[at:])
    p.write_text(text, encoding="utf-8")
    return p


def _changed_lines(a: str, b: str) -> list[str]:
    return [ln for ln in difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0)
            if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]


def _recorded_keys(r: Recording, path: Path) -> list:
    """What the recorder's steps show, as the recorder writes them afresh."""
    return [step_key(s) for s in build_steps(parse_demo(r.recorder.to_text(str(path)), str(path)))]


@pytest.mark.parametrize("name", sorted(p.name for p in DEMOS.glob("*.yaml")))
def test_a_save_with_no_change_leaves_the_file_byte_identical(tmp_path, name):
    p = _copy(tmp_path, name, note=name != "wh40k_fight_phase.yaml")
    before = p.read_bytes()
    r = Recording()
    r.open(str(p))
    assert "Saved the demo" in r.save(str(p))
    assert p.read_bytes() == before


def test_a_caption_edit_changes_only_that_line(tmp_path):
    p = _copy(tmp_path, "t9a_melee.yaml")
    before = p.read_text()
    r = Recording()
    r.open(str(p))
    r.index = 1
    r.update(r.make_step(r.steps[1].board, r.steps[1].board.ruleset, "A caption of my own.",
                         ring=" ".join(r.steps[1].highlight),
                         callouts="; ".join(f"{m}: {t}" for m, t in r.steps[1].notes), view=r.steps[1].view))
    r.save(str(p))
    after = p.read_text()
    assert _changed_lines(before, after) == [
        '-  - caption: "Restricted Attacks: a supporting attack is capped at the model\'s Height, so a 2nd-rank '
        'knight makes 2 attacks, not 3 (Restricted Attacks)."', '+  - caption: "A caption of my own."']
    assert not r.notes


def test_a_board_change_keeps_the_load_reference_and_the_comments(tmp_path):
    p = _copy(tmp_path, "t9a_melee.yaml")
    before = p.read_text()
    r = Recording()
    r.open(str(p))
    st = r.steps[0]
    board = st.board.copy()
    board = board.with_unit(board.units[0].translated(10.0, 0.0))
    r.index = 0
    r.update(r.make_step(board, board.ruleset, st.caption, callouts="; ".join(f"{m}: {t}" for m, t in st.notes),
                         view=st.view))
    r.save(str(p))
    after = p.read_text()
    assert after.count("load: ../scenarios/") == before.count("load: ../scenarios/")   # not inlined
    assert "\n          units:" not in after and "load:\n" not in after                   # no inline board
    assert NOTE.strip() in after and after.startswith(before.splitlines()[0])           # comments kept
    assert len(after) < len(before) + 400                                              # patched, not rewritten
    assert [step_key(s) for s in build_steps(load_demo(p))] == _recorded_keys(r, p)


def test_deleting_and_adding_steps_take_only_their_own_lines(tmp_path):
    p = _copy(tmp_path, "whfb8_close_combat.yaml")
    before = p.read_text()
    r = Recording()
    r.open(str(p))
    r.index = 2
    r.delete()
    r.save(str(p))
    mid = p.read_text()
    gone = _changed_lines(before, mid)
    assert gone and all(ln.startswith("-") for ln in gone) and len(gone) <= 6
    assert NOTE.strip() in mid
    assert [step_key(s) for s in build_steps(load_demo(p))] == _recorded_keys(r, p)
    r.index = 0
    r.add(r.make_step(r.steps[0].board, r.steps[0].board.ruleset, "A step of my own."))
    r.save(str(p))
    after = p.read_text()
    added = _changed_lines(mid, after)
    assert added and all(ln.startswith("+") for ln in added)
    lines = after.splitlines()
    assert lines.index("  " + NOTE.strip()) + 1 == next(i for i, ln in enumerate(lines)
                                                        if ln.startswith("  - caption:") and "Horde: the Dwarfs" in ln)
    assert [step_key(s) for s in build_steps(load_demo(p))] == _recorded_keys(r, p)


@pytest.mark.parametrize("name", ["slots_large_model.yaml", "tow_combat_round.yaml", "whfb8_close_combat.yaml"])
def test_every_edit_saves_what_the_recorder_shows(tmp_path, name):
    """Moves, deletions and board changes anywhere: the file saved builds into the recorder's
    steps (a step kept as written that no longer shows what it showed is written anew)."""
    p = _copy(tmp_path, name)
    r = Recording()
    r.open(str(p))
    n = len(r.steps)
    for k, edit in enumerate(("move", "board", "delete", "move")):
        r.index = (3 * k + 1) % len(r.steps)
        if edit == "move":
            try:
                r.move(2 if r.index + 2 < len(r.steps) else -2)
            except ValueError:
                continue  # a move the demo refuses (a mark naming a unit not on that board)
        elif edit == "board":
            st = r.steps[r.index]
            b = st.board.copy()
            b = b.with_unit(b.units[-1].translated(0.0, -5.0))
            try:
                r.update(r.make_step(b, b.ruleset, st.caption, view=st.view))
            except ValueError:
                continue
        else:
            r.delete()
        r.save(str(p))
        assert [step_key(s) for s in build_steps(load_demo(p))] == _recorded_keys(r, p), (edit, r.notes)
    assert len(r.steps) < n + 1
    assert "load: ../scenarios/" in p.read_text()


def test_an_item_inserted_in_a_list_without_ids_takes_only_its_own_line():
    text = "steps:\n  # one\n  - a: 1\n  # two\n  - b: 2\n  - c: 3\n"
    base = {"steps": [{"a": 1}, {"b": 2}, {"c": 3}]}
    new = {"steps": [{"a": 1}, {"x": 9}, {"b": 2}, {"c": 3}]}
    out = patch_text(text, base, new, same)
    assert out == "steps:\n  # one\n  - a: 1\n  - {x: 9}\n  # two\n  - b: 2\n  - c: 3\n"
    gone = patch_text(text, base, {"steps": [{"a": 1}, {"c": 3}]}, same)
    assert gone == "steps:\n  # one\n  - a: 1\n  # two\n  - c: 3\n"


def test_a_step_after_a_new_board_loads_its_scene_by_reference(tmp_path):
    """A board of another scene inserted in the middle: the step after it must load its board
    again, and does so by its scene's file (``load: ../scenarios/...``), not inline."""
    p = _copy(tmp_path, "t9a_melee.yaml")
    before = p.read_text()
    r = Recording()
    r.open(str(p))
    other = r.steps[-1].board
    r.index = 0
    r.add(r.make_step(other, other.ruleset, "Another scene in between."))
    r.save(str(p))
    after = p.read_text()
    assert after.count("load: ../scenarios/t9a_knight_height2.yaml") == 2
    assert after.count("load:\n") == 1                     # only the step inserted has its board inline
    assert NOTE.strip() in after and after.startswith(before.splitlines()[0])
    assert [step_key(s) for s in build_steps(load_demo(p))] == _recorded_keys(r, p)


def test_a_demo_opened_and_saved_again_keeps_a_ringed_unit_as_one_id(tmp_path):
    """A step ringing ``[dwarfs]``, opened in the recorder and saved again, was written back
    as every model id of the unit (15 ids here), and showed them all in the Ring field."""
    import shutil
    from pathlib import Path

    from game.core.demo import build_steps, load_demo
    from game.core.demo_writer import recorder_from_demo

    src = Path(__file__).parent / "golden" / "whfb8_incomplete_rank_left_flank.yaml"
    shutil.copy(src, tmp_path / "board.yaml")
    demo = tmp_path / "d.yaml"
    demo.write_text("title: t\nsteps:\n  - caption: a\n    actions:\n      - load: board.yaml\n"
                    "      - highlight: [dwarfs]\n")
    d = load_demo(demo)
    rec = recorder_from_demo(d, build_steps(d))
    assert rec.steps[0].highlight == ["dwarfs"]
    assert "highlight: [dwarfs]" in rec.to_text(str(demo))
