"""Strategy ``rank_and_file``: the ranked engine as a pipeline of named policies
(:mod:`.engine`, slots in :mod:`.policy`, built-in policies in :mod:`.policies`, gap geometry
in :mod:`.gaps`, The Old World's policies in :mod:`.tow`, imported when a ruleset chooses one of
them: :data:`.policy.LAZY`)."""
from game.engines.rank_and_file import policies as _policies  # noqa: F401  (registers policies)
from game.engines.rank_and_file.engine import STRATEGY

__all__ = ["STRATEGY"]
