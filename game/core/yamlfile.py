"""Reading the project's YAML files (scenarios, demos, books) with errors that point at a line.

One place for what every loader needs: safe loading only (one libyaml parse), the line of every key and list
item (from the composed node tree), and :class:`FileError`, the error type that names the
file, the 1-based line, the field path (``units[1].files``) and what is wrong.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Type, TypeVar

import yaml


class FileError(ValueError):
    """A file that cannot be used: ``file``, ``line`` (1-based or None), ``field`` and ``message``."""

    def __init__(self, file: str, line: Optional[int], field: str, message: str):
        self.file, self.line, self.field, self.message = file, line, field, message
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {field}: {message}" if field else f"{where}: {message}")


E = TypeVar("E", bound=FileError)


def key_lines(node: Optional[yaml.Node], path: tuple = (), out: Optional[dict] = None,
              seen: Optional[set] = None) -> dict:
    """Map each path (tuple of keys / indices) in a composed YAML tree to its 1-based line
    (a mapping key's own line for keyed entries).

    A node reached again through an alias (``*name``) is not walked again, so recursive
    aliases and "billion laughs" files cost one visit per node.
    """
    out = {} if out is None else out
    seen = set() if seen is None else seen
    if node is None:
        return out
    out[path] = node.start_mark.line + 1
    if id(node) in seen:
        return out
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            key = k.value if isinstance(k, yaml.ScalarNode) else repr(k.start_mark.line)
            key_lines(v, path + (key,), out, seen)
            out[path + (key,)] = k.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            key_lines(v, path + (i,), out, seen)
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

    def fail(self, path: tuple, message: str) -> None:
        raise self.error(self.file, self.line_of(path), field_name(path), message)


def read_text(path: str | Path, error: Type[E]) -> str:
    """The UTF-8 text of ``path``; raises ``error`` (file named, no line) if unreadable."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except IsADirectoryError:
        raise error(str(p), None, "", "is a folder, not a file") from None
    except OSError as exc:
        raise error(str(p), None, "", f"cannot read the file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise error(str(p), None, "", "is not UTF-8 text") from None


_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML was built with it


def parse_yaml(text: str, filename: str, error: Type[E]) -> tuple[Any, Locator]:
    """Safe-load ``text`` once (libyaml's ``CSafeLoader`` when available) and map its lines
    from the same node tree; raises ``error`` for invalid YAML."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise error(filename, mark.line + 1 if mark else None, "",
                    f"is not valid YAML ({getattr(exc, 'problem', None) or exc})") from None
    except RecursionError:
        raise error(filename, None, "", "is nested too deeply") from None
    finally:
        loader.dispose()
    return data, Locator(filename, key_lines(node), error)
