"""Typed ruleset parameters: raw YAML values checked against a frozen dataclass (the schema).

A strategy (and each ranked policy) declares the parameters it reads as a frozen dataclass.
Field types understood: ``int``, ``float`` (an int is accepted and converted), ``bool``,
``str``, ``Optional[T]`` (``null`` allowed), ``Union[A, B]`` (the first that fits),
``Literal[...]`` (an enum), ``tuple[T, ...]`` (a YAML list), ``Mapping[str, T]`` (a non-empty
YAML mapping) and a frozen dataclass (a mapping giving exactly its fields: a table row). A field may also carry ``metadata={"choices": callable}``: a ``str`` whose
allowed values the callable returns (the names of registered policies).

:func:`build` returns the schema instance or reports the first problem through ``fail(name,
message)``. Messages never quote more than :data:`SHOWN_CHARS` characters of a user's value.
No defaults: every field must be given.
"""
from __future__ import annotations

import collections.abc
import dataclasses
import typing
from typing import Any, Callable, Literal, NoReturn, Optional, Union

from game.core.record import Record
from game.core.validate import short  # bounded: shared (aliased) data is cut, never expanded

SHOWN_CHARS = 40


def shown(value: Any) -> str:
    """A user's value for an error message: its repr, cut to :data:`SHOWN_CHARS` characters."""
    text = short(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


_FIELDS: dict[type, dict[str, tuple[Any, dataclasses.Field]]] = {}


def fields_of(schema: type) -> dict[str, tuple[Any, dataclasses.Field]]:
    """``{name: (resolved type, field)}`` of a dataclass schema, in declaration order (a new
    dict; the types are resolved once per schema class: ``typing.get_type_hints`` evaluates
    every annotation, and loading the rulesets asks for the same schemas again and again)."""
    got = _FIELDS.get(schema)
    if got is None:
        hints = typing.get_type_hints(schema)
        got = _FIELDS[schema] = {f.name: (hints[f.name], f) for f in dataclasses.fields(schema)}
    return dict(got)


_MERGED: dict[tuple, type] = {}


def merge(name: str, schemas: list[type]) -> type:
    """One frozen dataclass (a :class:`~game.core.parts.Record`) holding the fields of every schema in ``schemas`` (a field may
    appear in several with the same type). Raises TypeError on a clash of types. The same
    ``name`` and schemas give the same class; its instances pickle (by the schemas they are
    merged from: the window's analysis worker gets the ruleset this way)."""
    key = (name, tuple(schemas))
    got = _MERGED.get(key)
    if got is None:
        got = _MERGED[key] = _merged(name, list(schemas))
    return got


def _rebuild(name: str, schemas: tuple, values: dict) -> Any:
    """A merged schema's instance, unpickled: :func:`merge` again (the same class), then its values."""
    return merge(name, list(schemas))(**values)


def _reduce(self: Any) -> tuple:
    cls = type(self)
    return _rebuild, (cls.__name__, cls.__merged_from__, {f.name: getattr(self, f.name) for f in dataclasses.fields(cls)})


def _merged(name: str, schemas: list[type]) -> type:
    seen: dict[str, tuple[Any, dataclasses.Field]] = {}
    for s in schemas:
        for fname, (tp, f) in fields_of(s).items():
            if fname in seen and seen[fname][0] != tp:
                raise TypeError(f"parameter {fname} declared as {seen[fname][0]} and {tp}")
            seen.setdefault(fname, (tp, f))
    # a frozen record (game.core.parts.record): only its __init__ is generated at start-up
    return dataclasses.make_dataclass(name, [(n, tp, dataclasses.field(metadata=f.metadata))
                                             for n, (tp, f) in seen.items()], bases=(Record,), eq=False, repr=False,
                                      namespace={"__merged_from__": tuple(schemas), "__reduce__": _reduce})


def describe(tp: Any) -> str:
    """What a value of type ``tp`` looks like, in words (for messages)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Union:
        inner = [a for a in args if a is not type(None)]
        return " or ".join(describe(a) for a in inner) + " or null"
    if origin is Literal:
        return "one of " + ", ".join(str(a) for a in args)
    if origin is tuple:
        return f"a list of {describe(args[0])}" if args else "a list"
    if origin in (dict, collections.abc.Mapping):
        return f"a mapping of names to {describe(args[1])}"
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return "{" + ", ".join(fields_of(tp)) + "}"
    return {int: "a whole number", float: "a number", bool: "true or false", str: "text"}.get(tp, str(tp))


def convert(tp: Any, value: Any, choices: Optional[Callable[[], list[str]]] = None) -> tuple[bool, Any, str]:
    """``(ok, converted value, message)`` for ``value`` read from YAML as type ``tp``."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Union:
        if value is None and type(None) in args:
            return True, None, ""
        inner = [a for a in args if a is not type(None)]
        first = ""
        for alt in inner:
            ok, v, msg = convert(alt, value, choices)
            if ok:
                return ok, v, msg
            first = first or msg
        return False, None, first if len(inner) == 1 else f"must be {describe(tp)} (got {shown(value)})"
    if value is None:
        return False, None, f"must be {describe(tp)} (got null)"
    if origin is Literal:
        if value in args and isinstance(value, type(args[args.index(value)])):
            return True, value, ""
        return False, None, f"must be {describe(tp)} (got {shown(value)})"
    if origin in (dict, collections.abc.Mapping):
        if not isinstance(value, dict) or not value:
            return False, None, f"must be {describe(tp)} (got {shown(value)})"
        out_map = {}
        for k, item in value.items():
            if not isinstance(k, str):
                return False, None, f"keys must be text (got {shown(k)})"
            ok, v, msg = convert(args[1], item)
            if not ok:
                return False, None, f"{k}: {msg}"
            out_map[k] = v
        return True, out_map, ""
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        want = fields_of(tp)
        if not isinstance(value, dict) or set(value) != set(want):
            return False, None, f"must give exactly {', '.join(want)} (got {shown(value)})"
        kw = {}
        for name, (ftp, f) in want.items():
            ok, v, msg = convert(ftp, value[name], f.metadata.get("choices"))
            if not ok:
                return False, None, f"{name}: {msg}"
            kw[name] = v
        return True, tp(**kw), ""
    if origin is tuple:
        if not isinstance(value, list):
            return False, None, f"must be {describe(tp)} (got {shown(value)})"
        out = []
        for i, item in enumerate(value):
            ok, v, msg = convert(args[0], item)
            if not ok:
                return False, None, f"item {i + 1}: {msg}"
            out.append(v)
        return True, tuple(out), ""
    if tp is bool:
        return (True, value, "") if isinstance(value, bool) else (False, None, f"must be true or false (got {shown(value)})")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return True, value, ""
        return False, None, f"must be a whole number (got {shown(value)})"
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value == value and abs(value) != float("inf"):
            return True, float(value), ""
        return False, None, f"must be a number (got {shown(value)})"
    if tp is str:
        if not isinstance(value, str):
            return False, None, f"must be text (got {shown(value)})"
        if choices is not None:
            allowed = choices()
            if value not in allowed:
                return False, None, f"must be one of {', '.join(allowed)} (got {shown(value)})"
        return True, value, ""
    raise TypeError(f"unsupported parameter type {tp!r}")


def build(schema: type, values: dict[str, Any], fail: Callable[[str, str], NoReturn]) -> Any:
    """An instance of ``schema`` from ``values``; ``fail(name, message)`` is called (and must
    raise) for a missing, wrongly typed or bad enum value. Unknown names are the caller's
    business (see :func:`unknown`)."""
    kw = {}
    for name, (tp, f) in fields_of(schema).items():
        if name not in values:
            fail(name, f"missing: this ruleset's engine needs it ({describe(tp)})")
        ok, v, msg = convert(tp, values[name], f.metadata.get("choices"))
        if not ok:
            fail(name, msg)
        kw[name] = v
    return schema(**kw)


def suggestion(name: str, known: list[str], cutoff: float = 0.6) -> str:
    """`` (did you mean x?)`` for a misspelt ``name``, else '' (no ``known`` name within
    :func:`difflib.get_close_matches`' ``cutoff``, 0 to 1). ``difflib`` is imported here, for
    an error message, not by every command that loads a ruleset."""
    import difflib

    close = difflib.get_close_matches(name, known, n=1, cutoff=cutoff)
    return f" (did you mean {close[0]}?)" if close else ""
