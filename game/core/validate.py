"""One validation layer for every file kind (scenarios, demos, books; rulesets may use it too).

A :class:`Checker` is a :class:`~game.core.yamlfile.Locator` with typed, bounded readers: each
returns the checked value or raises the file kind's error (a :class:`FileError` subclass)
naming the file, the line and the field. The bounds below are what a wargames table can
hold; they are documented for users in ``docs/FILES.md`` ("Limits").

No message formats an unbounded value: values are shown through :func:`short` (a few dozen
characters, nested containers cut at depth 2), so an alias bomb fails in one short line.
"""
from __future__ import annotations

import math
import re
import reprlib
import unicodedata
from typing import Any, Iterable, Optional

from game.core.paths import available
from game.core.yamlfile import Locator

#: Longest table side (mm): 10 m.
MAX_TABLE_MM = 10_000.0
#: Farthest any coordinate may lie from the table's origin (mm), on either axis: 20 m.
MAX_COORD_MM = 20_000.0
#: Largest base side or diameter (mm): 1 m.
MAX_BASE_MM = 1_000.0
#: Largest angle or distance given to a move or turn (degrees or mm).
MAX_ANGLE_DEG = 100_000.0
#: Models in one ranked unit / listed in one skirmish unit.
MAX_UNIT_MODELS = 10_000
#: Files (models in a full rank) of one ranked unit.
MAX_FILES = 1_000
#: Models in one file, all units together.
MAX_MODELS = 20_000
#: Units in one file.
MAX_UNITS = 1_000
#: Entries of any other list (keywords, empty slots, objectives, terrain pieces, points...).
MAX_LIST = 10_000
#: Longest name, id or keyword; longest title; longest caption or note (characters).
MAX_NAME, MAX_TITLE, MAX_CAPTION = 200, 500, 4_000
#: Largest magnitude of a profile characteristic.
MAX_CHARACTERISTIC = 1_000.0

ID_RE = re.compile(r"^[a-z0-9_]+$")
SCI_RE = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)[eE][-+]?\d+$")

_repr = reprlib.Repr()
_repr.maxlevel, _repr.maxlist, _repr.maxtuple, _repr.maxdict = 2, 4, 4, 4
_repr.maxset = _repr.maxfrozenset = _repr.maxdeque = _repr.maxarray = 4
_repr.maxstring, _repr.maxother, _repr.maxlong = 40, 40, 40


def short(v: Any) -> str:
    """A bounded ``repr`` of ``v`` for messages (at most about 120 characters, whatever ``v``
    holds; shared or deeply nested containers are cut, never expanded)."""
    try:
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10 ** 30:
            return "a very large number"
        s = _repr.repr(v)
    except Exception:  # noqa: BLE001 - a message must never fail
        s = f"<{type(v).__name__}>"
    s = "".join(ch if ch.isprintable() else "?" for ch in s)
    return s if len(s) <= 120 else s[:119] + "…"


#: Code points XML 1.0 forbids beyond the control characters and surrogates (its ``Char``
#: production): text holding one could not be written into an SVG or HTML figure.
NOT_XML = "\ufffe\uffff"


def text_problem(s: str, *, max_len: int = MAX_NAME, multiline: bool = False) -> Optional[str]:
    """Why ``s`` is not acceptable text (None if it is): too long, or holding a control character
    (newlines and tabs are allowed in ``multiline`` text such as captions) or a code point XML
    forbids (:data:`NOT_XML`, U+FFFE and U+FFFF), so every text the loaders accept can be
    written into a well-formed SVG."""
    if len(s) > max_len:
        return f"is too long ({len(s)} characters; at most {max_len})"
    for i, ch in enumerate(s):
        if multiline and ch in "\n\t":
            continue
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Cs") or ch in "\u2028\u2029":
            return f"holds a control character (U+{ord(ch):04X} at character {i + 1}); remove it"
        if ch in NOT_XML:
            return (f"holds U+{ord(ch):04X} at character {i + 1}, which is not a character (no SVG or "
                    "HTML figure may hold it); remove it")
    return None


