"""Saving scenario files without losing anything the user wrote, atomically.

:func:`merge_text` is a three-way merge: ``template`` is the text of the file being replaced
(or the file the board was loaded from); ``base`` is what that text means to the loader (its
board as data) and ``new`` the board to save (as data, :func:`game.core.scenario.board_to_dict`).
Only values where ``new`` differs from ``base`` are written into the template's round-trip tree
(ruamel.yaml), so comments, key order, unknown keys (top level, units, terrain pieces, model
entries), the conformance ``expect:`` block, quoting and number spelling (``1e3``, ``20.0``) of
everything unchanged survive. Units are matched by ``id``; other lists by position.

:func:`write_atomic` writes through a symlink to its target, refuses a read-only file or one
that is not a regular file (:class:`SaveError`, an ``OSError``), and replaces the target with a
fully written, fsynced temporary file of the same mode, so a crash leaves the old file whole.
"""
from __future__ import annotations

import copy as _copy
import errno
import io
import os
import stat
from pathlib import Path
from typing import Any, Callable, Optional

from game.core import atomic
from game.core.yamlpatch import CannotPatch, patch_text

#: (mapping, sequence, offset) indents tried to reproduce a template's own layout.
_INDENTS = ((2, 4, 2), (2, 2, 0), (4, 4, 2), (4, 6, 4))
#: Templates larger than this are round-tripped with the first layout that reproduces them
#: (or the default one) instead of the closest of all.
_FULL_SEARCH_BYTES = 200_000


class SaveError(OSError):
    """A file that must not be written (read-only, not a regular file); ``strerror`` says why."""

    def __init__(self, path: str | os.PathLike, why: str, code: int = errno.EACCES):
        super().__init__(code, why, str(path))

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


# ----- comparing without expanding shared (aliased) data -----------------------------------
class _Budget(Exception):
    pass


def same(a: Any, b: Any, _memo: Optional[dict] = None, _count: Optional[list] = None) -> bool:
    """Deep equality of YAML data (lists and tuples alike; 1 == 1.0). Pairs of containers
    already compared are remembered, so data shared through YAML aliases costs one visit per
    distinct pair, and at most 2,000,000 comparisons are made (beyond that: "different")."""
    memo = {} if _memo is None else _memo
    count = [0] if _count is None else _count
    count[0] += 1
    if count[0] > 2_000_000:
        raise _Budget
    if a is b:
        return True
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        key = (id(a), id(b))
        if key in memo:
            return memo[key]
        memo[key] = True  # a cycle compares equal to itself
        r = len(a) == len(b) and all(same(x, y, memo, count) for x, y in zip(a, b))
        memo[key] = r
        return r
    if isinstance(a, dict) and isinstance(b, dict):
        key = (id(a), id(b))
        if key in memo:
            return memo[key]
        memo[key] = True
        r = len(a) == len(b) and all(k in b and same(v, b[k], memo, count) for k, v in a.items())
        memo[key] = r
        return r
    if type(a) is not type(b) and not (isinstance(a, str) and isinstance(b, str)):
        return False
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001
        return False


def _same(a: Any, b: Any) -> bool:
    try:
        return same(a, b)
    except _Budget:
        return False


