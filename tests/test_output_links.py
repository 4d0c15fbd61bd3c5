"""Outputs never follow a link onto an existing file, and never replace a user's own file
unasked: ``render -o`` (png, svg, pdf, html), ``demo --gif / --html`` and each step file of
``demo --export`` refuse a link onto an existing file with exit 2 and one line (the check
render-book makes, :func:`game.core.atomic.refuse_link`); ``--export`` into a folder holding a
``step_01.png`` it did not write refuses, naming it; a failed write leaves no empty folder."""
from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

import main
from game.core import atomic

ROOT = Path(__file__).resolve().parents[1]
HORDE = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"
DEMO = ROOT / "assets" / "demos" / "t9a_melee.yaml"


def one_line(capsys, code: int, *words: str) -> str:
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err and "Traceback" not in err, err
    for w in words:
        assert w in err, err
    return err


@pytest.fixture
def victim(tmp_path):
    v = tmp_path / "victim.yaml"
    shutil.copy(HORDE, v)
    return v


@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf", ".html"])
def test_render_refuses_a_link_onto_another_file(tmp_path, capsys, victim, suffix):
    before = victim.read_bytes()
    link = tmp_path / f"fig{suffix}"
    link.symlink_to(victim)
    one_line(capsys, main.main(["render", str(HORDE), "-o", str(link), "--size", "200x150"]), "is a link to",
             str(victim))
    assert victim.read_bytes() == before and link.is_symlink()


@pytest.mark.parametrize("option,name", [("--gif", "d.gif"), ("--html", "d.html")])
def test_demo_outputs_refuse_a_link_onto_another_file(tmp_path, capsys, victim, option, name):
    before = victim.read_bytes()
    link = tmp_path / name
    link.symlink_to(victim)
    one_line(capsys, main.main(["demo", str(DEMO), option, str(link), "--size", "320x200"]), "is a link to")
    assert victim.read_bytes() == before


def test_export_refuses_a_step_file_linked_out_of_the_folder(tmp_path, capsys, victim):
    before = victim.read_bytes()
    out = tmp_path / "steps"
    out.mkdir()
    (out / "step_02.png").symlink_to(victim)
    one_line(capsys, main.main(["demo", str(DEMO), "--export", str(out), "--size", "320x200"]), "step_02.png",
             "is a link to")
    assert victim.read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["step_02.png"]  # nothing written


def test_export_never_replaces_a_users_own_step_file(tmp_path, capsys):
    out = tmp_path / "steps"
    out.mkdir()
    mine = out / "step_01.png"
    mine.write_bytes(b"my own picture")
    one_line(capsys, main.main(["demo", str(DEMO), "--export", str(out), "--size", "320x200"]), "step_01.png",
             "did not write")
    assert mine.read_bytes() == b"my own picture" and sorted(p.name for p in out.iterdir()) == ["step_01.png"]


def test_export_again_replaces_only_its_own_unchanged_steps(tmp_path, capsys):
    out = tmp_path / "steps"
    assert main.main(["demo", str(DEMO), "--export", str(out), "--size", "320x200"]) == 0
    steps = sorted(out.glob("step_*.png"))
    assert steps
    assert main.main(["demo", str(DEMO), "--export", str(out), "--size", "320x200"]) == 0  # its own: replaced
    capsys.readouterr()
    steps[0].write_bytes(b"edited by the user")
    one_line(capsys, main.main(["demo", str(DEMO), "--export", str(out), "--size", "320x200"]), steps[0].name)
    assert steps[0].read_bytes() == b"edited by the user"


def test_render_book_refuses_a_link_inside_the_folder_onto_a_file(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    precious = out / "precious.png"
    precious.write_bytes(b"keep me")
    (out / "f.png").symlink_to(precious)
    shutil.copy(HORDE, tmp_path / "s.yaml")
    book = tmp_path / "b.yaml"
    book.write_text("figures:\n  - {scenario: s.yaml, output: f.png}\n")
    one_line(capsys, main.main(["render-book", str(book), "-o", str(out), "--quiet"]), "figures[0]")
    assert precious.read_bytes() == b"keep me"


def test_a_failed_write_leaves_no_empty_folder(tmp_path, monkeypatch):
    real_fsync = os.fsync

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    target = tmp_path / "new" / "deeper" / "fig.png"
    with pytest.raises(OSError):
        atomic.write_atomic(target, b"x")
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(os, "fsync", real_fsync)


def test_a_failed_export_or_render_leaves_no_empty_folder(tmp_path, monkeypatch, capsys):
    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    assert main.main(["demo", str(DEMO), "--export", str(tmp_path / "a" / "steps"), "--size", "320x200"]) == 1
    assert main.main(["render", str(HORDE), "-o", str(tmp_path / "b" / "c" / "fig.png"), "--size", "200x150"]) == 1
    assert main.main(["demo", str(DEMO), "--gif", str(tmp_path / "g" / "d.gif"), "--size", "320x200"]) == 1
    err = capsys.readouterr().err
    assert "No space left" in err
    assert list(tmp_path.iterdir()) == []


def test_window_export_refuses_a_link_onto_another_file(tmp_path, victim):
    """The window's Export (Ctrl+E) too: the form says why, the linked file is as it was."""
    from apputil import make_app
    import pygame

    (tmp_path / "mine").mkdir()
    d = make_app(HORDE, copy_to=tmp_path / "mine", recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    before = victim.read_bytes()
    link = tmp_path / "fig.png"
    link.symlink_to(victim)
    d.key(pygame.K_e, pygame.KMOD_CTRL)
    d.fill({"file": str(link), "size": "300x200"})
    d.answer("Export")
    form = d.dialogs.top()
    assert form is not None and "is a link to" in form.error_text
    assert victim.read_bytes() == before and link.is_symlink()
