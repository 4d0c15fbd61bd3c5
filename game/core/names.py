"""How a reader is told which unit or model is meant: by name, never by id.

Unit ids and model ids (``<unit id>.<slot>``: ``dwarfs.r2f3``, ``cultists.m4``) are the keys
of files and of the JSON; every text a person reads (hover text, captions, status lines,
legends, the command line's summary) names the unit instead: :func:`unit_names` gives the
names of a board's units, :func:`model_name` a model (``Dwarf Warriors (rank 2, file 3)``,
``Cultists (model 4)``) and :func:`humanize` rewrites an engine's text (its ``why`` lines,
strike-step labels, notes) with unit and model ids replaced by those names.
"""
from __future__ import annotations

import re
from itertools import groupby
from typing import Any, Callable, Iterable, Mapping

#: short English words an engine's sentence may hold, which a unit may also be called
WORDS = frozenset("a an the of in on at to by and or it its is as no not so with for from one two all any each "
                  "this that then than but if".split())
_RANKED_SLOT = re.compile(r"r(\d+)f(\d+)")
_SKIRMISH_SLOT = re.compile(r"m(\d+)")


def plural(n: int, word: str, words: str = "") -> str:
    """A count a reader reads: ``1 model``, ``10 models`` (``words``: the plural, when not
    ``word`` + ``s``)."""
    return f"{n} {word}" if n == 1 else f"{n} {words or word + 's'}"


def with_count(label: str, count: str) -> str:
    """``label`` with its ``count`` ("6 models") in brackets, or after a colon where the label
    already ends in brackets (never two brackets in a row: "... (Engagement Range): 6 models")."""
    return f"{label}: {count}" if label.endswith(")") else f"{label} ({count})"


def unit_names(board: Any) -> dict[str, str]:
    """Unit id -> the unit's name (its id when it has none), for every unit of ``board``."""
    return {u.id: (u.name or u.id) for u in board.units}


def slot_words(slot: str) -> str:
    """A model's place in its unit in words: ``r2f3`` -> ``rank 2, file 3``, ``m4`` ->
    ``model 4``; any other slot name as it is."""
    m = _RANKED_SLOT.fullmatch(slot)
    if m:
        return f"rank {m.group(1)}, file {m.group(2)}"
    m = _SKIRMISH_SLOT.fullmatch(slot)
    return f"model {m.group(1)}" if m else slot


def model_name(model_id: str, names: Mapping[str, str]) -> str:
    """A model as a reader sees it: its unit's name and its place in words
    (``Dwarf Warriors (rank 2, file 3)``, ``Cultists (model 4)``); a bare unit id: its name."""
    uid, _, slot = str(model_id).partition(".")
    name = names.get(uid, uid)
    return f"{name} ({slot_words(slot)})" if slot else name


def _place(slot: str) -> tuple[str, str]:
    """(group, member) of a slot for :func:`model_list`: ``r1f3`` -> ``("rank 1", "3")``,
    ``m4`` -> ``("", "4")``, another slot -> ``(slot, "")``."""
    m = _RANKED_SLOT.fullmatch(slot)
    if m:
        return f"rank {m.group(1)}", m.group(2)
    m = _SKIRMISH_SLOT.fullmatch(slot)
    return ("", m.group(1)) if m else (slot, "")


def model_list(model_ids: Iterable[str], names: Mapping[str, str], most: int = 6) -> str:
    """Up to ``most`` models by name, those of one unit and rank said once
    (``Goblins (rank 1, files 3, 4 and 5)``, ``Cultists (models 1 and 2)``), then ``+N more``."""
    ids = [str(m) for m in model_ids]
    out = []
    placed = [(uid, *_place(slot), slot) for uid, _, slot in (m.partition(".") for m in ids[:most])]
    for (uid, head), group in groupby(placed, key=lambda x: (x[0], x[1])):
        members = list(group)
        name = names.get(uid, uid)
        nums = [num for _, _, num, _ in members]
        if not nums[0]:  # another slot name, or a bare unit id
            out += [model_name(f"{uid}.{slot}", names) if slot else name for _, _, _, slot in members]
            continue
        listed = nums[0] if len(nums) == 1 else ", ".join(nums[:-1]) + " and " + nums[-1]
        if head:
            out.append(f"{name} ({head}, file{'s' if len(nums) > 1 else ''} {listed})")
        else:
            out.append(f"{name} (model{'s' if len(nums) > 1 else ''} {listed})")
    text = ", ".join(out)
    return text + (f" +{len(ids) - most} more" if len(ids) > most else "")


def _named_model(name: str) -> Callable[["re.Match[str]"], str]:
    """A replacement for ``re.sub``: ``<unit id>.<slot>`` -> ``<unit name> (<slot in words>)``."""
    return lambda m: f"{name} ({slot_words(m.group(1))})"


def _named_unit(name: str) -> Callable[["re.Match[str]"], str]:
    """A replacement for ``re.sub``: a bare unit id -> the unit's name."""
    return lambda m: name


def humanize(text: str, names: Mapping[str, str]) -> str:
    """``text`` from an engine with unit ids replaced by unit names (``names``: unit id ->
    name; ``dwarfs.r2f3`` -> ``Dwarfs (rank 2, file 3)``, a bare ``dwarfs`` -> ``Dwarfs``; a
    model id is replaced even when its unit has no name), longest id first; an id inside
    another word or id is left alone."""
    out = str(text)
    for uid, name in sorted(names.items(), key=lambda kv: -len(kv[0])):
        if not uid or uid not in out:  # (both patterns hold the id itself)
            continue
        out = re.sub(rf"(?<![\w.]){re.escape(uid)}\.(\w+)", _named_model(name), out)
        if name != uid:
            # a unit called by an English word ("a", "it") is that unit only where no word follows
            # ("with a (front facing)", not "fills a combat slot")
            tail = r"(?![\w.])(?!\s+[a-z])" if uid.lower() in WORDS else r"(?![\w.])"
            out = re.sub(rf"(?<![\w.]){re.escape(uid)}{tail}", _named_unit(name), out)
    return out
