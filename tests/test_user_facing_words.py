"""Every sentence a user reads names models, never ids, and counts in words (issue 38, "Words").

Over every golden scenario (tests/golden) and every ruleset the window lets it use: the hover
lines of every model, the legend, every phase step's caption, legend and hovers, and the
``analyse`` summary hold no model id (``dwarfs.r1f4`` or ``dwarfs r1f4``, ``cultists.m3``),
no "(s)" plural, no count in brackets without its word (``knights (10)``), and none of the
fragments the review rewrote. The JSON keeps ids (shared/spec/scenario-format.md).
"""
from __future__ import annotations
import dataclasses

import re
from pathlib import Path

import pytest

from game.cli.analyse_cmd import _print_summary
from game.core.analyse import analyse
from game.core.registry import strategy_of
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.drawn import drawn_models
from game.render.legend import legend_items
from game.render.options import SceneOptions
from game.render.window_layers import hover_lines
from game.window.rulesystems import RuleSystems

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.yaml"))

MODEL_ID = re.compile(r"\b[A-Za-z_]\w*(\.| )(r\d+f\d+|m\d+)\b")  # dwarfs.r1f4, dwarfs r1f4, cultists.m3
BARE_COUNT = re.compile(r"\(\d+\)(,|$)")  # "knights (10)": a count that does not say of what
REMOVED = ("(s)", "fights through a facing supports go to", "Attacks into a Flank or Rear facing are",
           "Rule: Who Can Attack?.", "Rule: Which Models can Attack.. ")
STRIKE_OF = re.compile(r"\b\d+ of [A-Za-z_]\w* strike\b")  # "10 of knights strike"


def _texts(board, rs) -> list[tuple[str, str]]:
    """(where, text) of every sentence the window, figures and command line show for ``board``."""
    a = analyse(board, rs)
    out = [(f"hover {mid}", " | ".join(t for t, _ in hover_lines(board, a, mid))) for mid in a.models]
    out += [("legend", it.text) for it in legend_items(board, a, drawn_models(board, a), SceneOptions())]
    for i, st in enumerate(strategy_of(rs).phase_steps(board, rs) or []):
        cap, b, sa = st[0], st[1], st[2]
        out.append((f"step {i + 1} caption", cap))
        out += [(f"step {i + 1} legend", it.text) for it in legend_items(b, sa, drawn_models(b, sa), SceneOptions())]
        out += [(f"step {i + 1} hover {mid}", " | ".join(t for t, _ in hover_lines(b, sa, mid))) for mid in sa.models]
    return out


def _cases():
    rules = RuleSystems()
    for path in GOLDEN:
        board = load_scenario(path)
        for rid in rules.usable(board, board.ruleset):
            yield path, rid


CASES = list(_cases())


def unnamed(text: str, board) -> str:
    """``text`` with every unit name of ``board`` taken out (names are the user's words)."""
    for u in sorted(board.units, key=lambda u: -len(u.name or "")):
        if u.name:
            text = text.replace(u.name, "")
    return text


@pytest.mark.parametrize("path,rid", CASES, ids=[f"{p.stem}-{r}" for p, r in CASES])
def test_no_id_no_hedged_plural_no_removed_fragment(path, rid, capsys):
    board = load_scenario(path)
    board = dataclasses.replace(board, ruleset=rid)
    rs = load_ruleset(rid)
    texts = _texts(board, rs)
    _print_summary(board, analyse(board, rs), 0.0)
    texts += [("analyse summary", ln) for ln in capsys.readouterr().out.splitlines()[1:]]
    bad = []
    for where, text in texts:
        if MODEL_ID.search(text) or STRIKE_OF.search(text) or any(f in text for f in REMOVED):
            bad.append(f"{where}: {text}")
        elif where.endswith("legend") and BARE_COUNT.search(unnamed(text, board)):
            # (a unit's own name may hold a number in brackets: "Ogre Bulls (7)")
            bad.append(f"{where} (a count without its word): {text}")
    assert not bad, "\n".join(bad[:12])


def test_the_json_keeps_the_ids():
    board = load_scenario(Path(__file__).parent / "golden" / "whfb8_supporting_attacks.yaml")
    js = analyse(board, load_ruleset(board.ruleset)).to_json()
    assert any(re.fullmatch(r"\w+\.r\d+f\d+", m) for m in js["models"])
    assert any(re.search(r"\w+\.r\d+f\d+", r.get("why", "")) for r in js["models"].values())


def test_a_unit_called_by_an_english_word_is_not_read_into_every_sentence():
    """tests/golden/tow_press_of_battle.yaml has a unit with id ``a``: "fills a combat slot"
    must not become "fills Swordsmen (charged) combat slot"."""
    from game.core.names import humanize
    names = {"a": "Swordsmen (charged)", "orcs": "Orc Boyz"}
    text = "fills a combat slot beside a.r1f2; in base contact with a (front facing); no Press of Battle in a turn"
    assert humanize(text, names) == ("fills a combat slot beside Swordsmen (charged) (rank 1, file 2); in base contact "
                                     "with Swordsmen (charged) (front facing); no Press of Battle in a turn")
