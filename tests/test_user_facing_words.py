"""Every sentence a user reads names models, never ids, and counts in words (issue 38, "Words").

Over every golden scenario (tests/golden), every bundled scenario and seed scenario
(assets/scenarios, assets/seeds) and every ruleset the window lets it use: the hover
lines of every model, the legend, every phase step's caption, legend and hovers, and the
``analyse`` summary hold no model id (``dwarfs.r1f4`` or ``dwarfs r1f4``, ``cultists.m3``),
no "(s)" plural, no count in brackets without its word (``knights (10)``), and none of the
fragments the review rewrote (a count after a bracket, "Movement 4.0" (Movement)"). Every
step of every bundled demo is read the same way. The JSON keeps ids (shared/spec/scenario-format.md).
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

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.yaml"))
BUNDLED = GOLDEN + sorted((ROOT / "assets" / "scenarios").glob("*.yaml")) + sorted(
    p for p in (ROOT / "assets" / "seeds").glob("*.yaml") if not p.stem.endswith("_demo"))
DEMOS = sorted((ROOT / "assets" / "demos").glob("*.yaml")) + sorted((ROOT / "assets" / "seeds").glob("*_demo.yaml"))

MODEL_ID = re.compile(r"\b[A-Za-z_]\w*(\.| )(r\d+f\d+|m\d+)\b")  # dwarfs.r1f4, dwarfs r1f4, cultists.m3
BARE_COUNT = re.compile(r"\(\d+\)(,|$)")  # "knights (10)": a count that does not say of what
REMOVED = ("(s)", "fights through a facing supports go to", "Attacks into a Flank or Rear facing are",
           "Rule: Who Can Attack?.", "Rule: Which Models can Attack.. ")
BRACKETS = re.compile(r"\) \(\d+ (models?|pairs?|units?)\b")  # "(in base contact or across a gap) (6 models)"
DOUBLED = re.compile(r"\b(\w+) [\d.]+\S* \(\1\)")  # 'Movement 4.0" (Movement)'
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
    for path in BUNDLED:
        board = load_scenario(path)
        for rid in rules.usable(board, board.ruleset):
            yield path, rid


CASES = list(_cases())


def _bad(where: str, text: str, board) -> str:
    """Why ``text`` (shown at ``where``) is wrong, or ""."""
    # (a unit's own name may end in brackets: "Orc Boyz (charged 4\") (5 models)" is its name and a count)
    if (MODEL_ID.search(text) or STRIKE_OF.search(text) or BRACKETS.search(unnamed(text, board))
            or DOUBLED.search(text) or any(f in text for f in REMOVED)):
        return f"{where}: {text}"
    if where.endswith("legend") and BARE_COUNT.search(unnamed(text, board)):
        # (a unit's own name may hold a number in brackets: "Ogre Bulls (7)")
        return f"{where} (a count without its word): {text}"
    return ""


def unnamed(text: str, board) -> str:
    """``text`` with every unit name of ``board`` taken out (names are the user's words)."""
    for u in sorted(board.units, key=lambda u: -len(u.name or "")):
        if u.name:
            text = text.replace(u.name, "")
    return text


@pytest.mark.parametrize("path,rid", CASES, ids=[f"{p.parent.name}/{p.stem}-{r}" for p, r in CASES])
def test_no_id_no_hedged_plural_no_removed_fragment(path, rid, capsys):
    board = load_scenario(path)
    board = dataclasses.replace(board, ruleset=rid)
    rs = load_ruleset(rid)
    texts = _texts(board, rs)
    _print_summary(board, analyse(board, rs), 0.0)
    texts += [("analyse summary", ln) for ln in capsys.readouterr().out.splitlines()[1:]]
    bad = [b for b in (_bad(where, text, board) for where, text in texts) if b]
    assert not bad, "\n".join(bad[:12])


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: p.stem)
def test_no_demo_step_shows_an_id_or_a_removed_fragment(path):
    from game.core.demo import build_steps, load_demo
    bad = []
    for i, st in enumerate(build_steps(load_demo(path))):
        b, a = st.board, st.analysis
        texts = [(f"step {i + 1} legend", it.text) for it in legend_items(b, a, drawn_models(b, a), SceneOptions())]
        texts += [(f"step {i + 1} hover {mid}", " | ".join(t for t, _ in hover_lines(b, a, mid))) for mid in a.models]
        bad += [x for x in (_bad(where, text, b) for where, text in texts) if x]
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
