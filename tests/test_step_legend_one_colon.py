"""A strike step's legend rows say the step once, inside the row's own words: "Fights at
Agility 3: in base contact or across a gap (9 models)", never two colons in a row as in
"At Agility 3: fights: in base contact ..." (trial 38b, the demo's step 3 and its HTML page)."""
from __future__ import annotations

from pathlib import Path

from game.core.combat_round import round_phase_steps
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.drawn import drawn_models
from game.render.legend import legend_items, role_rows

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"


def test_the_step_goes_into_the_row_s_words():
    rows = role_rows(None, {"attack": 9, "support": 9, "none": 22}, step="Agility 3")
    assert [r.text for r in rows] == ["Fights at Agility 3: in base contact or across a gap (9 models)",
                                      "Supporting attack at Agility 3 (9 models)", "Does not fight (22 models)"]


def test_a_bracketed_label_keeps_its_bracket_whole():
    class Words:
        role_labels = {"attack": "Fights (allocated: Combat Slots)"}

    rows = role_rows(Words(), {"attack": 6}, step="Initiative 5")  # type: ignore[arg-type]
    assert [r.text for r in rows] == ["Fights (allocated: Combat Slots) at Initiative 5 (6 models)"]


def test_no_step_row_of_a_golden_round_has_two_colons():
    from game.render.options import SceneOptions

    for name in ("t9a_knight_height2", "whfb8_initiative"):
        board = load_scenario(GOLDEN / f"{name}.yaml")
        for st in (s for s in round_phase_steps(board, load_ruleset(board.ruleset)) if s.kind == "strike"):
            texts = [it.text for it in legend_items(st.board, st.analysis, drawn_models(st.board, st.analysis),
                                                     SceneOptions()) if it.swatch.startswith("role:")]
            assert texts and not [t for t in texts if t.count(": ") > 1 and "(" not in t.split(": ")[0]], texts
            assert any(f" at {st.label}" in t for t in texts), texts
