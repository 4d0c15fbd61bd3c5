"""The rank-and-file unit keys (``incremental.unit_key``) with the non-pose part kept per unit
(a unit is a value): an edit makes a new unit whose key is the one written out afresh, and the
unit it was made from keeps its own."""
from __future__ import annotations

import dataclasses

from game.core.board import Unit
from game.engines.rank_and_file import incremental as inc


def fresh(u: Unit) -> str:
    return repr(u.pose_key()) + "|" + repr((u.player, u.profile, u.keywords, u.extra))


def test_unit_key_follows_new_player_profile_keywords_extra_and_copies():
    u = Unit(id="a", player=1, kind="ranked", base=(20.0, 20.0), facing_deg=0.0, files=5, count=10,
             front=(100.0, 100.0), name="a", profile={"initiative": 3})
    keys = [inc.unit_key(u)]
    assert keys[0] == fresh(u) and inc.unit_key(u) == keys[0]
    units = [u]
    for change in ({"profile": {"initiative": 4}}, {"player": 2}, {"keywords": ["infantry"]}, {"extra": {"troop": "x"}}):
        v = dataclasses.replace(units[-1], **change)
        k = inc.unit_key(v)
        assert k == fresh(v) and k not in keys
        keys.append(k)
        units.append(v)
    assert [inc.unit_key(x) for x in units] == keys  # each unit keeps its own key
    w = units[-1].translated(0, 0)
    assert inc.unit_key(w) == keys[-1] == fresh(w)
