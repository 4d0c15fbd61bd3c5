"""What a fighter's explanation says matches what is computed (issue 38, "Words").

* Restricted Attacks (The Ninth Age, seed 001): a model whose enemies are all engaged with its
  own unit's Flank or Rear is capped at its Height and is told so; the enemy attacking into
  that flank keeps its attacks and is not told of a cap. The ruleset's words and
  docs/RULES.md say the same.
* "(touching at a corner counts)" is said only of a model whose base meets its enemies' only
  at a corner, also after a drag that keeps the same bases in contact (the analysis kept
  between frames must not keep old words).
"""
from __future__ import annotations

import copy
from pathlib import Path

import yaml

from game.core import geometry as g
from game.core import lru
from game.core.analyse import analyse
from game.core.board import Board, Unit
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
CORNER = "(touching at a corner counts)"


def _flank_board() -> Board:
    """Ogres (A3, Height 2) with Goblins (A3) in their left flank, the goblins' front engaged."""
    return Board(ruleset="t9a", units=[
        Unit(id="ogres", kind="ranked", name="Ogres", player=1, profile={"attacks": 3, "agility": 2, "height": 2}, base=(40.0, 40.0),
             files=3, count=3, front=(600.0, 400.0), facing_deg=0.0),
        Unit(id="goblins", kind="ranked", name="Goblins", player=2, profile={"attacks": 3, "agility": 3, "height": 1},
             base=(20.0, 20.0), files=2, count=6, front=(540.0, 420.0), facing_deg=90.0)])


def test_the_model_engaged_in_its_own_flank_is_capped_and_says_so():
    a = analyse(_flank_board(), load_ruleset("t9a"))
    assert {(e.unit, e.enemy, e.facing) for e in a.engagements} >= {("ogres", "goblins", "left")}
    ogre = a.models["ogres.r1f1"]
    assert ogre.role == "attack" and ogre.attacks == 2  # A3 capped at Height 2
    assert "engaged with its own unit's Flank or Rear" in ogre.why and "capped at Height 2" in ogre.why
    goblin = a.models["goblins.r1f1"]
    assert goblin.role == "attack" and goblin.attacks == 3  # attacking into the flank: not restricted
    assert "capped" not in goblin.why and "Restricted" not in goblin.why
    assert not any("Attacks into a Flank or Rear facing are" in r.why for r in a.models.values())


def test_the_ruleset_and_the_rules_page_say_who_is_capped():
    data = yaml.safe_load((ROOT / "rulesets" / "t9a.yaml").read_text())
    why = data["params"]["attack_cap"]["why"]
    assert "own Flank or Rear" in why and "keeps its attacks" in why
    assert "attacks into a Flank or Rear facing are" not in data["summary"]
    assert "attacker's own Flank or Rear" in data["summary"]
    page = (ROOT / "docs" / "RULES.md").read_text()
    assert why in page and "attacks into a Flank or\nRear" not in page
    assert "attacks into a Flank or Rear facing are capped" not in page


def _corner_only(board: Board, mid: str, targets, tol: float) -> bool:
    shapes = {m.id: m.shape for m in board.models()}
    return all(g.corner_touch(shapes[mid], shapes[t], tol) for t in targets)


def test_corner_words_only_where_the_bases_meet_at_a_corner():
    said = {True: 0, False: 0}
    for name in ("whfb8_corner_contact", "t9a_knight_height2", "whfb8_supporting_attacks", "whfb8_front_and_flank"):
        board = load_scenario(GOLDEN / f"{name}.yaml")
        rs = load_ruleset(board.ruleset)
        a = analyse(board, rs)
        linked = {m for pair in a.gap_links for m in pair}
        for mid, r in a.models.items():
            if r.role != "attack" or mid in linked or not r.why.startswith("Fights: in base contact"):
                continue
            corner = _corner_only(board, mid, r.targets, rs.p("contact_tolerance_mm"))
            assert (CORNER in r.why) == corner, (name, mid, r.why)
            said[corner] += 1
    assert said[True] and said[False]


def test_corner_touch():
    a = g.rect((0.0, 0.0), 20.0, 20.0, 0.0)
    assert not g.corner_touch(a, g.rect((20.0, 0.0), 20.0, 20.0, 0.0), 0.5)  # side by side
    assert g.corner_touch(a, g.rect((20.0, 20.0), 20.0, 20.0, 0.0), 0.5)  # corner to corner
    assert not g.corner_touch(a, g.rect((20.0, 15.0), 20.0, 20.0, 0.0), 0.5)  # 5 mm of edge
    assert g.corner_touch(a, g.rect((20.0, 19.8), 20.0, 20.0, 0.0), 0.5)  # 0.2 mm: within the tolerance
    assert not g.corner_touch(a, g.Circle((20.0, 0.0), 10.0), 0.5)  # a round base has no corner


def _line(x_mm: float) -> Board:
    """Dwarfs five wide; one goblin facing their front at ``x_mm`` (its centre), wolves at the
    other end (three units: the analysis kept between frames decides only what changed)."""
    def one(uid: str, x: float) -> Unit:
        return Unit(id=uid, kind="ranked", player=2, profile={"attacks": 1, "initiative": 2}, base=(20.0, 20.0),
                    files=1, count=1, front=(x, 400.0), facing_deg=180.0)
    return Board(ruleset="whfb8", units=[
        Unit(id="dwarfs", kind="ranked", player=1, profile={"attacks": 1, "initiative": 2}, base=(20.0, 20.0), files=5,
             count=10, front=(600.0, 400.0), facing_deg=0.0), one("goblins", x_mm), one("wolves", 560.0)])


def test_a_slide_from_edge_to_corner_contact_changes_the_words(monkeypatch):
    from game.engines.rank_and_file import engine
    rs = load_ruleset("whfb8")
    board = _line(655.0)  # the goblin overlaps the dwarfs' end file by 5 mm
    first = analyse(board, rs)  # every cache warm
    end = next(m for m, r in first.models.items() if m.startswith("dwarfs.") and "goblins" in " ".join(r.targets))
    assert CORNER not in first.models[end].why
    decided: list = []
    real = engine.decide
    monkeypatch.setattr(engine, "decide", lambda c: decided.append(c.only) or real(c))
    board = board.with_unit(board.unit("goblins").translated(5.0, 0.0))  # the same two bases touch, now at a corner
    warm = analyse(board, rs)
    assert decided and None not in decided  # (decided incrementally)
    assert warm.models[end].targets == first.models[end].targets and CORNER in warm.models[end].why
    assert CORNER in warm.models["goblins.r1f1"].why
    lru.clear_all()
    assert analyse(copy.deepcopy(board), rs).to_json() == warm.to_json()
    board = board.with_unit(board.unit("goblins").translated(-5.0, 0.0))  # 5 mm of edge again
    assert CORNER not in analyse(board, rs).models[end].why
