"""×N attack badges only where they teach (issue 40): never ×1; ×N only on a model whose attacks
differ from its unit's usual for its role, or on every model making other than one attack when
the figure is about attacks (``count_all``, compare figures)."""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace as NS

from game.core.scenario import load_scenario
from game.render.attack_badges import badged
from game.render.figure import FigureOptions
from game.figures.figure_file import render_figure

ROOT = Path(__file__).resolve().parents[1]


def _m(mid, role, unit="u"):
    return NS(id=mid, role=role, unit=NS(id=unit))


def _a(**attacks):
    return NS(models={k.replace("_", "."): NS(attacks=v) for k, v in attacks.items()})


def test_a_block_of_twos_carries_no_badge_and_a_champion_does():
    models = [_m(f"u.r1f{i}", "attack") for i in range(1, 6)]
    a = _a(**{f"u_r1f{i}": 2 for i in range(1, 5)}, u_r1f5=3)
    assert badged(models, a) == {"u.r1f5": 3}


def test_never_x1_even_when_one_differs_from_the_usual_or_every_count_is_asked():
    models = [_m(f"u.r1f{i}", "attack") for i in range(1, 5)]
    a = _a(u_r1f1=2, u_r1f2=2, u_r1f3=2, u_r1f4=1)
    assert badged(models, a) == {}
    assert badged(models, a, every=True) == {"u.r1f1": 2, "u.r1f2": 2, "u.r1f3": 2}


def test_supporters_are_compared_with_supporters_and_non_fighters_never_badged():
    models = [_m("u.r1f1", "attack"), _m("u.r1f2", "attack"), _m("u.r2f1", "support"), _m("u.r3f1", "none")]
    a = _a(u_r1f1=2, u_r1f2=2, u_r2f1=1, u_r3f1=4)
    assert badged(models, a) == {}


def _svg_texts(path, **kw):
    b = load_scenario(ROOT / path)
    svg = render_figure(b, None, FigureOptions(size="180x120mm", dpi=100, format="svg", crop=True, **kw)).decode()
    return re.findall(r">([^<>]*)</text>", svg)


def test_the_old_world_figure_prints_no_x1_and_no_usual_x2():
    texts = _svg_texts("assets/scenarios/tow_round.yaml")
    assert not [t for t in texts if re.fullmatch(r"×\d+", t)]


def test_a_figure_about_attacks_badges_every_model_but_never_x1():
    texts = _svg_texts("assets/scenarios/tow_round.yaml", count_all=True)
    badges = [t for t in texts if re.fullmatch(r"×\d+", t)]
    assert badges and "×1" not in badges
