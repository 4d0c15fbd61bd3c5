"""The unit panel's heading (F2) is shown whole, never cut by its label: a long name with a
troop type drops the troop type (it has its own field) rather than losing letters."""
from __future__ import annotations

import warnings
from dataclasses import replace
from pathlib import Path

from tests.apputil import make_app

NARROW = Path(__file__).resolve().parent / "golden" / "tow_narrow_unit.yaml"
APART = Path(__file__).resolve().parent / "golden" / "whfb8_apart.yaml"


def _panel(tmp_path, path: Path, uid: str, change=None):
    d = make_app(path, copy_to=tmp_path)
    if change is not None:
        d.put_unit(change(d.doc.board.unit(uid)))
    d.table.select(uid)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        d.action("panel")
        d.frame()
    return d.panels.unit, [str(w.message) for w in seen if "too small for text" in str(w.message)]


def test_a_long_heading_is_shown_whole(tmp_path):
    p, cut = _panel(tmp_path, APART, "goblins", lambda u: replace(
        u, name="Guards, one rank of ten", extra={**u.extra, "troop_type": "regular_infantry"}))
    head = p.els["head"]
    assert not cut, cut
    assert head.font.size(head.text)[0] <= head.rect.width, head.text
    assert head.text == "Guards, one rank of ten: rank-and-file"


def test_a_short_heading_keeps_its_troop_type(tmp_path):
    p, cut = _panel(tmp_path, APART, "goblins", lambda u: replace(
        u, name="Orcs", extra={**u.extra, "troop_type": "heavy_infantry"}))
    assert not cut, cut
    assert p.els["head"].text == "Orcs: rank-and-file, heavy infantry"
