"""Frozen value types that cost little to define: :func:`record` and :class:`Record`.

A ``@dataclass(frozen=True)`` class gets six generated functions (``__init__``, ``__repr__``,
``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``), each compiled from source when the
class is defined, which was a tenth of a small command's start-up. A :func:`record` class
gets only its ``__init__``; the rest is :class:`Record`'s, written once. Equality, hashing,
``repr``, :func:`dataclasses.fields`, :func:`dataclasses.replace` and
:class:`dataclasses.FrozenInstanceError` on assignment are as for a frozen dataclass.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(eq_default=True, field_specifiers=(field,))
def record(cls: type[T]) -> type[T]:
    """A frozen dataclass made cheaply: ``dataclass(cls, eq=False, repr=False)`` (only its
    ``__init__`` is generated) over :class:`Record`, whose one ``__setattr__`` / ``__delattr__``
    (a field is set once, in ``__init__``; then :class:`dataclasses.FrozenInstanceError`),
    ``__eq__``, ``__hash__`` and ``__repr__`` serve every record and part. A ``frozen=True``
    dataclass generates six functions per class (about 2 ms each at start-up on this machine's
    Python, for the 40-odd part and record types a command loads); equality, hashing, ``repr``,
    :func:`dataclasses.fields` and :func:`dataclasses.replace` are as for a frozen dataclass."""
    return dataclass(cls, eq=False, repr=False)  # type: ignore[return-value]


_NAMES: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    got = _NAMES.get(cls)
    if got is None:
        got = _NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return got


class Record:
    """Base of :func:`record` classes: frozen after ``__init__``, compared, hashed and shown
    by their fields, as a ``frozen=True`` dataclass is."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self.__dict__:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def _values(self) -> tuple:
        return tuple(getattr(self, n) for n in _names(type(self)))

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in _names(type(self)))})"
