"""The legend row of contacts over gaps counts what the window draws: as many arrows as
letters on the table (a slanted gap is arrowed at its two ends only, so 2 arrows stand for
more pairs of models), and its words refer to something ("a base", not "its base")."""
from __future__ import annotations

import re

import pytest

from tests.apputil import make_app
from pathlib import Path

GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("name", ["t9a_misaligned_no_cap.yaml", "t9a_gap_slanted_enemy.yaml", "whfb8_rear_gap.yaml"])
def test_the_gap_row_counts_the_letters_drawn(name):
    d = make_app(GOLDEN / name)
    c = d.recorded()
    legend = " ".join(x.args[1] for x in c.find("text", "legend"))
    assert "In contact across a gap: a base extended" in legend, legend
    assert "its base" not in legend
    m = re.search(r"\((\d+) arrows?\)", legend)
    assert m, legend
    letters = [x.args[1] for x in c.calls if x.name == "text" and re.fullmatch(r"[a-z]", str(x.args[1]))]
    assert int(m.group(1)) == len(letters) >= 2, (legend, letters)
