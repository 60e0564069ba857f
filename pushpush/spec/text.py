"""The bytes of a system description file as text: UTF-8 or an error saying where not,
and a guard against YAML nested deeper than any system needs."""

from __future__ import annotations

from typing import Optional

from ..errors import Diagnostic, SpecError

__all__ = ["MAX_YAML_DEPTH", "decode_text", "too_deep"]

#: Deepest nesting of YAML collections a system description may have (a real one has < 10).
MAX_YAML_DEPTH = 32


def decode_text(data: bytes, file: str) -> str:
    """The text of a system description file: UTF-8, or a :class:`SpecError` saying where
    it is not (binary files, UTF-16/32 with or without a byte order mark, bad bytes)."""
    def fail(line: int, col: int, what: str) -> SpecError:
        return SpecError([Diagnostic(file, line, col, what)])

    boms = {b"\xff\xfe\x00\x00": "UTF-32", b"\x00\x00\xfe\xff": "UTF-32",
            b"\xff\xfe": "UTF-16", b"\xfe\xff": "UTF-16"}
    for bom, enc in boms.items():
        if data.startswith(bom):
            raise fail(1, 1, f"the file is {enc} text; save it as UTF-8 (most editors: 'Save with encoding')")
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
        raise fail(line, col, what) from None
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise fail(line, nul - text.rfind("\n", 0, nul),
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

