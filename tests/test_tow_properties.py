"""Invariants of The Old World policy on generated boards (hypothesis, bounded examples):
turning or moving the table changes nothing (roles, attacks, targets, strike order, Rank
Bonus, fighting-rank counts); base contact is symmetric; supporters touch no enemy; a model
has one role; separate combats analysed apart equal the whole."""
import dataclasses
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core import geometry as gm
from game.core.analyse import analyse
from game.core.board import Board, Unit
from game.core.ruleset import load_ruleset
from game.engines.rank_and_file import engine as ranked

from test_properties import place, transformed

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TROOPS = ["regular_infantry", "heavy_infantry", "monstrous_infantry", "heavy_cavalry", "behemoth"]
WEAPONS = ["hand_weapon", "thrusting_spear", "throwing_spear", "great_weapon", "cavalry_spear"]


@st.composite
def tow_unit(draw, uid, player):
    base = draw(st.sampled_from([(20, 20), (25, 25), (25, 50), (40, 40), (50, 50)]))
    files = draw(st.integers(1, 8))
    profile = {"movement": draw(st.sampled_from([3, 4, 6, 8])), "initiative": draw(st.integers(1, 6)),
               "wounds": draw(st.integers(1, 6))}
    if draw(st.booleans()):
        profile["attacks"] = draw(st.integers(0, 3))
    else:
        profile["parts"] = [{"name": "rider", "attacks": draw(st.integers(1, 2)), "initiative": draw(st.integers(1, 6))},
                            {"name": "mount", "attacks": 1, "initiative": draw(st.integers(1, 6))}]
    return Unit(id=uid, player=player, kind="ranked", base=base, files=files,
                count=draw(st.integers(1, files * 4)), last_rank=draw(st.sampled_from(["left", "center", "right"])),
                profile=profile,
                keywords=draw(st.lists(st.sampled_from(["horde", "martial_prowess", "strike_first",
                                                        "fight_in_extra_rank"]), max_size=2, unique=True)),
                extra={"troop_type": draw(st.sampled_from(TROOPS)), "weapon": draw(st.sampled_from(WEAPONS))})


@st.composite
def tow_boards(draw):
    a = draw(tow_unit("alpha", 1))
    b = draw(tow_unit("beta", 2))
    a = dataclasses.replace(a, front=(600.0, 400.0), facing_deg=float(draw(st.sampled_from([0, 90, 180, 270, 15, 200]))))
    b = place(a, b, draw(st.sampled_from(["front", "left", "right", "rear", "apart"])), 5.0 * draw(st.integers(-12, 12)))
    units = [a, b]
    if draw(st.booleans()):
        c = draw(tow_unit("gamma", 2))
        c = place(a, c, draw(st.sampled_from(["left", "right", "rear"])), 5.0 * draw(st.integers(0, 8)))
        units.append(c)
    charged = draw(st.lists(st.sampled_from([u.id for u in units]), unique=True))
    context = {"charged": charged, "charge_moved": {u: draw(st.integers(0, 9)) for u in charged}}
    if charged and draw(st.booleans()):
        context["disordered"] = charged[:1]
    return Board(units=units, ruleset="tow", context=context)


def summary(board: Board) -> dict:
    res = analyse(board, load_ruleset("tow")).to_json()
    return {
        "roles": {k: (v["role"], v["attacks"], tuple(sorted(v["targets"])), tuple(sorted((v.get("parts") or {}).items())))
                  for k, v in res["models"].items()},
        "strike": [(s["step"], sorted(s["models"])) for s in res["strike_order"]],
        "rank_bonus": res["rank_bonus"], "frm": res["fighting_rank_models"],
    }


@SETTINGS
@given(tow_boards(), st.floats(0, 360), st.tuples(st.floats(-500, 1500), st.floats(-500, 1500)),
       st.tuples(st.floats(-300, 300), st.floats(-300, 300)))
def test_turning_or_moving_the_table_changes_nothing_under_tow(board, deg, pivot, shift):
    assert summary(transformed(board, deg, pivot, shift)) == summary(board)


@SETTINGS
@given(tow_boards())
def test_tow_contact_is_symmetric_and_roles_are_consistent(board):
    rs = load_ruleset("tow")
    res = analyse(board, rs)
    tol = rs.p("contact_tolerance_mm")
    shapes = {m.id: m for m in board.models()}
    owner = {m.id: board.unit(m.unit_id).player for m in shapes.values()}
    for mid, r in res.models.items():
        m = shapes[mid]
        touching = {o for o in shapes if owner[o] != owner[mid] and gm.within(m.shape, shapes[o].shape, tol)}
        total = sum(pt["attacks"] for pt in board.unit(m.unit_id).profile.get("parts") or
                    [{"attacks": board.unit(m.unit_id).profile.get("attacks", 1)}])
        if touching and total:
            assert r.role == "attack" and set(r.targets) == touching, mid
        if r.role == "support":
            assert not touching and r.attacks == 1 and r.targets
        if r.role == "none":
            assert r.attacks == 0 and not r.targets
        if r.role == "attack" and not touching:
            n_parts = len(board.unit(m.unit_id).profile.get("parts") or [None])
            assert r.attacks <= n_parts, f"{mid} fights without contact but makes {r.attacks} attacks"
    assert all(v >= 0 for v in res.to_json().get("rank_bonus", {}).values())


@SETTINGS
@given(tow_boards(), tow_boards())
def test_tow_separate_combats_analysed_apart_equal_the_whole(b1, b2):
    b2 = transformed(b2, 0.0, (0.0, 0.0), (3000.0, 0.0))
    b2 = b2.with_units(dataclasses.replace(u, id="far_" + u.id) for u in b2.units)
    ctx = {"charged": b1.context["charged"] + ["far_" + u for u in b2.context["charged"]],
           "charge_moved": {**b1.context["charge_moved"], **{"far_" + k: v for k, v in b2.context["charge_moved"].items()}}}
    board = Board(units=b1.units + b2.units, ruleset="tow", context=ctx)
    rs = load_ruleset("tow")
    split = analyse(board, rs).to_json()
    whole = ranked.analyse_combat(board, rs).to_json()
    assert split["models"] == whole["models"]
    assert [(s["step"], sorted(s["models"])) for s in split["strike_order"]] == \
        [(s["step"], sorted(s["models"])) for s in whole["strike_order"]]
    for key in ("rank_bonus", "fighting_rank_models"):
        assert split[key] == whole[key], key
