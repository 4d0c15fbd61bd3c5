"""How a reader is told which unit or model is meant: by name, never by id.

Unit ids and model ids (``<unit id>.<slot>``: ``dwarfs.r2f3``, ``cultists.m4``) are the keys
of files and of the JSON; every text a person reads (hover text, captions, status lines,
legends, the command line's summary) names the unit instead: :func:`unit_names` gives the
names of a board's units, :func:`model_name` a model (``Dwarf Warriors r2f3``) and
:func:`humanize` rewrites an engine's text (its ``why`` lines, strike-step labels, notes) with
unit and model ids replaced by those names.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping


def unit_names(board: Any) -> dict[str, str]:
    """Unit id -> the unit's name (its id when it has none), for every unit of ``board``."""
    return {u.id: (u.name or u.id) for u in board.units}


def model_name(model_id: str, names: Mapping[str, str]) -> str:
    """A model as a reader sees it: its unit's name and its slot (``Dwarf Warriors r2f3``)."""
    uid, _, slot = str(model_id).partition(".")
    name = names.get(uid, uid)
    return f"{name} {slot}" if slot else name


def model_list(model_ids: Iterable[str], names: Mapping[str, str], most: int = 6) -> str:
    """Up to ``most`` models by name, comma separated, then ``+N more``."""
    ids = list(model_ids)
    text = ", ".join(model_name(m, names) for m in ids[:most])
    return text + (f" +{len(ids) - most} more" if len(ids) > most else "")


def _named_model(name: str) -> Callable[["re.Match[str]"], str]:
    """A replacement for ``re.sub``: ``<unit id>.<slot>`` -> ``<unit name> <slot>``."""
    return lambda m: f"{name} {m.group(1)}"


def _named_unit(name: str) -> Callable[["re.Match[str]"], str]:
    """A replacement for ``re.sub``: a bare unit id -> the unit's name."""
    return lambda m: name


def humanize(text: str, names: Mapping[str, str]) -> str:
    """``text`` from an engine with unit ids replaced by unit names (``names``: unit id ->
    name; ``dwarfs.r2f3`` -> ``Dwarfs r2f3``, a bare ``dwarfs`` -> ``Dwarfs``), longest id
    first; an id inside another word or id is left alone."""
    out = str(text)
    for uid, name in sorted(names.items(), key=lambda kv: -len(kv[0])):
        if not uid or name == uid or uid not in out:  # (both patterns hold the id itself)
            continue
        out = re.sub(rf"(?<![\w.]){re.escape(uid)}\.(\w+)", _named_model(name), out)
        out = re.sub(rf"(?<![\w.]){re.escape(uid)}(?![\w.])", _named_unit(name), out)
    return out
