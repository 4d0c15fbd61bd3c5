"""Strategy ``engagement_range``: the Warhammer 40,000 fight phase (:mod:`.engine` the facade;
:mod:`.table`, :mod:`.geom`, :mod:`.spots`, :mod:`.solver`, :mod:`.exact`, :mod:`.moves`,
:mod:`.fight`, :mod:`.steps`)."""
from game.engines.engagement_range.strategy import STRATEGY

__all__ = ["STRATEGY"]
