"""The window, the step views and their legends agree on what a step shows:

* the window and the step view say and draw the same of a moved model (the model where it
  ends, its start the dashed outline; "from its dotted outline" in both legends);
* a unit destroyed by a fight is crossed out and listed as destroyed, never drawn as a model
  that "Does not fight";
* a strike step shows what strikes at that step per model part, not the round's totals;
* no step label ("[Initiative 4]") in front of a demo caption;
* 40k step captions name units (no ids, no raw coordinates);
* every model the legend counts as ×N carries the ×N badge;
* the padlock is explained in the legend.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from game.core.analyse import analyse
from game.core.combat_round import Round, at_step
from game.core.demo import build_steps, load_demo
from game.core.parts import Locked, Removed
from game.core.registry import strategy_of
from game.core.ruleset import load_ruleset
from game.core.scenario import load_scenario
from game.render.canvas import Canvas
from game.render.legend import legend_items
from game.render.drawn import drawn_models
from game.render.options import SceneOptions
from game.render.scene import draw_scene, fit_view

ROOT = Path(__file__).resolve().parents[1]
SEED3 = ROOT / "tests" / "fixtures" / "wh40k_fight_phase.yaml"
DEMOS = sorted((ROOT / "assets" / "demos").glob("*.yaml"))


def _draw(board, analysis, size=(1200, 800), **kw):
    o = SceneOptions(counts=True, **kw)
    c = Canvas(*size)
    errors = draw_scene(c, board, analysis, fit_view(*size, board, o), options=o)
    assert errors == []
    return c, o


def _legend_texts(board, analysis, o):
    return [it.text for it in legend_items(board, analysis, drawn_models(board, analysis), o)]


def _seed3():
    b = load_scenario(SEED3)
    rs = load_ruleset(b.ruleset)
    return b, rs, strategy_of(rs).phase_steps(b, rs)


def _ghost_centre(c: Canvas, mid: str):
    (call,) = c.find("line", f"ghost:{mid}")
    pts = call.args[0]
    return (sum(p[0] for p in pts[:-1]) / (len(pts) - 1), sum(p[1] for p in pts[:-1]) / (len(pts) - 1))


def test_window_and_step_view_say_and_draw_the_same_of_a_moved_model():
    b, rs, steps = _seed3()
    window = analyse(b, rs)                      # the window: the board is not moved (a preview)
    step = steps[1]                              # the step view: player 1's pile-in, the board moved
    for board, a in ((b, window), (step.board, step.analysis)):
        mid, path = next((m, p) for m, p in a.moves.items() if len(p) >= 2)
        c, o = _draw(board, a)
        view = fit_view(1200, 800, board, o)
        start = view.to_px(path[0])
        gx, gy = _ghost_centre(c, mid)
        assert math.dist((gx, gy), start) < 2.0, "the dashed outline is where the model stood"
        drawn = next(d for d in drawn_models(board, a) if d.id == mid)
        assert math.dist(drawn.shape.center, path[-1]) < 0.5, "the model is drawn where it ends"
        texts = _legend_texts(board, a, o)
        assert any("from its dotted outline" in t for t in texts) and not any("to its dotted outline" in t for t in texts)


def test_a_destroyed_unit_is_crossed_out_not_drawn_as_not_fighting():
    b, rs, steps = _seed3()
    st = next(s for s in steps if "destroying Blue Transport" in s.caption)
    gone = st.analysis.part(Removed)
    assert gone is not None and "transport.m1" in gone.models
    c, o = _draw(st.board, st.analysis)
    assert c.find("line", "removed:transport.m1")
    texts = _legend_texts(st.board, st.analysis, o)
    assert any(t.startswith("Destroyed by Red Monster (A)'s fight: crossed out (1 model)") for t in texts)
    none_row = next((t for t in texts if t.startswith("Does not fight")), "")
    n_none = sum(1 for d in drawn_models(st.board, st.analysis) if d.role == "none" and d.id not in gone.models)
    assert (f"({n_none} model" in none_row) if n_none else not none_row
    # the window at the Fight step: the transport the Monster destroys before it fights
    bf = b.copy()
    bf.context["step"] = "fight"
    af = analyse(bf, rs)
    assert "transport.m1" in af.part(Removed).models
    assert any("crossed out" in t for t in _legend_texts(bf, af, SceneOptions()))


def _t9a_knight_steps():
    d = load_demo(ROOT / "assets" / "demos" / "t9a_melee.yaml")
    return [s for s in build_steps(d) if s.marks.strike.startswith("Agility")]


def test_a_strike_step_shows_what_strikes_at_it_per_model_part():
    steps = _t9a_knight_steps()
    assert steps, "the t9a demo steps through Agility Steps"
    seen = 0
    for s in steps:
        so = next(x for x in s.analysis.strike_order if str(x.label) == s.marks.strike)
        at_this: dict = {}
        for mp in so.parts or ():
            mid, part = mp.split("/", 1)
            at_this.setdefault(mid, set()).add(part)
        for mid, names in at_this.items():
            r = s.analysis.models[mid]
            assert set(r.parts or {}) == names, (s.marks.strike, mid, r.parts)  # only what strikes now
            assert r.attacks == sum(r.parts.values()), "attacks are the parts striking at this step"
            seen += 1
    assert seen


def test_at_step_keeps_models_whose_parts_all_strike_together():
    b = load_scenario(ROOT / "assets" / "scenarios" / "t9a_knight_height2.yaml")
    rs = load_ruleset(b.ruleset)
    rnd = Round(b, rs)
    st = rnd.strike()
    whole = rnd.analyse(b)
    step = next(x for x in whole.strike_order if x.label == st.label)
    again = at_step(whole, step)
    for mid in step.models:
        r, w = again.models[mid], whole.models[mid]
        if step.parts and any(p.startswith(mid + "/") for p in step.parts) and w.parts:
            names = [p.split("/", 1)[1] for p in step.parts if p.startswith(mid + "/")]
            assert r.attacks == sum(w.parts[n] for n in names)
        else:
            assert r == w
    assert whole.models == rnd.analyse(b).models  # at_step never changes the analysis it reads


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: p.stem)
def test_no_step_label_leaks_into_a_demo_caption(path):
    from game.render.demo_frames import step_marks

    for s in build_steps(load_demo(path)):
        cap = step_marks(s).caption
        assert not re.match(r"^\[[^\]]*\]", cap), cap
        if s.marks.strike:
            assert f"[{s.marks.strike}]" not in cap


def test_40k_step_captions_name_units_not_ids_or_coordinates():
    b, rs, steps = _seed3()
    ids = [u.id for u in b.units if u.name and u.name != u.id]
    names = sorted({u.name for u in b.units if u.name}, key=len, reverse=True)
    for s in steps:
        rest = s.caption
        for name in names:  # a name may hold its id as a word ("Blue passengers"): look past the names
            rest = rest.replace(name, "")
        for uid in ids:
            assert not re.search(rf"(?<![\w.]){re.escape(uid)}(?![\w.])", rest), (uid, s.caption)
        assert not re.search(r"\(\s*-?\d+(\.\d+)?,\s*-?\d+(\.\d+)?\s*\)", s.caption), s.caption


@pytest.mark.parametrize("scenario", ["assets/scenarios/wh40k_fight_phase.yaml", "tests/golden/whfb8_dividing_attacks.yaml",
                                      "tests/golden/t9a_knight_height2.yaml"])
def test_every_model_the_legend_counts_has_its_badge(scenario):
    b = load_scenario(ROOT / scenario)
    a = analyse(b, load_ruleset(b.ruleset))
    for size in ((1200, 800), (640, 420)):
        c, o = _draw(b, a, size=size)
        row = next((t for t in _legend_texts(b, a, o) if t.startswith("×N: makes N attacks")), None)
        n = int(re.search(r"\((\d+) models?\)$", row).group(1)) if row else 0  # no row: no badge (badges only where they teach)
        assert len({x.get("tag") for x in c.find("text", "count:")}) == n, (size, row)


def test_the_padlock_is_explained_in_the_legend():
    b, rs, steps = _seed3()
    a = analyse(b, rs)
    locked = a.part(Locked)
    assert locked is not None and locked.models
    c, o = _draw(b, a)
    drawn = {x.get("tag") for x in c.find("polygon", "locked:")}
    row = next(t for t in _legend_texts(b, a, o) if t.startswith("Padlock"))
    assert f"({len(drawn)} model" in row and "may not move" in row
