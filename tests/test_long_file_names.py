"""A file whose name is 242 to 255 bytes long (the most a file system allows) opens and is
saved: the atomic writer's temporary name (``.NAME.XXXXXXXX.tmp``, 14 bytes more) is
shortened to fit, keeping the suffix, so a killed writer's leftover is still recognised."""
from __future__ import annotations

import shutil
from pathlib import Path

import pygame
import pytest

from apputil import make_app
from game.core import atomic
from game.core.scenario import load_scenario
from game.window import recovery

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "assets" / "scenarios" / "dwarf_horde_vs_goblins.yaml"


def long_name(n_bytes: int, letter: str = "b") -> str:
    """A ``.yaml`` name of exactly ``n_bytes`` UTF-8 bytes."""
    body = n_bytes - len(".yaml")
    unit = len(letter.encode("utf-8"))
    name = letter * (body // unit) + "x" * (body % unit) + ".yaml"
    assert len(name.encode("utf-8")) == n_bytes
    return name


@pytest.mark.parametrize("n", [241, 242, 250, 255])
@pytest.mark.parametrize("letter", ["b", "\u00e9", "\u6f22"])
def test_ctrl_s_saves_a_file_of_a_long_name(tmp_path, n, letter):
    p = tmp_path / long_name(n, letter)
    shutil.copy(SCENARIO, p)
    d = make_app(p, recent_file=tmp_path / "r.json", out_dir=tmp_path / "rec")
    d.select("night_goblins")
    d.key(pygame.K_t)
    d.key(pygame.K_s, pygame.KMOD_CTRL)
    assert not d.doc.dirty, d.status.message
    want = d.doc.board.unit("night_goblins").facing_deg
    assert load_scenario(p).unit("night_goblins").facing_deg == want != 90
    assert sorted(x.name for x in tmp_path.iterdir() if x.name.endswith(".tmp")) == []


def test_the_shortened_temporary_name_fits_and_keeps_its_suffix():
    name = long_name(255)
    prefix = atomic.tmp_prefix(name)
    tmp = prefix + "abcdefgh" + ".tmp"
    assert len(tmp.encode("utf-8")) <= 255 and tmp.startswith(".bbb") and prefix.endswith(".yaml.")
    assert recovery._TMP.match(tmp)
    assert atomic.tmp_prefix("fig.png") == ".fig.png."
