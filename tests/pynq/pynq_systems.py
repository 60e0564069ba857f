"""Systems for the PYNQ tests: the generated hof system, and a loopback fixture top."""

from __future__ import annotations

import textwrap
from pathlib import Path

from pushpush.link import LinkedSystem, link
from pushpush.spec import load_system, parse_system

ROOT = Path(__file__).resolve().parents[2]
HOF_YAML = ROOT / "tests" / "gen" / "hof" / "system.yaml"
LOOPBACK_V = ROOT / "tests" / "runtime" / "pp_rt_loopback.v"

#: One python component and one rtl component (so there is a PL block); the PL is the
#: loopback fixture (s_axi wired to m_axi), standing in for a generated top.
LOOP = """
system: loop
board: pynq-z1
clock_mhz: 100
components:
  hw:
    kind: rtl
    module: hw
    sources: [hw.v]
    exports:
      f: "(x: i32) -> i32"
  host:
    kind: python
    exports:
      g: "(x: i32) -> i32"
    imports: [hw.f]
"""


def hof():
    spec = load_system(str(HOF_YAML))
    return spec, link(spec)


def loop() -> LinkedSystem:
    return link(parse_system(textwrap.dedent(LOOP), file="loop.yaml"))


def write_loop_overlay(outdir: Path, sources=None, top: str = "pp_rt_loopback") -> Path:
    from pushpush.pynq import write_sim_overlay
    return write_sim_overlay(loop(), outdir, top=top, sources=sources or [LOOPBACK_V],
                             parameters={"ID_WIDTH": 12},
                             hwh_options={"s_id_width": 12, "m_id_width": 12})

#: Two python components (their windows both in on-chip memory) and an rtl one.
TWO = """
system: two
board: pynq-z1
components:
  hw:
    kind: rtl
    module: hw
    sources: [hw.v]
    exports:
      f: "(x: i32) -> i32"
  a:
    kind: python
    exports:
      inc: "(x: i32) -> i32"
    imports: [b.add]
  b:
    kind: python
    exports:
      add: "(x: i32, y: i32) -> i32"
      apply: "(f: (x: i32) -> i32, x: i32) -> i32"
    imports: [a.inc]
"""


def two() -> LinkedSystem:
    return link(parse_system(textwrap.dedent(TWO), file="two.yaml"))
