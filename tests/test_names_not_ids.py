"""Names, not ids, in every text a user reads (issue 21 item 3): the hover text (window tooltip
and HTML page), the steps view's status lines and the command line's summary name units by
their names; the JSON keeps ids (shared/spec/scenario-format.md)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from game.core.analyse import analyse
from game.core.names import humanize, model_name, unit_names
from game.core.registry import strategy_of
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.window_layers import hover_lines

ROOT = Path(__file__).resolve().parents[1]
W40K = ROOT / "tests" / "fixtures" / "wh40k_fight_phase.yaml"


def _ids_in(text: str, board) -> list[str]:
    """Unit ids (alone or as ``<id>.<slot>``) standing in ``text`` as words (outside the names)."""
    for name in sorted((u.name for u in board.units if u.name), key=len, reverse=True):
        text = text.replace(name, "#")
    return [u.id for u in board.units if u.name and u.name != u.id
            and re.search(rf"(?<![\w.]){re.escape(u.id)}(?![\w])", text)]


def test_the_40k_hover_texts_name_units_at_every_step():
    board = load_scenario(W40K)
    rs = load_ruleset(board.ruleset)
    steps = strategy_of(rs).phase_steps(board, rs) or []
    assert len(steps) > 2
    seen = 0
    for st in [None] + steps:
        b, a = (board, analyse(board, rs)) if st is None else (board, st.analysis)
        for mid in a.models:
            text = " | ".join(t for t, _ in hover_lines(b, a, mid))
            assert not _ids_in(text, b), text
            seen += 1
    lines = [t for t, _ in hover_lines(board, steps[2].analysis, "assault_squad.m1")]
    assert lines[0] == "Red assault squad (B) (model 1)"
    assert any("Engagement Range" in t and "Blue Transport" in t for t in lines), lines
    assert seen > 20


def test_humanize_replaces_ids_only_as_words():
    names = {"a": "Alpha", "ab": "Alpha Beta"}
    assert humanize("a.m1 and ab, not cab or a2", names) == "Alpha (model 1) and Alpha Beta, not cab or a2"
    assert model_name("ab.r1f2", names) == "Alpha Beta (rank 1, file 2)" and model_name("zz.m1", names) == "zz (model 1)"
    assert unit_names(load_scenario(W40K))["monster"] == "Red Monster (A)"


def test_the_summary_names_units_and_lists_engagements():
    out = subprocess.run([sys.executable, str(ROOT / "main.py"), "analyse", str(W40K)], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr  # it raised on the engagement records before
    assert "Blue Transport is engaged with the front of Red Monster (A)" in out.stdout
    assert "strikes 1: Red Monster (A), Fights First: 1 model" in out.stdout
    assert not _ids_in(out.stdout.split("\n", 1)[1], load_scenario(W40K))


def test_analyse_compare_names_units_not_ids(capsys):
    """``analyse FILE --compare whfb8,tow`` printed 'ogres.r2f1' and 'across a gap with
    giant' where the file names the units 'Ogre Bulls (7)' and 'Giant'; the JSON keeps ids."""
    import json
    from pathlib import Path

    import main

    f = Path(__file__).resolve().parents[1] / "assets" / "scenarios" / "tow_vs_whfb8_rear_charge.yaml"
    assert main.main(["analyse", str(f), "--compare", "whfb8,tow"]) == 0
    out = capsys.readouterr().out
    assert "Ogre Bulls (7) (rank 2, file 1): fights with 3 attacks under whfb8" in out and "across a gap with Giant (rear" in out, out
    assert "ogres." not in out and " giant " not in out
    assert main.main(["analyse", str(f), "--compare", "whfb8,tow", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["differences"][0]["model"] == "ogres.r2f1"
