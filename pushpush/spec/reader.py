"""The typed YAML node readers the loader is made of: a node checked against its declared
shape (:mod:`pushpush.spec.fields`), every problem recorded as a diagnostic at the node's
``file:line:column`` with its fix.

:class:`_Reader` holds the text, the file's name and the diagnostics so far, and reads
mappings (unknown and duplicate keys), strings, integers (ranges, multiples, powers of two
with the nearest ones as the fix), numbers, choices, names, signatures (the error at its
character, :meth:`_Reader._column_in`) and whole records (:meth:`_Reader.record`: every
scalar field of a :class:`~pushpush.spec.fields.Record` through :meth:`_Reader.value_of`).
What the fields mean for a system (components, regions, channels, imports ...) is
:mod:`pushpush.spec.loader`'s, whose ``_Loader`` reads a system with these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence, Union

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import Diagnostic, Location, did_you_mean
from ..types import FunctionType, TypeSyntaxError, parse_signature
from .fields import IDENT, VERILOG_IDENT
from .fields import IDENT_RE as _IDENT
from .fields import RESERVED as _RESERVED
from .fields import Choice, Int, Num, Record, Signature, Str, Value

_Items = list[tuple[str, ScalarNode, Node]]


def _is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def _next_pow2(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


#: How a string's declared pattern is named in messages ("must be a Verilog module name").
_PATTERN_NAMES = {VERILOG_IDENT: "a Verilog module name"}


@dataclass
class _Read:
    """A mapping read against its :class:`~pushpush.spec.fields.Record` by
    :meth:`_Reader.record`: the checked values of its scalar fields (the declared default
    for an absent one that applies), the (key node, value node) of every key present, and
    the keys that are missing or failed their check."""

    values: dict[str, Any]
    nodes: dict[str, tuple[ScalarNode, Node]]
    bad: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return not self.bad

    def node(self, key: str) -> Optional[Node]:
        """The value node of ``key``, if present."""
        return self.nodes[key][1] if key in self.nodes else None


def _scalar_shape(shape: Value) -> bool:
    return isinstance(shape, (Str, Int, Num, Choice, Signature))


class _Reader:
    """Reads the nodes of one YAML text, collecting diagnostics (``diags``)."""

    def __init__(self, text: str, file: str):
        self.text = text
        self.file = file
        self.diags: list[Diagnostic] = []
        self._ctor = yaml.constructor.SafeConstructor()

    # -- helpers --------------------------------------------------------------------------

    def loc(self, node: Node) -> Location:
        return Location(self.file, node.start_mark.line + 1, node.start_mark.column + 1)

    def error(self, where: Union[Node, Location], message: str) -> None:
        loc = where if isinstance(where, Location) else self.loc(where)
        self.diags.append(Diagnostic.at(loc, message))

    def value(self, node: ScalarNode) -> Any:
        """The scalar as YAML reads it, or its text if YAML cannot construct it: a tag its
        text does not fit (``!!int abc``, ``!!bool x``, ``!!timestamp 2020-13-45``) raises
        ValueError, KeyError or AttributeError from PyYAML's constructors, not a YAMLError."""
        try:
            return self._ctor.construct_object(node, deep=True)
        except Exception:
            return node.value

    def mapping(self, node: Node, what: str, item: str = "key") -> Optional[_Items]:
        """The (key, key node, value node) triples of a mapping, duplicates reported."""
        if not isinstance(node, MappingNode):
            self.error(node, f"{what} must be a mapping (key: value lines), not {self._describe(node)}; "
                             f"write one 'key: value' per line (see examples/pingpong/system.yaml)")
            return None
        items: _Items = []
        first: dict[str, ScalarNode] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                self.error(key_node, f"keys of {what} must be plain names, not {self._describe(key_node)}; "
                                     "write a name before the ':'")
                continue
            key = str(key_node.value)
            if key in first:
                self.error(key_node, f"duplicate {item} '{key}' in {what} (first at line "
                                     f"{first[key].start_mark.line + 1}); remove or rename one")
                continue
            first[key] = key_node
            items.append((key, key_node, value_node))
        return items

    def check_keys(self, items: _Items, allowed: Sequence[str], what: str) -> None:
        for key, key_node, _ in items:
            if key not in allowed:
                hint = did_you_mean(key, allowed) or f"; allowed keys: {', '.join(allowed)}"
                self.error(key_node, f"unknown key '{key}' in {what}{hint}")

    @staticmethod
    def _describe(node: Node) -> str:
        if isinstance(node, MappingNode):
            return "a mapping"
        if isinstance(node, SequenceNode):
            return "a list"
        if node.tag.endswith(":null"):
            return "empty"
        return f"'{node.value}'"

    def get_str(self, node: Node, what: str, example: str) -> Optional[str]:
        if isinstance(node, ScalarNode):
            v = self.value(node)
            if isinstance(v, str) and v != "":
                return v
        self.error(node, f"{what} must be a string, not {self._describe(node)}; e.g. {example}")
        return None

    def get_int(self, node: Node, what: str, example: str) -> Optional[int]:
        """An integer (``4096``, ``0x1000``, ``"0x1000"``); its range is :meth:`int_in`'s."""
        v: Any = None
        if isinstance(node, ScalarNode):
            v = self.value(node)
            if isinstance(v, str):
                try:
                    v = int(v.replace("_", ""), 0)
                except ValueError:
                    v = None
        if not isinstance(v, int) or isinstance(v, bool):
            self.error(node, f"{what} must be an integer, not {self._describe(node)}; e.g. {example}")
            return None
        return v

    def get_choice(self, node: Node, what: str, choices: Sequence[Any]) -> Optional[Any]:
        v = self.value(node) if isinstance(node, ScalarNode) else None
        flag = all(isinstance(c, bool) for c in choices)   # true/false, and nothing else
        if v in choices and isinstance(v, bool) == flag:
            return v
        if flag:
            self.error(node, f"{what} must be true or false, not {self._describe(node)}")
            return None
        shown = ", ".join(str(c) for c in choices)
        hint = did_you_mean(str(v), [str(c) for c in choices]) if isinstance(node, ScalarNode) else ""
        hint = hint or f"; write one of them, e.g. {choices[0]}"
        self.error(node, f"{what} must be one of {shown}, not {self._describe(node)}{hint}")
        return None

    def get_identifier(self, node: Node, what: str, example: str) -> Optional[str]:
        if not isinstance(node, ScalarNode) or not isinstance(self.value(node), str):
            self.error(node, f"{what} must be a name, not {self._describe(node)}; e.g. {example}")
            return None
        return self.check_identifier(node, str(node.value), what)

    def check_identifier(self, node: Node, name: str, what: str) -> Optional[str]:
        if not _IDENT.match(name):
            self.error(node, f"{what} '{name}' is not a valid name; use letters, digits and '_', "
                             f"not starting with a digit (e.g. '{_suggest_ident(name)}')")
            return None
        if name in _RESERVED:
            self.error(node, f"{what} '{name}' is a reserved word in Verilog, C or Python; "
                             f"choose another name (e.g. '{name}_')")
            return None
        return name

    # -- the generic routine: a value or a mapping against its declaration ---------------

    def value_of(self, node: Node, shape: Value, what: str, example: str) -> Optional[Any]:
        """A scalar checked against its declared shape (:mod:`pushpush.spec.fields`): type,
        range, multiple, power of two, pattern, reserved words, choices. The value, or None
        after reporting at ``node`` what is wrong and an example (``example``)."""
        if isinstance(shape, Choice):
            if shape.null_is is not None and _is_null(node):
                return shape.null_is
            return self.get_choice(node, what, shape.choices)
        if isinstance(shape, Int):
            return self.int_in(node, shape, what, example)
        if isinstance(shape, Num):
            return self.num_in(node, shape, what, example)
        if isinstance(shape, Signature):
            return self.signature(node, what)
        if isinstance(shape, Str):
            if shape.pattern == IDENT:
                return self.get_identifier(node, what, example)
            if shape.pattern in _PATTERN_NAMES:
                v = self.value(node) if isinstance(node, ScalarNode) else None
                if isinstance(v, str) and re.fullmatch(shape.pattern, v) and v not in shape.reserved:
                    return v
                self.error(node, f"{what} must be {_PATTERN_NAMES[shape.pattern]}, not "
                                 f"{self._describe(node)}; e.g. {example}")
                return None
            return self.get_str(node, what, example)
        raise TypeError(f"{what}: a {type(shape).__name__} has its own reader")  # pragma: no cover

    def int_in(self, node: Node, shape: Int, what: str, example: str) -> Optional[int]:
        """An integer within ``shape``'s bounds (see :meth:`value_of`)."""
        v = self.get_int(node, what, example)
        if v is None:
            return None
        lo = shape.minimum
        if lo is not None and (v < 0 <= lo or (v < lo and not shape.power_of_two)):
            self.error(node, f"{what} must be at least {lo}, not {v}; e.g. {example}")
            return None
        if shape.maximum is not None and v > shape.maximum:
            over = shape.over.format(maximum=shape.maximum, example=example)
            self.error(node, f"{what} is {v} but {over}")
            return None
        if shape.power_of_two and (not _is_pow2(v) or (lo is not None and v < lo)):
            least = lo or 1
            lower = max(least, _next_pow2(v) // 2 if v else 0)
            upper = max(least, _next_pow2(v))
            sugg = f"0x{upper:X}" if lower == upper else f"0x{lower:X} or 0x{upper:X}"
            self.error(node, f"{what} must be a power of two of at least {least} (0x{least:X}) "
                             f"bytes, not {v} (0x{v:X}); use {sugg}")
            return None
        m = shape.multiple_of
        if m is not None and v % m:
            self.error(node, f"{what} 0x{v:X} is not a multiple of {m} (0x{m:X}); "
                             f"e.g. 0x{v - v % m:X}")
            return None
        return v

    def num_in(self, node: Node, shape: Num, what: str, example: str) -> Optional[float]:
        """A number (integer or decimal) in ``(exclusive_minimum, maximum]``."""
        v = self.value(node) if isinstance(node, ScalarNode) else None
        lo, hi = shape.exclusive_minimum, shape.maximum
        if isinstance(v, (int, float)) and not isinstance(v, bool) \
                and (lo is None or lo < v) and (hi is None or v <= hi):
            return v
        unit = f" of {shape.unit}" if shape.unit else ""
        self.error(node, f"{what} must be a number{unit} between {lo} and {hi}, not "
                         f"{self._describe(node)}; e.g. {example}")
        return None

    def record(self, node: Node, rec: Record, what: str, *,
               name: Optional[Callable[[str], str]] = None, kind: Optional[str] = None,
               at: Optional[Union[Node, Location]] = None, item: str = "key",
               lacks: str = "{owner} has no '{key}'", examples: Optional[dict[str, str]] = None,
               fixes: Optional[dict[str, str]] = None) -> Optional[_Read]:
        """A mapping checked against its declaration ``rec``: unknown and duplicate keys,
        required keys (``required``, or ``required_for`` the ``kind``; reported at ``at``,
        default the mapping, as ``lacks`` and the field's fix), and every scalar field that
        applies to ``kind`` through :meth:`value_of` (``name(key)`` names it in messages;
        ``examples``/``fixes`` replace a field's declared example/fix where it depends on the
        file). A record with a ``kind`` field reads it first: the kind decides which other
        fields apply. Fields of other kinds, and rules across fields, are the caller's;
        composite values (lists, mappings, alternatives) are left to the caller's readers
        (``nodes``). None if ``node`` is not a mapping."""
        items = self.mapping(node, what, item=item)
        if items is None:
            return None
        self.check_keys(items, rec.keys, what)
        examples, fixes = examples or {}, fixes or {}
        named = name or (lambda key: f"{key} of {what}")
        read = _Read({}, {k: (kn, vn) for k, kn, vn in items})
        for f in rec.fields:
            applies = f.kinds is None or (kind is not None and kind in f.kinds)
            example = examples.get(f.name, f.example)
            if f.name not in read.nodes:
                if f.required or (kind is not None and kind in f.required_for):
                    owner = what if f.required else f"{kind} {what}"
                    fix = fixes.get(f.name) or f.missing or f"add e.g. {example}"
                    self.error(node if at is None else at,
                               f"{lacks.format(owner=owner, key=f.name)}; {fix}")
                    read.bad.add(f.name)
                elif applies and f.default is not None:
                    read.values[f.name] = f.default
                continue
            if not applies or not _scalar_shape(f.value):
                continue
            v = self.value_of(read.nodes[f.name][1], f.value, named(f.name), example)
            if v is None:
                read.bad.add(f.name)
            else:
                read.values[f.name] = v
            if f.name == "kind":
                kind = v
        return read

    def signature(self, node: Node, what: str) -> Optional[FunctionType]:
        if not isinstance(node, ScalarNode) or not isinstance(self.value(node), str):
            self.error(node, f"{what} must be a signature string, not {self._describe(node)}; "
                             f"e.g. \"(x: i32) -> i32\"")
            return None
        text = str(node.value)
        try:
            return parse_signature(text)
        except TypeSyntaxError as e:
            self.error(self._column_in(node, text, e.column), f"invalid {what}: {e.message}")
            return None

    def _column_in(self, node: ScalarNode, value: str, column: int) -> Location:
        """The file position of 1-based ``column`` of a scalar's value.

        Works for plain, quoted and block scalars, on one line or several: the n-th
        non-blank character of the value is the n-th non-blank character of the scalar's
        source after its opening quote or block header. Falls back to the scalar's start if
        the two disagree (escape sequences)."""
        start, end = node.start_mark.index, node.end_mark.index
        raw = self.text[start:end]
        p = 0
        if node.style in ('"', "'"):
            p = 1
        elif node.style in ("|", ">"):
            p = raw.find("\n") + 1
            if p == 0:
                return self.loc(node)
        c = max(0, min(column - 1, len(value)))
        n = sum(1 for ch in value[:c] if not ch.isspace())
        at_end = not value[c:].strip()
        count = 0
        after_last = p
        found = -1
        while p < len(raw):
            if not raw[p].isspace():
                if count == n and not at_end:
                    found = p
                    break
                count += 1
                after_last = p + 1
                if at_end and count == n:
                    break
            p += 1
        if at_end:
            found = after_last
        elif found < 0 or raw[found] != value[c:].lstrip()[:1]:
            return self.loc(node)
        before = raw[:found]
        nl = before.rfind("\n")
        if nl < 0:
            return Location(self.file, node.start_mark.line + 1, node.start_mark.column + found + 1)
        return Location(self.file, node.start_mark.line + before.count("\n") + 1, found - nl)


def _is_null(node: Node) -> bool:
    return isinstance(node, ScalarNode) and node.tag.endswith(":null")


def _suggest_ident(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9_]", "_", name)
    if not s or s[0].isdigit():
        s = "_" + s
    return s
