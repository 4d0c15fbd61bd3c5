"""Model results kept per unit, each :class:`~game.core.analysis.ModelResult` made when first read.

An analysis of 2000 models finds most of them doing nothing (``none``: no attacks, no targets,
at their own centre, one sentence saying why). Making a result object for each of them costs
more than deciding the few that fight, and every such object is one more for the collector to
walk and for a cache eviction to free. So the rank-and-file engine keeps each unit's results as
a :class:`UnitResults` (the unit's model ids and centres, the results made so far by index, and
the ``why`` of the models no policy touched), and the board's as a :class:`ModelResults`: a
mapping model id -> result over the units' mappings, in board order.

Both read as the plain ``dict`` they stand for (same keys in the same order, the same
:class:`~game.core.analysis.ModelResult` values, made once and then the same object on every
read). :class:`ModelResults` becomes a plain ``dict`` on its first change (``m[k] = v``, ``del``,
``update``) and on its first read of every value (``items()``, ``values()``): from then on it is
that dict (a change never reaches the units' mappings, which cached analyses share), and
after as many look-ups by model id as a quarter of its models (a reader going through every
model one by one is then answered by the dict).
"""
from __future__ import annotations

from itertools import chain
from typing import Any, Iterable, Iterator, Mapping, MutableMapping, Optional, Sequence

from game.core.analysis import ModelResult
from game.core.board import unit_of as _unit_of


class _Made(dict):
    """Index -> result made; an index not made reads (``[]``, never ``get``) as the shared
    untouched ``none`` result, to be read only."""

    __slots__ = ()

    def __missing__(self, i: int) -> ModelResult:
        return _UNTOUCHED


_UNTOUCHED = ModelResult("none", 0, ())  # (read only: never handed out as a model's result)


class UnitResults(Mapping[str, "ModelResult"]):
    """One unit's model results, model id -> result, in the order of ``ids`` (unique ids).

    ``ids`` and ``centers`` (table mm) are the unit's model columns (shared: never mutated);
    ``made``: index -> the result made so far (``made[i]`` of a model not made: a shared
    untouched result, to be read only); a model not in ``made`` is ``none`` with no
    attacks and no targets at its centre, its ``why`` in ``whys`` (index -> text) or else
    ``why``. Reading a model makes its result (kept: the same object on every read)."""

    __slots__ = ("ids", "centers", "made", "whys", "why", "_pos")

    def __init__(self, ids: Sequence[str], centers: Sequence[Any], pos: dict[str, int], why: str = "") -> None:
        self.ids = ids
        self.centers = centers
        self.made: dict[int, ModelResult] = _Made()
        self.whys: dict[int, str] = {}
        self.why = why
        self._pos = pos

    @staticmethod
    def of(ids: Sequence[str], centers: Sequence[Any]) -> Optional["UnitResults"]:
        """The results of models ``ids`` at ``centers`` before any policy touched them; None
        when two models share an id (a dict would keep one: the caller builds that dict)."""
        pos = dict(zip(ids, range(len(ids))))
        return UnitResults(ids, centers, pos) if len(pos) == len(ids) else None

    def at(self, i: int) -> "ModelResult":
        """The result of model ``i`` (by index), made now if no one asked for it before."""
        made = self.made
        r = made.get(i)
        if r is None:
            r = made[i] = ModelResult("none", 0, (), self.centers[i], self.whys.get(i, self.why))
        return r

    def set_why(self, indices: Sequence[int], why: str, index_set: Optional[frozenset] = None) -> None:
        """Each model of ``indices`` whose role is ``none`` is explained by ``why`` (the
        untouched ones' whys written at once; a made result's ``why`` only if it is ``none``).
        ``index_set``: the same indices as a set, when the caller keeps one."""
        made = self.made
        self.whys.update(dict.fromkeys(indices, why))  # (read only by a model made later)
        if made:
            for i in (index_set if index_set is not None else set(indices)).intersection(made):
                r = made[i]
                if r.role == "none":
                    r.why = why

    def fill_why(self, why: str) -> None:
        """``why`` for every ``none`` model not explained yet (empty ``why``)."""
        for r in self.made.values():
            if r.role == "none" and not r.why:
                r.why = why
        if not self.why:
            self.why = why
        for i, w in self.whys.items():
            if not w:
                self.whys[i] = why

    def moved(self, centers: Sequence[Any]) -> "UnitResults":
        """These results at the models' new ``centers`` (same ids, in order): each result made
        so far a new one there (its own parts dict; targets shared: never mutated in place), the
        untouched ones' whys as they are."""
        out = UnitResults(self.ids, centers, self._pos, self.why)
        out.whys = dict(self.whys)
        made = out.made
        for i, r in self.made.items():
            made[i] = ModelResult(r.role, r.attacks, r.targets, centers[i], r.why,
                                  None if r.parts is None else dict(r.parts))
        return out

    def striking(self) -> list[int]:
        """Indices (in order) of the models with attacks (only a made result has any)."""
        made = self.made
        return [i for i in sorted(made) if made[i].attacks > 0]

    def results(self) -> list["ModelResult"]:
        """Every model's result, in order (each made now if not yet)."""
        if len(self.made) < len(self.ids):
            at = self.at
            return [at(i) for i in range(len(self.ids))]
        return list(map(self.made.__getitem__, range(len(self.ids))))

    # -- the mapping ---------------------------------------------------------------------------
    def __getitem__(self, mid: str) -> "ModelResult":
        return self.at(self._pos[mid])

    def __iter__(self) -> Iterator[str]:
        return iter(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, mid: object) -> bool:
        return mid in self._pos

    def items(self) -> Any:
        return dict(zip(self.ids, self.results())).items()

    def values(self) -> Any:
        return self.results()


