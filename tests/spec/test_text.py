"""A system description as text (pushpush/spec/text.py): the encoding errors, YAML syntax
errors and the depth guard, each with its exact file:line:column and fix."""

from __future__ import annotations

import pytest

from pushpush.errors import SpecError
from pushpush.spec.text import MAX_YAML_DEPTH, compose, decode_text, too_deep

SAVE_UTF8 = "save it as UTF-8 (most editors: 'Save with encoding')"
NOT_TEXT = "this is not a text file (it holds NUL bytes); give the path of the system's YAML file"


def _decode_error(data: bytes) -> str:
    with pytest.raises(SpecError) as info:
        decode_text(data, "s.yaml")
    (d,) = info.value.diagnostics
    return str(d)


@pytest.mark.parametrize("data, message", [
    (b"\xff\xfe\x00\x00s\x00\x00\x00", f"s.yaml:1:1: the file is UTF-32 text; {SAVE_UTF8}"),
    (b"\x00\x00\xfe\xff\x00\x00\x00s", f"s.yaml:1:1: the file is UTF-32 text; {SAVE_UTF8}"),
    (b"\xff\xfes\x00", f"s.yaml:1:1: the file is UTF-16 text; {SAVE_UTF8}"),
    (b"\xfe\xff\x00s", f"s.yaml:1:1: the file is UTF-16 text; {SAVE_UTF8}"),
    (b"a: 1\nb: caf\xe9\n", "s.yaml:2:7: byte 0xE9 is not UTF-8; save the file as UTF-8"),
    (b"caf\xe9", "s.yaml:1:4: byte 0xE9 is not UTF-8; save the file as UTF-8"),
    (b"ab\n\xe9", "s.yaml:2:1: byte 0xE9 is not UTF-8; save the file as UTF-8"),
    (b"a\n\x00\xff", f"s.yaml:2:2: {NOT_TEXT}"),
    (b"a: 1\nbb\x00c\n", f"s.yaml:2:3: {NOT_TEXT}"),
    (b"a: 1\nbb\n\x00c\n", f"s.yaml:3:1: {NOT_TEXT}"),
    (b"\x00abc", f"s.yaml:1:1: {NOT_TEXT}"),
    (b"a\nb\ncc\xe9", "s.yaml:3:3: byte 0xE9 is not UTF-8; save the file as UTF-8"),
    (b"a\x00\nb\x00", f"s.yaml:1:2: {NOT_TEXT}"),       # the first NUL
    (b"\n\x00", f"s.yaml:2:1: {NOT_TEXT}"),
    (b"\na\x00", f"s.yaml:2:2: {NOT_TEXT}"),
])
def test_decode_errors(data: bytes, message: str) -> None:
    assert _decode_error(data) == message


def test_decode_text() -> None:
    assert decode_text(b"\xef\xbb\xbfsystem: x\n", "s.yaml") == "system: x\n"  # the UTF-8 BOM is dropped
    assert decode_text(b"\xef\xbb\xbf\xef\xbb\xbfa", "s.yaml") == "\ufeffa"     # once
    assert decode_text("caf\u00e9: 1\n".encode(), "s.yaml") == "caf\u00e9: 1\n"


def test_binary_past_4096_bytes_is_a_bad_byte() -> None:
    # only the first 4096 bytes decide "not a text file"; a late NUL after a bad byte is the bad byte
    assert _decode_error(b"a" * 4096 + b"\xe9\x00") == "s.yaml:1:4097: byte 0xE9 is not UTF-8; save the file as UTF-8"
    assert _decode_error(b"a" * 4095 + b"\x00\xe9") == f"s.yaml:1:4097: {NOT_TEXT}"
    assert _decode_error(b"a" * 4095 + b"\xe9\x00") == "s.yaml:1:4096: byte 0xE9 is not UTF-8; save the file as UTF-8"


@pytest.mark.parametrize("text, where", [
    ("[" * MAX_YAML_DEPTH, None),
    ("[" * (MAX_YAML_DEPTH + 1), (1, 33)),
    ("a\n  " + "{" * 33, (2, 35)),
    ("'" + "[" * 40 + "'", None),
    ('"' + "[" * 40 + '"', None),
    ("#" + "[" * 40, None),
    ("a#" + "[" * 40, (1, 35)),
    ("a #" + "[" * 40, None),
    ("\t#" + "[" * 40, None),
    ("[]" * 40, None),
    ("]" * 5 + "[" * 33, (1, 38)),
    ("#x\n" + "[" * 33, (2, 33)),
    ("'a\n" + "[" * 33, None),
    ("[" * 32 + "]" + "[" * 2, (1, 35)),
    ("'a'" + "[" * 33, (1, 36)),
    ("X#" + "[" * 40, (1, 35)),                   # a '#' after a letter starts no comment
    ("[" * 20 + "X" + "[" * 13, (1, 34)),          # a letter neither opens, closes nor quotes
])
def test_too_deep(text: str, where: tuple[int, int] | None) -> None:
    assert too_deep(text) == where


def _compose_error(text: str) -> str:
    with pytest.raises(SpecError) as info:
        compose(text, "s.yaml")
    (d,) = info.value.diagnostics
    return str(d)


@pytest.mark.parametrize("text, message", [
    ("", "s.yaml:1:1: the file is empty; a system needs at least 'system: <name>' and 'components:'"),
    ("# c\n", "s.yaml:1:1: the file is empty; a system needs at least 'system: <name>' and 'components:'"),
    ("a: b: c\n", "s.yaml:1:5: YAML syntax error: mapping values are not allowed here; a value containing ': ' "
                  "(like a signature) must be quoted, e.g. f: \"(x: i32) -> i32\""),
    ("a:\n\tb: 1\n", "s.yaml:2:1: YAML syntax error: found character '\\t' that cannot start any token while "
                     "scanning for the next token; YAML does not allow tabs for indentation; use spaces"),
    ("a: [1\n", "s.yaml:2:1: YAML syntax error: expected ',' or ']', but got '<stream end>' while parsing a flow "
                "sequence; check the indentation and quoting here"),
    ("a: 1\n\x07b\n", "s.yaml:2:1: character U+0007 is not allowed in YAML; delete it (control characters often "
                      "come from a copy and paste)"),
    ("a: 1\nb: \x01\n", "s.yaml:2:4: character U+0001 is not allowed in YAML; delete it (control characters often "
                        "come from a copy and paste)"),
    ("a: 1\nb: 2\nc: \x01\n", "s.yaml:3:4: character U+0001 is not allowed in YAML; delete it (control characters "
                              "often come from a copy and paste)"),
    ("\na: \x01\n", "s.yaml:2:4: character U+0001 is not allowed in YAML; delete it (control characters often "
                    "come from a copy and paste)"),
    ("[" * 33, "s.yaml:1:33: YAML nested more than 32 levels deep; a system description needs only a few levels: "
               "remove the extra brackets"),
    # block sequences nest without brackets: past Python's recursion limit PyYAML gives up
    ("- " * 1000 + "x\n", "s.yaml:1:1: YAML nested too deeply to read; a system description needs only a few "
                          "levels: flatten it"),
])
def test_compose_errors(text: str, message: str) -> None:
    assert _compose_error(text) == message


def test_compose() -> None:
    root = compose("a: 1\nb: [x]\n", "s.yaml")
    assert [(k.value, k.start_mark.line) for k, _ in root.value] == [("a", 0), ("b", 1)]
