"""Reading the project's YAML files (scenarios, demos, books, rulesets) with errors that point at a line.

One place for what every loader needs:

* :func:`read_text` reads only a *regular* file of bounded size (a FIFO, a device such as
  ``/dev/zero`` or a folder fails at once, without blocking or filling memory);
* :func:`parse_yaml` parses the text ONCE with libyaml (``CSafeLoader`` when PyYAML was built
  with it, else ``SafeLoader``, composing from the events its size check scanned; safe tags
  only): it composes the node tree, keeps the line of every key and list item, and constructs
  the data from that same tree;
* :class:`FileError`, the error type that names the file, the 1-based line, the field path
  (``units[1].files``) and what is wrong; its message is one line and bounded in length
  whatever the file holds (values are shown through :func:`game.core.validate.short`).

A YAML alias (``*name``) shares one object: the data of a "billion laughs" file stays as small
as its text, and nothing here walks it more than once per node.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any, NoReturn, Optional, Type, TypeVar

import yaml

#: Largest file any loader reads (bytes). A scenario of 20,000 placed models is about 0.5 MB.
MAX_FILE_BYTES = 8 * 1024 * 1024
#: Most YAML events (keys, values, list and mapping starts and ends) a file may hold. The largest
#: scenario the limits allow (20,000 placed models) is about 300,000; composing a node tree costs
#: about 600 bytes per event, so an 8 MB file of bare numbers (4 million) took 22 s and 2.4 GB.
MAX_YAML_EVENTS = 1_000_000
#: Most entries of one YAML list (the longest list any format allows: models of a unit).
MAX_SEQ_ITEMS = 10_000
#: Most keys of one YAML mapping (a mapping keyed by model ids: every model of a file).
MAX_MAP_KEYS = 20_000
#: Longest number (characters) a file may write; the largest any format needs has a few dozen.
MAX_NUMBER_CHARS = 1_000
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
#: Longest message part kept from a file's own text (field names, parser problems).
_MAX_PART = 200

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
#: Longest text (characters) whose YAML events the size check keeps for the parse that follows
#: when PyYAML has no libyaml (the live page's Python): the pure-Python scanner then runs once,
#: not twice; a longer text is scanned again rather than held as events in memory.
REPLAY_MAX_CHARS = 512 * 1024


class _Replay(yaml.SafeLoader):
    """A loader composing from the events the size check already produced (no second scan)."""

    def __init__(self, text: str, events: list):
        super().__init__(text)
        self._events = events
        self._at = 0

    def check_event(self, *choices: Any) -> bool:
        if self._at >= len(self._events):
            return False
        return not choices or isinstance(self._events[self._at], choices)

    def peek_event(self) -> Any:
        return self._events[self._at] if self._at < len(self._events) else None

    def get_event(self) -> Any:
        ev = self.peek_event()
        self._at += 1
        return ev


def _clip(s: str, n: int = _MAX_PART) -> str:
    s = " ".join(str(s)[: n + 1].splitlines())
    s = "".join(ch if ch.isprintable() else "?" for ch in s)
    return s if len(s) <= n else s[: n - 1] + "…"


class FileError(ValueError):
    """A file that cannot be used: ``file``, ``line`` (1-based or None), ``field`` and ``message``.

    ``str()`` is one line: ``FILE:LINE: FIELD: MESSAGE`` (control characters shown as ``?``,
    each part clipped), so a hostile file cannot flood or garble the terminal."""

    def __init__(self, file: str, line: Optional[int], field: str, message: str):
        self.file, self.line, self.field, self.message = file, line, field, message
        f, fld = _clip(file, 400), _clip(field)
        msg = _clip(message, 1200)
        where = f"{f}:{line}" if line else f
        super().__init__(f"{where}: {fld}: {msg}" if field else f"{where}: {msg}")


E = TypeVar("E", bound=FileError)


def key_lines(node: Optional[yaml.Node], path: tuple = (), out: Optional[dict] = None,
              seen: Optional[set] = None, duplicates: Optional[list] = None) -> dict:
    """Map each path (tuple of keys / indices) in a composed YAML tree to its 1-based line
    (a mapping key's own line for keyed entries).

    A node reached again through an alias (``*name``) is not walked again, so recursive
    aliases and "billion laughs" files cost one visit per node. Iterative (no recursion
    limit); composed trees are at most libyaml's nesting depth deep anyway. Keys given twice in
    one mapping (YAML would silently keep the last) are appended to ``duplicates`` as
    ``(path, line, first line)``.
    """
    out = {} if out is None else out
    seen = set() if seen is None else seen
    stack = [(node, path)]
    while stack:
        n, p = stack.pop()
        if n is None:
            continue
        out.setdefault(p, n.start_mark.line + 1)
        if id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, yaml.MappingNode):
            first: dict = {}
            for k, v in n.value:
                key = k.value if isinstance(k, yaml.ScalarNode) else repr(k.start_mark.line)
                if isinstance(k, yaml.ScalarNode) and key != "<<":
                    if key in first and duplicates is not None:
                        duplicates.append((p + (key,), k.start_mark.line + 1, first[key]))
                    first.setdefault(key, k.start_mark.line + 1)
                out[p + (key,)] = k.start_mark.line + 1
                stack.append((v, p + (key,)))
        elif isinstance(n, yaml.SequenceNode):
            for i, v in enumerate(n.value):
                stack.append((v, p + (i,)))
    return out


def field_name(path: tuple) -> str:
    """``('units', 1, 'files')`` -> ``'units[1].files'``."""
    s = ""
    for p in path:
        s += f"[{p}]" if isinstance(p, int) else (f".{p}" if s else str(p))
    return s


class Locator:
    """Raises ``error`` for a field path, with the line of the deepest known part of the path."""

    def __init__(self, file: str, lines: dict, error: Type[FileError] = FileError):
        self.file, self.lines, self.error = file, lines, error

    def line_of(self, path: tuple) -> Optional[int]:
        p = path
        while p and p not in self.lines:
            p = p[:-1]
        return self.lines.get(p)

    def fail(self, path: tuple, message: str) -> NoReturn:
        raise self.error(self.file, self.line_of(path), field_name(path), message)


def read_bytes(path: str | os.PathLike, error: Type[E], limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``); raises ``error`` (file named,
    no line) for a folder, a FIFO, a device, a missing or unreadable file, or one too large.
    Never blocks: the file is opened non-blocking and checked with ``fstat`` before reading."""
    p = str(path)
    if not p:
        raise error("''", None, "", "no file name given")
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except IsADirectoryError:
        raise error(p, None, "", "is a folder, not a file") from None
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise error(p, None, "", "is not a regular file (a pipe or socket?)") from None
        raise error(p, None, "", f"cannot read the file ({exc.strerror or exc})") from None
    except ValueError:  # a NUL in the path
        raise error(_clip(repr(p)), None, "", "is not a valid file name") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise error(p, None, "", "is a folder, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise error(p, None, "", "is not a regular file (a pipe, device or socket cannot be read)")
        if st.st_size > limit:
            raise error(p, None, "", f"is too large ({st.st_size} bytes; at most {limit} are read)")
        chunks, total = [], 0
        while True:
            try:
                b = os.read(fd, min(1 << 20, limit + 1 - total))
            except OSError as exc:
                raise error(p, None, "", f"cannot read the file ({exc.strerror or exc})") from None
            if not b:
                break
            chunks.append(b)
            total += len(b)
            if total > limit:
                raise error(p, None, "", f"is too large (more than {limit} bytes)")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike, error: Type[E], limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file ``path`` (see :func:`read_bytes`); raises ``error``."""
    data = read_bytes(path, error, limit)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error(str(path), line, "", "is not UTF-8 text") from None
    return text[1:] if text.startswith("\ufeff") else text


def parse_yaml(text: str, filename: str, error: Type[E]) -> tuple[Any, Locator]:
    """Parse ``text`` once (safe tags only) and map its lines; raises ``error`` for text that is
    not valid YAML or holds a value YAML cannot build (a 5,000-digit number, a 13th month)."""
    keep = _LOADER is yaml.SafeLoader and len(text) <= REPLAY_MAX_CHARS
    events = _check_size(text, filename, error, keep)
    loader = None
    try:   # the pure-Python reader refuses a character YAML does not allow as it is made
        loader = _Replay(text, events) if events is not None else _LOADER(text)
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "syntax error"
        raise error(filename, mark.line + 1 if mark else None, "", f"is not valid YAML ({problem})") from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow (a control character)
        line = text[: max(0, exc.position)].count("\n") + 1
        code = ord(exc.character) if isinstance(exc.character, str) else int(exc.character)
        raise error(filename, line, "", f"is not valid YAML (character #x{code:04x} is not "
                                        f"allowed: {' '.join(str(exc.reason).split())})") from None
    except yaml.YAMLError as exc:
        raise error(filename, None, "", f"is not valid YAML ({exc})") from None
    except (ValueError, TypeError, OverflowError) as exc:  # a scalar that cannot be built
        why = str(exc).split("; use sys.")[0]  # never a Python setting to change
        raise error(filename, None, "", f"holds a value that cannot be read ({why})") from None
    except RecursionError:
        raise error(filename, None, "", "is nested too deeply") from None
    finally:
        if loader is not None:
            loader.dispose()
    dups: list = []
    lines = key_lines(node, duplicates=dups)
    if dups:
        path, line, first = min(dups, key=lambda d: d[1])
        raise error(filename, line, field_name(path), f"is given twice (first on line {first}); "
                                                      "YAML would silently keep only the last one")
    return data, Locator(filename, lines, error)


def _check_size(text: str, filename: str, error: Type[E], keep: bool = False) -> Optional[list]:
    """Walk the YAML events of ``text`` (libyaml's parser, no tree built: about 1 s per
    million) and raise ``error`` before any tree is composed: past :data:`MAX_YAML_EVENTS`
    events (no line); a list of more than :data:`MAX_SEQ_ITEMS` entries or a mapping of more
    than :data:`MAX_MAP_KEYS` keys (its line and field: 999,000 keywords are refused in a
    second, not after 6 s and 634 MB); a number of more than :data:`MAX_NUMBER_CHARS`
    characters (its line and field; Python would refuse a 5,000-digit one naming its own
    setting). Syntax errors are left to the parse that follows. ``keep``: return every event
    (the whole stream, for :class:`_Replay`), None after a syntax error or when not kept."""
    try:
        loader, n = _LOADER(text), 0
    except yaml.YAMLError:   # the pure-Python reader: a character YAML does not allow
        return None
    kept: Optional[list] = [] if keep else None
    # one frame per open list or mapping: [path, line, entries, is_mapping, key expected, key]
    stack: list[list] = []
    try:
        while loader.check_event():
            ev = loader.get_event()
            n += 1
            if kept is not None:
                kept.append(ev)
            if n > MAX_YAML_EVENTS:
                raise error(filename, None, "", f"holds more than {MAX_YAML_EVENTS:,} YAML values (keys, "
                                                "numbers, list items); no scenario, demo or book needs that many")
            if isinstance(ev, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                if stack:
                    stack.pop()
                continue
            if not isinstance(ev, yaml.NodeEvent):
                continue
            path: tuple = ()
            if stack:
                top = stack[-1]
                if top[3] and top[4]:  # a key of a mapping
                    top[4] = False
                    top[5] = ev.value if isinstance(ev, yaml.ScalarEvent) else "?"
                    top[2] += 1
                    if top[2] > MAX_MAP_KEYS:
                        raise error(filename, top[1], field_name(top[0]),
                                    f"holds more than {MAX_MAP_KEYS:,} keys; no scenario, demo or book needs that many")
                    continue
                if top[3]:
                    top[4] = True
                    path = top[0] + (top[5],)
                else:
                    path = top[0] + (top[2],)
                    top[2] += 1
                    if top[2] > MAX_SEQ_ITEMS:
                        raise error(filename, top[1], field_name(top[0]),
                                    f"lists more than {MAX_SEQ_ITEMS:,} entries; no scenario, demo or book needs "
                                    "that many")
            line = ev.start_mark.line + 1 if ev.start_mark is not None else None
            if isinstance(ev, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                stack.append([path, line, 0, isinstance(ev, yaml.MappingStartEvent), True, None])
            elif isinstance(ev, yaml.ScalarEvent) and len(ev.value) > MAX_NUMBER_CHARS and (
                    ev.tag in _NUMBER_TAGS or (not ev.style and ev.implicit[0] and
                                               loader.resolve(yaml.ScalarNode, ev.value, (True, False)) in _NUMBER_TAGS)):
                raise error(filename, line, field_name(path), f"is a number of {len(ev.value):,} characters; "
                                                              f"a number has at most {MAX_NUMBER_CHARS:,}")
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return kept


def load_file(path: str | Path, error: Type[E]) -> tuple[Any, Locator]:
    """:func:`read_text` then :func:`parse_yaml`: ``(data, locator)`` of a YAML file."""
    return parse_yaml(read_text(path, error), str(path), error)
