"""A small bounded cache (least recently used first out) for the analysis caches.

Every cache in the rules core is one of these: a drag makes a new key every frame, so an
unbounded dict would grow until the garbage collector pauses, and a dict that empties itself
when full would make the next frame a cold analysis. An :class:`LRU` keeps the newest
``size`` entries and drops the oldest one at a time. :func:`clear_all` empties every cache
(tests and benchmarks use it to measure cold starts).
"""
from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any, Hashable

_ALL: "weakref.WeakSet[LRU]" = weakref.WeakSet()


class LRU:
    """Mapping of at most ``size`` entries; :meth:`get` refreshes an entry, :meth:`put`
    drops the least recently used entry when full. Not thread-safe (the window and the
    command line analyse on one thread)."""

    __slots__ = ("size", "_d", "hits", "misses", "__weakref__")

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("an LRU cache holds at least one entry")
        self.size = size
        self._d: OrderedDict = OrderedDict()
        self.hits = 0
        self.misses = 0
        _ALL.add(self)

    def get(self, key: Hashable, default: Any = None) -> Any:
        d = self._d
        try:
            v = d[key]
        except KeyError:
            self.misses += 1
            return default
        d.move_to_end(key)
        self.hits += 1
        return v

    def put(self, key: Hashable, value: Any) -> Any:
        d = self._d
        d[key] = value
        d.move_to_end(key)
        while len(d) > self.size:  # (the size may have been lowered since)
            d.popitem(last=False)
        return value

    def clear(self) -> None:
        self._d.clear()

    def __len__(self) -> int:
        return len(self._d)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._d


def clear_all() -> None:
    """Empty every :class:`LRU` (a cold start)."""
    for c in list(_ALL):
        c.clear()