class ModelResults(MutableMapping[str, "ModelResult"]):
    """Model id -> result over units' mappings (unit id -> its models' results; each a
    :class:`UnitResults` or a dict keyed by that unit's model ids), in order: the dict they
    merge to, made only when every value is read or one changes (then this is that dict)."""

    __slots__ = ("_units", "_plain", "_left")

    def __init__(self, units: Optional[Mapping[str, Mapping[str, "ModelResult"]]] = None) -> None:
        self._units: dict[str, Mapping[str, ModelResult]] = dict(units) if units else {}
        self._plain: Optional[dict[str, ModelResult]] = None if units else {}
        self._left = -1  # look-ups by id left before this becomes its dict (-1: not counted yet)

    @staticmethod
    def merged(per_unit: Iterable[tuple[str, Optional[Mapping[str, "ModelResult"]]]]) -> "ModelResults":
        """The results of units in order (empty or None ones left out), each keyed by its own
        unit's model ids (``<unit>.<slot>``, as the engine groups them). A unit given twice makes
        the merge a plain dict at once (later values win, as ``dict.update`` does)."""
        units: dict[str, Mapping[str, ModelResult]] = {}
        plain = False
        seq = []
        for uid, m in per_unit:
            if not m:
                continue
            seq.append(m)
            if uid in units:
                plain = True
            units[uid] = m
        if plain:
            out = ModelResults()
            for m in seq:
                out._dict().update(m.items())
            return out
        return ModelResults(units) if units else ModelResults()

    def unit(self, uid: str) -> Optional[UnitResults]:
        """Unit ``uid``'s :class:`UnitResults` (None once this is a plain dict, or when that
        unit's results are a dict)."""
        if self._plain is not None:
            return None
        m = self._units.get(uid)
        return m if type(m) is UnitResults else None

    def units(self) -> Optional[dict[str, Mapping[str, "ModelResult"]]]:
        """Unit id -> its results mapping (read-only), or None once this is a plain dict."""
        return self._units if self._plain is None else None

    def _dict(self) -> dict[str, "ModelResult"]:
        d = self._plain
        if d is None:
            d = {}
            for m in self._units.values():
                if type(m) is UnitResults:
                    d.update(zip(m.ids, m.results()))
                else:
                    d.update(m)
            self._plain = d
            self._units = {}
        return d

    def fill_why(self, why: str) -> None:
        """``why`` for every ``none`` model with an empty ``why``."""
        if self._plain is not None:
            for r in self._plain.values():
                if r.role == "none" and not r.why:
                    r.why = why
            return
        for m in self._units.values():
            if type(m) is UnitResults:
                m.fill_why(why)
            else:
                for r in m.values():
                    if r.role == "none" and not r.why:
                        r.why = why

    # -- the mapping ---------------------------------------------------------------------------
    def __getitem__(self, mid: str) -> "ModelResult":
        d = self._plain
        if d is not None:
            return d[mid]
        left = self._left
        if left <= 0:
            if left == 0:  # (read model by model far and wide: the dict answers faster from now on)
                return self._dict()[mid]
            left = len(self) // 4 + 16
        self._left = left - 1
        m = self._units.get(_unit_of(mid)) if type(mid) is str else None
        if m is None:
            raise KeyError(mid)
        return m[mid]

    def get(self, mid: str, default: Any = None) -> Any:
        try:
            return self[mid]
        except KeyError:
            return default

    def __contains__(self, mid: object) -> bool:
        d = self._plain
        if d is not None:
            return mid in d
        m = self._units.get(_unit_of(mid)) if type(mid) is str else None
        return m is not None and mid in m

    def __iter__(self) -> Iterator[str]:
        d = self._plain
        return iter(d) if d is not None else chain.from_iterable(self._units.values())

    def __len__(self) -> int:
        d = self._plain
        return len(d) if d is not None else sum(map(len, self._units.values()))

    def __bool__(self) -> bool:
        return len(self) > 0

    def __setitem__(self, mid: str, r: "ModelResult") -> None:
        self._dict()[mid] = r

    def __delitem__(self, mid: str) -> None:
        del self._dict()[mid]

    def items(self) -> Any:
        return self._dict().items()

    def values(self) -> Any:
        return self._dict().values()

    def keys(self) -> Any:
        return self._dict().keys() if self._plain is not None else super().keys()

    def update(self, *args: Any, **kw: Any) -> None:  # type: ignore[override]
        self._dict().update(*args, **kw)

    def copy(self) -> "ModelResults":
        """A copy (the same results; changing the copy leaves this one as it is)."""
        out = ModelResults()
        if self._plain is not None:
            out._plain = dict(self._plain)
        else:
            out._units, out._plain = dict(self._units), None
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._dict() == (other._dict() if isinstance(other, ModelResults) else dict(other.items()))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._dict())

    def __reduce__(self) -> Any:
        return (_from_dict, (self._dict(),))


def _from_dict(d: dict) -> ModelResults:
    out = ModelResults()
    out._plain = dict(d)
    return out
