"""The one place that chooses how the rules core and the rank-and-file and slots engines do
their array work: numpy when it can be imported (the desktop: fast), else plain Python (a
browser page without numpy). ``MELEE_PURE_PYTHON=1`` in the environment forces plain Python.

``ops`` is the chosen module (:mod:`game.core.arrays_np` or :mod:`game.core.arrays_py`);
both offer the same functions with the same answers to the bit (the same floating-point
operations in the same order). A point set ("points") is an ``(n, 2)`` numpy array or a list
of ``(x, y)`` float tuples, in mm; callers hand them only to ``ops`` and read them with
``ops.rows``. An engine's own kernels come in the same pair of modules, ``NAME_np`` and
``NAME_py``, and are chosen the same way by :func:`twin`. Nothing else in those packages
imports numpy (a test greps for it).
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType


def _choose() -> ModuleType:
    """numpy's implementation unless numpy is missing or ``MELEE_PURE_PYTHON`` is set."""
    if not os.environ.get("MELEE_PURE_PYTHON"):
        try:
            return importlib.import_module("game.core.arrays_np")
        except ImportError:  # (numpy missing)
            pass
    return importlib.import_module("game.core.arrays_py")


ops: ModuleType = _choose()
#: True when ``ops`` is numpy's implementation.
USING_NUMPY: bool = ops.__name__.endswith("_np")


def twin(name: str) -> ModuleType:
    """The module ``name + "_np"`` when ``ops`` is numpy's, else ``name + "_py"`` (the same
    functions, the same answers to the bit): how an engine's own array kernels are chosen."""
    return importlib.import_module(name + ("_np" if USING_NUMPY else "_py"))
