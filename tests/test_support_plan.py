"""Supporting attacks read from a formation's plan equal those read from the models themselves.

``ranks_behind`` works out once per formation (its slots, support facings and supporting ranks)
where supports may come from (``policies._Plan``), when a unit's models are its own list
(:class:`game.core.board.Models`); any other list (models moved, copied) gets a plan made from
its models' own slots. On random boards (hordes and plain units of one formation side by side,
flank and rear contacts, removed models, whfb8 and t9a) the results of deciding each prepared
combat both ways must be the same, and equal a cold analysis.
"""
import copy
import dataclasses

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game.core import lru
from game.core.board import Board, Unit
from game.core.unit_models import Models
from game.core.ruleset import load_ruleset
from game.engines.rank_and_file import engine

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def board(n_pairs: int, files: int, count: int, horde: list[bool]) -> Board:
    w = files * 20
    units = []
    for i in range(n_pairs):
        units.append(Unit(id=f"a{i}", player=1, kind="ranked", base=(20, 20), files=files, count=count,
                          front=(100.0 + i * w + w / 2, 400.0), facing_deg=0.0,
                          keywords=["horde"] if horde[i % len(horde)] else [],
                          profile={"attacks": 2, "initiative": 3, "agility": 3, "height": 1}))
        units.append(Unit(id=f"b{i}", player=2, kind="ranked", base=(20, 20), files=files, count=count,
                          front=(100.0 + i * w + w, 400.0), facing_deg=180.0,
                          keywords=["horde"] if horde[(i + 1) % len(horde)] else [],
                          profile={"attacks": 3, "initiative": 4, "agility": 4}))
    return Board(units=units, ruleset="whfb8", table=(3000.0, 1200.0))


edit = st.tuples(st.sampled_from(["slide", "back", "flank", "rear", "remove", "empty"]), st.integers(0, 7),
                 st.sampled_from([-20.0, -10.0, 0.0, 10.0, 20.0]))


def apply(b: Board, e) -> Board:
    """``b`` with edit ``e`` made (a new board)."""
    kind, i, d = e
    u = b.units[i % len(b.units)]
    v = u
    if kind == "slide":
        v = u.translated(d, 0.0)
    elif kind == "back":
        v = u.translated(0.0, d)
    elif kind in ("flank", "rear"):
        other = b.units[(i + 3) % len(b.units)]
        if kind == "flank":
            v = dataclasses.replace(u, facing_deg=(other.facing_deg + 90.0) % 360.0,
                                    front=(other.front[0] + other.width_mm / 2 + u.depth_mm, other.front[1] + 20.0))
        else:  # into the other's rear, facing it
            back = other.depth_mm
            fx, fy = (0.0, -1.0) if other.facing_deg == 0.0 else (0.0, 1.0)
            v = dataclasses.replace(u, facing_deg=(other.facing_deg + 180.0) % 360.0,
                                    front=(other.front[0], other.front[1] - fy * back))
    elif kind == "remove":
        v = dataclasses.replace(u, count=max(1, u.count - 1 - int(abs(d)) % 4))
    elif kind == "empty":
        v = dataclasses.replace(u, empty=sorted(set(u.empty) | {f"r2f{1 + int(abs(d)) % max(1, u.files)}"}))
    return b.with_unit(v)


def decided(b: Board, rs, plain: bool) -> dict:
    c = engine.prepare(b, rs)
    if plain:  # the same models in plain lists: each plan made from the models
        c.models = {uid: list(ms) for uid, ms in c.models.items()}
    return engine.decide(c).to_json()


@SETTINGS
@given(st.sampled_from(["whfb8", "t9a"]), st.integers(1, 3), st.sampled_from([(10, 30), (10, 25), (5, 13)]),
       st.lists(st.booleans(), min_size=1, max_size=3), st.lists(edit, max_size=5))
@example("whfb8", 1, (10, 30), [True, False], [])  # a horde (3rd rank supports) facing a plain unit of one formation
@example("whfb8", 2, (10, 25), [True], [("rear", 1, 0.0), ("empty", 0, 3.0)])
def test_formation_plan_equals_the_plan_of_the_models(rid, n_pairs, fc, horde, edits):
    rs = load_ruleset(rid)
    b = board(n_pairs, fc[0], fc[1], horde)
    for e in [None] + edits:
        if e is not None:
            b = apply(b, e)
        own = decided(b, rs, plain=False)
        assert any(type(u.models()) is Models for u in b.units)
        assert own == decided(b, rs, plain=True)
        lru.clear_all()
        assert own == decided(copy.deepcopy(b), rs, plain=False)
