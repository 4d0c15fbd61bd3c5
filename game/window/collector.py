"""The garbage collector kept out of the frames the user acts in.

CPython's cyclic collector runs when enough objects were made since the last run; a full
collection walks every object alive, and a window holding a big table (models, caches, the
GUI) has hundreds of thousands: a pause of 100-200 ms in the middle of a drag, though it finds
no garbage. :class:`Collector` does instead:

* :meth:`loaded` (after a board is loaded or replaced): one collection, then ``gc.freeze()``,
  so everything alive then is never walked again;
* :meth:`frame` with ``active=True`` (an event, a drag, an animation): the automatic
  collector is held. What piles up meanwhile is only what is still alive (objects freed by
  reference counting leave the young generation at once; the caches are bounded), so it stays
  bounded; as a safety valve, once more than :attr:`young_limit` objects are young (cyclic
  garbage after all), the youngest generation is collected;
* :meth:`frame` with ``active=False`` (the window is idle): if it was held, one collection of
  what the activity left, a new freeze, and the automatic collector back on.

Counts frames, never reads a clock. One collector serves the process (:data:`COLLECTOR`: the
garbage collector is one); ``gc_module`` is injectable for tests. A board of fewer than
:data:`FREEZE_FROM_MODELS` models is not worth a collection at load (small heaps pause little).
"""
from __future__ import annotations

import gc as _gc
from typing import Any

FREEZE_FROM_MODELS = 300


class Collector:
    """See the module doc. ``young_limit``: young objects (``gc.get_count()[0]``) beyond which
    the youngest generation is collected even while the collector is held."""

    def __init__(self, gc_module: Any = _gc, young_limit: int = 400_000) -> None:
        self.gc = gc_module
        self.young_limit = max(1, int(young_limit))
        self.held = False

    def loaded(self, models: int = FREEZE_FROM_MODELS) -> None:
        """A board of ``models`` models was loaded: collect once and freeze what is alive (not
        for a small board)."""
        if models >= FREEZE_FROM_MODELS:
            self.gc.collect()
            self.gc.freeze()

    def frame(self, active: bool) -> None:
        """Called once a frame: ``active`` when the user acts (or something animates)."""
        if active:
            if not self.held:
                self.gc.disable()
                self.held = True
            if self.gc.get_count()[0] > self.young_limit:
                self.gc.collect(0)
            return
        if self.held:
            self.gc.collect()
            self.gc.freeze()
            self.gc.enable()
            self.held = False

    def release(self) -> None:
        """The window closes: the automatic collector back on."""
        if self.held:
            self.gc.enable()
            self.held = False


#: the process's collector (the window loop's; tests release it after each test)
COLLECTOR = Collector()
