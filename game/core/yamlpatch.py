"""Saving by patching the original text: only the bytes of what changed are rewritten.

:func:`patch_text` takes the text of a YAML file (a UTF-8 BOM, CRLF line ends, comments before
``---`` or after ``...`` and anything else allowed), ``base`` (what that text means as data) and
``new`` (the data to save) and returns the text with the changed values replaced **in place**:
every byte outside the spans of the changed values is the original's. It works on libyaml's
node marks (character offsets of each scalar and collection), so:

* a changed scalar is respelled where it stands (its tag kept when the tag fits the new value,
  a ``|`` block kept as a block, quoting kept where the new text allows it);
* a mapping key that is added goes on a new line after the mapping's last entry (block style)
  or before its ``}`` (flow style); a removed key or list item takes its whole lines (block) or
  its entry and one comma (flow) with it;
* list items are matched by ``id`` when every item has one (units), else by what they hold
  (a longest common subsequence: an item inserted or removed takes only its own lines);
* a value whose kind changed (a point that became a mapping) is written in flow style in
  place of the old flow or scalar value.

Where the text cannot be patched like that (an alias or merge key in the way, units reordered,
a block collection changed into something else), :func:`patch_text` returns None and the
caller falls back to a structural round trip (and says so). The result is always checked by
the caller by parsing it again.
"""
from __future__ import annotations

import difflib
import json
import math
import re
from typing import Any, Callable, Optional

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_PROPS = re.compile(r"^((?:[!&][^\s,\[\]{}]*[ \t]+)+)")
_NATURAL_TAG = {bool: "bool", int: "int", float: "float", str: "str"}


class CannotPatch(Exception):
    """The text cannot be changed in place (the reason is the message)."""


def _printable(s: str) -> bool:
    return all(ch in "\t\n" or (ch.isprintable() and ch not in "\u2028\u2029\x85\ufeff") for ch in s)


def _quote(s: str) -> str:
    """A YAML double-quoted scalar for ``s`` (every non-printable character escaped)."""
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch.isprintable() and ch not in "\u2028\u2029\x85\ufeff":
            out.append(ch)
        else:
            o = ord(ch)
            out.append(f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}")
    out.append('"')
    return "".join(out)


def _plain_ok(s: str) -> bool:
    if not s or s != s.strip() or "\n" in s or not _printable(s):
        return False
    try:
        return yaml.safe_load(f"k: {s}\n") == {"k": s} and yaml.safe_load(f"[{s}]") == [s]
    except yaml.YAMLError:
        return False


