"""The 40k Fight phase in words and marks: the strike order names each unit once and counts
models ("1. Red Monster (A), Fights First: 1 model"), a unit that made an emergency disembark
is not called embarked, and every model a fight destroys is drawn crossed out where it stood at
that step (a whole Transport or some of a unit's models alike)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from game.core.analyse import analyse
from game.core.parts import Removed
from game.core.registry import strategy_of
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.drawn import drawn_models
from game.render.legend import legend_items
from game.render.options import SceneOptions

ROOT = Path(__file__).resolve().parents[1]
WORKED = ROOT / "tests" / "fixtures" / "wh40k_fight_phase.yaml"
RS = load_ruleset("wh40k")


def legend_texts(board, a):
    return [it.text for it in legend_items(board, a, drawn_models(board, a), SceneOptions())]


def steps():
    b = load_scenario(WORKED)
    return strategy_of(RS).phase_steps(b, RS)


def test_the_strike_order_names_each_unit_once_and_counts_models():
    b = load_scenario(WORKED)
    texts = legend_texts(b, analyse(b, RS))
    assert "1. Red Monster (A), Fights First: 1 model" in texts
    assert "2. Red assault squad (B), Fights First, overrun fight: 2 models" in texts
    order = [t for t in texts if t[:2] in ("1.", "2.", "3.")]
    assert not any("1st" in t or t.count("Red Monster") > 1 for t in order)


def test_the_summary_names_each_unit_once():
    out = subprocess.run([sys.executable, str(ROOT / "main.py"), "analyse", str(WORKED)], capture_output=True,
                         text=True, timeout=120)
    lines = [ln for ln in out.stdout.splitlines() if "strikes" in ln]
    assert lines[0].strip() == "strikes 1: Red Monster (A), Fights First: 1 model"
    assert all(ln.count("Red Monster") <= 1 and ln.count("assault squad") <= 1 for ln in lines)


def test_a_disembarked_unit_is_not_called_embarked():
    for st in steps():
        caption, board, a = st[0], st[1], st[2]
        if "passengers" in {u.id for u in board.units} and "Blue passengers" in caption:
            assert "(embarked)" not in caption
            assert all("(embarked)" not in t for t in legend_texts(board, a))


def test_destroyed_models_are_crossed_out_at_the_step_that_destroys_them():
    seen = {}
    for st in steps():
        caption, board, a = st[0], st[1], st[2]
        if "destroying" not in caption:
            continue
        j = a.to_json()
        last = j["fight_sequence"][-1]  # the unit fighting at this step
        dead = set(j.get("destroyed_models") or []) | {m.id for u in last.get("destroys") or [] for m in board.unit(u).models()}
        assert dead, caption  # the models destroyed stand on this step's board ...
        removed = a.part(Removed)
        assert removed is not None and dead <= set(removed.models)  # ... crossed out
        assert dead <= {dm.id for dm in drawn_models(board, a)}  # ... and drawn, not vanished
        seen.update(dict.fromkeys(dead))
    assert {"transport.m1"} < set(seen) and sum(m.startswith("passengers.") for m in seen) == 2


def _strike_lines(board, analysis, visible):
    from game.render.drawn import drawn_models
    from game.render.legend import legend_items
    from game.render.options import SceneOptions

    items = legend_items(board, analysis, drawn_models(board, analysis), SceneOptions(visible=visible))
    start = [it.text for it in items].index("Strike order")
    out = []
    for it in items[start + 1:]:
        if it.kind == "heading":
            break
        if it.kind == "para":
            out.append(it.text)
    return out


def test_a_figure_lists_the_embarked_unit_in_its_strike_order_as_the_window_does():
    """40k worked example: the window's strike order has 3 entries, the figure's (which
    passes the ids inside the picture) had 2: the embarked passengers, never drawn, were
    taken for models cropped out. A model really cropped out still leaves the list."""
    from pathlib import Path

    from game.core.analyse import analyse
    from game.core.ruleset import load_ruleset
    from game.core.scenario import load_scenario
    from game.render.drawn import drawn_models

    board = load_scenario(Path(__file__).parent / "fixtures" / "wh40k_fight_phase.yaml")
    a = analyse(board, load_ruleset(board.ruleset))
    drawn = {dm.id for dm in drawn_models(board, a)}
    window = _strike_lines(board, a, None)
    assert len(window) == 3 and "Blue passengers" in window[2]
    assert _strike_lines(board, a, drawn) == window
    no_monster = {m for m in drawn if not m.startswith("monster.")}
    assert not any("Red Monster (A) (1)" in t for t in _strike_lines(board, a, no_monster))