# ----- the merge ------------------------------------------------------------------------------
def _rt(v: Any) -> Any:
    """Plain data as ruamel round-trip nodes; short lists of scalars (points, sizes) in flow style."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(v, dict):
        m = CommentedMap()
        for k, x in v.items():
            m[k] = _rt(x)
        return m
    if isinstance(v, (list, tuple)):
        s = CommentedSeq(_rt(x) for x in v)
        if all(not isinstance(x, (list, tuple, dict)) for x in v) or (
                all(isinstance(x, (list, tuple)) and len(x) <= 2 for x in v) and len(v) <= 8):
            s.fa.set_flow_style()
        return s
    return v


def _ids(items: Any) -> Optional[list]:
    if not isinstance(items, list) or not all(isinstance(x, dict) and isinstance(x.get("id"), str) for x in items):
        return None
    ids = [x["id"] for x in items]
    return ids if len(set(ids)) == len(ids) else None


def _shared(tree: Any) -> set:
    """Ids of the containers of ``tree`` reached more than once (YAML anchors and aliases)."""
    counts: dict[int, int] = {}
    stack = [tree]
    while stack:
        c = stack.pop()
        children = c.values() if isinstance(c, dict) else c
        for x in children:
            if isinstance(x, (dict, list)):
                counts[id(x)] = counts.get(id(x), 0) + 1
                if counts[id(x)] == 1:
                    stack.append(x)
    return {i for i, n in counts.items() if n > 1}


def _own(c: Any, shared: set) -> Any:
    """``c`` itself, or, when an alias shares it with another place, a copy for this place only
    (so an edit here never changes the other place); the copy has no anchor of its own."""
    if not isinstance(c, (dict, list)) or id(c) not in shared:
        return c
    from ruamel.yaml.anchor import Anchor

    dup = _copy.copy(c)
    try:
        setattr(dup, Anchor.attrib, Anchor())
    except (AttributeError, TypeError):
        pass
    return dup


def _merge(tree: Any, base: Any, new: Any, shared: Optional[set] = None) -> Any:
    """``tree`` (round-trip data) updated where ``new`` differs from ``base``; returns the result.
    Containers in ``shared`` (aliased) are copied before they are changed."""
    shared = set() if shared is None else shared
    if _same(base, new):
        return tree
    if isinstance(new, dict) and isinstance(tree, dict):
        base_d = base if isinstance(base, dict) else {}
        for k, v in new.items():
            if k in base_d and _same(base_d[k], v):  # unchanged: written as it was, or left out as it was
                continue
            tree[k] = _merge(_own(tree[k], shared), base_d.get(k), v, shared) if k in tree else _rt(v)
        for k in list(base_d):
            if k not in new and k in tree:
                del tree[k]
        return tree
    if isinstance(new, (list, tuple)) and isinstance(tree, list):
        base_l = list(base) if isinstance(base, (list, tuple)) else []
        new_ids, tree_ids, base_ids = _ids(list(new)), _ids(tree), _ids(base_l)
        if new_ids is not None and tree_ids is not None and base_ids is not None:
            by_tree = {x["id"]: x for x in tree}
            by_base = {x["id"]: x for x in base_l}
            merged = [_merge(_own(by_tree[i], shared), by_base.get(i), v, shared) if i in by_tree else _rt(v)
                      for i, v in zip(new_ids, new)]
            if [x["id"] for x in merged] == tree_ids:
                for i, x in enumerate(merged):
                    tree[i] = x
                return tree
            del tree[:]
            tree.extend(merged)
            return tree
        n = min(len(tree), len(new))
        for i in range(n):
            tree[i] = _merge(_own(tree[i], shared), base_l[i] if i < len(base_l) else None, new[i], shared)
        del tree[n:]
        for v in list(new)[n:]:
            tree.append(_rt(v))
        return tree
    # a scalar, or a change of kind (a point that became a mapping, ...)
    if isinstance(new, (dict, list, tuple)):
        return _rt(new)
    return new


def _yaml(indent: tuple[int, int, int]) -> Any:
    from ruamel.yaml import YAML

    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096
    y.allow_unicode = True
    y.indent(mapping=indent[0], sequence=indent[1], offset=indent[2])
    return y


def _dump(y: Any, data: Any) -> str:
    s = io.StringIO()
    y.dump(data, s)
    return s.getvalue()


def merge_text(template: str, base: Any, new: Any) -> Optional[str]:
    """The template with ``new``'s changes from ``base`` written in (see the module doc), or
    None when the template cannot be round-tripped (then the caller writes a fresh file)."""
    if _same(base, new):
        return template
    try:
        from ruamel.yaml.error import YAMLError as RtError
    except ImportError:  # pragma: no cover - ruamel.yaml is pinned in requirements.txt
        return None
    best, best_diff = _INDENTS[0], None
    try:
        for ind in _INDENTS:
            y = _yaml(ind)
            out = _dump(y, y.load(template))
            if out == template:
                best = ind
                break
            if len(template) > _FULL_SEARCH_BYTES:
                continue
            tl, ol = template.splitlines(), out.splitlines()
            diff = sum(1 for a, b in zip(tl, ol) if a != b) + abs(len(tl) - len(ol))
            if best_diff is None or diff < best_diff:
                best, best_diff = ind, diff
        ind = best
        y = _yaml(ind)
        tree = y.load(template)
        if not isinstance(tree, dict):
            return None
        tree = _merge(tree, base, new, _shared(tree))
        return _dump(y, tree)
    except (RtError, ValueError, TypeError, RecursionError):
        return None


# ----- in place first, a round trip only where that cannot be done ---------------------------
def plan_text(template: str, base: Any, new: Any, check: Callable[[str], Any]) -> tuple[Optional[str], list[str]]:
    """The text to save for ``new`` over ``template`` (whose meaning is ``base``) and the notes
    on what of the template could not be kept (empty: every untouched byte kept).

    First the template is patched in place (:func:`game.core.yamlpatch.patch_text`: BOM, line
    ends, comments, spacing, spellings and tags outside the changed values stay byte for byte);
    where that cannot be done, the ruamel.yaml round trip (:func:`merge_text`) on the text with
    LF line ends and no BOM (both put back after), and a note saying why and how many untouched
    lines it rewrote. ``check(text)`` returns the data a text means (raising ValueError when it
    does not load); a result that does not mean ``new`` is never returned. ``(None, notes)``
    when neither way gives ``new``."""
    notes: list[str] = []
    try:
        out = patch_text(template, base, new, _same)
        if _same(check(out), new):
            return out, []
        why = "the patched text did not read back as the board"
    except CannotPatch as exc:
        why = str(exc)
    except ValueError as exc:
        why = f"the patched text did not load ({exc})"
    bom = "\ufeff" if template.startswith("\ufeff") else ""
    body = template[len(bom):]
    crlf = "\r\n" in body and body.count("\r\n") == body.count("\n")
    lf = body.replace("\r\n", "\n") if crlf else body
    merged = merge_text(lf, base, new)
    if merged is None:
        return None, [f"this change could not be written in place ({why}), nor the file's layout kept"]
    out = bom + (merged.replace("\n", "\r\n") if crlf else merged)
    try:
        if not _same(check(out), new):
            return None, [f"this change could not be written in place ({why})"]
    except ValueError:
        return None, [f"this change could not be written in place ({why})"]
    import difflib

    changed = sum(1 for ln in difflib.ndiff(lf.splitlines(), merged.splitlines()) if ln.startswith("- "))
    notes.append(f"this change could not be written in place ({why}); the file was rewritten through a YAML "
                 f"round trip, which changes {changed} line{'s' if changed != 1 else ''} of its layout (comments kept)")
    return out, notes


# ----- writing ----------------------------------------------------------------------------------
def target_of(path: str | os.PathLike) -> Path:
    """The file a save to ``path`` writes: the end of any symlink chain. Raises
    :class:`SaveError` for a folder, a device or pipe, or a read-only file."""
    target = Path(os.path.realpath(path))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return target
    except OSError as exc:
        raise SaveError(path, f"cannot be written ({exc.strerror or exc})", exc.errno or errno.EIO) from None
    if stat.S_ISDIR(st.st_mode):
        raise SaveError(path, "is a folder, not a file", errno.EISDIR)
    if not stat.S_ISREG(st.st_mode):
        raise SaveError(path, "is not a regular file; save to a .yaml file instead")
    if not st.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise SaveError(path, "is read-only; make it writable or save under another name")
    return target


def write_atomic(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; returns the file written (a symlink's
    target). Raises :class:`SaveError` / ``OSError``; on any failure the old file is untouched."""
    target = target_of(path)
    atomic.write_atomic(target, text, make_dirs=False)
    return target
