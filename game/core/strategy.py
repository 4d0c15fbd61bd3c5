"""The :class:`Strategy` protocol: what an engine offers the rest of the program.

A rule system is a ruleset file (data) naming a strategy; the strategy is the code. Everything
outside the engines asks the strategy (through :mod:`game.core.registry`) instead of naming a
rule system:

* ``params(raw)``: the frozen dataclass schema its parameters are checked against (it may
  depend on choices in the raw values, e.g. the ranked engine's policies);
* ``analyse(board, ruleset)``: the :class:`~game.core.analysis.Analysis`;
* ``legend(ruleset)``: the legend rows its analyses produce (:class:`Legend`), with labels
  built from the ruleset's values and rule names;
* ``phase_steps(board, ruleset)``: optional step-through of a phase (a list of
  :class:`PhaseStep`), or ``None`` when the strategy has none (``has_phase_steps`` says which
  without running it);
* ``usable_on(board)``: whether offering this strategy for ``board`` makes sense (capability);
  ``unusable_reason`` says why not, in a user's words (``unusable_short``: in a few words);
* ``profile_fields(ruleset)``: the profile values and unit keys its engine reads
  (:class:`ProfileField`), so an editor offers exactly those;
* ``steps_name``: what the phase step-through is called ("Fight phase");
* ``live_drag``: the engine re-analyses fast and incrementally enough to run on every frame of
  a drag (else the window analyses drag poses off the frame).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Optional, Protocol

from game.core.record import Record, record

if TYPE_CHECKING:  # pragma: no cover
    from game.core.analysis import Analysis
    from game.core.board import Board
    from game.core.ruleset_data import Ruleset


@record
class Legend(Record):
    """Legend rows an analysis produces.

    ``role_labels``: label of each role shown (``attack``, ``support``, ``none``; a role
    missing here is listed only when some model has it); ``rows``: optional rows listed even
    when empty (``gap_links``, ``moves``), so a reader learns the rule exists.
    """

    role_labels: Mapping[str, str] = field(default_factory=dict)
    rows: frozenset = frozenset()


@record
class ProfileField(Record):
    """One value an engine reads from a unit: ``key`` (profile key, or ``extra:<key>`` for a
    unit key beyond the contract), ``label``, ``kind`` (``int``, ``text``, ``parts``,
    ``keywords``, or ``choice`` with ``choices``), the ``default`` a new unit gets (None:
    unset) and ``read_also``: profile keys the engine reads in its place when ``key`` is
    unset, in order (an Initiative strike order reads Agility then), so a panel shows the
    value the engine uses."""

    key: str
    label: str
    kind: str = "int"
    default: Any = None
    choices: tuple = ()
    read_also: tuple = ()


@record
class PhaseStep(Record):
    """One step of a phase step-through: ``caption`` (our words), the ``board`` at that step
    and its ``analysis``. Optional marks: ``dim`` model ids drawn faded (not acting at this
    step), ``fallen`` model ids crossed out (casualties of the step); ``kind`` and ``label``
    name the step (a combat round: ``strike`` at "Initiative 5", ``remove``, ...). A step where
    a player chooses (``kind`` ``choose``) lists the unit ids that player could have chosen in
    ``choices``; the window saves a click on one of them as the board's
    ``context[choice_key]`` (a list of unit ids, earlier choices first) and steps again."""

    caption: str
    board: Any
    analysis: Any
    dim: tuple = ()
    fallen: tuple = ()
    kind: str = ""
    label: str = ""
    choices: tuple = ()
    choice_key: str = ""
    chosen_before: tuple = ()

    def __iter__(self) -> Iterator[Any]:  # (caption, board, analysis), as the step lists always unpacked
        return iter((self.caption, self.board, self.analysis))

    def __getitem__(self, i: int) -> Any:
        return (self.caption, self.board, self.analysis)[i]

    def __len__(self) -> int:
        return 3


class Strategy(Protocol):
    """An engine registered under ``name`` (see module docstring)."""

    name: str
    steps_name: str
    unusable_reason: str
    unusable_short: str
    live_drag: bool

    @property
    def has_phase_steps(self) -> bool: ...

    def params(self, raw: Mapping[str, Any]) -> type: ...

    def analyse(self, board: "Board", rs: "Ruleset") -> "Analysis": ...

    def legend(self, rs: "Ruleset") -> Legend: ...

    def phase_steps(self, board: "Board", rs: "Ruleset") -> Optional[list]: ...

    def usable_on(self, board: "Board") -> bool: ...

    def profile_fields(self, rs: "Ruleset") -> list: ...


@record
class Engine(Record):
    """A :class:`Strategy` made of functions (how the built-in engines declare themselves).

    ``schema``: the parameter dataclass, or ``schema_for(raw)`` when it depends on the raw
    values; ``steps``: the phase step-through function if any; ``ranked_units``: False when
    the engine should not be offered for boards with rank-and-file trays; ``live_drag``: the
    engine re-analyses fast and incrementally enough to run on every frame of a drag, so the
    window never pauses it however long one analysis took.
    """

    name: str
    run: Callable[..., Any]
    legend_of: Callable[[Any], Legend]
    schema: Optional[type] = None
    schema_for: Optional[Callable[[Mapping[str, Any]], type]] = None
    steps: Optional[Callable[..., list]] = None
    ranked_units: bool = True
    steps_name: str = ""
    unusable_reason: str = ""
    unusable_short: str = ""
    fields_of: Optional[Callable[[Any], list]] = None
    live_drag: bool = False

    def params(self, raw: Mapping[str, Any]) -> type:
        schema = self.schema_for(raw) if self.schema_for else self.schema
        if schema is None:
            raise TypeError(f"strategy {self.name} declares neither schema nor schema_for")
        return schema

    def analyse(self, board: "Board", rs: "Ruleset") -> "Analysis":
        return self.run(board, rs)

    def legend(self, rs: "Ruleset") -> Legend:
        return self.legend_of(rs)

    def phase_steps(self, board: "Board", rs: "Ruleset") -> Optional[list]:
        if self.steps is None:
            return None
        out = [s if isinstance(s, PhaseStep) else PhaseStep(*s) for s in self.steps(board, rs)]
        for s in out:
            if s.analysis.legend is None:
                s.analysis.legend = self.legend(rs)
        return out

    @property
    def has_phase_steps(self) -> bool:
        return self.steps is not None

    def usable_on(self, board: "Board") -> bool:
        return self.ranked_units or not any(u.is_ranked for u in board.units)

    def profile_fields(self, rs: "Ruleset") -> list:
        """Attacks, what ``fields_of`` adds, and keywords when a parameter names one."""
        out = [ProfileField("attacks", "Attacks", default=1)]
        out += list(self.fields_of(rs)) if self.fields_of else []
        if any(k.endswith("_keyword") and isinstance(rs.p(k), str) and rs.p(k) for k in rs.params):
            out.append(ProfileField("keywords", "Keywords", kind="keywords"))
        return out
