"""A combat round's step view counts what strikes at the step shown (issue 38, "Words").

At an Initiative (whfb8) or Agility (t9a) step the legend's fighting rows count the models
striking at that step, and say the step; the fighters of other steps, drawn faded, have a row
of their own; the strike order marks the step shown and says models, not a bare number.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.core.combat_round import round_phase_steps
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.drawn import drawn_models
from game.render.legend import legend_items
from game.render.options import SceneOptions

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"


def _count(text: str) -> int:
    m = re.search(r"\((\d+) models?\)$", text)
    assert m, text
    return int(m.group(1))


@pytest.mark.parametrize("name", ["t9a_knight_height2", "whfb8_initiative", "whfb8_equal_initiative"])
def test_each_strike_step_counts_its_own_strikers(name):
    board = load_scenario(GOLDEN / f"{name}.yaml")
    steps = [s for s in round_phase_steps(board, load_ruleset(board.ruleset)) if s.kind == "strike"]
    assert len(steps) >= 1
    for st in steps:
        texts = [it.text for it in legend_items(st.board, st.analysis, drawn_models(st.board, st.analysis),
                                                 SceneOptions())]
        drawn = drawn_models(st.board, st.analysis)
        striking = {dm.id for dm in drawn if dm.role in ("attack", "support") and dm.id not in st.dim}
        now = [t for t in texts if f" at {st.label}" in t and not t.startswith("Fights at another step")]
        assert now and sum(map(_count, now)) == len(striking), (st.label, texts)
        later = {dm.id for dm in drawn if dm.role in ("attack", "support") and dm.id in st.dim}
        faded = [t for t in texts if t.startswith("Fights at another step")]
        assert (faded and _count(faded[0]) == len(later)) if later else not faded, (st.label, texts)
        order = [t for t in texts if re.match(r"\d+\. ", t)]
        marked = [t for t in order if "(this step)" in t]
        assert len(marked) == 1 and marked[0].split(". ", 1)[1].startswith(st.label), order
        assert all(re.search(r"\(\d+ models?\)$", t) for t in order), order  # labelled counts


def test_the_caption_counts_strikers_in_plain_words():
    board = load_scenario(GOLDEN / "t9a_knight_height2.yaml")
    caps = [s.caption for s in round_phase_steps(board, load_ruleset("t9a")) if s.kind == "strike"]
    assert caps[0].startswith("Agility 4: 10 knights strike"), caps
    assert not any(re.search(r"\d+ of \w+ strike", c) for c in caps), caps
