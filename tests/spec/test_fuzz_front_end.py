"""Property-based fuzz of the YAML and signature front end (issue 11).

Whatever bytes a user hands pushpush as a system description or a signature, the answer is a
:class:`SpecError` (or ``TypeSyntaxError``) whose every diagnostic has a ``file:line:column``
and a fix after ``;``, never a traceback, and ``generate`` writes nothing when it fails.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pushpush.errors import PushPushError, SpecError
from pushpush.spec import load_system, parse_system
from pushpush.types import TypeSyntaxError, parse_signature

VALID = textwrap.dedent("""\
    system: fuzz
    board: none
    components:
      callee:
        kind: rtl
        module: callee
        sources: [callee.v]
        exports:
          f: "(x: i32) -> i32"
      host:
        kind: python
        imports: [callee.f]
    """)

POSITION = re.compile(r"^.+:\d+:\d+: ")


def _check_error(err: SpecError) -> None:
    assert err.diagnostics, "a SpecError without diagnostics"
    for d in err.diagnostics:
        text = str(d)
        assert POSITION.match(text), f"no file:line:column in {text!r}"
        assert "; " in d.message, f"no fix in {text!r}"


def _parse(text: str) -> None:
    try:
        parse_system(text, file="system.yaml", base_dir=Path("/nonexistent"))
    except SpecError as e:
        _check_error(e)


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.text(max_size=400))
@example("a: " + "[" * 5000)
@example("a:\n" + "".join("  " * i + "- \n" for i in range(300)))
@example("components: {x: {kind: python, exports: {f: {signature: '() -> void', dynamic_slots: 100000000}}}}")
def test_random_text_gives_positioned_errors(text: str) -> None:
    _parse(text)


# mutations of a valid description: drop, repeat, swap characters and lines
@SETTINGS
@given(st.data())
def test_mutated_description_gives_positioned_errors(data: st.DataObject) -> None:
    lines = VALID.splitlines(keepends=True)
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["drop", "dup", "char", "indent", "insert"]))
        i = data.draw(st.integers(0, len(lines) - 1))
        if op == "drop" and len(lines) > 1:
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "char" and lines[i].strip():
            j = data.draw(st.integers(0, len(lines[i]) - 1))
            c = data.draw(st.sampled_from(list(":[]{}\"'-#>(),  \t0x") + ["é", "\u200b"]))
            lines[i] = lines[i][:j] + c + lines[i][j + 1:]
        elif op == "indent":
            lines[i] = "  " + lines[i]
        elif op == "insert":
            lines.insert(i, data.draw(st.sampled_from([
                "  window: 3\n", "    dynamic_slots: -1\n", "interconnect: {topology: ring}\n",
                "clock_mhz: 0\n", "regions: {pl: {base: 1, size: 2}}\n", "board: zedboard\n"])))
    _parse("".join(lines))


SIG_ATOMS = ["(", ")", ",", ":", "->", "i32", "u8", "f64", "void", "bool", "x", "y", "x", "é", "1",
             " ", "(x: i32) -> i32", "[]", "i33", "->", "ünï"]


@SETTINGS
@given(st.lists(st.sampled_from(SIG_ATOMS), max_size=14))
@example(["(", ")", "->", ")"])
@example(["(", "x", ":", "i32", ",", "x", ":", "i32", ")", "->", "void"])
@example(["(", "é", ":", "i32", ")", "->", "void"])
def test_signature_errors_have_a_fix(atoms: list[str]) -> None:
    text = "".join(atoms)
    try:
        parse_signature(text)
    except TypeSyntaxError as e:
        assert "; " in str(e), f"no fix in the error for {text!r}: {e}"


@pytest.mark.parametrize("data, fragment", [
    (b"\xff\xfes\x00y\x00s\x00", "UTF-16"),
    ("system: x\n".encode("utf-16"), "UTF-16"),
    (b"system: caf\xe9\n", "not UTF-8"),
    (b"\x7fELF\x02\x01\x01\x00\x00\x00\x00", "not a text file"),
])
def test_non_utf8_files(tmp_path: Path, data: bytes, fragment: str) -> None:
    p = tmp_path / "system.yaml"
    p.write_bytes(data)
    with pytest.raises(SpecError) as info:
        load_system(p)
    _check_error(info.value)
    assert fragment in str(info.value)


def test_deep_nesting_is_a_positioned_error() -> None:
    with pytest.raises(SpecError, match=r"system.yaml:1:\d+: YAML nested more than"):
        parse_system("a: " + "[" * 5000, file="system.yaml")


def test_runaway_dynamic_slots_is_refused_at_its_line() -> None:
    text = VALID.replace('f: "(x: i32) -> i32"', 'f: {signature: "(x: i32) -> i32", dynamic_slots: 100000000}')
    with pytest.raises(SpecError, match=r"system.yaml:9:\d+: dynamic_slots .* at most"):
        parse_system(text, file="system.yaml", base_dir=Path("/nonexistent"))


def test_errors_are_push_push_errors() -> None:
    assert issubclass(SpecError, PushPushError)
