"""The exact pile-in search is bounded by counted work, not time (found by the QA pass: wh40k
on a 19-model rank-and-file board searched for 16-40 s of CPU)."""
from pathlib import Path

from game.core import analyse as analysis
from game.engines.engagement_range import exact as wh40k_exact
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario

BOARD = Path(__file__).resolve().parents[1] / "assets" / "scenarios" / "whfb8_incomplete_rank_left_flank.yaml"


def test_exact_search_tries_a_bounded_number_of_spots(monkeypatch):
    calls = [0]
    real = wh40k_exact.sep_fn

    def counting(foot, clearance):
        sep = real(foot, clearance)

        def wrapped(a, b):
            calls[0] += 1
            return sep(a, b)
        return wrapped

    monkeypatch.setattr(wh40k_exact, "sep_fn", counting)
    board = load_scenario(str(BOARD))
    res = analysis.analyse(board, load_ruleset("wh40k"))
    assert res.models  # a full result, every model reported
    # each tried spot is tested against at most every other mover of the unit
    movers = max(len(u.models()) for u in board.units)
    assert calls[0] <= 2 * wh40k_exact.EXACT_TRIES[False] * movers


def test_same_board_same_ends():
    board = load_scenario(str(BOARD))
    a = analysis.analyse(board, load_ruleset("wh40k")).to_json()
    b = analysis.analyse(load_scenario(str(BOARD)), load_ruleset("wh40k")).to_json()
    assert a["moves"] == b["moves"]
