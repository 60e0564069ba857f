"""Linked test systems for the runtime tests (two Python components calling each other)."""

from __future__ import annotations

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
