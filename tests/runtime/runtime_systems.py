"""Linked test systems for the runtime tests (two Python components calling each other)."""

from __future__ import annotations

import math
import struct
import sys
import textwrap

from pushpush.link import LinkedSystem, link
from pushpush.spec import parse_system

#: a and b, each importing from the other; higher-order both ways; every scalar type.
TWO_PY = """
system: twopy
board: none
components:
  a:
    kind: python
    exports:
      inc: "(x: i32) -> i32"
      twice: "(f: (x: i32) -> i32, x: i32) -> i32"
      neg64: "(x: i64) -> i64"
    imports: [b.add, b.apply, b.mix, b.boom, b.get_scale, b.scale_by, b.nobody, b.flip, b.sum_cb, b.note, b.pause]
  b:
    kind: python
    runtime_words: 64
    exports:
      add: "(a: i32, b: i32) -> i32"
      apply: "(f: (x: i32) -> i32, x: i32) -> i32"
      mix: "(a: i64, b: u64, c: f32, d: f64, e: bool, g: i8, h: u16) -> f64"
      boom: "(x: u32) -> u32"
      get_scale: "() -> (x: i32) -> i32"
      scale_by: {signature: "(k: i32, x: i32) -> i32", dynamic_slots: 2}
      nobody: "() -> void"
      flip: "(x: bool) -> bool"
      sum_cb: "(f: (i: u32) -> f64, n: u32) -> f64"
      note: "(x: i32) -> void"
      triple: "(x: i32) -> i32"
      pause: "(timeout: u32) -> u32"
    imports: [a.inc, a.twice, a.neg64]
  hw:
    kind: rtl
    module: hw
    sources: [hw.v]
    exports:
      f: "(x: i32) -> i32"
"""


def two_py() -> LinkedSystem:
    return link(parse_system(textwrap.dedent(TWO_PY), file="twopy.yaml"))


#: One export per scalar type that returns its argument, and one taking every type at once,
#: so a round trip shows each argument and each result bit for bit (issue 35: a sum of mixed
#: arguments as one f64 rounds the small ones away).
ECHO_TYPES = ("bool", "i8", "i16", "i32", "u8", "u16", "u32", "f32", "i64", "u64", "f64")
_F32_MAX = struct.unpack("<f", struct.pack("<I", 0x7F7F_FFFF))[0]
_F32_MIN_SUB = struct.unpack("<f", struct.pack("<I", 1))[0]
_F32_THIRD = struct.unpack("<f", struct.pack("<f", 1 / 3))[0]
#: Values per type: 0, -1, min, max, the 0x80/0x8000 sign edges, float specials.
ECHO_VALUES: dict[str, tuple[object, ...]] = {
    "bool": (False, True),
    "i8": (0, 1, -1, 127, -128, -127, 126),
    "i16": (0, -1, 32767, -32768, 128, -128, -32767, 255),
    "i32": (0, -1, 2**31 - 1, -2**31, 0x8000, -0x8000, 0x80, -0x80),
    "u8": (0, 255, 128, 127),
    "u16": (0, 65535, 0x8000, 0x7FFF, 0x80),
    "u32": (0, 2**32 - 1, 2**31, 0x8000, 0x80),
    "f32": (0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, _F32_MAX, -_F32_MAX, _F32_MIN_SUB, _F32_THIRD),
    "i64": (0, -1, 2**63 - 1, -2**63, 2**32, -2**32, 2**31, -2**31, 0x0123_4567_89AB_CDEF),
    "u64": (0, 2**64 - 1, 2**63, 2**32, 2**32 - 1, 0xFEDC_BA98_7654_3210),
    "f64": (0.0, -0.0, 1.0, -2.5, math.inf, -math.inf, math.nan, 0.1, 5e-324, sys.float_info.max, -sys.float_info.max),
}
ECHO = "system: echo\nboard: none\ncomponents:\n  caller:\n    kind: python\n    imports: [" + ", ".join(
    [f"callee.echo_{t}" for t in ECHO_TYPES] + ["callee.every"]) + "]\n  callee:\n    kind: python\n    exports:\n" + "".join(
    f'      echo_{t}: "(x: {t}) -> {t}"\n' for t in ECHO_TYPES) + '      every: "(' + ", ".join(
    f"{t}_arg: {t}" for t in ECHO_TYPES) + ') -> u32"\n'


def echo_system() -> LinkedSystem:
    return link(parse_system(ECHO, file="echo.yaml"))


def exact(v: object) -> object:
    """``v`` in a form whose == is bit-exact: a float by its f64 bits (-0.0 and NaN included),
    an int or bool with its type (``True`` is not ``1``)."""
    if isinstance(v, float):
        return ("float", struct.unpack("<Q", struct.pack("<d", v))[0])
    return (type(v).__name__, v)


def echo_rows() -> list[tuple[object, ...]]:
    """Argument tuples for ``every``: row i takes each type's value i (cycling), so every value
    of every type travels at least once beside the others."""
    n = max(len(v) for v in ECHO_VALUES.values())
    return [tuple(ECHO_VALUES[t][(i + k) % len(ECHO_VALUES[t])] for k, t in enumerate(ECHO_TYPES)) for i in range(n)]
