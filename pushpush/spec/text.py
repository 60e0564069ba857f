"""A system description file as text and as a YAML node tree: UTF-8 or an error saying
where not, YAML syntax errors with their position and fix, and a guard against YAML nested
deeper than any system needs. Every failure is a :class:`SpecError` with one diagnostic."""

from __future__ import annotations

from typing import Optional

import yaml
from yaml.nodes import Node

from ..errors import Diagnostic, SpecError

__all__ = ["MAX_YAML_DEPTH", "decode_text", "compose", "too_deep"]

#: Deepest nesting of YAML collections a system description may have (a real one has < 10).
MAX_YAML_DEPTH = 32


def decode_text(data: bytes, file: str) -> str:
    """The text of a system description file: UTF-8, or a :class:`SpecError` saying where
    it is not (binary files, UTF-16/32 with or without a byte order mark, bad bytes)."""
    boms = {b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32",
            b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16"}
    for bom, enc in boms.items():
        if data.startswith(bom):
            raise _fail(file, 1, 1, f"the file is {enc} text; save it as UTF-8 (most editors: 'Save with encoding')")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start]
        line = before.count(b"\n") + 1
        col = e.start - (before.rfind(b"\n") + 1) + 1
        binary = b"\x00" in data[:4096]
        what = ("this is not a text file (it holds NUL bytes); give the path of the system's YAML file"
                if binary else
                f"byte 0x{data[e.start]:02X} is not UTF-8; save the file as UTF-8")
        raise _fail(file, line, col, what) from None
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise _fail(file, line, nul - text.rfind("\n", 0, nul),
                   "this is not a text file (it holds NUL bytes); give the path of the system's YAML file")
    return text


def too_deep(text: str) -> Optional[tuple[int, int]]:
    """Where flow collections (``[`` / ``{``) nest deeper than :data:`MAX_YAML_DEPTH`, if
    anywhere (a guard against PyYAML's recursion on hostile input); quotes and comments
    are skipped."""
    depth = 0
    line, col = 1, 0
    quote = ""
    comment = False
    prev = " "
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, comment = line + 1, 0, False
            prev = ch
            continue
        if comment:
            continue
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and prev in " \t":
            comment = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_YAML_DEPTH:
                return line, col
        elif ch in "]}":
            depth = max(0, depth - 1)
        prev = ch
    return None



def _fail(file: str, line: int, col: int, what: str) -> SpecError:
    return SpecError([Diagnostic(file, line, col, what)])


def compose(text: str, file: str) -> Node:
    """The YAML node tree of ``text`` (every node keeps its position), or a
    :class:`SpecError` naming ``file``, the place and the fix: syntax errors, characters
    YAML does not allow, nesting deeper than :data:`MAX_YAML_DEPTH`, an empty file."""
    deep = too_deep(text)
    if deep is not None:
        raise _fail(file, *deep,
                    f"YAML nested more than {MAX_YAML_DEPTH} levels deep; a system description "
                    "needs only a few levels: remove the extra brackets")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:
        raise _fail(file, 1, 1,
                    "YAML nested too deeply to read; a system description needs only a few levels: "
                    "flatten it") from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = e.problem or "syntax error"
        ctx = f" {e.context}" if e.context else ""
        fix = "check the indentation and quoting here"
        if "mapping values are not allowed" in what:
            fix = "a value containing ': ' (like a signature) must be quoted, e.g. f: \"(x: i32) -> i32\""
        elif "'\\t'" in what:
            fix = "YAML does not allow tabs for indentation; use spaces"
        raise _fail(file, line, col, f"YAML syntax error: {what}{ctx}; {fix}") from None
    except yaml.reader.ReaderError as e:
        pos = min(e.position, len(text))
        line = text.count("\n", 0, pos) + 1
        col = pos - text.rfind("\n", 0, pos)
        raise _fail(file, line, col,
                    f"character U+{e.character if isinstance(e.character, int) else ord(e.character):04X} "
                    "is not allowed in YAML; delete it (control characters often come from a copy and paste)") from None
    except yaml.YAMLError as e:  # pragma: no cover - unmarked errors are rare
        raise _fail(file, 1, 1, f"YAML error: {e}; check the file's syntax") from None
    if root is None:
        raise _fail(file, 1, 1,
                    "the file is empty; a system needs at least 'system: <name>' and 'components:'")
    return root