def spell_scalar(v: Any, style: str = "") -> str:
    """``v`` (None, bool, int, float, str) as one YAML scalar that reads back as ``v`` in block
    and flow context alike. ``style``: the original's (``'``, ``"``, or plain) when it fits."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return ".nan"
        if math.isinf(v):
            return ".inf" if v > 0 else "-.inf"
        r = repr(v)
        if "e" in r and "." not in r.split("e")[0]:
            a, b = r.split("e")
            r = f"{a}.0e{b}"
        return r
    if isinstance(v, str):
        if style == "'" and "\n" not in v and _printable(v):
            return "'" + v.replace("'", "''") + "'"
        if style in ("", None) and _plain_ok(v):
            return v
        return _quote(v)
    raise CannotPatch(f"a {type(v).__name__} value")


class _Dumper(yaml.SafeDumper):
    pass


def _str_rep(dumper: yaml.SafeDumper, s: str) -> yaml.Node:
    if "\n" in s and _printable(s) and not any(line != line.rstrip() for line in s.split("\n")) \
            and not s.startswith((" ", "\n")) and not s.endswith("\n\n"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", s, style="|")
    return dumper.represent_str(s)


_Dumper.add_representer(str, _str_rep)


def dump_flow(v: Any) -> str:
    """``v`` as one line of flow-style YAML."""
    if not isinstance(v, (dict, list, tuple)):
        return spell_scalar(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(dump_flow(x) for x in v) + "]"
    return "{" + ", ".join(f"{spell_scalar(str(k))}: {dump_flow(x)}" for k, x in v.items()) + "}"


def dump_block(v: Any, indent: int, nl: str) -> str:
    """``v`` (a one-key mapping or a one-item list) as block YAML lines indented by ``indent``
    spaces, each ended by ``nl``; multi-line strings as ``|`` blocks. The mapping or list itself
    is always block style (``name: Dwarfs``, never ``{name: Dwarfs}``, which is no entry of a
    block mapping); collections inside it are flow style (``base: [20, 20]``)."""
    items = v.values() if isinstance(v, dict) else v
    nested = any(isinstance(x, (dict, list, tuple)) for x in items)
    text = yaml.dump(v, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=None if nested else False, width=4096, indent=2)
    if text.endswith("...\n"):
        text = text[:-4]
    return "".join(" " * indent + line + nl for line in text.splitlines())


# ----- the patch ----------------------------------------------------------------------------
class _Patch:
    def __init__(self, text: str, same: Callable[[Any, Any], bool]):
        self.text, self.same = text, same
        self.nl = "\r\n" if "\r\n" in text else "\n"
        self.edits: list[tuple[int, int, str]] = []  # (start, end, replacement)
        self.shared: set[int] = set()

    # positions
    def line_start(self, i: int) -> int:
        return self.text.rfind("\n", 0, i) + 1

    def line_end(self, i: int) -> int:
        """The index just past the line break of the line holding ``i`` (or the text's end)."""
        j = self.text.find("\n", i)
        return len(self.text) if j < 0 else j + 1

    def column(self, i: int) -> int:
        return i - self.line_start(i)

    def content_end(self, n: yaml.Node) -> int:
        """Where ``n``'s own text ends (a block collection's last value, not the blank lines
        and comments after it)."""
        if isinstance(n, yaml.ScalarNode):
            if n.style in ("|", ">"):
                span = self.text[n.start_mark.index:n.end_mark.index]
                return n.start_mark.index + len(span.rstrip())
            return n.end_mark.index
        if getattr(n, "flow_style", False) or not n.value:
            return n.end_mark.index
        last = n.value[-1]
        return self.content_end(last[1] if isinstance(n, yaml.MappingNode) else last)

    def edit(self, start: int, end: int, new: str) -> None:
        self.edits.append((start, end, new))

    def result(self) -> str:
        out, pos = [], 0
        for s, e, r in sorted(self.edits, key=lambda x: (x[0], x[1])):
            if s < pos:
                raise CannotPatch("two changes overlap")
            out.append(self.text[pos:s])
            out.append(r)
            pos = e
        out.append(self.text[pos:])
        return "".join(out)

    # walking
    def value(self, node: yaml.Node, base: Any, new: Any) -> None:
        if self.same(base, new):
            return
        if id(node) in self.shared:
            raise CannotPatch("an aliased (shared) value changed")
        if isinstance(node, yaml.MappingNode) and isinstance(new, dict) and isinstance(base, dict):
            return self.mapping(node, base, new)
        if isinstance(node, yaml.SequenceNode) and isinstance(new, (list, tuple)) and isinstance(base, (list, tuple)):
            return self.sequence(node, list(base), list(new))
        if isinstance(node, yaml.ScalarNode) and not isinstance(new, (dict, list, tuple)):
            return self.scalar(node, new)
        if isinstance(node, yaml.ScalarNode) or getattr(node, "flow_style", False):
            if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
                raise CannotPatch("a block scalar became a collection")
            if isinstance(node, yaml.ScalarNode) and node.start_mark.index == node.end_mark.index:
                raise CannotPatch("an empty value became a collection")
            return self.edit(node.start_mark.index, node.end_mark.index, dump_flow(new))
        raise CannotPatch("a block collection changed kind")

    def scalar(self, node: yaml.ScalarNode, new: Any) -> None:
        s0, e = node.start_mark.index, node.end_mark.index
        s = s0
        m = _PROPS.match(self.text[s0:e])
        if m and "&" not in m.group(1) and _NATURAL_TAG.get(type(new)) == node.tag.rsplit(":", 1)[-1]:
            s = s0 + len(m.group(1))  # keep the tag (`!!int 7` -> `!!int 8`); a tag that no longer fits goes
        if node.style in ("|", ">") and isinstance(new, str):
            block = self.literal(s, e, new)
            self.edit(s, self.content_end(node), block if block is not None else spell_scalar(new, '"'))
            return
        if s0 == e:  # `key:` with nothing after it
            self.edit(s, e, ("" if self.text[s - 1:s].isspace() else " ") + spell_scalar(new))
            return
        self.edit(s, e, spell_scalar(new, node.style or ""))

    def literal(self, s: int, e: int, v: str) -> Optional[str]:
        """A ``|`` block for ``v`` indented like the original block at ``s``, or None."""
        if not _printable(v) or v.endswith("\n\n") or v.startswith((" ", "\n")) or not v:
            return None
        lines = self.text[s:e].split("\n")
        body = [ln for ln in lines[1:] if ln.strip()]
        if not body:
            return None
        ind = len(body[0]) - len(body[0].lstrip(" "))
        if ind == 0:
            return None
        head = "|" if v.endswith("\n") else "|-"
        content = v[:-1] if v.endswith("\n") else v
        return head + self.nl + self.nl.join((" " * ind + ln) if ln else "" for ln in content.split("\n"))

    def mapping(self, node: yaml.MappingNode, base: dict, new: dict) -> None:
        entries: dict = {}
        for k, v in node.value:
            if not isinstance(k, yaml.ScalarNode):
                raise CannotPatch("a mapping key that is not a scalar")
            if k.value == "<<" and k.tag.endswith(":merge"):
                raise CannotPatch("a merge key (<<)")
            entries[k.value] = (k, v)
        for key in list(base) + [k for k in new if k not in base]:
            if not isinstance(key, str):
                raise CannotPatch("a key that is not text")
        for key, v in new.items():
            if key in entries:
                self.value(entries[key][1], base.get(key), v)
            elif not (key in base and self.same(base[key], v)):
                self.add_key(node, key, v)
        for key in base:
            if key not in new and key in entries:
                self.remove_entry(node, [k.value for k, _ in node.value].index(key))

    def add_key(self, node: yaml.MappingNode, key: str, v: Any) -> None:
        if node.flow_style or not node.value:
            close = node.end_mark.index - 1
            if self.text[close:close + 1] != "}":
                raise CannotPatch("an empty mapping")
            sep = ", " if node.value else ""
            self.edit(close, close, f"{sep}{spell_scalar(key)}: {dump_flow(v)}")
            return
        first_key = node.value[0][0]
        at = self.line_end(self.content_end(node))
        text = dump_block({key: v}, self.column(first_key.start_mark.index), self.nl)
        if at == len(self.text) and not self.text.endswith("\n"):
            text = self.nl + text
        self.edit(at, at, text)

    def remove_entry(self, node: yaml.Node, i: int) -> None:
        items = node.value
        start = (items[i][0] if isinstance(node, yaml.MappingNode) else items[i]).start_mark.index
        end = self.content_end(items[i][1] if isinstance(node, yaml.MappingNode) else items[i])
        if getattr(node, "flow_style", False):
            def first(j: int) -> int:
                x = items[j][0] if isinstance(node, yaml.MappingNode) else items[j]
                return x.start_mark.index
            if i + 1 < len(items):
                return self.edit(start, first(i + 1), "")
            if i > 0:
                prev = items[i - 1][1] if isinstance(node, yaml.MappingNode) else items[i - 1]
                return self.edit(prev.end_mark.index, end, "")
            return self.edit(start, end, "")
        ls = self.line_start(start)
        before = self.text[ls:start]
        if isinstance(node, yaml.SequenceNode):
            if before.strip() != "-":
                raise CannotPatch("a list item that does not start its line with its dash")
        elif before.strip():
            raise CannotPatch("a key that does not start its line")
        if len(items) == 1:
            raise CannotPatch("the last entry of a block collection removed")
        self.edit(ls, self.line_end(end), "")

    def sequence(self, node: yaml.SequenceNode, base: list, new: list) -> None:
        old_ids, new_ids = _ids(base), _ids(new)
        if old_ids is not None and new_ids is not None and len(node.value) == len(base):
            kept = [i for i in new_ids if i in old_ids]
            if kept != [i for i in old_ids if i in new_ids]:
                raise CannotPatch("items reordered")
            if new_ids[:len(kept)] != kept:
                raise CannotPatch("items inserted between others")
            pos = {x: j for j, x in enumerate(old_ids)}
            for j, x in enumerate(old_ids):
                if x not in new_ids:
                    self.remove_entry(node, j)
            for x, v in zip(new_ids, new):
                if x in pos:
                    self.value(node.value[pos[x]], base[pos[x]], v)
            self.append(node, new[len(kept):], removed_all=not kept)
            return
        if len(node.value) != len(base):
            raise CannotPatch("a list whose items do not match the data")
        if not base:
            self.append(node, new)
            return
        # items matched by what they hold (a longest common subsequence): an item inserted or
        # removed in the middle (a demo's step) takes only its own lines, the others stay as written
        ops = difflib.SequenceMatcher(None, [_key(x) for x in base], [_key(x) for x in new], autojunk=False)
        for tag, i0, i1, j0, j1 in ops.get_opcodes():
            if tag == "equal":
                continue
            n = min(i1 - i0, j1 - j0)
            for k in range(n):
                if _alike(base[i0 + k], new[j0 + k]):
                    self.value(node.value[i0 + k], base[i0 + k], new[j0 + k])
                else:  # another kind of item (a demo action of another kind): its lines written anew
                    self.replace_item(node, i0 + k, new[j0 + k])
            for k in range(i0 + n, i1):
                self.remove_entry(node, k)
            if j1 - j0 > n:
                if i1 < len(base):
                    self.insert(node, i1, new[j0 + n:j1])
                else:
                    self.append(node, new[j0 + n:j1], removed_all=n == 0 and i1 - i0 == len(base))

    def replace_item(self, node: yaml.SequenceNode, i: int, v: Any) -> None:
        """Write item ``i`` of ``node`` anew as ``v`` (a block item: its whole lines)."""
        item = node.value[i]
        if node.flow_style:
            return self.edit(item.start_mark.index, item.end_mark.index, dump_flow(v))
        ls = self.line_start(item.start_mark.index)
        if self.text[ls:item.start_mark.index].strip() != "-":
            raise CannotPatch("a list item that does not start its line with its dash")
        col = self.text.index("-", ls) - ls
        self.edit(ls, self.line_end(self.content_end(item)), dump_block([v], col, self.nl))

    def insert(self, node: yaml.SequenceNode, i: int, items: list) -> None:
        """Insert ``items`` before item ``i`` (after the comment lines just above it)."""
        first = node.value[i].start_mark.index
        if node.flow_style:
            return self.edit(first, first, "".join(dump_flow(v) + ", " for v in items))
        ls = self.line_start(first)
        if self.text[ls:first].strip() != "-":
            raise CannotPatch("a list item that does not start its line with its dash")
        col = self.text.index("-", ls) - ls
        at = ls
        while at > 0:
            prev = self.line_start(at - 1)
            if not self.text[prev:at].strip().startswith("#"):
                break
            at = prev
        self.edit(at, at, dump_block(list(items), col, self.nl))

    def append(self, node: yaml.SequenceNode, items: list, removed_all: bool = False) -> None:
        if not items:
            return
        if removed_all:
            raise CannotPatch("every item of a list replaced")
        if node.flow_style or not node.value:
            close = node.end_mark.index - 1
            if self.text[close:close + 1] != "]":
                raise CannotPatch("an empty list")
            sep = ", " if node.value else ""
            self.edit(close, close, sep + ", ".join(dump_flow(v) for v in items))
            return
        first = node.value[0].start_mark.index
        ls = self.line_start(first)
        if self.text[ls:first].strip() != "-":
            raise CannotPatch("a list item that does not start its line with its dash")
        col = self.text.index("-", ls) - ls
        at = self.line_end(self.content_end(node))
        text = dump_block(list(items), col, self.nl)
        if at == len(self.text) and not self.text.endswith("\n"):
            text = self.nl + text
        self.edit(at, at, text)


def _alike(a: Any, b: Any) -> bool:
    """True when ``b`` is best written over ``a`` in place: mappings with the same keys, lists, or scalars."""
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and list(a) == list(b)
    return isinstance(a, (list, tuple)) == isinstance(b, (list, tuple))


def _key(v: Any) -> str:
    """A text standing for YAML data ``v`` (equal data, equal text) to match list items by."""
    try:
        return json.dumps(v, sort_keys=True, default=repr)
    except (TypeError, ValueError, RecursionError):
        return repr(v)


def _ids(items: list) -> Optional[list]:
    if not all(isinstance(x, dict) and isinstance(x.get("id"), str) for x in items):
        return None
    ids = [x["id"] for x in items]
    return ids if len(set(ids)) == len(ids) else None


def _shared_nodes(root: yaml.Node) -> set[int]:
    """Ids of nodes reached more than once (anchors with aliases), and everything inside them."""
    seen: dict[int, int] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        seen[id(n)] = seen.get(id(n), 0) + 1
        if seen[id(n)] > 1:
            continue
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack.extend((k, v))
        elif isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
    return {i for i, c in seen.items() if c > 1}


def patch_text(text: str, base: Any, new: Any, same: Callable[[Any, Any], bool]) -> str:
    """``text`` with ``new``'s differences from ``base`` written in place (see the module doc).
    ``same(a, b)`` is the data equality used. Raises :class:`CannotPatch` (a reason) where the
    text cannot be changed in place."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom):]
    if same(base, new):
        return text
    loader = _LOADER(body)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        raise CannotPatch(f"the text does not parse ({exc})") from None
    finally:
        loader.dispose()
    if not isinstance(node, yaml.MappingNode):
        raise CannotPatch("the file is not a mapping")
    p = _Patch(body, same)
    p.shared = _shared_nodes(node)
    try:
        p.value(node, base, new)
    except RecursionError:
        raise CannotPatch("nested too deeply") from None
    return bom + p.result()
