"""The C runtime's view of the window guard (``firewall:`` guarding the software windows):
the map header's ``<SYS>_WINDOW_GUARD_BASE`` and ``<SYS>_PL_MASTERS``, and ``pp_wg_take`` /
``pp_wg_count`` (pp_firewall.c) over a platform whose PL is the guard's register page in an
array (the register layout of cores/mem_firewall/README.md). Compiled strictly, run under
ASan + UBSan."""

from __future__ import annotations

import subprocess
from pathlib import Path

from cbuild import SANITIZE, SRC, compile_c, generate_c

from pushpush.codegen.c_map_header import render_c_header
from pushpush.link import link
from pushpush.spec import parse_system

WG = """\
system: wg
firewall: true
components:
  mapper:
    kind: rtl
    module: m
    sources: [m.v]
    exports: {apply: "(f: (x: i32) -> i32, x: i32) -> i32"}
  mixer:
    kind: rtl
    module: x
    sources: [x.v]
    exports: {load: "() -> u32"}
    imports: [host.log]
  host:
    kind: c
    exports: {log: "(v: u32) -> void"}
    imports: [mapper.apply, mixer.load]
"""


def test_pp_wg_take_reads_and_clears_the_latch(tmp_path: Path) -> None:
    s = link(parse_system(WG, file=str(tmp_path / "system.yaml")))
    assert s.window_guard is not None
    cdir = generate_c(s, tmp_path / "gen")
    h = render_c_header(s)
    (cdir / "wg_map.h").write_text(h)
    assert "WG_WINDOW_GUARD_BASE" in h and f"0x{s.window_guard.base:08X}u" in h
    assert '{"ps", "mapper", "mixer"}' in h
    exe = compile_c(cdir, [SRC / "cwg_take.c", "pp_firewall.c", "pp_runtime.c"], tmp_path / "wg", flags=SANITIZE)
    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
