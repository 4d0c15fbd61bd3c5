"""Moves, gap links, the strike order and engagements are typed parts of every analysis
(game/core/parts.py ``CORE_PARTS``), drawn through the drawer registry like the engines' parts.

* every analysis holds them (empty when nothing moved / fought across a gap), frozen;
* the JSON writes them under the contract's keys, in the contract's order, after ``models``;
* the scene draws a move (ghost, arrow) and a gap link only through the registered drawers:
  with the drawer taken out of the registry, nothing of it is drawn;
* the 40k parts are typed records, not plain dicts.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from game.core.analyse import analyse
from game.core.analysis import Analysis
from game.core.parts import CORE_PARTS, Engagements, GapLinks, Moves, StrikeOrder, StrikeStep
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render import drawers
from game.render.canvas import Canvas
from game.render.options import SceneOptions
from game.render.scene import draw_scene, fit_view

ROOT = Path(__file__).resolve().parents[1]
CLOSING = ROOT / "tests" / "golden" / "whfb8_closing_up.yaml"
GAP = ROOT / "tests" / "golden" / "whfb8_rear_gap.yaml"


def _analysed(path: Path):
    b = load_scenario(path)
    return b, analyse(b, load_ruleset(b.ruleset))


def test_every_analysis_holds_the_core_parts_frozen():
    a = Analysis(ruleset="x")
    assert [type(p) for p in a.parts][:4] == list(CORE_PARTS)
    assert a.moves == {} and a.gap_links == () and a.strike_order == () and a.engagements == ()
    a.moves = {"u.m1": [(0, 0), (10, 0)]}
    assert isinstance(a.part(Moves), Moves) and a.moves["u.m1"] == ((0, 0), (10, 0))
    with pytest.raises(TypeError):
        a.moves["u.m2"] = [(0, 0)]  # type: ignore[index]  # read-only: a new part is put instead
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.part(Moves).paths = {}  # type: ignore[misc,union-attr]
    a.strike_order = [{"step": 3, "label": "Initiative 3", "models": ["u.m1"]}]
    assert a.strike_order == (StrikeStep(3, "Initiative 3", ("u.m1",)),)


def test_json_keys_and_order_are_the_contracts():
    a = Analysis(ruleset="x")
    a.gap_links = [("a.m1", "b.m1")]
    a.add_moves({"a.m1": [(0.00041, 1), (2, 3)]})
    j = a.to_json()
    assert list(j)[:6] == ["ruleset", "models", "gap_links", "moves", "strike_order", "engagements"]
    assert j["gap_links"] == [["a.m1", "b.m1"]] and j["moves"] == {"a.m1": [[0.0, 1.0], [2.0, 3.0]]}


def test_a_copy_changes_without_touching_the_original():
    _, a = _analysed(CLOSING)
    assert a.moves
    b = a.replaced(moves={})
    assert b.moves == {} and a.moves and b.models == a.models


def _tags(board, analysis) -> set[str]:
    c = Canvas(1200, 800)
    o = SceneOptions()
    draw_scene(c, board, analysis, fit_view(1200, 800, board, o), options=o)
    return {str(k.get("tag")).split(":", 1)[0] for k in c.calls}


@pytest.mark.parametrize("path, kind, tags", [(CLOSING, Moves, {"move", "ghost"}), (GAP, GapLinks, {"gap"})])
def test_moves_and_gap_links_are_drawn_by_their_drawer(path, kind, tags, monkeypatch):
    board, a = _analysed(path)
    assert a.part(kind).to_json()  # the scenario has some
    assert tags <= _tags(board, a)
    monkeypatch.setitem(drawers._REGISTRY, kind, drawers.PartDrawer())  # no drawer: not drawn
    assert not tags & _tags(board, a)


def test_the_legend_rows_come_from_the_parts(monkeypatch):
    from game.render.drawn import drawn_models
    from game.render.legend import legend_items
    board, a = _analysed(CLOSING)
    texts = [it.text for it in legend_items(board, a, drawn_models(board, a), SceneOptions())]
    assert any(t.startswith("Moved by a rule, from its dotted outline") for t in texts)
    assert "Strike order" in texts
    monkeypatch.setitem(drawers._REGISTRY, Moves, drawers.PartDrawer())
    monkeypatch.setitem(drawers._REGISTRY, StrikeOrder, drawers.PartDrawer())
    texts = [it.text for it in legend_items(board, a, drawn_models(board, a), SceneOptions())]
    assert not any(t.startswith("Moved by a rule") for t in texts) and "Strike order" not in texts


def test_engagements_are_records():
    _, a = _analysed(GAP)
    assert a.engagements and all(type(e).__name__ == "Engagement" for e in a.engagements)
    assert isinstance(a.part(Engagements), Engagements)


def test_the_40k_parts_are_typed_records():
    from game.core.registry import strategy_of
    from game.engines.engagement_range.parts import (Consolidation, MoveStatus, MoveTargets, PileInTargets,
                                                     SelectedToFight, UnitTargets)
    board = load_scenario(ROOT / "tests" / "fixtures" / "wh40k_fight_phase.yaml")
    rs = load_ruleset(board.ruleset)
    seen = set()
    for s in strategy_of(rs).phase_steps(board, rs) or []:
        for p in s.analysis.parts:
            for f in dataclasses.fields(p):
                v = getattr(p, f.name)
                values = list(v.values()) if hasattr(v, "values") else (list(v) if isinstance(v, tuple) else [v])
                assert not any(isinstance(x, dict) for x in values), (type(p).__name__, f.name)
            seen.add(type(p))
    assert seen & {PileInTargets, MoveTargets, Consolidation, MoveStatus, SelectedToFight}
    assert issubclass(PileInTargets, UnitTargets)
