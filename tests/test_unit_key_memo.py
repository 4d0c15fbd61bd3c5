"""The rank-and-file unit keys (``incremental.unit_key``) with the non-pose part kept per unit
object: the key is always the one written out afresh, after any attribute is given a new value."""
from __future__ import annotations

from game.core.board import Unit
from game.engines.rank_and_file import incremental as inc


def fresh(u: Unit) -> str:
    return repr(u.pose_key()) + "|" + repr((u.player, u.profile, u.keywords, u.extra))


def test_unit_key_follows_new_player_profile_keywords_extra_and_copies():
    u = Unit(id="a", player=1, kind="ranked", base=(20.0, 20.0), facing_deg=0.0, files=5, count=10,
             front=(100.0, 100.0), name="a", profile={"initiative": 3})
    keys = [inc.unit_key(u)]
    assert keys[0] == fresh(u) and inc.unit_key(u) == keys[0]
    for change in (lambda: setattr(u, "profile", {"initiative": 4}), lambda: setattr(u, "player", 2),
                   lambda: setattr(u, "keywords", ["infantry"]), lambda: setattr(u, "extra", {"troop": "x"})):
        change()
        k = inc.unit_key(u)
        assert k == fresh(u) and k not in keys
        keys.append(k)
    v = u.translated(0, 0)
    v.profile["initiative"] = 7  # an edit: a deep copy changed before it is analysed
    assert inc.unit_key(v) == fresh(v) and inc.unit_key(u) == keys[-1]
