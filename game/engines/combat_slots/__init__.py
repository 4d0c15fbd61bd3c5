"""Strategy ``combat_slots``: combat-slot allocation (:mod:`.engine`, declared in :mod:`.strategy`)."""
from game.engines.combat_slots.strategy import STRATEGY

__all__ = ["STRATEGY"]
