"""A loaded ruleset as data: :class:`Ruleset` (its typed ``values``), each :class:`Param`
(value, rule, why, where it was set) and :class:`RulesetError`. Loading and checking are
:mod:`game.core.ruleset`'s job (which asks the registry for the strategy's schema); this
module imports neither, so the strategy protocol and the registry can name the type.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from game.core.record import Record, record
from game.core.measure import Measure
from game.core.yamlfile import FileError


class RulesetError(FileError):
    """A ruleset file that cannot be used: ``file``, ``line``, ``field`` (the key)."""

    @property
    def key(self) -> str:
        return self.field


@record
class Param(Record):
    """One ruleset parameter: its ``value``, the ``rule`` it implements and ``why`` in a line;
    ``file`` and ``line`` say where the value was set."""

    value: Any
    rule: str
    why: str
    file: str = ""
    line: Optional[int] = None


@record
class Ruleset(Record):
    """A loaded ruleset (frozen: the loader caches it and every analysis shares it): ``id``,
    display ``name``, engine ``strategy``, ``params`` as written (value, rule, why) and
    ``values``, the typed instance of the strategy's schema (a frozen dataclass).
    :func:`game.core.ruleset.with_values` makes a changed copy."""

    id: str
    name: str
    strategy: str
    params: dict[str, Param] = field(default_factory=dict)
    sources: list = field(default_factory=list)
    summary: str = ""
    values: Any = None
    inherits: Optional[str] = None
    file: str = ""
    measure: Measure = field(default_factory=Measure)
    short_name: str = ""

    @property
    def short(self) -> str:
        """The name figures use in sentences (``short_name``, else ``name``)."""
        return self.short_name or self.name

    def p(self, key: str) -> Any:
        """Typed value of parameter ``key`` (KeyError if the ruleset has no such parameter)."""
        if key not in self.params:
            raise KeyError(f"ruleset {self.id} has no parameter {key}")
        return getattr(self.values, key) if self.values is not None else self.params[key].value

    def rule(self, key: str) -> str:
        """Name of the rule a parameter implements (KeyError if there is no such parameter)."""
        return self.params[key].rule

    def why(self, key: str) -> str:
        return self.params[key].why