def ruleset_id_problem(v: Any, shipped: Optional[Iterable[str]] = None) -> Optional[str]:
    """Why ``v`` is not the id of a shipped ruleset (None if it is). Ids are names from the
    registry (``game.core.paths.available()``), never paths."""
    if shipped is None:
        shipped = available()
    shipped = list(shipped)
    if isinstance(v, str) and ID_RE.match(v) and v in shipped:
        return None
    return f"must be one of the shipped rulesets: {', '.join(shipped)} (got {short(v)})"


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class Checker(Locator):
    """Typed, bounded readers over a file's data; every failure raises the locator's error."""

    def num(self, v: Any, path: tuple, *, lo: float = -MAX_COORD_MM, hi: float = MAX_COORD_MM,
            positive: bool = False, what: str = "a number") -> float:
        """A finite number in ``[lo, hi]`` (``> 0`` if ``positive``). YAML 1.1 reads ``1e3`` as
        text; such text is taken as the number it spells."""
        if isinstance(v, str) and len(v) < 40 and SCI_RE.match(v.strip()):
            v = float(v)
        if not is_number(v):
            self.fail(path, f"must be {what} (got {short(v)})")
        try:
            f = float(v)
        except OverflowError:
            f = math.inf
        if not math.isfinite(f):
            self.fail(path, f"must be {what}, finite (got {short(v)})")
        if positive and f <= 0:
            self.fail(path, f"must be greater than 0 (got {short(v)})")
        if not lo <= f <= hi:
            self.fail(path, f"must be from {lo:g} to {hi:g} (got {short(v)})")
        return f

    def int_(self, v: Any, path: tuple, lo: int = 1, hi: Optional[int] = None) -> int:
        """A whole number in ``[lo, hi]``."""
        if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            rng = f"from {lo} to {hi}" if hi is not None else f"{lo} or more"
            self.fail(path, f"must be a whole number {rng} (got {short(v)})")
        return v

    def text(self, v: Any, path: tuple, *, max_len: int = MAX_NAME, multiline: bool = False,
             numbers: bool = False, what: str = "text") -> str:
        """Text without control characters, at most ``max_len`` characters (a number is taken
        as its text when ``numbers``)."""
        if numbers and is_number(v) and (not isinstance(v, float) or math.isfinite(v)):
            v = str(v)
        if not isinstance(v, str):
            self.fail(path, f"must be {what} (got {short(v)})")
        why = text_problem(v, max_len=max_len, multiline=multiline)
        if why:
            self.fail(path, why)
        return v

    def ident(self, v: Any, path: tuple) -> str:
        """A unit id: lower-case letters, digits and ``_``."""
        if not isinstance(v, str) or not ID_RE.match(v) or len(v) > MAX_NAME:
            self.fail(path, f"must be lower-case letters, digits and _ (got {short(v)})")
        return v

    def enum(self, v: Any, path: tuple, choices: Iterable[str]) -> str:
        choices = list(choices)
        if not isinstance(v, str) or v not in choices:
            self.fail(path, f"must be one of {', '.join(choices)} (got {short(v)})")
        return v

    def mapping(self, v: Any, path: tuple, what: str) -> dict:
        if not isinstance(v, dict):
            self.fail(path, f"must be a mapping: {what} (got {short(v)})")
        return v

    def seq(self, v: Any, path: tuple, what: str, *, max_len: int = MAX_LIST) -> list:
        if not isinstance(v, list):
            self.fail(path, f"must be a list of {what} (got {short(v)})")
        if len(v) > max_len:
            self.fail(path, f"lists {len(v)} {what}; at most {max_len}")
        return v

    def point(self, v: Any, path: tuple) -> tuple[float, float]:
        """``[x, y]`` in table mm, each within ±:data:`MAX_COORD_MM`."""
        if not isinstance(v, (list, tuple)) or len(v) != 2:
            self.fail(path, f"must be a point [x, y] in mm (got {short(v)})")
        return (self.num(v[0], path + (0,)), self.num(v[1], path + (1,)))

    def size(self, v: Any, path: tuple, hi: float = MAX_BASE_MM) -> float:
        """A length greater than 0 and at most ``hi`` mm."""
        return self.num(v, path, lo=0.0, hi=hi, positive=True, what="a length in mm")

    def unit_ids(self, v: Any, path: tuple, known: set, what: str = "unit ids of this file") -> list[str]:
        """A list of unit ids, each one of ``known``."""
        if not isinstance(v, list):
            self.fail(path, f"must be a list of {what} (got {short(v)})")
        if len(v) > MAX_LIST:
            self.fail(path, f"lists {len(v)} entries; at most {MAX_LIST}")
        for i, x in enumerate(v):
            if not isinstance(x, str) or x not in known:
                self.fail(path + (i,), f"must be one of the {what} (got {short(x)})")
        return list(v)

    def unit_id(self, v: Any, path: tuple, known: set) -> str:
        if not isinstance(v, str) or v not in known:
            self.fail(path, f"must be the id of a unit of this file (got {short(v)})")
        return v

    def ruleset(self, v: Any, path: tuple) -> str:
        why = ruleset_id_problem(v)
        if why:
            self.fail(path, why)
        return v
